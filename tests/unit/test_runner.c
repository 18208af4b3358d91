// SPDX-License-Identifier: GPL-2.0
/*
 * The runner on this machine with real threads, processes, binding and
 * libnuma: every fault accounted for, every invariant checked, a failure
 * reported and not hung.
 */
#include <stdlib.h>
#include <string.h>

#include "../../bench/probe.h"
#include "../../bench/tick.h"
#include "../../bench/usemem.h"
#include "../../harness/run/numa.h"
#include "../../harness/run/runner.h"
#include "../../harness/run/zeroout.h"
#include "test.h"

static int small_run(const struct zf_strategy *s, enum zf_task_kind kind, int ntasks,
		     const char *placement, struct zf_run_result *res, struct zf_topo *topo,
		     struct zf_plan *plan)
{
	struct zf_run_config cfg = {
		.strategy = s,
		.kind = kind,
		.plan = plan,
		.faults_per_pass = 512,
		.step = 2 << 20,
		.mm_atomics = true,	/* as run's default: every mm's count checked at its exit */
		.busy_iters_per_ns = 1,
		.reps = 3,
		.warmup = 1,
		.min_ms = 5,
		.counter_node = -1,
	};
	char why[256];

	if (zf_plan_make(topo, placement, ntasks, plan, why, sizeof(why)))
		return -1;
	return zf_run(&cfg, topo, res);
}

static void runs_and_accounts(struct zf_test *_t, enum zf_task_kind kind)
{
	const struct zf_strategy *const *s;
	struct zf_topo topo;
	char why[256];
	int ntasks;

	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	ntasks = topo.pus >= 2 ? 2 : 1;
	for (s = zf_strategies; *s; s++) {
		struct zf_run_result res;
		struct zf_plan plan;
		unsigned int r;
		int i, err;

		if (!(*s)->fault_pass)
			continue;	/* native: real faults only */
		err = small_run(*s, kind, ntasks, "compact", &res, &topo, &plan);
		if (err)
			fprintf(stderr, "  %s: %s\n", (*s)->name, res.error);
		EXPECT_EQ(err, 0);
		EXPECT_EQ(res.reps, 3);
		EXPECT_TRUE(res.passes >= 1);
		for (r = 0; r < res.reps; r++) {
			for (i = 0; i < ntasks; i++) {
				struct zf_task_sample *ts = &res.samples[r * ntasks + i];

				EXPECT_EQ(ts->faults, res.passes * 512);
				EXPECT_TRUE(ts->fault_ns > 0);
			}
		}
		/* every fault was a get and was zapped */
		EXPECT_EQ(res.total.gets, res.total.zaps);
		EXPECT_TRUE(res.total.gets >= (unsigned long)ntasks * 4 * res.passes * 512);
		if (*s == &zf_strategy_global)
			EXPECT_EQ(res.total.ref_gets, res.total.gets);
		if (*s == &zf_strategy_persistent)
			EXPECT_EQ(res.total.ref_gets, 1);
		if (*s == &zf_strategy_mmflag && kind == ZF_TASK_PROCESS)
			/* one global reference per mm lifetime: per pass per process */
			EXPECT_EQ(res.total.ref_gets, res.total.mm_exits);
		for (i = 0; i < ntasks; i++) {
			EXPECT_EQ(res.cpu_seen[i], plan.pu[i]);
			if (zf_numa_available())
				EXPECT_EQ(res.mm_node[i], plan.node[i]);
		}
		if (zf_numa_available())
			EXPECT_EQ(res.counter_node, plan.node[0]);
		zf_run_result_free(&res);
		zf_plan_free(&plan);
	}
	zf_topo_close(&topo);
}

TEST(threads_run_and_every_fault_is_accounted)
{
	runs_and_accounts(_t, ZF_TASK_THREAD);
}

TEST(processes_run_and_every_fault_is_accounted)
{
	runs_and_accounts(_t, ZF_TASK_PROCESS);
}

TEST(a_task_that_cannot_bind_fails_the_run)
{
	struct zf_run_config cfg = {
		.strategy = &zf_strategy_global,
		.kind = ZF_TASK_PROCESS,
		.faults_per_pass = 8,
		.step = 4096,
		.reps = 1,
		.min_ms = 1,
		.counter_node = -1,
	};
	int pu = 99999, node = -1, core = -1, package = -1;
	char placement[] = "cpus:99999";
	struct zf_plan plan = { placement, 1, &pu, &core, &package, &node };
	struct zf_run_result res;
	struct zf_topo topo;
	char why[256];

	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	cfg.plan = &plan;
	EXPECT_TRUE(zf_run(&cfg, &topo, &res) != 0);
	EXPECT_TRUE(strstr(res.error, "task 0: bind to PU 99999") != NULL);
	zf_run_result_free(&res);
	cfg.kind = ZF_TASK_THREAD;
	EXPECT_TRUE(zf_run(&cfg, &topo, &res) != 0);
	EXPECT_TRUE(strstr(res.error, "task 0: bind to PU 99999") != NULL);
	zf_run_result_free(&res);
	zf_topo_close(&topo);
}

