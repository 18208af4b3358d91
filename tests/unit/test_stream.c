// SPDX-License-Identifier: GPL-2.0
/*
 * The streamed files (samples.csv, tasks.csv, perf.csv): rows appended run
 * by run, and a run whose rows could not all be written cut off again, so
 * that a file ends with a whole row. A full disk is a file size limit here
 * (RLIMIT_FSIZE: the kernel's EFBIG, a short write first, as ENOSPC).
 */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "../../harness/doctor/sysinfo.h"
#include "../../harness/out/json.h"
#include "../../harness/out/stream.h"
#include "fakeres.h"
#include "synthetic.h"
#include "test.h"

/* path's size; -1 where it cannot be told */
static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

/* the file's last byte is a newline: it ends with a whole row */
static int ends_with_row(const char *path)
{
	char *text;
	size_t len;
	int whole;

	if (zf_read_file_alloc(path, &text, &len))
		return 0;
	whole = len && text[len - 1] == '\n';
	free(text);
	return whole;
}

/* writes past limit bytes refused (EFBIG) from now on, or (limit 0) not any more */
static void limit_files(rlim_t limit, struct rlimit *saved)
{
	struct rlimit lim;

	if (limit) {
		getrlimit(RLIMIT_FSIZE, saved);
		lim = (struct rlimit){ .rlim_cur = limit, .rlim_max = saved->rlim_max };
		signal(SIGXFSZ, SIG_IGN);	/* its default ends the process */
		setrlimit(RLIMIT_FSIZE, &lim);
	} else {
		setrlimit(RLIMIT_FSIZE, saved);
		signal(SIGXFSZ, SIG_DFL);
	}
}

TEST(stream_cuts_a_failed_run_off)
{
	char dir[] = "/tmp/hzfstream.XXXXXX", path[64], *text;
	struct zf_buf header = { 0 };
	struct zf_stream s, again;
	struct rlimit saved;
	size_t len;
	int i;

	ASSERT_TRUE(mkdtemp(dir));
	zf_buf_printf(&header, "a,b\n");
	ASSERT_EQ(zf_stream_open(&s, dir, "rows.csv", &header), 0);
	EXPECT_EQ(zf_stream_open(&again, dir, "rows.csv", &header), -EEXIST);	/* never over a file */
	zf_stream_close(&again);
	/* a run of rows, written a chunk at a time and then the rest */
	zf_stream_mark(&s);
	for (i = 0; i < 10000; i++) {
		zf_buf_printf(&s.rows, "%d,%d\n", i, 2 * i);
		zf_stream_row(&s);
		EXPECT_TRUE(s.rows.cap <= ZF_STREAM_BUF_MAX);
	}
	EXPECT_TRUE(s.size > ZF_STREAM_CHUNK);	/* some written before the run's end */
	ASSERT_EQ(zf_stream_flush(&s), 0);
	EXPECT_TRUE(s.rows.text == NULL);	/* nothing held between runs */
	ASSERT_EQ(zf_stream_sync(&s), 0);
	/* the next run's rows refused past the file's limit, a row cut in two */
	zf_stream_mark(&s);
	limit_files((rlim_t)s.size + ZF_STREAM_CHUNK + 3, &saved);
	for (i = 0; i < 20000; i++) {
		zf_buf_printf(&s.rows, "%d,%d\n", i, 3 * i);
		zf_stream_row(&s);
	}
	EXPECT_EQ(zf_stream_flush(&s), -EFBIG);
	limit_files(0, &saved);
	zf_stream_cut(&s);
	EXPECT_EQ(zf_stream_sync(&s), -EFBIG);	/* stays failed */
	zf_stream_close(&s);
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	ASSERT_EQ(zf_read_file_alloc(path, &text, &len), 0);
	EXPECT_TRUE(len > 4 && !strncmp(text, "a,b\n0,0\n", 8));
	EXPECT_TRUE(strstr(text, "\n9999,19998\n") != NULL && text[len - 1] == '\n');
	EXPECT_TRUE(strstr(text, ",29997\n") == NULL);	/* none of the failed run's */
	free(text);
	zf_buf_free(&header);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}

/*
 * A run that cannot be written fails with the file named, every streamed
 * file left at the run before it, and meta.json says incomplete
 */
