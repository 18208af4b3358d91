// SPDX-License-Identifier: GPL-2.0
/*
 * Every CSV of a results folder, and model.csv, byte for byte against the
 * files in tests/data/golden/: made from fixed figures (no run, no clock),
 * so a change to how a column is written shows as a changed byte. After a
 * change meant to change them: HZF_GOLDEN_WRITE=1 build/hzftest golden
 * writes them anew, and the diff is the review.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "../../harness/analyze/model.h"
#include "../../harness/cli/opt.h"
#include "../../harness/doctor/sysinfo.h"
#include "../../harness/out/buf.h"
#include "../../harness/out/results.h"
#include "../../harness/out/show.h"
#include "../../harness/out/statsjson.h"
#include "fakeres.h"
#include "synthetic.h"
#include "test.h"

#define GOLDEN "tests/data/golden"

/* dir/name against GOLDEN/name, or written there under HZF_GOLDEN_WRITE */
static int same_as_golden(const char *dir, const char *name)
{
	char path[PATH_MAX + 64], *got = NULL, *want = NULL;
	size_t got_len = 0, want_len = 0;
	int same;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (zf_read_file_alloc(path, &got, &got_len))
		return 0;
	if (getenv("HZF_GOLDEN_WRITE")) {
		same = !zf_write_atomic(GOLDEN, name, got, got_len);
		free(got);
		return same;
	}
	snprintf(path, sizeof(path), GOLDEN "/%s", name);
	if (zf_read_file_alloc(path, &want, &want_len)) {
		free(got);
		return 0;
	}
	same = got_len == want_len && !memcmp(got, want, got_len);
	if (!same)
		fprintf(stderr, "  %s/%s differs from " GOLDEN "/%s\n", dir, name, name);
	free(got);
	free(want);
	return same;
}

static const char *const golden_files[] = {
	"samples.csv", "tasks.csv", "summary.csv", "counters.csv", "perf.csv", "timing.csv",
	"profile.csv",
};

