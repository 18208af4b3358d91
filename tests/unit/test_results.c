// SPDX-License-Identifier: GPL-2.0
/* File formats: CSV and JSON written and read back, atomic writes, /proc and /sys text, figures. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../harness/out/buf.h"
#include "../../harness/cli/compat.h"
#include "../../harness/out/csv.h"
#include "../../harness/out/json.h"
#include "../../harness/out/report.h"
#include "../../harness/run/metrics.h"
#include "../../harness/out/rescols.h"
#include "../../harness/out/results.h"
#include "../../harness/out/show.h"
#include "../../harness/doctor/sysinfo.h"
#include "test.h"

TEST(csv_written_and_read_back)
{
	struct zf_buf b = { 0 };
	struct zf_csv csv;
	size_t line;

	zf_buf_csv(&b, "strategy", 0);
	zf_buf_csv(&b, "placement", 1);
	zf_buf_csv(&b, "global", 0);
	zf_buf_csv(&b, "cpus:0,2", 1);
	zf_buf_csv(&b, "say \"hi\"", 0);
	zf_buf_csv(&b, "", 1);
	EXPECT_STREQ(b.text, "strategy,placement\nglobal,\"cpus:0,2\"\n\"say \"\"hi\"\"\",\n");
	ASSERT_EQ(zf_csv_parse(b.text, &csv, &line), 0);
	EXPECT_EQ(csv.ncols, 2);
	EXPECT_EQ(csv.nrows, 2);
	EXPECT_EQ(zf_csv_col(&csv, "placement"), 1);
	EXPECT_EQ(zf_csv_col(&csv, "nope"), -1);
	EXPECT_STREQ(csv.rows[0][1], "cpus:0,2");
	EXPECT_STREQ(csv.rows[1][0], "say \"hi\"");
	EXPECT_STREQ(csv.rows[1][1], "");
	zf_csv_free(&csv);
	zf_buf_free(&b);
}

TEST(malformed_csv_names_its_line)
{
	struct zf_csv csv;
	size_t line;

	EXPECT_TRUE(zf_csv_parse("a,b\n1,2\n3\n", &csv, &line) != 0);
	EXPECT_EQ(line, 3);
	EXPECT_TRUE(zf_csv_parse("a,b\n\"1,2\n", &csv, &line) != 0);
	EXPECT_TRUE(zf_csv_parse("a,b\n1\"x,2\n", &csv, &line) != 0);
	EXPECT_TRUE(zf_csv_parse("", &csv, &line) != 0);
}

/* a figure no run writes is refused by its line and column; a word, an empty field, a tag are not */
TEST(nonfinite_figure_named_by_line_and_column)
{
	static const char *const bad[] = { "nan", "-inf", "1e999", "infinity" };
	char text[256], why[256];
	struct zf_csv csv;
	size_t i, line;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "strategy,ns_per_fault_median,tag\nglobal,2.5,x\n"
			 "mmflag,%s,y\n", bad[i]);
		ASSERT_EQ(zf_csv_parse(text, &csv, &line), 0);
		EXPECT_EQ(zf_results_finite("s.csv", &csv, why, sizeof(why)), -1);
		snprintf(text, sizeof(text), "s.csv: line 3, column ns_per_fault_median: %s: "
			 "not a finite number", bad[i]);
		EXPECT_STREQ(why, text);
		zf_csv_free(&csv);
	}
	ASSERT_EQ(zf_csv_parse("strategy,ns_per_fault_median,tag\nnan,,inf\nglobal,1e300,nan\n",
			       &csv, &line), 0);
	EXPECT_EQ(zf_results_finite("s.csv", &csv, why, sizeof(why)), 0);
	zf_csv_free(&csv);
}

