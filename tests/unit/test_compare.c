// SPDX-License-Identifier: GPL-2.0
/*
 * compare on fabricated results folders: 20,000 repetitions of a
 * configuration, and configurations whose keys are longer than 256 bytes.
 */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../harness/out/buf.h"
#include "../../harness/analyze/compare.h"
#include "../../harness/out/csv.h"
#include "../../harness/out/results.h"
#include "test.h"

#define KEY_COLUMNS "strategy,fault,task_kind,tasks,placement,step,faults_per_pass"

/* one samples.csv row of a configuration (by its placement): repetition rep, ns per fault */
static void sample_row(struct zf_buf *b, const char *strategy, const char *placement, long rep,
		       double ns)
{
	zf_buf_printf(b, "%s,emulated,thread,1,", strategy);
	zf_buf_csv(b, placement, 0);
	zf_buf_printf(b, "2097152,64,%ld,%g\n", rep, ns);
}

/* a complete results folder holding samples.csv's rows and meta: mkdtemp()ed into dir */
static int folder_meta(char *dir, size_t len, const struct zf_buf *rows, const char *meta)
{
	struct zf_buf csv = { 0 };
	int err;

	snprintf(dir, len, "/tmp/hzftest-compare.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	zf_buf_printf(&csv, KEY_COLUMNS ",rep,ns_per_fault\n");
	zf_buf_append(&csv, rows->text, rows->len);
	/* summary.csv: the folder's table, which zf_results_complete() reads; any rows do */
	err = csv.oom || rows->oom || zf_write_atomic(dir, "meta.json", meta, strlen(meta)) ||
	      zf_write_atomic(dir, "samples.csv", csv.text, csv.len) ||
	      zf_write_atomic(dir, "summary.csv", csv.text, csv.len);
	zf_buf_free(&csv);
	return err ? -1 : 0;
}

static int folder(char *dir, size_t len, const struct zf_buf *rows)
{
	return folder_meta(dir, len, rows, "{\"complete\": true}\n");
}

static void remove_folder(const char *dir)
{
	static const char *const files[] = { "meta.json", "samples.csv", "summary.csv",
					     "compare.csv", "compare.json" };
	char path[PATH_MAX + 32];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* compare base against new on ns_per_fault, quietly; its exit status, compare.csv read back */
static int compare(const char *base, const char *new_dir, struct zf_csv *out)
{
	struct zf_compare_opts o = { .base = base, .new_dir = new_dir, .threshold_pct = 10,
				     .alpha = 0.05, .metrics = { "ns_per_fault" }, .nmetrics = 1,
				     .quiet = true };
	char path[PATH_MAX + 32];
	size_t line;
	int ret = zf_compare(&o, stdout);

	snprintf(path, sizeof(path), "%s/compare.csv", new_dir);
	if (zf_csv_read(path, out, &line))
		return -1;
	return ret;
}

/* compare.csv's row of the configuration with this placement; NULL when there is none */
static char **row_of(const struct zf_csv *c, const char *placement)
{
	int col = zf_csv_col(c, "placement");
	size_t i;

	for (i = 0; col >= 0 && i < c->nrows; i++)
		if (!strcmp(c->rows[i][col], placement))
			return c->rows[i];
	return NULL;
}

static double field(const struct zf_csv *c, char **row, const char *name)
{
	int col = zf_csv_col(c, name);

	return row && col >= 0 ? atof(row[col]) : -1;
}

TEST(compare_takes_every_one_of_20000_repetitions)
{
	struct zf_buf base_rows = { 0 }, new_rows = { 0 };
	char base[64], new_dir[64], **row;
	struct zf_csv c;
	long rep;

	/* 0 to 19,999 in a shuffled order (7919 is prime to 20,000), and the same 5,000 higher */
	for (rep = 0; rep < 20000; rep++) {
		double ns = (double)(rep * 7919 % 20000);

		sample_row(&base_rows, "global", "compact", rep, ns);
		sample_row(&new_rows, "global", "compact", rep, ns + 5000);
		sample_row(&base_rows, "persistent", "compact", rep, 7 + rep % 2);
		sample_row(&new_rows, "persistent", "compact", rep, 7 + rep % 2);
	}
	ASSERT_EQ(folder(base, sizeof(base), &base_rows), 0);
	ASSERT_EQ(folder(new_dir, sizeof(new_dir), &new_rows), 0);
	/* regressed: exit status 1 */
	ASSERT_EQ(compare(base, new_dir, &c), 1);
	EXPECT_EQ(c.nrows, 2);
	row = c.nrows == 2 ? c.rows[0] : NULL;
	ASSERT_TRUE(row != NULL);
	EXPECT_STREQ(row[zf_csv_col(&c, "strategy")], "global");
	EXPECT_EQ(field(&c, row, "base_reps"), 20000);
	EXPECT_EQ(field(&c, row, "new_reps"), 20000);
	EXPECT_TRUE(field(&c, row, "base_median") == 9999.5);
	EXPECT_TRUE(field(&c, row, "new_median") == 14999.5);
	EXPECT_STREQ(row[zf_csv_col(&c, "verdict")], "regressed");
	row = c.rows[1];
	EXPECT_EQ(field(&c, row, "base_reps"), 20000);
	EXPECT_TRUE(field(&c, row, "base_median") == 7.5);
	EXPECT_STREQ(row[zf_csv_col(&c, "verdict")], "same");
	zf_csv_free(&c);
	remove_folder(base);
	remove_folder(new_dir);
	zf_buf_free(&base_rows);
	zf_buf_free(&new_rows);
}

TEST(compare_keeps_keys_apart_past_256_bytes)
{
	struct zf_buf base_rows = { 0 }, new_rows = { 0 }, list = { 0 };
	char base[64], new_dir[64], *one, *other;
	struct zf_csv c;
	long rep, cpu;

	/* two cpus: placements of 300 bytes and more, alike but for their last CPU */
	zf_buf_printf(&list, "cpus:");
	for (cpu = 0; list.len < 300; cpu += 2)
		zf_buf_printf(&list, "%ld,", cpu);
	one = malloc(list.len + 8);
	other = malloc(list.len + 8);
	ASSERT_TRUE(one && other && list.text);
	sprintf(one, "%s%ld", list.text, cpu);
	sprintf(other, "%s%ld", list.text, cpu + 1);
	EXPECT_TRUE(strlen(one) > 300 && !strncmp(one, other, 256) && strcmp(one, other));
	for (rep = 0; rep < 10; rep++) {
		sample_row(&base_rows, "global", one, rep, 10 + rep % 3);
		sample_row(&new_rows, "global", one, rep, 10 + rep % 3);
		sample_row(&base_rows, "global", other, rep, 20 + rep % 3);
		sample_row(&new_rows, "global", other, rep, 40 + rep % 3);
		sample_row(&new_rows, "percpu", other, rep, 5);	/* new's alone */
	}
	ASSERT_EQ(folder(base, sizeof(base), &base_rows), 0);
	ASSERT_EQ(folder(new_dir, sizeof(new_dir), &new_rows), 0);
	ASSERT_EQ(compare(base, new_dir, &c), 1);
	ASSERT_EQ(c.nrows, 3);
	EXPECT_STREQ(c.rows[2][zf_csv_col(&c, "strategy")], "percpu");
	EXPECT_STREQ(c.rows[2][zf_csv_col(&c, "placement")], other);
	EXPECT_STREQ(c.rows[2][zf_csv_col(&c, "verdict")], "only-in-new");
	/* each placement whole in compare.csv, with its own repetitions only */
	EXPECT_EQ(field(&c, row_of(&c, one), "base_reps"), 10);
	EXPECT_TRUE(field(&c, row_of(&c, one), "base_median") == 11);
	EXPECT_TRUE(field(&c, row_of(&c, one), "new_median") == 11);
	EXPECT_EQ(field(&c, row_of(&c, other), "new_reps"), 10);
	EXPECT_TRUE(field(&c, row_of(&c, other), "base_median") == 21);
	EXPECT_TRUE(field(&c, row_of(&c, other), "new_median") == 41);
	EXPECT_STREQ(row_of(&c, other) ? row_of(&c, other)[zf_csv_col(&c, "verdict")] : "",
		     "regressed");
	zf_csv_free(&c);
	remove_folder(base);
	remove_folder(new_dir);
	zf_buf_free(&base_rows);
	zf_buf_free(&new_rows);
	zf_buf_free(&list);
	free(one);
	free(other);
}

TEST(compare_reads_a_meta_json_past_64_KiB)
{
	struct zf_buf meta = { 0 }, rows = { 0 };
	char dir[64], why[256], accel[16], pad[1024];
	struct zf_csv c;
	int i;

	/* what a 4,096-CPU machine's lists make of it: "complete" past the first 64 KiB */
	memset(pad, 'x', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	zf_buf_printf(&meta, "{\"doctor\": [");
	for (i = 0; i < 100; i++)
		zf_buf_printf(&meta, "%s\"%s\"", i ? ", " : "", pad);
	zf_buf_printf(&meta, "], \"virtualized\": \"tcg\", \"complete\": true}\n");
	sample_row(&rows, "global", "compact", 0, 1);
	ASSERT_TRUE(meta.len > 100000 && !meta.oom);
	ASSERT_EQ(folder_meta(dir, sizeof(dir), &rows, meta.text), 0);
	EXPECT_EQ(zf_results_complete(dir, why, sizeof(why)), 0);
	zf_results_virtualized(dir, accel, sizeof(accel));
	EXPECT_STREQ(accel, "tcg");
	EXPECT_EQ(compare(dir, dir, &c), 0);
	EXPECT_EQ(c.nrows, 1);
	zf_csv_free(&c);
	remove_folder(dir);
	zf_buf_free(&meta);
	zf_buf_free(&rows);
}

/* compare of n folders, the first the base, labelled: exit status, compare.csv of the last */
static int compare_n(const char *const *dirs, int n, const char *labels, struct zf_csv *out)
{
	struct zf_compare_opts o = { .dirs = dirs, .ndirs = n, .labels = labels,
				     .threshold_pct = 10, .alpha = 0.05,
				     .metrics = { "ns_per_fault" }, .nmetrics = 1, .quiet = true };
	char path[PATH_MAX + 32];
	size_t line;
	int ret = zf_compare(&o, stdout);

	snprintf(path, sizeof(path), "%s/compare.csv", dirs[n - 1]);
	if (zf_csv_read(path, out, &line))
		return -1;
	return ret;
}

/* compare.csv's row of strategy against the folder labelled label; NULL when there is none */
static char **test_of(const struct zf_csv *c, const char *strategy, const char *label)
{
	int s = zf_csv_col(c, "strategy"), l = zf_csv_col(c, "new_label");
	size_t i;

	for (i = 0; s >= 0 && l >= 0 && i < c->nrows; i++)
		if (!strcmp(c->rows[i][s], strategy) && !strcmp(c->rows[i][l], label))
			return c->rows[i];
	return NULL;
}

TEST(compare_holds_each_of_three_folders_against_the_first)
{
	struct zf_buf rows[3] = { { 0 } };
	char dirs[3][64];
	const char *order[3] = { dirs[0], dirs[1], dirs[2] };
	struct zf_csv three, two;
	char **row;
	long rep;
	int i;

	/* one: as the base; two: global twice as slow; persistent alike everywhere */
	for (rep = 0; rep < 10; rep++) {
		sample_row(&rows[0], "global", "compact", rep, 10 + rep % 3);
		sample_row(&rows[1], "global", "compact", rep, 10 + (rep + 1) % 3);
		sample_row(&rows[2], "global", "compact", rep, 20 + rep % 3);
		for (i = 0; i < 3; i++)
			sample_row(&rows[i], "persistent", "compact", rep, 7 + rep % 2);
	}
	for (i = 0; i < 3; i++)
		ASSERT_EQ(folder(dirs[i], sizeof(dirs[i]), &rows[i]), 0);
	/* the first two alone: nothing regressed */
	ASSERT_EQ(compare_n(order, 2, "b,one", &two), 0);
	zf_csv_free(&two);
	/* all three: the third's regression fails it */
	ASSERT_EQ(compare_n(order, 3, "b,one,two", &three), 1);
	EXPECT_EQ(three.nrows, 4);
	row = test_of(&three, "global", "one");
	EXPECT_STREQ(row ? row[zf_csv_col(&three, "verdict")] : "", "same");
	row = test_of(&three, "global", "two");
	EXPECT_STREQ(row ? row[zf_csv_col(&three, "verdict")] : "", "regressed");
	EXPECT_TRUE(field(&three, row, "base_median") == 11);
	EXPECT_TRUE(field(&three, row, "new_median") == 21);
	EXPECT_EQ(field(&three, row, "new_reps"), 10);
	/* Holm over each folder's tests: the third's p as a compare of it alone gives it */
	order[1] = dirs[2];
	ASSERT_EQ(compare_n(order, 2, "b,two", &two), 1);
	EXPECT_STREQ(test_of(&two, "global", "two") && row ?
		     test_of(&two, "global", "two")[zf_csv_col(&two, "p_adjusted")] : "x",
		     row ? row[zf_csv_col(&three, "p_adjusted")] : "y");
	zf_csv_free(&two);
	zf_csv_free(&three);
	for (i = 0; i < 3; i++) {
		remove_folder(dirs[i]);
		zf_buf_free(&rows[i]);
	}
}
