/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Start tasks (threads sharing one mm, or processes with one mm each), put
 * them through one barrier per repetition, time each task's fault phase and
 * teardown, collect, and check the strategy's invariants afterwards.
 */
#ifndef HZF_RUNNER_H
#define HZF_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "../../bench/strategy.h"
#include "numa.h"
#include "perfctr.h"
#include "topo.h"

enum zf_task_kind { ZF_TASK_THREAD, ZF_TASK_PROCESS };
enum zf_fault_mode { ZF_FAULT_EMULATED, ZF_FAULT_KERNEL };

const char *zf_task_kind_name(enum zf_task_kind kind);
int zf_task_kind_parse(const char *s, enum zf_task_kind *kind);
const char *zf_fault_mode_name(enum zf_fault_mode fault);
int zf_fault_mode_parse(const char *s, enum zf_fault_mode *fault);

enum zf_workload {
	ZF_WORKLOAD_USEMEM,		/* usemem --readonly: every task one long region */
	ZF_WORKLOAD_LIFECYCLE,		/* waves of short lives, each an mm of its own */
	ZF_WORKLOAD_ZEROOUT,		/* mm-less users zeroing storage (hzfbench zeroout) */
};

struct zf_run_config {
	const struct zf_strategy *strategy;
	enum zf_task_kind kind;
	enum zf_fault_mode fault;
	const struct zf_plan *plan;
	unsigned long faults_per_pass;
	unsigned long step;
	unsigned long fault_ns;		/* busy work per fault */
	bool mm_atomics;		/* emulated faults count the mm's page-table bytes */
	double busy_iters_per_ns;	/* from zf_busy_calibrate() */
	unsigned int reps, warmup;
	unsigned long min_ms;		/* a repetition lasts at least this */
	unsigned long passes;		/* per repetition; 0: calibrate to min_ms */
	int counter_node;		/* -1: the first task's node */
	const struct zf_perf_list *events;	/* perf events each task counts; NULL: none */
	bool profile;			/* sample where the time goes (get/put called out of line) */
	const struct zf_kallsyms *kallsyms;	/* --profile: names kernel samples; NULL: not */
	unsigned long shrink_hz;	/* the strategy's shrinker scans this often; 0: never */
	enum zf_workload workload;	/* its hooks: workload.h */
	const void *work;		/* the workload's own configuration (zeroout's requests) */
	unsigned long watchdog_ms;	/* a task silent this long fails the run; 0: never */
	int sched_policy, sched_priority;	/* each task's; policy -1: as inherited */
};

enum { ZF_PHASE_FAULT, ZF_PHASE_TEARDOWN, ZF_PHASES };

/* what one task did in one repetition */
struct zf_task_sample {
	uint64_t fault_ns;
	uint64_t teardown_ns;
	uint64_t faults;		/* the workload's units: faults, zeroout's requests */
	/* zeroout: what its requests held and wrote */
	uint64_t segments, bytes, write_calls;
	/* kernel faults only: what the kernel says this task did */
	uint64_t minflt;		/* page faults in the fault phases */
	uint64_t rss_growth_kb;		/* Anonymous growth while the region was mapped */
	uint64_t anon_huge_kb;		/* AnonHugePages growth while the region was mapped */
	/* ns inside the timed halves of the fault loop (usemem.h), and how many of each */
	double get_ns, empty_ns;
	uint64_t timed_gets, timed_empties;
	/* perf events (cfg->events order) over each phase of every pass */
	struct zf_perf_value perf[ZF_PHASES][ZF_PERF_MAX_EVENTS];
	struct zf_profile prof;		/* --profile: where the samples fell */
	/*
	 * The repetition's timed part, from its first pass's start to its last
	 * pass's end (faults and the teardowns between them): whether the
	 * tasks ran at the same time (overlap) and on their CPUs (CPU time
	 * over wall time; steal, preemption and waiting all lower it)
	 */
	uint64_t span_start_ns, span_end_ns;	/* CLOCK_MONOTONIC */
	uint64_t span_cpu_ns;		/* this task's CPU time over it */
	uint64_t nivcsw;		/* involuntary context switches over it */
	int64_t migrations;		/* se.nr_migrations over it; -1 where unreadable */
	double steal_pct, idle_pct;	/* its PU's (every PU's, unbound) over the
					 * repetition, from /proc/stat; NAN unknown */
	int policy;			/* sched_getscheduler() in the repetition */
	struct zf_numa_seen seen;	/* where it ran and its memory was, at its start */
};