TEST(golden_results_csvs)
{
	static struct fake_folder f;
	char why[256], cmd[PATH_MAX + 16], *shown = NULL;
	size_t i, shown_len;
	FILE *show;

	ASSERT_EQ(fake_folder_begin(&f), 0);
	EXPECT_EQ(fake_add(&f, 0, 0, 3), 0);
	EXPECT_EQ(fake_add(&f, 1, 0, 2), 0);
	EXPECT_EQ(fake_add(&f, 2, 0, 1), 0);
	EXPECT_EQ(fake_runs(&f), 0);
	ASSERT_EQ(zf_results_write(&f.r, why, sizeof(why)), 0);
	for (i = 0; i < sizeof(golden_files) / sizeof(golden_files[0]); i++)
		EXPECT_TRUE(same_as_golden(f.dir, golden_files[i]));
	snprintf(cmd, sizeof(cmd), "%s/stats.json", f.dir);
	EXPECT_TRUE(access(cmd, F_OK) != 0);	/* not before the folder is complete */
	ASSERT_EQ(zf_results_end(&f.r, true, why, sizeof(why)), 0);
	EXPECT_TRUE(same_as_golden(f.dir, "stats.json"));
	EXPECT_EQ(zf_results_complete(f.dir, why, sizeof(why)), 0);
	/* show: profile.csv's lines, perf report's way, put's past the first 8 kept */
	show = open_memstream(&shown, &shown_len);
	ASSERT_TRUE(show);
	EXPECT_EQ(zf_show(f.dir, show), 0);
	fclose(show);
	EXPECT_TRUE(strstr(shown, "  global emulated thread x2 compact:\n") != NULL);
	EXPECT_TRUE(strstr(shown, "%  [k] mm_get_huge_zero_folio\n") != NULL);
	EXPECT_TRUE(strstr(shown, "%  [k] ext4_statfs [ext4]\n") != NULL);
	EXPECT_TRUE(strstr(shown, "  0.13%  [k] mm_put_huge_zero_folio\n") != NULL);
	EXPECT_TRUE(strstr(shown, "[k] f11\n") == NULL);	/* 9th of 12: cut */
	free(shown);
	EXPECT_EQ(fake_folder_end(&f), 0);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* path's lines, split in place in *text, the first kept first and the rest sorted; n of them */
static char **sorted_lines(const char *path, char **text, size_t *n)
{
	size_t len, cap = 0;
	char **lines = NULL, *p, *nl;

	*n = 0;
	if (zf_read_file_alloc(path, text, &len))
		return NULL;
	for (p = *text; (nl = strchr(p, '\n')); p = nl + 1) {
		if (*n == cap) {
			char **grown = realloc(lines, (cap = cap ? 2 * cap : 64) * sizeof(*lines));

			if (!grown) {
				free(lines);
				return NULL;
			}
			lines = grown;
		}
		*nl = '\0';
		lines[(*n)++] = p;
	}
	if (*n > 1)
		qsort(lines + 1, *n - 1, sizeof(*lines), by_text);
	return lines;
}

/* dir/name's header and rows against the golden's: the same, in any order */
static int same_rows_as_golden(const char *dir, const char *name)
{
	char path[PATH_MAX + 64], *got_text = NULL, *want_text = NULL, **got, **want;
	size_t ngot, nwant, i;
	int same;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	got = sorted_lines(path, &got_text, &ngot);
	snprintf(path, sizeof(path), GOLDEN "/%s", name);
	want = sorted_lines(path, &want_text, &nwant);
	same = got && want && ngot == nwant;
	for (i = 0; same && i < ngot; i++)
		same = !strcmp(got[i], want[i]);
	if (!same)
		fprintf(stderr, "  %s/%s: not the rows of " GOLDEN "/%s\n", dir, name, name);
	free(got);
	free(want);
	free(got_text);
	free(want_text);
	return same;
}

/*
 * The golden folder's runs added as a sweep adds them, a round at a time: the
 * streamed files hold the golden's rows, in the order the runs were added,
 * and every file written whole is the golden's, byte for byte
 */
TEST(streamed_rows_follow_the_runs)
{
	static const char *const whole[] = {
		"summary.csv", "counters.csv", "timing.csv", "profile.csv", "stats.json",
	};
	static const char *const streamed[] = { "samples.csv", "tasks.csv", "perf.csv" };
	/* round 0: every configuration; 1: the two of 2 and 3 repetitions; 2: the last's */
	static const unsigned int order[][2] = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 0, 1 }, { 1, 1 },
						 { 0, 2 } };
	static struct fake_folder f;
	char why[256], path[PATH_MAX + 32];
	struct zf_csv csv;
	size_t i, line;

	ASSERT_EQ(fake_folder_begin(&f), 0);
	snprintf(path, sizeof(path), "%s/samples.csv", f.dir);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		EXPECT_EQ(fake_add(&f, order[i][0], order[i][1], 1), 0);
		/* each run's rows are in the file as it is added, before any write */
		EXPECT_EQ(fake_file_lines(path), (long)i + 2);
	}
	EXPECT_EQ(fake_runs(&f), 0);
	ASSERT_EQ(zf_results_write(&f.r, why, sizeof(why)), 0);
	ASSERT_EQ(zf_results_end(&f.r, true, why, sizeof(why)), 0);
	for (i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
		EXPECT_TRUE(same_as_golden(f.dir, whole[i]));
	for (i = 0; i < sizeof(streamed) / sizeof(streamed[0]); i++)
		EXPECT_TRUE(same_rows_as_golden(f.dir, streamed[i]));
	ASSERT_EQ(zf_csv_read(path, &csv, &line), 0);
	ASSERT_EQ(csv.nrows, 6);
	for (i = 0; i < csv.nrows; i++) {
		char want[64];

		snprintf(want, sizeof(want), "%s", f.cfg[order[i][0]].strategy->name);
		EXPECT_STREQ(csv.rows[i][zf_csv_col(&csv, "strategy")], want);
		snprintf(want, sizeof(want), "%u", order[i][1]);
		EXPECT_STREQ(csv.rows[i][zf_csv_col(&csv, "rep")], want);
	}
	zf_csv_free(&csv);
	EXPECT_EQ(fake_folder_end(&f), 0);
}

/* model --from the committed sample: summary.csv's columns, a prediction outside the model */
TEST(golden_model_csv)
{
	char dir[] = "/tmp/hzfgolden.XXXXXX", contention[PATH_MAX + 32], cmd[PATH_MAX + 16];
	char out[PATH_MAX + 16];
	static const char rows[] = "pu_a,pu_b,level,work_ns,ns_per_op,ops_per_transfer,"
		"retries_per_op,ops\n0,1,node,0,33.000,15.000,0.050,60000\n"
		"0,1,node,1000,1010.000,1.300,0.001,5000\n";
	char *argv[] = { "model", "--from", "tests/data/sample", "--contention", contention,
			 "--handoff-ns", "30", "--out", out, NULL };
	int err;

	ASSERT_TRUE(mkdtemp(dir));
	snprintf(contention, sizeof(contention), "%s/contention.csv", dir);
	snprintf(out, sizeof(out), "%s/model", dir);	/* new: --out takes no folder with files */
	ASSERT_EQ(zf_write_atomic(dir, "contention.csv", rows, strlen(rows)), 0);
	err = fake_model_quiet("pack:2 [numa] core:2 pu:1", sizeof(argv) / sizeof(argv[0]) - 1, argv);
	ASSERT_EQ(err, 0);
	EXPECT_TRUE(same_as_golden(out, "model.csv"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(system(cmd), 0);
}

/* the row of model.csv of strategy, kind and tasks (emulated, compact); NULL if none */
static char **model_row_of(struct zf_csv *c, const char *strategy, const char *kind, int tasks)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		char **r = c->rows[i];

		if (!strcmp(r[zf_csv_col(c, "strategy")], strategy) &&
		    !strcmp(r[zf_csv_col(c, "task_kind")], kind) &&
		    !strcmp(r[zf_csv_col(c, "fault")], "emulated") &&
		    !strcmp(r[zf_csv_col(c, "placement")], "compact") &&
		    atoi(r[zf_csv_col(c, "tasks")]) == tasks)
			return r;
	}
	return NULL;
}