/*
 * A lifecycle repetition longer than the watchdog is not silent while its
 * waves turn: 16 process tasks, unbound, on this machine's few CPUs, where
 * waiting tasks sleep so that the ones a wave waits for get the CPUs.
 */
TEST(lifecycle_waves_feed_the_watchdog_with_more_tasks_than_cpus)
{
	struct zf_run_config cfg = {
		.strategy = &zf_strategy_persistent,
		.kind = ZF_TASK_PROCESS,
		.workload = ZF_WORKLOAD_LIFECYCLE,
		.faults_per_pass = 64,
		.step = 2 << 20,
		.fault_ns = 20000,
		.busy_iters_per_ns = 1,
		.passes = 150,
		.reps = 1,
		.counter_node = -1,
		.watchdog_ms = 300,
	};
	struct zf_run_result res;
	struct zf_topo topo;
	struct zf_plan plan;
	char why[256];
	int i;

	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	ASSERT_EQ(zf_plan_make(&topo, "none", 16, &plan, why, sizeof(why)), 0);
	cfg.plan = &plan;
	i = zf_run(&cfg, &topo, &res);
	if (i)
		fprintf(stderr, "  %s\n", res.error);
	EXPECT_EQ(i, 0);
	EXPECT_EQ(res.reps, 1);
	/* the repetition outlasted the watchdog: its waves, not its end, kept it fed */
	EXPECT_TRUE(res.kernel[0].wall_ns > cfg.watchdog_ms * 1000000ULL);
	for (i = 0; i < 16 && res.reps == 1; i++)
		EXPECT_EQ(res.samples[i].faults, 150 * 64);
	/* every life ended: one mm exit a life a task, the warm-up's none */
	EXPECT_EQ(res.total.mm_exits, 16 * 150);
	zf_run_result_free(&res);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}

/* zeroout's file: 256 MiB a task where memory holds it, shared stretches where not */
TEST(zeroout_file_stays_within_its_budget_at_any_task_count)
{
	const uint64_t M = 1ULL << 20, G = 1ULL << 30;
	int n, tasks[] = { 1, 2, 64, 1024, 4096 };
	unsigned int i;
	uint64_t span;

	span = zf_zeroout_span(16 * G, 4, 64 * M, &n);
	EXPECT_EQ(span, 256 * M);
	EXPECT_EQ(n, 4);
	/* the 64-CPU guest: 8 GiB, a quarter of ~7 GiB available */
	span = zf_zeroout_span(1792 * M, 64, 64 * M, &n);
	EXPECT_EQ(span, 64 * M);
	EXPECT_EQ(n, 28);
	for (i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++) {
		span = zf_zeroout_span(2 * G, tasks[i], 6 * M, &n);
		EXPECT_TRUE(span % (6 * M) == 0 && span >= 6 * M && span <= 256 * M);
		EXPECT_TRUE(n >= 1 && n <= tasks[i]);
		EXPECT_TRUE(span * (uint64_t)n <= 2 * G);
	}
	/* a budget under one request: one stretch of one request */
	span = zf_zeroout_span(M, 8, 64 * M, &n);
	EXPECT_EQ(span, 64 * M);
	EXPECT_EQ(n, 1);
}

/*
 * zeroout through the runner: every task's requests counted, each folio
 * pinned for a request released by the repetition's end (the strategies'
 * invariants hold), the file sink's bytes written where the stretches are
 */