/* one repetition: system-wide THP counters (kernel faults only), and the folio's life */
struct zf_rep_kernel {
	uint64_t thp_zero_page_alloc;
	uint64_t thp_fault_fallback;
	uint64_t wall_ns;		/* from the tasks' start to the last one's end */
	uint64_t allocs, frees;		/* folios allocated and freed meanwhile */
	uint64_t alloc_ns;		/* the tasks' time in allocating (zeroing 2 MiB) */
	double steal_pct, idle_pct;	/* the plan's PUs over the repetition; NAN unknown */
};

/* where one run's wall time went: timing.csv, and what --plan is checked against */
struct zf_run_timing {
	uint64_t start_ns;		/* shared state made, tasks started and ready */
	uint64_t calibrate_ns;		/* the repetitions that chose the passes */
	unsigned int calibrate_reps;
	uint64_t one_pass_took_ns;	/* calibration's first: one pass, its slowest task */
	uint64_t one_pass_wall_ns;	/* and its wall (--plan tells a pass from the rest) */
	uint64_t warmup_ns;		/* the repetitions not kept */
	uint64_t measure_ns;		/* the kept repetitions, each verified */
	uint64_t stop_ns;		/* tasks stopped, invariants checked, memory freed */
};

struct zf_run_result {
	unsigned int reps;
	unsigned long passes;		/* per repetition, after calibration */
	int ntasks;
	struct zf_task_sample *samples;	/* reps x ntasks */
	struct zf_rep_kernel *kernel;	/* reps; kernel faults only */
	int *mm_node;			/* per task: where its mm is; -1 unknown */
	int *cpu_seen;			/* per task: sched_getcpu() at its end */
	int counter_node;		/* where the counter's line is; -1 unknown */
	int perf_err[ZF_PERF_MAX_EVENTS];	/* per event: 0 counted, else why it could not be */
	int profile_err;		/* --profile: 0, or why sampling could not start */
	struct zf_stats total;		/* every task's counters and the runner's */
	struct zf_run_timing timing;
	int numa_moved;			/* pages the kernel put off their bound node, moved back */
	/*
	 * What failed: tasks, PUs and nodes by number, a strategy's name, an
	 * errno's text, never a placement or a CPU list (sweep names the
	 * placement beside it), so that the longest fits whole
	 */
	char error[512];
};

/*
 * Task i of cfg where its plan put it? zf_numa_check() with the plan's PU and
 * node, and the mm's planned node (threads share task 0's mm)
 */
int zf_task_numa_check(const struct zf_run_config *cfg, int i, const struct zf_numa_seen *s,
		       char *buf, size_t len);

/*
 * Calibration's next guess: the passes that make a repetition whose `passes`
 * took took_ns last 10% over min_ms, rounded up, one more at least and at
 * most a thousand times as many (the runner's rule, and --plan's). Not
 * doubled: a pass of 16.4 ms against 100 ms gives 7 passes, 115 ms, where
 * doubling from 6 (98 ms) gave 12, 197 ms, twice the repetition asked for.
 */
unsigned long zf_next_passes(unsigned long passes, uint64_t took_ns, unsigned long min_ms);

/* 0, or -errno with res->error saying what happened */
const char *zf_workload_name(enum zf_workload w);
int zf_run(const struct zf_run_config *cfg, struct zf_topo *topo,
	   struct zf_run_result *res);
void zf_run_result_free(struct zf_run_result *res);

#endif
