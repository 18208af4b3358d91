// SPDX-License-Identifier: GPL-2.0
/*
 * --plan's arithmetic (timing.h): a configuration's runs worked out from two
 * probes with the runner's own calibration, and the runner's timing.csv
 * parts adding up.
 */
#include <stdlib.h>

#include "../../bench/probe.h"
#include "../../harness/run/runner.h"
#include "../../harness/run/timing.h"
#include "test.h"

/* 1 task: 10 ns a fault, a 0.1 ms barrier, 1 ms start, 0.5 ms stop */
static const struct zf_plan_probe one = {
	.tasks = 1, .fault_ns = 10, .wall_fault_ns = 10, .rep_extra_ns = 1e5, .start_ns = 1e6, .stop_ns = 5e5,
};

TEST(plan_calibrates_as_the_runner_does)
{
	struct zf_plan_estimate e;
	unsigned long passes = 1, reps = 0;
	double took;

	/* 51200 faults of 10 ns: 0.512 ms a pass; 100 ms wants about 215 passes */
	zf_plan_estimate(&one, &one, 1, -1, 51200, 100, 1, false, &e);
	for (;;) {	/* the runner's loop, step by step */
		took = passes * 51200 * 10.0;
		reps++;
		if (took >= 100e6)
			break;
		passes = zf_next_passes(passes, (uint64_t)took, 100);
	}
	EXPECT_EQ(e.passes, passes);
	EXPECT_EQ(e.calibrate_reps, reps);
	EXPECT_TRUE(e.passes * 0.512 >= 100 && e.passes * 0.512 < 130);
	/* a repetition: the passes and the barrier; later rounds: start, warm-up, kept, stop */
	EXPECT_TRUE(e.rep_ms > 100 && e.rep_ms < 130);
	EXPECT_TRUE(e.later_ms > 1.5 + 2 * e.rep_ms - 0.01 && e.later_ms < 1.5 + 2 * e.rep_ms + 0.01);
	/* the first round also calibrates: at least one more repetition's worth */
	EXPECT_TRUE(e.first_ms > e.later_ms + 100);
}

TEST(plan_a_pass_longer_than_min_ms_is_one_repetition)
{
	struct zf_plan_estimate e;

	/* 51200 faults of 2 us: 102 ms a pass against --min-ms 20 */
	struct zf_plan_probe slow = one;

	slow.fault_ns = slow.wall_fault_ns = 2000;
	zf_plan_estimate(&slow, &slow, 1, -1, 51200, 20, 1, false, &e);
	EXPECT_EQ(e.passes, 1);
	EXPECT_EQ(e.calibrate_reps, 1);
	EXPECT_TRUE(e.rep_ms > 102 && e.rep_ms < 103);
}

TEST(plan_costs_are_linear_in_the_tasks_and_never_below_the_lower_probe)
{
	struct zf_plan_probe hi = one, lower = one;
	struct zf_plan_estimate e1, e2, e3, e64, e256;

	/* global-like: 2 tasks cost 200 ns a fault; starting a task costs 1 ms more */
	hi.tasks = 2;
	hi.fault_ns = hi.wall_fault_ns = 200;
	hi.start_ns = 2e6;
	zf_plan_estimate(&one, &hi, 1, -1, 1000, 0, 0, false, &e1);
	zf_plan_estimate(&one, &hi, 2, -1, 1000, 0, 0, false, &e2);
	zf_plan_estimate(&one, &hi, 3, -1, 1000, 0, 0, false, &e3);
	zf_plan_estimate(&one, &hi, 64, -1, 1000, 0, 0, false, &e64);
	zf_plan_estimate(&one, &hi, 256, -1, 1000, 0, 0, false, &e256);
	/* --min-ms 0: one pass a repetition, 1000 faults */
	EXPECT_TRUE(e1.rep_ms > 0.109 && e1.rep_ms < 0.111);	/* 10 us + 0.1 ms */
	EXPECT_TRUE(e2.rep_ms > 0.299 && e2.rep_ms < 0.301);	/* 200 us + 0.1 ms */
	EXPECT_TRUE(e3.rep_ms > 0.489 && e3.rep_ms < 0.491);	/* 390 ns a fault */
	EXPECT_TRUE(e256.rep_ms > 48.5 && e256.rep_ms < 48.7);	/* 48.46 ms + 0.1 */
	/* start: 1 ms more a task, stop flat; no warm-up: one repetition a later round */
	EXPECT_TRUE(e64.later_ms - e64.rep_ms > 64.4 && e64.later_ms - e64.rep_ms < 64.6);
	/* a probe at more tasks that came out cheaper (noise) does not make costs negative */
	lower.tasks = 2;
	lower.fault_ns = lower.wall_fault_ns = 5;
	zf_plan_estimate(&one, &lower, 256, -1, 1000, 0, 0, false, &e256);
	EXPECT_TRUE(e256.rep_ms >= 0.105 - 1e-9);
}

