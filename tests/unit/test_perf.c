// SPDX-License-Identifier: GPL-2.0
/* perf_event counters: event lists, real counter groups, scaling, empty-not-zero columns. */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>

#include "../../harness/out/cols.h"
#include "../../harness/out/perfcols.h"
#include "../../harness/run/perfctr.h"
#include "test.h"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

TEST(event_lists_take_generic_names_and_raw_codes)
{
	struct zf_perf_list l;
	char bad[64];
	const char *why;

	ASSERT_EQ(zf_perf_parse(zf_perf_default_events, &l, bad, sizeof(bad), &why), 0);
	EXPECT_EQ(l.n, 11);
	ASSERT_EQ(zf_perf_parse("cycles,r01d3,LLC-load-misses,cs", &l, bad, sizeof(bad), &why), 0);
	EXPECT_EQ(l.n, 4);
	EXPECT_EQ(l.ev[0].type, PERF_TYPE_HARDWARE);
	EXPECT_EQ(l.ev[0].config, PERF_COUNT_HW_CPU_CYCLES);
	EXPECT_EQ(l.ev[1].type, PERF_TYPE_RAW);
	EXPECT_EQ(l.ev[1].config, 0x1d3);
	EXPECT_EQ(l.ev[2].type, PERF_TYPE_HW_CACHE);
	EXPECT_EQ(l.ev[2].config, PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	EXPECT_EQ(l.ev[3].type, PERF_TYPE_SOFTWARE);
	EXPECT_EQ(zf_perf_find(&l, "cpu-cycles"), 0);	/* the same event by another name */
	EXPECT_EQ(zf_perf_find(&l, "context-switches"), 3);
	EXPECT_EQ(zf_perf_find(&l, "instructions"), -1);
	ASSERT_EQ(zf_perf_parse("none", &l, bad, sizeof(bad), &why), 0);
	EXPECT_EQ(l.n, 0);
}

TEST(bad_event_lists_are_refused_naming_the_word)
{
	static const char *const lists[][2] = {
		{ "cycles,bogus", "bogus" }, { "cycles,,instructions", "" }, { "rxyz", "rxyz" },
		{ "r", "r" }, { "cycles,cycles", "cycles" }, { "r12345678901234567", "r12345678901234567" },
		{ "cs,cs,cs", "cs" },
	};
	struct zf_perf_list l;
	char bad[64];
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const char *why = NULL;

		EXPECT_TRUE(zf_perf_parse(lists[i][0], &l, bad, sizeof(bad), &why) != 0);
		EXPECT_STREQ(bad, lists[i][1]);
		EXPECT_TRUE(why != NULL);
	}
	{
		const char *why = NULL;

		/* 17 events: one too many */
		EXPECT_TRUE(zf_perf_parse("r1,r2,r3,r4,r5,r6,r7,r8,r9,ra,rb,rc,rd,re,rf,r10,r11", &l,
					  bad, sizeof(bad), &why) != 0);
		EXPECT_STREQ(why, "too many events (16 at most)");
	}
}

/* real counters on this task: software ones count, groups leave no fd behind */
TEST(counter_groups_open_count_and_close_without_leaks)
{
	struct zf_perf_list l;
	struct zf_perf_value v[ZF_PERF_MAX_EVENTS];
	struct zf_perf_task t;
	char bad[64];
	const char *why;
	int before, i, clock, faults;
	volatile unsigned long spin;

	ASSERT_EQ(zf_perf_parse(zf_perf_default_events, &l, bad, sizeof(bad), &why), 0);
	clock = zf_perf_find(&l, "task-clock");
	faults = zf_perf_find(&l, "page-faults");
	before = open_fds();
	for (i = 0; i < 1000; i++) {
		zf_perf_open(&t, &l);
		zf_perf_close(&t);
	}
	EXPECT_EQ(open_fds(), before);
	zf_perf_open(&t, &l);
	if (t.err[clock])
		SKIP("task-clock cannot be opened here");
	zf_perf_start(&t);
	for (spin = 0; spin < 20000000; spin++)
		;
	ASSERT_EQ(zf_perf_read(&t, v), 0);
	EXPECT_TRUE(v[clock].count > 1000000);	/* over a ms of task-clock, in ns */
	EXPECT_TRUE(v[clock].running_ns > 0 && v[clock].running_ns <= v[clock].enabled_ns);
	EXPECT_EQ(t.err[faults], 0);
	/* an event the kernel has no such thing for: kept unopened with its errno */
	for (i = 0; i < (int)l.n; i++)
		EXPECT_TRUE(t.err[i] ? t.fd[i] < 0 : t.fd[i] >= 0);
	zf_perf_close(&t);
	EXPECT_EQ(open_fds(), before);
}