TEST(failed_write_leaves_whole_rows_and_an_incomplete_folder)
{
	static const char *const streamed[] = { "samples.csv", "tasks.csv", "perf.csv" };
	static struct fake_folder f;
	char path[PATH_MAX + 32], why[256], text[65536], value[16];
	long long before[3];
	struct rlimit saved;
	long long most = 0;
	size_t i;
	int err;

	ASSERT_EQ(fake_folder_begin(&f), 0);
	ASSERT_EQ(fake_add(&f, 0, 0, 1), 0);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", f.dir, streamed[i]);
		before[i] = file_size(path);
		most = before[i] > most ? before[i] : most;
	}
	/* room for a few more rows in each: the run's perf.csv rows break off mid-row */
	limit_files((rlim_t)most + 300, &saved);
	err = fake_add(&f, 1, 0, 2);
	limit_files(0, &saved);
	EXPECT_EQ(err, -EFBIG);
	EXPECT_TRUE(strstr(f.why, "/perf.csv: File too large") != NULL);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", f.dir, streamed[i]);
		EXPECT_EQ(file_size(path), before[i]);
		EXPECT_TRUE(ends_with_row(path));
	}
	EXPECT_EQ(f.r.configs[1].reps, 0);	/* nothing of it kept either */
	EXPECT_TRUE(zf_results_write(&f.r, why, sizeof(why)) != 0);	/* stays failed */
	ASSERT_EQ(zf_results_end(&f.r, false, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/meta.json", f.dir);
	ASSERT_EQ(zf_read_file(path, text, sizeof(text)), 0);
	ASSERT_EQ(zf_json_get(text, "complete", value, sizeof(value)), 0);
	EXPECT_STREQ(value, "false");
	EXPECT_TRUE(zf_results_complete(f.dir, why, sizeof(why)) != 0);
	EXPECT_EQ(fake_folder_end(&f), 0);
}

/*
 * What the results keep grows with the repetitions and not with their
 * tasks: 16 runs of 1,024 tasks kept in zf_results_rep_bytes() each
 * (malloc's own count of the bytes in use, where it keeps one: not under
 * a sanitizer's), where one run's samples alone are over a MiB
 */
TEST(results_keep_figures_not_tasks)
{
	enum { NTASKS = 1024, RUNS = 16 };
	static int pu[NTASKS], node[NTASKS], mm_node[NTASKS], cpu_seen[NTASKS];
	static struct zf_task_sample samples[NTASKS];
	struct zf_plan plan = { .placement = "none", .ntasks = NTASKS, .pu = pu, .node = node };
	struct zf_run_config cfg = { .strategy = &zf_strategy_global, .kind = ZF_TASK_THREAD,
				     .plan = &plan, .faults_per_pass = 32, .step = 2 << 20 };
	struct zf_rep_kernel kernel = { .wall_ns = 1000000 };
	struct zf_run_result res = { .reps = 1, .passes = 1, .ntasks = NTASKS, .samples = samples,
				     .kernel = &kernel, .mm_node = mm_node,
				     .cpu_seen = cpu_seen };
	char dir[] = "/tmp/hzfkept.XXXXXX", why[256], verdict[64], path[64];
	struct zf_results r = { 0 };
	struct mallinfo2 before, after;
	unsigned int i, suspect;
	struct zf_topo topo;
	int k;

	EXPECT_EQ(zf_results_rep_bytes(1), zf_results_rep_bytes(NTASKS));
	EXPECT_TRUE(zf_results_rep_bytes(NTASKS) >= sizeof(struct zf_rep_kept));
	EXPECT_TRUE(zf_results_rep_bytes(NTASKS) < sizeof(struct zf_task_sample));
	EXPECT_EQ(zf_results_run_bytes(NTASKS, 2) - zf_results_run_bytes(NTASKS, 1),
		  NTASKS * sizeof(struct zf_task_sample) + sizeof(struct zf_rep_kernel));
	EXPECT_TRUE(zf_results_run_bytes(NTASKS, 1) > NTASKS * sizeof(struct zf_task_sample));
	for (k = 0; k < NTASKS; k++) {
		pu[k] = node[k] = mm_node[k] = cpu_seen[k] = -1;
		samples[k] = (struct zf_task_sample){ .faults = 640, .fault_ns = 1000000 + k,
			.teardown_ns = 1000, .span_start_ns = 1000, .span_end_ns = 1001000,
			.span_cpu_ns = 1000000, .steal_pct = NAN, .idle_pct = NAN };
	}
	ASSERT_TRUE(mkdtemp(dir));
	ASSERT_EQ(open_synthetic(&topo, "pack:1 core:2 pu:1"), 0);
	snprintf(r.dir, sizeof(r.dir), "%s", dir);
	r.topo = &topo;
	ASSERT_EQ(zf_results_begin(&r, 1, why, sizeof(why)), 0);
	before = mallinfo2();
	for (i = 0; i < RUNS; i++)
		ASSERT_EQ(zf_results_add(&r, 0, &cfg, &res, &suspect, verdict, sizeof(verdict),
					 why, sizeof(why)), 0);
	after = mallinfo2();
	EXPECT_EQ(r.configs[0].reps, RUNS);
	/* what realloc() rounds each block to, beside: a few words */
	/*
	 * beside: what realloc() rounds each block to, and small blocks freed
	 * into malloc's per-thread cache, which its count takes for in use
	 */
	EXPECT_TRUE(after.uordblks <= before.uordblks + RUNS * zf_results_rep_bytes(NTASKS) + 8192);
	ASSERT_EQ(zf_results_write(&r, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/tasks.csv", dir);
	EXPECT_EQ(fake_file_lines(path), RUNS * NTASKS + 1);	/* every task's row, written all the same */
	zf_results_free(&r);
	zf_topo_close(&topo);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}