TEST(json_written_and_read_back)
{
	static const char *const want[][2] = {
		{ "thp.n.1", "2500.0" }, { "thp.n.2.x", "null" }, { "thp.n.2", "{\"x\":null}" },
	};
	struct zf_buf b = { 0 };
	char out[128];
	size_t i;

	zf_buf_printf(&b, "{\"host\": \"a \\\"quoted\\\"\\\\name\\n\"");
	zf_buf_printf(&b, ", \"thp\": {\"enabled\": \"madvise\", \"n\": [1, 2.5e3, {\"x\": null}]},"
		      " \"complete\": false}");
	ASSERT_EQ(zf_json_validate(b.text), 0);
	ASSERT_EQ(zf_json_get(b.text, "host", out, sizeof(out)), 0);
	EXPECT_STREQ(out, "a \"quoted\"\\name\n");
	ASSERT_EQ(zf_json_get(b.text, "thp.enabled", out, sizeof(out)), 0);
	EXPECT_STREQ(out, "madvise");
	ASSERT_EQ(zf_json_get(b.text, "complete", out, sizeof(out)), 0);
	EXPECT_STREQ(out, "false");
	EXPECT_EQ(zf_json_get(b.text, "thp.defrag", out, sizeof(out)), -ENOENT);
	EXPECT_EQ(zf_json_get(b.text, "host.x", out, sizeof(out)), -ENOENT);
	EXPECT_EQ(zf_json_get(b.text, "host", out, 4), -ENOSPC);
	/* an array by its index, a number, a null and an object as JSON text */
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ASSERT_EQ(zf_json_get(b.text, want[i][0], out, sizeof(out)), 0);
		EXPECT_STREQ(out, want[i][1]);
	}
	EXPECT_EQ(zf_json_get(b.text, "thp.n.3", out, sizeof(out)), -ENOENT);
	EXPECT_EQ(zf_json_get(b.text, "thp.n.x", out, sizeof(out)), -ENOENT);
	zf_buf_free(&b);
	/* escapes past ASCII come back as UTF-8, not as '?' */
	ASSERT_EQ(zf_json_get("{\"cpu\": \"caf\\u00e9 \\u20ac \\ud83d\\ude00\"}", "cpu", out,
			      sizeof(out)), 0);
	EXPECT_STREQ(out, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(json_written_through_jansson)
{
	struct zf_buf b = { 0 };

	/* NaN has no JSON: null; a byte that is not UTF-8 would make the file unreadable */
	ASSERT_EQ(zf_json_dump(json_pack("{s:o, s:o, s:o, s:o, s:o}", "nan", zf_json_real(NAN),
					 "half", zf_json_real(0.5), "two", zf_json_real(2.0),
					 "tag", zf_json_text("caf\xe9 \xc3\xa9"),
					 "none", zf_json_text(NULL)), JSON_INDENT(0), &b), 0);
	EXPECT_STREQ(b.text, "{\"nan\": null, \"half\": 0.5, \"two\": 2, \"tag\": \"caf? \xc3\xa9\", "
		     "\"none\": null}");
	EXPECT_EQ(zf_json_validate(b.text), 0);
	zf_buf_free(&b);
	/* meta.json's layout: a member a line, each value whole on it */
	ASSERT_EQ(zf_json_dump_lines(json_pack("{s:i, s:{s:[i,i]}}", "a", 1, "b", "c", 1, 2), false, &b),
		  0);
	EXPECT_STREQ(b.text, "{\n  \"a\": 1,\n  \"b\": {\"c\": [1, 2]}\n}\n");
	zf_buf_free(&b);
	/* model.json's rows: one a line */
	ASSERT_EQ(zf_json_dump_lines(json_pack("{s:[{s:i},{s:i}]}", "rows", "x", 1, "x", 2), true, &b), 0);
	EXPECT_STREQ(b.text, "{\n  \"rows\": [\n    {\"x\": 1},\n    {\"x\": 2}\n  ]\n}\n");
	zf_buf_free(&b);
	/* an array a part of which could not be made is dropped whole, and stays so */
	{
		json_t *a = json_array();

		zf_json_push(&a, json_integer(1));
		ASSERT_EQ(json_array_size(a), 1);
		zf_json_push(&a, NULL);
		EXPECT_TRUE(a == NULL);
		zf_json_push(&a, json_integer(2));	/* released: LeakSanitizer holds it */
		EXPECT_TRUE(a == NULL);
	}
	/* a part that could not be made fails the whole, and nothing is written */
	EXPECT_EQ(zf_json_dump(NULL, 0, &b), -ENOMEM);
	EXPECT_TRUE(b.oom);
	zf_buf_free(&b);
}

TEST(malformed_json_is_refused)
{
	static const char *const bad[] = {
		"", "{", "{\"a\": }", "{\"a\": 1,}", "[1 2]", "{\"a\" 1}", "01", "1.",
		"\"tab\there\"", "{\"a\": tru}", "{} {}", "\"\\x\"",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_TRUE(zf_json_validate(bad[i]) != 0);
	EXPECT_EQ(zf_json_validate(" {\"a\": [true, false, null, -0.5e-3, \"\\u00e9\"]} "), 0);
}

TEST(atomic_write_leaves_no_temporary)
{
	char dir[] = "/tmp/hzftest.XXXXXX", path[64], text[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	ASSERT_TRUE(mkdtemp(dir));
	EXPECT_EQ(zf_write_atomic(dir, "a.csv", "x,y\n", 4), 0);
	EXPECT_EQ(zf_write_atomic(dir, "a.csv", "x,y\n1,2\n", 8), 0);
	snprintf(path, sizeof(path), "%s/a.csv", dir);
	EXPECT_EQ(zf_read_file(path, text, sizeof(text)), 0);
	EXPECT_STREQ(text, "x,y\n1,2");
	d = opendir(dir);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	EXPECT_EQ(n, 1);
	EXPECT_TRUE(zf_write_atomic("/nonexistent/dir", "a.csv", "x", 1) != 0);
	unlink(path);
	rmdir(dir);
}

TEST(sysfs_and_kconfig_text)
{
	char out[32];

	zf_sysfs_choice("always [madvise] never", out, sizeof(out));
	EXPECT_STREQ(out, "madvise");
	zf_sysfs_choice("1", out, sizeof(out));
	EXPECT_STREQ(out, "1");
	EXPECT_STREQ(zf_kconfig_value("CONFIG_A=y\n# CONFIG_PERSISTENT_HUGE_ZERO_FOLIO is not set\n",
				      "PERSISTENT_HUGE_ZERO_FOLIO"), "n");
	EXPECT_STREQ(zf_kconfig_value("CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y\n",
				      "PERSISTENT_HUGE_ZERO_FOLIO"), "y");
	EXPECT_STREQ(zf_kconfig_value("CONFIG_PERSISTENT_HUGE_ZERO_FOLIO_X=y\n",
				      "PERSISTENT_HUGE_ZERO_FOLIO"), "unknown");
	EXPECT_STREQ(zf_kconfig_value("", "PERSISTENT_HUGE_ZERO_FOLIO"), "unknown");
}

/* a /proc/PID/status line's kB, and nothing made up where there is none */
TEST(proc_status_kb)
{
	static const char status[] = "Name:\thzfbench\nVmPeak:\t  123456 kB\n"
				     "VmHWM:\t    7916 kB\nVmRSS:\t    7000 kB\nThreads:\t3\n";
	uint64_t kb = 42;

	EXPECT_EQ(zf_status_kb(status, "VmHWM", &kb), 0);
	EXPECT_EQ(kb, 7916);
	EXPECT_EQ(zf_status_kb(status, "VmRSS", &kb), 0);
	EXPECT_EQ(kb, 7000);
	kb = 42;
	EXPECT_EQ(zf_status_kb(status, "VmHW", &kb), -ENOENT);	/* a name whole, not its start */
	EXPECT_EQ(zf_status_kb("VmRSS:\t 7000 kB\n", "VmHWM", &kb), -ENOENT);
	EXPECT_EQ(zf_status_kb(status, "Threads", &kb), -EINVAL);	/* not in kB */
	EXPECT_EQ(zf_status_kb("VmHWM:\t  kB\n", "VmHWM", &kb), -EINVAL);
	EXPECT_EQ(zf_status_kb("", "VmHWM", &kb), -ENOENT);
	EXPECT_EQ(kb, 42);	/* untouched where there is no figure */
	/* this process has one, and it is no smaller than what it has now */
	ASSERT_EQ(zf_peak_rss_kb(&kb), 0);
	EXPECT_TRUE(kb > 0);
}

TEST(this_machine_facts_are_read)
{
	struct zf_sysinfo si;

	zf_sysinfo_read(&si);
	EXPECT_TRUE(si.host[0] && si.kernel_release[0]);
	EXPECT_TRUE(si.online_cpus >= 1);
	EXPECT_TRUE(!strcmp(si.persistent_huge_zero_folio, "y") ||
		    !strcmp(si.persistent_huge_zero_folio, "n") ||
		    !strcmp(si.persistent_huge_zero_folio, "unknown"));
}

/* a file read whole: /proc/stat says size 0, /dev/zero never ends and is refused by name */
TEST(files_read_whole_and_a_size_limit_named)
{
	size_t len = 0;
	char *text;

	ASSERT_EQ(zf_read_file_alloc("/proc/stat", &text, &len), 0);
	EXPECT_TRUE(len > 0 && strlen(text) == len && !strncmp(text, "cpu ", 4));
	free(text);
	EXPECT_EQ(zf_read_file_alloc("/dev/zero", &text, NULL), -EFBIG);
	EXPECT_TRUE(text == NULL);
}

TEST(rep_figures_follow_the_slowest_task)
{
	struct zf_task_sample t[2] = {
		{ .fault_ns = 1000, .teardown_ns = 300, .faults = 100 },
		{ .fault_ns = 2000, .teardown_ns = 100, .faults = 100 },
	};
	struct zf_rep_metrics m;

	zf_rep_metrics(t, 2, &m);
	EXPECT_EQ(m.faults, 200);
	EXPECT_TRUE(m.ns_per_fault == 20.0);
	EXPECT_TRUE(m.faults_per_sec == 200 * 1e9 / 2000);
	EXPECT_TRUE(m.teardown_ns_per_fault == 3.0);
	EXPECT_TRUE(m.fairness_min_max == 0.5);
}

/* a task's span: [start, end] in ns, and its CPU time over it */
#define SPAN(s, e, cpu)	{ .faults = 100, .fault_ns = (e) - (s), .span_start_ns = (s), \
			  .span_end_ns = (e), .span_cpu_ns = (cpu) }

TEST(overlap_on_hand_made_task_intervals)
{
	struct zf_task_sample same[3] = { SPAN(1000, 2000, 1000), SPAN(1000, 2000, 1000),
					  SPAN(1000, 2000, 1000) };
	/* one task starts 100 ns late and ends 100 ns late: 900 of 1000 together */
	struct zf_task_sample late[2] = { SPAN(1000, 2000, 1000), SPAN(1100, 2100, 1000) };
	/* one task twice as long (a CPU hog beside it): half the longest span together */
	struct zf_task_sample hog[2] = { SPAN(1000, 2000, 1000), SPAN(1000, 3000, 1000) };
	/* one after the other: never together */
	struct zf_task_sample serial[2] = { SPAN(1000, 2000, 1000), SPAN(2000, 3000, 1000) };
	/* one task inside the other's span: its own length over the longest */
	struct zf_task_sample inside[2] = { SPAN(1000, 5000, 4000), SPAN(2000, 3000, 1000) };
	struct zf_task_sample unmeasured[2] = { SPAN(1000, 2000, 1000), { .faults = 100 } };
	struct zf_rep_metrics m;
	char buf[32];

	EXPECT_TRUE(zf_rep_overlap(same, 3) == 1.0);
	EXPECT_TRUE(fabs(zf_rep_overlap(late, 2) - 0.9) < 1e-12);
	EXPECT_TRUE(fabs(zf_rep_overlap(hog, 2) - 0.5) < 1e-12);
	EXPECT_TRUE(zf_rep_overlap(serial, 2) == 0.0);
	EXPECT_TRUE(fabs(zf_rep_overlap(inside, 2) - 0.25) < 1e-12);
	EXPECT_TRUE(isnan(zf_rep_overlap(unmeasured, 2)));
	EXPECT_TRUE(zf_rep_overlap(same, 1) == 1.0);

	/* 0.9 is not below 0.9: not flagged */
	zf_rep_metrics(late, 2, &m);
	EXPECT_EQ(m.flags, 0);
	EXPECT_STREQ(zf_flags_name(m.flags, buf, sizeof(buf)), "ok");
	/* the hog's task ran 1000 of 2000 ns: CPU/wall 0.5, and overlap 0.5 */
	zf_rep_metrics(hog, 2, &m);
	EXPECT_TRUE(fabs(m.cpu_wall_min - 0.5) < 1e-12);
	EXPECT_EQ(m.flags, ZF_FLAG_OVERLAP | ZF_FLAG_CPU_WALL);
	EXPECT_STREQ(zf_flags_name(m.flags, buf, sizeof(buf)), "overlap+cpu_wall");
	/* together all the time, but one task preempted for a fifth of it */
	hog[1] = (struct zf_task_sample)SPAN(1000, 2000, 800);
	zf_rep_metrics(hog, 2, &m);
	EXPECT_EQ(m.flags, ZF_FLAG_CPU_WALL);
	EXPECT_STREQ(zf_flags_name(m.flags, buf, sizeof(buf)), "cpu_wall");
	zf_rep_metrics(serial, 2, &m);
	EXPECT_STREQ(zf_flags_name(m.flags, buf, sizeof(buf)), "overlap");
}

TEST(summary_counts_flagged_reps_and_takes_medians)
{
	struct zf_rep_metrics reps[7];
	struct zf_summary s;
	int i;

	for (i = 0; i < 7; i++) {
		memset(&reps[i], 0, sizeof(reps[i]));
		reps[i].ns_per_fault = 10 + i;
		reps[i].overlap = i < 2 ? 0.5 : 0.95 + i / 100.0;
		reps[i].cpu_wall_min = 0.99;
		reps[i].flags = i < 2 ? ZF_FLAG_OVERLAP : 0;
	}
	zf_summarize(reps, 7, &s);
	EXPECT_EQ(s.flagged_reps, 2);
	EXPECT_TRUE(fabs(s.overlap_median - 0.98) < 1e-12);	/* 0.5 0.5 0.97 [0.98] 0.99 1 1.01 */
	EXPECT_TRUE(fabs(s.cpu_wall_median - 0.99) < 1e-12);
	/* seven values: P(B = 0) = 1/128, P(B <= 1) = 1/16: x(1) and x(7) */
	EXPECT_TRUE(s.ci95_lo == 10 && s.ci95_hi == 16);
	EXPECT_TRUE(fabs(s.ci95_pct - 100.0 * 3 / 13) < 1e-9);
	zf_summarize(reps, 5, &s);
	EXPECT_TRUE(isnan(s.ci95_lo) && isnan(s.ci95_pct));
}

/* get() in a real fault: mean of the timed halves with get minus those without */
TEST(get_in_fault_is_the_difference_of_the_timed_halves)
{
	struct zf_task_sample t[2] = {
		{ .faults = 8, .fault_ns = 8000, .get_ns = 120, .timed_gets = 4,
		  .empty_ns = 40, .timed_empties = 4 },
		{ .faults = 8, .fault_ns = 8000, .get_ns = 200, .timed_gets = 4,
		  .empty_ns = 40, .timed_empties = 4 },
	};
	struct zf_task_sample untimed = { .faults = 8, .fault_ns = 8000 };
	struct zf_rep_metrics m[3];
	struct zf_summary s;

	EXPECT_TRUE(zf_task_get_ns(&t[0]) == 20.0);	/* 30 - 10 */
	EXPECT_TRUE(zf_task_get_ns(&t[1]) == 40.0);
	EXPECT_TRUE(isnan(zf_task_get_ns(&untimed)));
	zf_rep_metrics(t, 2, &m[0]);
	EXPECT_TRUE(m[0].get_ns_in_fault == 30.0);	/* the tasks' mean */
	/* one task not timed: the repetition has no figure, not a made-up one */
	t[1] = untimed;
	zf_rep_metrics(t, 2, &m[1]);
	EXPECT_TRUE(isnan(m[1].get_ns_in_fault));
	m[2] = m[0];
	m[2].get_ns_in_fault = 50;
	zf_summarize(m, 3, &s);
	EXPECT_TRUE(s.get_ns_in_fault_median == 40.0);	/* of 30 and 50; NAN left out */
	zf_summarize(&m[1], 1, &s);
	EXPECT_TRUE(isnan(s.get_ns_in_fault_median));
}

TEST(summary_median_min_max_stddev)
{
	struct zf_rep_metrics m[4] = {
		{ .ns_per_fault = 4 }, { .ns_per_fault = 1 }, { .ns_per_fault = 3 },
		{ .ns_per_fault = 2 },
	};
	struct zf_summary s;

	zf_summarize(m, 4, &s);
	EXPECT_TRUE(s.ns_per_fault_median == 2.5);
	EXPECT_TRUE(s.ns_per_fault_min == 1);
	EXPECT_TRUE(s.ns_per_fault_max == 4);
	/* sample stddev of 1..4 is sqrt(5/3) */
	EXPECT_TRUE(s.ns_per_fault_stddev > 1.2909 && s.ns_per_fault_stddev < 1.2910);
	zf_summarize(m, 1, &s);
	EXPECT_TRUE(s.ns_per_fault_stddev == 0);
}

/* a real run's results folder, read back with the readers compare and show use */
TEST(results_folder_written_and_read_back)
{
	char dir[] = "/tmp/hzftest.XXXXXX", path[PATH_MAX + 32], text[65536], value[128], why[256];
	struct zf_results r = { 0 };
	struct zf_run_config cfg = {
		.strategy = &zf_strategy_mmflag,
		.kind = ZF_TASK_THREAD,
		.faults_per_pass = 64,
		.step = 2 << 20,
		.reps = 2,
		.min_ms = 1,
		.counter_node = -1,
	};
	char *argv[] = { "sweep", "--out", dir };
	struct zf_run_result res;
	struct zf_topo topo;
	struct zf_plan plan;
	struct zf_csv csv;
	char verdict[64];
	unsigned int suspect;
	size_t line;

	ASSERT_TRUE(mkdtemp(dir));
	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	ASSERT_EQ(zf_plan_make(&topo, "compact", 1, &plan, why, sizeof(why)), 0);
	cfg.plan = &plan;
	ASSERT_EQ(zf_results_dir(dir, r.dir, sizeof(r.dir), why, sizeof(why)), 0);
	r.topo = &topo;
	r.argc = 3;
	r.argv = argv;
	ASSERT_EQ(zf_results_begin(&r, 1, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	ASSERT_EQ(zf_read_file(path, text, sizeof(text)), 0);
	ASSERT_EQ(zf_json_get(text, "complete", value, sizeof(value)), 0);
	EXPECT_STREQ(value, "false");
	ASSERT_EQ(zf_run(&cfg, &topo, &res), 0);
	ASSERT_EQ(zf_results_add(&r, 0, &cfg, &res, &suspect, verdict, sizeof(verdict), why,
				 sizeof(why)), 0);
	EXPECT_EQ(suspect, 0);
	zf_run_result_free(&res);
	ASSERT_EQ(zf_results_write(&r, why, sizeof(why)), 0);
	ASSERT_EQ(zf_results_end(&r, true, why, sizeof(why)), 0);

	ASSERT_EQ(zf_read_file(path, text, sizeof(text)), 0);
	ASSERT_EQ(zf_json_validate(text), 0);
	ASSERT_EQ(zf_json_get(text, "complete", value, sizeof(value)), 0);
	EXPECT_STREQ(value, "true");
	ASSERT_EQ(zf_json_get(text, "thp.enabled", value, sizeof(value)), 0);
	ASSERT_EQ(zf_json_get(text, "config_persistent_huge_zero_folio", value, sizeof(value)), 0);
	ASSERT_EQ(zf_json_get(text, "topology.pus", value, sizeof(value)), 0);
	EXPECT_EQ(atoi(value), topo.pus);
	ASSERT_EQ(zf_json_get(text, "configurations", value, sizeof(value)), 0);
	EXPECT_STREQ(value, "1");
	/* hzfbench's own peak memory, a number of kB */
	ASSERT_EQ(zf_json_get(text, "peak_rss_kb", value, sizeof(value)), 0);
	EXPECT_TRUE(strtoull(value, NULL, 10) > 0);
	EXPECT_EQ(zf_json_get(text, "end_time", value, sizeof(value)), 0);

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	ASSERT_EQ(zf_csv_read(path, &csv, &line), 0);
	{
		struct zf_buf header = { 0 }, want = { 0 };
		size_t i;

		for (i = 0; i < csv.ncols; i++)
			zf_buf_printf(&header, "%s%s", i ? "," : "", csv.header[i]);
		zf_buf_printf(&header, "\n");
		zf_cols_header(&want, &zf_summary_table);
		ASSERT_TRUE(header.text && want.text);
		EXPECT_STREQ(header.text, want.text);
		zf_buf_free(&header);
		zf_buf_free(&want);
	}
	ASSERT_EQ(csv.nrows, 1);
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "strategy")], "mmflag");
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "task_kind")], "thread");
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "reps")], "2");
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "faults_per_pass")], "64");
	EXPECT_TRUE(atof(csv.rows[0][zf_csv_col(&csv, "ns_per_fault_median")]) > 0);
	/* emulated faults: get() is not timed inside a real fault, so the field is empty */
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "get_ns_in_fault_median")], "");
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "get_share_of_fault")], "");
	zf_csv_free(&csv);
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	ASSERT_EQ(zf_csv_read(path, &csv, &line), 0);
	EXPECT_EQ(csv.nrows, 2);
	zf_csv_free(&csv);
	snprintf(path, sizeof(path), "%s/tasks.csv", dir);
	ASSERT_EQ(zf_csv_read(path, &csv, &line), 0);
	EXPECT_EQ(csv.nrows, 2);
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "cpu_seen")], csv.rows[0][zf_csv_col(&csv, "pu")]);
	zf_csv_free(&csv);
	snprintf(path, sizeof(path), "%s/counters.csv", dir);
	ASSERT_EQ(zf_csv_read(path, &csv, &line), 0);
	EXPECT_EQ(csv.nrows, 1);
	EXPECT_STREQ(csv.rows[0][zf_csv_col(&csv, "broken")], "0");
	zf_csv_free(&csv);

	/* a folder that holds anything is refused */
	EXPECT_TRUE(zf_results_dir(dir, r.dir, sizeof(r.dir), why, sizeof(why)) != 0);
	EXPECT_STREQ(why, "exists and is not empty");
	zf_results_free(&r);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}