TEST(an_impossible_event_is_refused_and_its_column_left_empty)
{
	static const struct zf_col perf_col[] = { { "", ZF_COL_PERF, NULL, 0, NULL } };
	static const struct zf_col_table perf_only = ZF_COL_TABLE_OF(perf_col);
	struct zf_perf_list l = { .n = 2 };
	struct zf_task_sample ts[1] = { { .faults = 100 } };
	double cols[ZF_PERF_NCOLS];
	struct zf_perf_task t;
	int err[ZF_PERF_MAX_EVENTS] = { 0 };
	struct zf_buf b = { 0 };

	l.ev[0] = (struct zf_perf_event){ .name = "cycles", .type = PERF_TYPE_HARDWARE,
					   .config = PERF_COUNT_HW_MAX + 7 };
	l.ev[1] = (struct zf_perf_event){ .name = "page-faults", .type = PERF_TYPE_SOFTWARE,
					   .config = PERF_COUNT_SW_PAGE_FAULTS };
	zf_perf_open(&t, &l);
	EXPECT_TRUE(t.err[0] != 0);
	EXPECT_EQ(t.fd[0], -1);
	memcpy(err, t.err, sizeof(err));
	zf_perf_close(&t);
	/* what the task saw: no page faults in 1000 ns, counted all along */
	ts[0].perf[ZF_PHASE_FAULT][1] = (struct zf_perf_value){ 0, 1000, 1000 };
	zf_perf_rep_cols(&l, err, ts, 1, cols);
	EXPECT_TRUE(isnan(cols[0]));		/* cycles: refused, not zero */
	EXPECT_TRUE(isnan(cols[2]));		/* so no ipc either */
	EXPECT_TRUE(cols[9] == 0.0);		/* page faults: a real zero */
	EXPECT_TRUE(isnan(cols[1]));		/* instructions: not asked for */
	EXPECT_TRUE(cols[12] == 0.0);		/* not multiplexed */
	zf_cols_row(&b, &perf_only, cols, true);	/* as summary.csv and samples.csv write them */
	EXPECT_STREQ(b.text, ",,,,,,,,,0.0000,,,0\n");
	zf_buf_free(&b);
}

TEST(multiplexed_counts_are_scaled_and_flagged)
{
	struct zf_perf_value half = { 500, 2000, 1000 }, full = { 7, 10, 10 }, never = { 0, 10, 0 };
	double v;
	bool mux;

	EXPECT_TRUE(zf_perf_scaled(&half, &v, &mux));
	EXPECT_TRUE(v == 1000.0 && mux);
	EXPECT_TRUE(zf_perf_scaled(&full, &v, &mux));
	EXPECT_TRUE(v == 7.0 && !mux);
	EXPECT_TRUE(!zf_perf_scaled(&never, &v, &mux));	/* it never ran: no value at all */
}

/* a loop placed among the strategies' get() code, and one outside it */
__attribute__((section("hzf_get"), noinline, used)) static void spin_in_get(unsigned long n)
{
	volatile unsigned long i;

	for (i = 0; i < n; i++)
		;
}

