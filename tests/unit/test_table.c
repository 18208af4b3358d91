// SPDX-License-Identifier: GPL-2.0
/* The table module: one table of cells in each of its five renderings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../harness/out/table.h"
#include "test.h"

/*
 * A 2 x 3 table: a name (left-aligned), a "±%" column and a number; cells
 * that CSV must quote, markdown and HTML escape, and JSON keep as numbers
 */
static int sample_table(struct zf_table *t)
{
	if (zf_table_init(t, 3))
		return -1;
	zf_table_column(t, 0, "name", "name", false);
	zf_table_column(t, 1, "sd_pct", "±%", true);
	zf_table_column(t, 2, NULL, "ns", true);
	zf_table_row(t);
	zf_table_set(t, 0, "a|b <c>");
	zf_table_set(t, 1, "%d%%", 2);
	zf_table_set(t, 2, "%.4g", 3.875);
	zf_table_row(t);
	zf_table_set(t, 0, "x,\"y\"");
	zf_table_set(t, 2, "+5.0%%");
	zf_table_note(t, "a note & more");
	return t->oom ? -1 : 0;
}

/* the table in format f, malloc()ed; NULL when it fails */
static char *rendered(enum zf_format f)
{
	struct zf_table t;
	char *text = NULL;
	size_t len;
	FILE *out;
	int err;

	if (sample_table(&t))
		return NULL;
	out = open_memstream(&text, &len);
	err = !out || zf_table_print(&t, f, "T&T", out);
	if (out)
		fclose(out);
	zf_table_free(&t);
	if (err) {
		free(text);
		return NULL;
	}
	return text;
}

TEST(table_formats_by_name)
{
	EXPECT_EQ(zf_format_of("text"), ZF_FORMAT_TEXT);
	EXPECT_EQ(zf_format_of("markdown"), ZF_FORMAT_MARKDOWN);
	EXPECT_EQ(zf_format_of("html"), ZF_FORMAT_HTML);
	EXPECT_EQ(zf_format_of("yaml"), -1);
}

TEST(table_text_aligns_by_characters_not_bytes)
{
	char *text = rendered(ZF_FORMAT_TEXT);

	/* "±%" is two characters wide, three bytes; no line ends in a space */
	EXPECT_STREQ(text ? text : "", "name     ±%     ns\n"
				       "a|b <c>  2%  3.875\n"
				       "x,\"y\"        +5.0%\n"
				       "a note & more\n");
	free(text);
}

TEST(table_csv_quotes_and_names_columns_by_key)
{
	char *text = rendered(ZF_FORMAT_CSV);

	EXPECT_STREQ(text ? text : "", "name,sd_pct,ns\n"
				       "a|b <c>,2%,3.875\n"
				       "\"x,\"\"y\"\"\",,+5.0%\n");
	free(text);
}

TEST(table_json_keeps_numbers_as_numbers)
{
	char *text = rendered(ZF_FORMAT_JSON);
	json_t *root = text ? json_loads(text, 0, NULL) : NULL, *row;

	ASSERT_TRUE(root && json_is_array(root) && json_array_size(root) == 2);
	row = json_array_get(root, 0);
	EXPECT_STREQ(json_string_value(json_object_get(row, "name")), "a|b <c>");
	EXPECT_TRUE(json_real_value(json_object_get(row, "ns")) == 3.875);
	EXPECT_STREQ(json_string_value(json_object_get(row, "sd_pct")), "2%");
	row = json_array_get(root, 1);
	EXPECT_TRUE(json_is_null(json_object_get(row, "sd_pct")));
	EXPECT_STREQ(json_string_value(json_object_get(row, "ns")), "+5.0%");
	json_decref(root);
	free(text);
}

TEST(table_markdown_escapes_a_bar_and_aligns_numbers_right)
{
	char *text = rendered(ZF_FORMAT_MARKDOWN);

	EXPECT_STREQ(text ? text : "", "| name | ±% | ns |\n"
				       "| --- | ---: | ---: |\n"
				       "| a\\|b <c> | 2% | 3.875 |\n"
				       "| x,\"y\" |  | +5.0% |\n"
				       "\na note & more\n");
	free(text);
}

TEST(table_html_escapes_and_holds_one_table)
{
	char *text = rendered(ZF_FORMAT_HTML);

	ASSERT_TRUE(text != NULL);
	EXPECT_TRUE(!strncmp(text, "<!DOCTYPE html>\n", 16));
	EXPECT_TRUE(strstr(text, "<title>T&amp;T</title>") != NULL);
	EXPECT_TRUE(strstr(text, "<tr><td>a|b &lt;c&gt;</td><td class=\"n\">2%</td>"
			   "<td class=\"n\">3.875</td></tr>") != NULL);
	EXPECT_TRUE(strstr(text, "<td>x,&quot;y&quot;</td>") != NULL);
	EXPECT_TRUE(strstr(text, "<p>a note &amp; more</p>") != NULL);
	EXPECT_TRUE(strstr(strstr(text, "<table>") + 1, "<table>") == NULL);
	free(text);
}