/* usemem's accounting: SIZE/8 at the allocation, 8 bytes a read; KiB per second, truncated */
TEST(usemem_units)
{
	EXPECT_EQ(zf_usemem_bytes(100ULL << 30, 2ULL << 20), 13421772800ULL + 8ULL * 51200);
	EXPECT_EQ(zf_usemem_bytes(3ULL << 20, 2ULL << 20), (3ULL << 20) / 8 + 16);	/* reads at 0, 2M */
	EXPECT_EQ(zf_usemem_kbps(1024, 1000000), 1);
	EXPECT_EQ(zf_usemem_kbps(1342218240ULL, 9027), 145204386ULL);
	EXPECT_EQ(zf_usemem_kbps(1024, 0), 0);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* the median repetition's tasks, one usemem line each, from the files alone */
TEST(usemem_report_reads_the_median_repetition)
{
	char dir[] = "/tmp/hzfusemem.XXXXXX", *text = NULL, path[64];
	size_t len = 0;
	FILE *out;

	ASSERT_TRUE(mkdtemp(dir));
	write_text(dir, "samples.csv", "rep,passes,ns_per_fault\n0,4,3000\n1,4,1000\n2,4,2000\n");
	write_text(dir, "tasks.csv", "rep,task,fault_ns,teardown_ns\n"
		   "0,0,1,1\n0,1,1,1\n"
		   "1,0,1,1\n1,1,1,1\n"
		   "2,0,40000000,8000000\n2,1,20000000,4000000\n");
	out = open_memstream(&text, &len);
	ASSERT_TRUE(out != NULL);
	/* 1 GiB every 2 MiB: 134217728 + 8 * 512 bytes; 10 ms and 5 ms a pass */
	ASSERT_EQ(zf_usemem_report(dir, 1ULL << 30, 2 << 20, out), 0);
	fclose(out);
	EXPECT_TRUE(strstr(text, "repetition 2, the median of 3") != NULL);
	EXPECT_TRUE(strstr(text, "\n134221824 bytes / 10000 usecs = 13107600 KB/s\n"
			   "134221824 bytes / 5000 usecs = 26215200 KB/s\n"
			   "2000 usecs to free memory\n1000 usecs to free memory\n") != NULL);
	EXPECT_TRUE(strstr(text, "sum of the tasks' KB/s: 39322800\n") != NULL);
	free(text);
	write_text(dir, "samples.csv", "rep,passes,ns_per_fault\n");
	out = open_memstream(&text, &len);
	EXPECT_TRUE(zf_usemem_report(dir, 1ULL << 30, 2 << 20, out) != 0);
	fclose(out);
	free(text);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}

/* what zf_show() prints for dir, malloc()ed; NULL when it fails */
static char *shown(const char *dir)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int err;

	if (!out)
		return NULL;
	err = zf_show(dir, out);
	fclose(out);
	if (err) {
		free(text);
		return NULL;
	}
	return text;
}