__attribute__((noinline)) static void spin_elsewhere(unsigned long n)
{
	volatile unsigned long i;

	for (i = 0; i < n; i++)
		;
}

/* cpu-clock samples land where the time goes, told apart by address */
TEST(samples_are_attributed_to_get_by_address)
{
	struct zf_profile in = { 0 }, out = { 0 };
	struct zf_sampler s;
	int err;

	err = zf_sampler_open(&s, 100000, __start_hzf_get, __stop_hzf_get,
			      __start_hzf_put, __stop_hzf_put, NULL);
	if (err == -EACCES || err == -EPERM)
		SKIP("perf_event_paranoid refuses cpu-clock sampling");
	ASSERT_EQ(err, 0);
	zf_sampler_enable(&s, true);
	spin_in_get(200000000);
	zf_sampler_enable(&s, false);
	zf_sampler_drain(&s, &in);
	zf_sampler_enable(&s, true);
	spin_elsewhere(200000000);
	zf_sampler_enable(&s, false);
	zf_sampler_drain(&s, &out);
	zf_sampler_close(&s);
	printf("  in get: %lu of %lu samples; elsewhere: %lu of %lu in get, %lu lost\n",
	       (unsigned long)in.get, (unsigned long)(in.get + in.put + in.other),
	       (unsigned long)out.get, (unsigned long)(out.get + out.put + out.other),
	       (unsigned long)(in.lost + out.lost));
	EXPECT_TRUE(in.get + in.other > 100);	/* some tenths of a second at 10 kHz */
	EXPECT_TRUE(in.get > 9 * (in.put + in.other));
	EXPECT_TRUE(out.other > 100);
	EXPECT_TRUE(out.get * 20 < out.other);
	EXPECT_EQ(in.put + out.put, 0);
}

/*
 * The hardware smoke test: where the PMU counts cycles, a busy loop has
 * them, and the per-fault columns are filled. Skipped where it does not
 * (this KVM machine: ENOENT for every hardware event).
 */
TEST(hardware_counters_count_where_there_is_a_pmu)
{
	struct zf_perf_list l;
	struct zf_perf_value v[ZF_PERF_MAX_EVENTS];
	struct zf_task_sample ts[1] = { { .faults = 1000 } };
	double cols[ZF_PERF_NCOLS];
	struct zf_perf_task t;
	char bad[64];
	const char *why;
	volatile unsigned long spin;

	ASSERT_EQ(zf_perf_parse("cycles,instructions,cache-misses", &l, bad, sizeof(bad), &why), 0);
	zf_perf_open(&t, &l);
	if (t.err[0]) {
		zf_perf_close(&t);
		SKIP("no hardware PMU here: cycles cannot be opened");
	}
	zf_perf_start(&t);
	for (spin = 0; spin < 10000000; spin++)
		;
	ASSERT_EQ(zf_perf_read(&t, v), 0);
	zf_perf_close(&t);
	EXPECT_TRUE(v[0].count > 10000000);	/* at least a cycle an iteration */
	EXPECT_TRUE(t.err[1] || v[1].count > 10000000);
	memcpy(ts[0].perf[ZF_PHASE_FAULT], v, sizeof(v));
	zf_perf_rep_cols(&l, t.err, ts, 1, cols);
	EXPECT_TRUE(cols[0] > 10000);		/* cycles per "fault" */
	EXPECT_TRUE(t.err[2] || !isnan(cols[4]));	/* cache misses per fault */
}

TEST(a_paranoid_refusal_gets_a_hint_naming_the_knob)
{
	char buf[256];

	EXPECT_TRUE(zf_perf_hint(EACCES, buf, sizeof(buf)) != NULL);
	EXPECT_TRUE(strstr(buf, "/proc/sys/kernel/perf_event_paranoid is ") != NULL);
	EXPECT_TRUE(zf_perf_hint(EPERM, buf, sizeof(buf)) != NULL);
	EXPECT_TRUE(zf_perf_hint(ENOENT, buf, sizeof(buf)) == NULL);
}