/*
 * a folder whose meta.json says --mm-atomics on: its emulated threads write
 * one mm line, persistent's too, and at no work between faults that line
 * stays with a CPU as global's does: outside the model, said in the tag
 */
TEST(model_mm_atomics_from_meta_json)
{
	char dir[] = "/tmp/hzfmmline.XXXXXX", cmd[PATH_MAX * 4], out[PATH_MAX + 16];
	char contention[PATH_MAX + 32], from[PATH_MAX + 16], path[PATH_MAX + 32];
	static const char rows[] = "pu_a,pu_b,level,work_ns,ns_per_op,ops_per_transfer,"
		"retries_per_op,ops\n0,1,node,0,33.000,15.000,0.050,60000\n";
	char *argv[] = { "model", "--from", from, "--contention", contention,
			 "--handoff-ns", "30", "--out", out, NULL };
	struct zf_csv c = { 0 };
	size_t line = 0;
	char **r;
	int err;

	ASSERT_TRUE(mkdtemp(dir));
	snprintf(from, sizeof(from), "%s/from", dir);
	snprintf(out, sizeof(out), "%s/model", dir);
	snprintf(contention, sizeof(contention), "%s/contention.csv", dir);
	ASSERT_EQ(zf_write_atomic(dir, "contention.csv", rows, strlen(rows)), 0);
	snprintf(cmd, sizeof(cmd), "cp -r tests/data/sample '%s' && sed -i 's/\"fault_ns\": 0,/"
		 "\"fault_ns\": 0, \"mm_atomics\": \"on\",/' '%s/meta.json' && "
		 "grep -q '\"mm_atomics\": \"on\"' '%s/meta.json'", from, from, from);
	ASSERT_EQ(system(cmd), 0);
	err = fake_model_quiet("pack:2 [numa] core:2 pu:1", sizeof(argv) / sizeof(argv[0]) - 1, argv);
	ASSERT_EQ(err, 0);
	snprintf(path, sizeof(path), "%s/model.csv", out);
	ASSERT_EQ(zf_csv_read(path, &c, &line), 0);
	/* threads: persistent pays the mm line's trip, and is outside the model at 0 ns */
	r = model_row_of(&c, "persistent", "thread", 2);
	ASSERT_TRUE(r != NULL);
	EXPECT_TRUE(strstr(r[zf_csv_col(&c, "tag")], "the mm line's adds") != NULL);
	EXPECT_TRUE(atof(r[zf_csv_col(&c, "ns_per_fault_median")]) >
		    atof(model_row_of(&c, "persistent", "thread", 1)[zf_csv_col(&c,
			 "ns_per_fault_median")]) + 10);
	/* processes: each mm its own, persistent flat and in the model */
	r = model_row_of(&c, "persistent", "process", 2);
	ASSERT_TRUE(r != NULL);
	EXPECT_STREQ(r[zf_csv_col(&c, "tag")], "");
	EXPECT_TRUE(fabs(atof(r[zf_csv_col(&c, "ns_per_fault_median")]) -
			 atof(model_row_of(&c, "persistent", "process", 1)[zf_csv_col(&c,
			      "ns_per_fault_median")])) < 0.01);
	zf_csv_free(&c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(system(cmd), 0);
}

/* the name's default placement and fault, the ones run and sweep take when not told */
TEST(stats_json_defaults)
{
	const struct zf_opt_set *sets[] = { &zf_run_opts, &zf_sweep_opts };
	size_t i, j, found = 0;

	for (i = 0; i < 2; i++)
		for (j = 0; j < sets[i]->n; j++) {
			const struct zf_opt *o = &sets[i]->opts[j];
			const char *want = !strcmp(o->name, "placement") ||
					   !strcmp(o->name, "placements") ? ZF_STATS_DEFAULT_PLACEMENT :
					   !strcmp(o->name, "fault") || !strcmp(o->name, "faults") ?
					   ZF_STATS_DEFAULT_FAULT : NULL;

			if (!want || !(o->cmds & sets[i]->cmd_bit) || !o->def)
				continue;
			EXPECT_STREQ(o->def, want);
			found++;
		}
	EXPECT_EQ(found, 4);
}
