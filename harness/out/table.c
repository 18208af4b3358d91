// SPDX-License-Identifier: GPL-2.0
/* One table, five renderings: see table.h. */
#define _GNU_SOURCE	/* vasprintf */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "table.h"

const char *const zf_format_names[] = { "text", "csv", "json", "markdown", "html", NULL };

int zf_format_of(const char *name)
{
	int i;

	for (i = 0; zf_format_names[i]; i++)
		if (!strcmp(zf_format_names[i], name))
			return i;
	return -1;
}

int zf_table_init(struct zf_table *t, size_t ncols)
{
	*t = (struct zf_table){ .ncols = ncols };
	t->names = calloc(ncols, sizeof(*t->names));
	t->titles = calloc(ncols, sizeof(*t->titles));
	t->right = calloc(ncols, sizeof(*t->right));
	if (t->names && t->titles && t->right)
		return 0;
	zf_table_free(t);
	return -ENOMEM;
}

static char *copy(struct zf_table *t, const char *s)
{
	char *c = strdup(s);

	t->oom |= !c;
	return c;
}

void zf_table_column(struct zf_table *t, size_t col, const char *name, const char *title,
		     bool right)
{
	free(t->names[col]);
	free(t->titles[col]);
	t->names[col] = copy(t, name ? name : title);
	t->titles[col] = copy(t, title);
	t->right[col] = right;
}

void zf_table_row(struct zf_table *t)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char **cells = realloc(t->cells, cap * t->ncols * sizeof(*cells));

		if (!cells) {
			t->oom = true;
			return;
		}
		t->cells = cells;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	t->nrows++;
}

void zf_table_set(struct zf_table *t, size_t col, const char *fmt, ...)
{
	char **slot;
	va_list ap;

	if (!t->nrows || col >= t->ncols)
		return;
	slot = &t->cells[(t->nrows - 1) * t->ncols + col];
	free(*slot);
	va_start(ap, fmt);
	if (vasprintf(slot, fmt, ap) < 0) {
		*slot = NULL;
		t->oom = true;
	}
	va_end(ap);
}

void zf_table_note(struct zf_table *t, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->oom = true;
		return;
	}
	zf_buf_printf(&t->notes, "%s\n", line);
	free(line);
}

static const char *cell(const struct zf_table *t, size_t row, size_t col)
{
	const char *c = t->cells[row * t->ncols + col];

	return c ? c : "";
}

/* the columns a text takes on a terminal: its UTF-8 characters ("±" is one) */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* one row of the text table (NULL: the titles), without the spaces a line would end in */
static void text_row(const struct zf_table *t, const size_t *width, const size_t *row, FILE *out)
{
	struct zf_buf line = { 0 };
	size_t c;

	for (c = 0; c < t->ncols; c++) {
		const char *s = row ? cell(t, *row, c) : t->titles[c];
		int pad = (int)(width[c] - width_of(s));

		zf_buf_printf(&line, "%*s%s%*s", t->right[c] ? pad : 0, "", s,
			      t->right[c] ? 0 : pad, "");
		if (c + 1 < t->ncols)
			zf_buf_printf(&line, "  ");
	}
	while (line.len && line.text[line.len - 1] == ' ')
		line.len--;
	fprintf(out, "%.*s\n", (int)line.len, line.text ? line.text : "");
	zf_buf_free(&line);
}

static void text(const struct zf_table *t, FILE *out)
{
	size_t *width = calloc(t->ncols ? t->ncols : 1, sizeof(*width)), r, c;

	if (!width)
		return;
	for (c = 0; c < t->ncols; c++) {
		width[c] = width_of(t->titles[c]);
		for (r = 0; r < t->nrows; r++)
			if (width_of(cell(t, r, c)) > width[c])
				width[c] = width_of(cell(t, r, c));
	}
	text_row(t, width, NULL, out);
	for (r = 0; r < t->nrows; r++)
		text_row(t, width, &r, out);
	free(width);
}

static void csv(const struct zf_table *t, FILE *out)
{
	struct zf_buf b = { 0 };
	size_t r, c;

	for (c = 0; c < t->ncols; c++)
		zf_buf_csv(&b, t->names[c], c + 1 == t->ncols);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			zf_buf_csv(&b, cell(t, r, c), c + 1 == t->ncols);
	if (b.text)
		fputs(b.text, out);
	zf_buf_free(&b);
}

/* a cell as JSON: a number where the whole of it is one, null where empty, else a string */
static json_t *json_cell(const char *s)
{
	char *end;
	double v;

	if (!*s)
		return json_null();
	v = strtod(s, &end);
	if (!*end && strchr("+-.0123456789", *s) && isfinite(v))
		return zf_json_real(v);
	return zf_json_text(s);
}