TEST(plan_timing_of_a_real_run_adds_up)
{
	const struct zf_strategy *s = zf_strategy_find("persistent");
	struct zf_run_config cfg = {
		.strategy = s, .kind = ZF_TASK_THREAD, .faults_per_pass = 512, .step = 2 << 20,
		.busy_iters_per_ns = 1, .reps = 2, .warmup = 1, .min_ms = 5, .counter_node = -1,
	};
	struct zf_run_result res;
	struct zf_topo topo;
	struct zf_plan plan;
	char why[256];

	ASSERT_TRUE(!zf_topo_open(&topo, NULL, why, sizeof(why)));
	ASSERT_TRUE(!zf_plan_make(&topo, "compact", 1, &plan, why, sizeof(why)));
	cfg.plan = &plan;
	ASSERT_EQ(zf_run(&cfg, &topo, &res), 0);
	EXPECT_TRUE(res.timing.calibrate_reps >= 1);
	EXPECT_TRUE(res.timing.start_ns > 0 && res.timing.stop_ns > 0);
	/* one warm-up and two kept repetitions of at least 5 ms each */
	EXPECT_TRUE(res.timing.warmup_ns >= 5000000);
	EXPECT_TRUE(res.timing.measure_ns >= 10000000);
	/* a later round reuses the passes: no calibration */
	cfg.passes = res.passes;
	zf_run_result_free(&res);
	ASSERT_EQ(zf_run(&cfg, &topo, &res), 0);
	EXPECT_EQ(res.timing.calibrate_reps, 0);
	EXPECT_TRUE(res.timing.calibrate_ns < 1000000);
	zf_run_result_free(&res);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}

TEST(plan_a_lifecycle_calibrates_on_its_wall_waves_in)
{
	struct zf_plan_estimate work, wall;
	/* every task waits for the wave: a pass's wall twice its work */
	struct zf_plan_probe waves = one;

	waves.wall_fault_ns = 20;
	/* on the work alone (100 ms of it), a repetition would last twice min_ms */
	zf_plan_estimate(&waves, &waves, 1, -1, 64, 100, 0, false, &work);
	EXPECT_TRUE(work.passes * 64 * 10.0 >= 100e6);
	EXPECT_TRUE(work.rep_ms > 200 && work.rep_ms < 260);
	/* a lifecycle, as the runner calibrates it: min_ms of wall, waits in */
	zf_plan_estimate(&waves, &waves, 1, -1, 64, 100, 0, true, &wall);
	EXPECT_TRUE(wall.passes * 64 * 20.0 >= 100e6);
	EXPECT_TRUE(wall.rep_ms >= 100 && wall.rep_ms < 130);
	EXPECT_TRUE(wall.passes < work.passes);
}

TEST(plan_elsewhere_a_repetition_lasts_its_tasks_waves_kept)
{
	struct zf_plan_estimate use, life;
	/* here a pass's wall came out 2.5 times its work (the probe waited for a CPU) */
	struct zf_plan_probe waited = one;

	waited.wall_fault_ns = 25;
	/* another machine, 20 ns a fault: each task on its own PU, the wall is the work */
	zf_plan_estimate(&waited, &waited, 256, 20, 64, 100, 0, false, &use);
	EXPECT_TRUE(use.passes * 64 * 20.0 >= 100e6);
	EXPECT_TRUE(use.rep_ms >= 100 && use.rep_ms < 130);
	/* a lifecycle's waves are its own: the wall keeps lo's proportion, 50 ns */
	zf_plan_estimate(&waited, &waited, 256, 20, 64, 100, 0, true, &life);
	EXPECT_TRUE(life.passes * 64 * 50.0 >= 100e6);
	EXPECT_TRUE(life.rep_ms >= 100 && life.rep_ms < 130);
	EXPECT_TRUE(life.passes < use.passes);
}

TEST(plan_calibration_lands_near_min_ms_not_at_twice)
{
	struct zf_plan_estimate e;
	struct zf_plan_probe kernel = one;

	/* 8192 faults of 2 us: 16.4 ms a pass; 6 passes are 98 ms, 7 are 115 ms */
	kernel.fault_ns = kernel.wall_fault_ns = 2000;
	EXPECT_EQ(zf_next_passes(1, 16384000, 100), 7);
	EXPECT_EQ(zf_next_passes(6, 98304000, 100), 7);
	zf_plan_estimate(&kernel, &kernel, 1, -1, 8192, 100, 1, false, &e);
	EXPECT_TRUE(e.rep_ms >= 100 && e.rep_ms < 130);
	/* a guess that comes out short grows by one at least */
	EXPECT_EQ(zf_next_passes(7, 99999999, 100), 8);
}