/* show: every flagged configuration named, however many (cut at 255 bytes before) */
TEST(show_names_every_flagged_configuration)
{
	char dir[] = "/tmp/hzfshow.XXXXXX", *text, path[64];
	struct zf_buf summary = { 0 };
	int t;

	ASSERT_TRUE(mkdtemp(dir));
	zf_cols_header(&summary, &zf_summary_table);
	for (t = 1; t <= 40; t++)
		zf_buf_printf(&summary, "global,emulated,thread,%d,compact,2097152,512,2,10,9,11,1,1e8,5,"
			      "1,0.0,0.0,,,,,,,,,,,,,,,,,,,usemem,0.0,0.0,0.000000,,,1,,,,\n", t);
	write_text(dir, "summary.csv", summary.text);
	write_text(dir, "meta.json", "{\"complete\": true}\n");	/* what show asks first */
	text = shown(dir);
	ASSERT_TRUE(text != NULL);
	EXPECT_TRUE(strstr(text, "flagged (overlap or CPU/wall below 0.9): global emulated thread x1 1, "
			   "global emulated thread x2 1, ") != NULL);
	EXPECT_TRUE(strstr(text, ", global emulated thread x40 1\n") != NULL);
	free(text);
	zf_buf_free(&summary);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}

/* show: a real-fault configuration whose verification failed is named, the rest counted */
TEST(show_names_failed_kernel_checks)
{
	char dir[] = "/tmp/hzfshow.XXXXXX", *text, path[64];
	struct zf_buf summary = { 0 };

	ASSERT_TRUE(mkdtemp(dir));
	zf_cols_header(&summary, &zf_summary_table);
	zf_buf_printf(&summary,
		   "native,kernel,process,1,compact,2097152,512,2,1500,1400,1600,100,666666,400,1,0.0,0.0"
		   ",,,,,,,,,,,,,,,,,,,usemem,0.0,0.0,0.000000,,,0,,,,\n"
		   "global,kernel,process,1,compact,2097152,512,2,1600,1500,1700,100,625000,400,1,12.0,0.0075"
		   ",,,,,,,,,,,,,,,,,,,usemem,0.0,0.0,0.000000,,,0,,,,\n");
	ASSERT_TRUE(summary.text != NULL);
	write_text(dir, "summary.csv", summary.text);
	write_text(dir, "meta.json", "{\"complete\": true}\n");	/* what show asks first */
	zf_buf_free(&summary);
	write_text(dir, "samples.csv", "strategy,fault,task_kind,tasks,placement,rep,"
		   "thp_fault_fallback,minflt_per_fault,rss_growth_kb,anon_huge_kb,kernel_check\n"
		   "native,kernel,process,1,compact,0,0,1.0000,0,0,ok\n"
		   "global,kernel,process,1,compact,0,0,1.0000,0,0,ok\n"
		   "native,kernel,process,1,compact,1,3,1.0000,0,0,fallback\n"
		   "global,kernel,process,1,compact,1,0,1.0000,0,0,ok\n");
	text = shown(dir);
	ASSERT_TRUE(text != NULL);
	EXPECT_TRUE(strstr(text, "native      process  compact      1 tasks: 1 of 2 repetitions ok; "
			   "3 fallbacks") != NULL);
	EXPECT_TRUE(strstr(text, "global      process  compact      1 tasks: 2 of 2") == NULL);
	EXPECT_TRUE(strstr(text, "kernel faults verified: 3 of 4 repetitions ok in 2 configurations") != NULL);
	EXPECT_TRUE(strstr(text, "get    12.0 ns of  1600.0 ns ( 0.75%)") != NULL);
	free(text);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}

