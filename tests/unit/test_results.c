// SPDX-License-Identifier: GPL-2.0
/* File formats: CSV and JSON written and read back, atomic writes, /proc and /sys text, figures. */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../harness/buf.h"
#include "../../harness/csv.h"
#include "../../harness/json.h"
#include "../../harness/metrics.h"
#include "../../harness/sysinfo.h"
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

TEST(json_written_and_read_back)
{
	struct zf_buf b = { 0 };
	char out[128];

	zf_buf_printf(&b, "{\"host\": ");
	zf_buf_json_str(&b, "a \"quoted\"\\name\n");
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