TEST(zeroout_requests_run_through_the_runner_and_release_every_pin)
{
	static const char *const names[] = { "global", "mmflag", "percpu", "persistent" };
	struct zf_zeroout_work work = { .seg = ZF_ZEROOUT_FOLIO, .nseg = 3, .fd = -1 }, to_file;
	struct zf_run_config cfg = {
		.kind = ZF_TASK_THREAD,
		.workload = ZF_WORKLOAD_ZEROOUT,
		.work = &work,
		.faults_per_pass = 1,
		.passes = 11,		/* not a multiple of the depth: requests in flight at the end */
		.reps = 2,
		.warmup = 1,
		.counter_node = -1,
		.watchdog_ms = 60000,
		.sched_policy = -1,
	};
	struct zf_run_result res;
	struct zf_topo topo;
	struct zf_plan plan;
	char why[256];
	unsigned int k, r;
	int i, ntasks, err, stretches;
	uint64_t span;
	FILE *file;

	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	ntasks = topo.pus >= 2 ? 2 : 1;
	ASSERT_EQ(zf_plan_make(&topo, "compact", ntasks, &plan, why, sizeof(why)), 0);
	cfg.plan = &plan;
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		cfg.strategy = zf_strategy_find(names[k]);
		err = zf_run(&cfg, &topo, &res);
		if (err)
			fprintf(stderr, "  %s: %s\n", names[k], res.error);
		EXPECT_EQ(err, 0);
		EXPECT_EQ(res.reps, 2);
		for (r = 0; r < res.reps; r++)
			for (i = 0; i < ntasks; i++) {
				const struct zf_task_sample *t = &res.samples[r * ntasks + i];

				EXPECT_EQ(t->faults, 11);
				EXPECT_EQ(t->segments, 11 * 3);
				EXPECT_EQ(t->bytes, 11UL * 3 * ZF_ZEROOUT_FOLIO);
				EXPECT_EQ(t->write_calls, 0);
				EXPECT_TRUE(t->fault_ns > 0);
			}
		zf_run_result_free(&res);
	}
	/* the page sink to a file: one pwritev() a request of 3 segments */
	span = zf_zeroout_span(1 << 20, ntasks, 3 * ZF_ZEROOUT_PAGE, &stretches);
	file = tmpfile();
	ASSERT_TRUE(file != NULL);
	to_file = (struct zf_zeroout_work){ .seg = ZF_ZEROOUT_PAGE, .nseg = 3,
					    .fd = fileno(file), .span = span, .stretches = stretches };
	cfg.work = &to_file;
	cfg.strategy = &zf_strategy_global;
	err = zf_run(&cfg, &topo, &res);
	EXPECT_EQ(err, 0);
	for (i = 0; !err && i < ntasks; i++)
		EXPECT_EQ(res.samples[i].write_calls, 11);
	zf_run_result_free(&res);
	fclose(file);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}

/*
 * On a steady counter the busy work is a deadline: a call of n ticks never
 * ends before n ticks have passed, however fast the core runs, and ends soon
 * after (a few reads of the counter, a preemption aside: the median of 21)
 */
TEST(busy_work_on_the_counter_is_a_deadline)
{
	const char *unit = zf_busy_setup();
	uint64_t took[21], t0, least = ~0ULL;
	double over[21];
	int i;

	EXPECT_TRUE(!strcmp(unit, "tsc") || !strcmp(unit, "cntvct") || !strcmp(unit, "loop"));
	if (strcmp(unit, "loop")) {
		for (i = 0; i < 21; i++) {
			t0 = zf_tick();
			zf_busy(20000);
			took[i] = zf_tick() - t0;
			over[i] = (double)took[i] - 20000;
			least = took[i] < least ? took[i] : least;
		}
		EXPECT_TRUE(least >= 20000);
		EXPECT_TRUE(zf_median(over, 21) < 2000);
	}
	/* and the same unit a second time: chosen once */
	EXPECT_TRUE(zf_busy_setup() == unit);
}

/* --fault-ns's calibration: a call of the iterations it gives takes about NS; the end's check */
TEST(busy_calibration_at_and_its_recheck)
{
	struct zf_probe p = { 0 };

	/* nothing calibrated at --fault-ns 0: nothing to check again */
	zf_probe_measure(&p, 0);
	EXPECT_TRUE(p.busy_ns == 0 && p.busy_iters == 0 && p.busy_iters_per_ns > 0);
	EXPECT_TRUE(zf_probe_recheck(&p) == 0 && p.busy_ipn_end == 0);
	/* at 500 ns: iterations and a measured call, their ratio the rate; the end's rate set */
	zf_probe_measure(&p, 500);
	EXPECT_TRUE(p.busy_ns == 500 && p.busy_iters > 0 && p.busy_call_ns > 0);
	EXPECT_TRUE(p.busy_iters_per_ns > 0 && p.busy_iters_per_ns * p.busy_call_ns > p.busy_iters - 1 &&
		    p.busy_iters_per_ns * p.busy_call_ns < p.busy_iters + 1);
	EXPECT_TRUE(zf_probe_recheck(&p) >= 0 && p.busy_ipn_end > 0);
}