static int json(const struct zf_table *t, FILE *out)
{
	struct zf_buf b = { 0 };
	json_t *rows = json_array();
	size_t r, c;
	int err;

	for (r = 0; rows && r < t->nrows; r++) {
		json_t *row = json_object();

		for (c = 0; row && c < t->ncols; c++)
			if (json_object_set_new(row, t->names[c], json_cell(cell(t, r, c)))) {
				json_decref(row);
				row = NULL;
			}
		zf_json_push(&rows, row);
	}
	err = zf_json_dump(rows, JSON_INDENT(2), &b);
	if (!err)
		fprintf(out, "%s\n", b.text);
	zf_buf_free(&b);
	return err;
}

/* s's first n bytes with markdown's or HTML's special characters escaped */
static void escaped_n(FILE *out, const char *s, size_t n, bool html)
{
	for (; n-- && *s; s++) {
		if (html && strchr("<>&\"", *s))
			fputs(*s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : "&quot;",
			      out);
		else if (!html && *s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
}

static void escaped(FILE *out, const char *s, bool html)
{
	escaped_n(out, s, strlen(s), html);
}

/* each note a paragraph of its own (a blank one left out), between open and close */
static void paragraphs(const struct zf_table *t, FILE *out, const char *open, const char *close,
		       bool html)
{
	const char *line;

	for (line = t->notes.text; line && *line; line += strcspn(line, "\n") + 1) {
		if (*line == '\n')
			continue;
		fputs(open, out);
		escaped_n(out, line, strcspn(line, "\n"), html);
		fputs(close, out);
	}
}

static void markdown(const struct zf_table *t, FILE *out)
{
	size_t r, c;

	for (c = 0; c < t->ncols; c++) {
		fputs(c ? " | " : "| ", out);
		escaped(out, *t->titles[c] ? t->titles[c] : " ", false);
	}
	fputs(" |\n", out);
	for (c = 0; c < t->ncols; c++)
		fprintf(out, "%s%s", c ? " | " : "| ", t->right[c] ? "---:" : "---");
	fputs(" |\n", out);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			fputs(c ? " | " : "| ", out);
			escaped(out, cell(t, r, c), false);
		}
		fputs(" |\n", out);
	}
	paragraphs(t, out, "\n", "\n", false);
}

static void html_row(const struct zf_table *t, FILE *out, size_t row, bool heading)
{
	size_t c;

	fputs("<tr>", out);
	for (c = 0; c < t->ncols; c++) {
		fprintf(out, "<%s%s>", heading ? "th" : "td", t->right[c] ? " class=\"n\"" : "");
		escaped(out, heading ? t->titles[c] : cell(t, row, c), true);
		fprintf(out, "</%s>", heading ? "th" : "td");
	}
	fputs("</tr>\n", out);
}

static void html(const struct zf_table *t, const char *title, FILE *out)
{
	size_t r;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", out);
	escaped(out, title ? title : "hzfbench", true);
	fputs("</title>\n<style>body{font-family:sans-serif}table{border-collapse:collapse}"
	      "th,td{padding:2px 8px;border-bottom:1px solid #ccc;text-align:left}"
	      ".n{text-align:right;font-variant-numeric:tabular-nums}</style>\n</head><body>\n", out);
	if (title) {
		fputs("<h1>", out);
		escaped(out, title, true);
		fputs("</h1>\n", out);
	}
	fputs("<table>\n<thead>\n", out);
	html_row(t, out, 0, true);
	fputs("</thead>\n<tbody>\n", out);
	for (r = 0; r < t->nrows; r++)
		html_row(t, out, r, false);
	fputs("</tbody>\n</table>\n", out);
	paragraphs(t, out, "<p>", "</p>\n", true);
	fputs("</body></html>\n", out);
}

int zf_table_print(const struct zf_table *t, enum zf_format f, const char *title, FILE *out)
{
	if (t->oom || t->notes.oom)
		return -ENOMEM;
	switch (f) {
	case ZF_FORMAT_TEXT:
		text(t, out);
		if (t->notes.text)
			fputs(t->notes.text, out);
		return 0;
	case ZF_FORMAT_CSV:
		csv(t, out);
		return 0;
	case ZF_FORMAT_JSON:
		return json(t, out);
	case ZF_FORMAT_MARKDOWN:
		markdown(t, out);
		return 0;
	case ZF_FORMAT_HTML:
		html(t, title, out);
		return 0;
	}
	return -EINVAL;
}

void zf_table_free(struct zf_table *t)
{
	size_t i;

	for (i = 0; t->cells && i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (i = 0; i < t->ncols; i++) {
		free(t->names ? t->names[i] : NULL);
		free(t->titles ? t->titles[i] : NULL);
	}
	free(t->cells);
	free(t->names);
	free(t->titles);
	free(t->right);
	zf_buf_free(&t->notes);
	*t = (struct zf_table){ 0 };
}