/* a show folder of global's and persistent's 1- and 2-task rows, fault_ns its meta's */
static char *shown_costs(const char *fault_ns, double g1, double g2, double p1, double sd)
{
	char dir[] = "/tmp/hzfshow.XXXXXX", meta[256], path[64], *text;
	struct zf_buf summary = { 0 };
	const char *const who[] = { "global", "persistent" };
	double ns[2][2] = { { g1, g2 }, { p1, p1 } };
	int s, t;

	if (!mkdtemp(dir))
		return NULL;
	zf_cols_header(&summary, &zf_summary_table);
	for (s = 0; s < 2; s++)
		for (t = 1; t <= 2; t++)
			zf_buf_printf(&summary, "%s,emulated,thread,%d,compact,2097152,512,7,%g,%g,%g,%g,"
				      "1e8,5,1,,,,,,,,,,,,,,,,,,,,,usemem,0.0,0.0,0.000000,,,0,,,,\n",
				      who[s], t, ns[s][t - 1], ns[s][t - 1] - sd, ns[s][t - 1] + sd, sd);
	write_text(dir, "summary.csv", summary.text);
	zf_buf_free(&summary);
	snprintf(meta, sizeof(meta), "{\"complete\": true, \"probes\": {\"inc_not_zero_ns\": 5.0}, "
		 "\"options\": {\"fault_ns\": %s}}\n", fault_ns);
	write_text(dir, "meta.json", meta);
	text = shown(dir);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		fprintf(stderr, "%s: left behind\n", dir);
	return text;
}

/* show: no ratio from a difference inside the noise, and the get's cost from stress only */
TEST(show_makes_no_ratio_inside_the_noise)
{
	static const struct {
		const char *fault_ns;
		double g1, g2, p1, sd;
		const char *want[2], *not;
	} cases[] = {
		/* a real fault's regime: 0.19 ns over persistent is under ±2 ns; 2 tasks 1 ns up */
		{ "1000", 1000.19, 1001, 1000, 2, { "global - persistent at 1 task (thread, compact): "
		  "not measurable under 1000 ns of work a fault",
		  "2 tasks: inside the noise  (1000.19 -> 1001.00 ns)" }, "inc_not_zero loop: 5.00 ns (" },
		/* stress: 5.40 ns over persistent, spreads of 0.1: a ratio to the bare loop */
		{ "0", 6.0, 12.0, 0.6, 0.1, { "global - persistent at 1 task (thread, compact): 5.40 ns "
		  "± 0.20; bare inc_not_zero loop: 5.00 ns (1.08x)",
		  "2 tasks:    2.00x  (6.00 -> 12.00 ns)" }, "(the difference is inside the noise)" },
		/* stress, but the difference inside the spreads: said, no ratio */
		{ "0", 0.9, 0.9, 0.6, 0.2, { "0.30 ns ± 0.40; bare inc_not_zero loop: 5.00 ns (the "
		  "difference is inside the noise)", "2 tasks: inside the noise  (0.90 -> 0.90 ns)" },
		  "x  (" },
		/* stress, the get's cost as the bare loop's within the noise: no 1.02x of that */
		{ "0", 5.7, 11.4, 0.6, 0.1, { "5.10 ns ± 0.20; bare inc_not_zero loop: 5.00 ns (the "
		  "same, within the noise)", "2 tasks:    2.00x  (5.70 -> 11.40 ns)" }, "(1.02x)" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = shown_costs(cases[i].fault_ns, cases[i].g1, cases[i].g2, cases[i].p1,
					 cases[i].sd);

		ASSERT_TRUE(text != NULL);
		EXPECT_TRUE(strstr(text, cases[i].want[0]) != NULL);
		EXPECT_TRUE(strstr(text, cases[i].want[1]) != NULL);
		EXPECT_TRUE(strstr(text, cases[i].not) == NULL);
		free(text);
	}
}

/* report's headline: no ratio of two strategies whose medians are inside the noise */
TEST(report_headline_makes_no_ratio_inside_the_noise)
{
	struct zf_buf summary = { 0 };
	char line[512];

	zf_cols_header(&summary, &zf_summary_table);
	zf_buf_printf(&summary, "global,emulated,thread,2,compact,2097152,512,7,10,9,11,1,1e8,5,1,"
		      ",,,,,,,,,,,,,,,,,,,,usemem,0.0,0.0,0.000000,,,0,,,,\n"
		      "persistent,emulated,thread,2,compact,2097152,512,7,5,4,6,0.5,2e8,5,1,"
		      ",,,,,,,,,,,,,,,,,,,,usemem,0.0,0.0,0.000000,,,0,,,,\n"
		      "mmflag,emulated,thread,2,compact,2097152,512,7,9.5,9,10,0.5,1.05e8,5,1,"
		      ",,,,,,,,,,,,,,,,,,,,usemem,0.0,0.0,0.000000,,,0,,,,\n");
	ASSERT_TRUE(summary.text != NULL);
	zf_report_headline(summary.text, line, sizeof(line));
	/* 5 ns apart past 1.5 of spread: a ratio; 0.5 ns inside 1.5: none */
	EXPECT_STREQ(line, "At 2 thread tasks (emulated faults), persistent is 2.0× global; "
		     "mmflag inside the noise of global.");
	zf_buf_free(&summary);
}
