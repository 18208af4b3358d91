/* SPDX-License-Identifier: GPL-2.0 */
/* A sweep: every configuration of strategies x task kinds x placements x task counts. */
#ifndef HZF_SWEEP_H
#define HZF_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "parse.h"
#include "perfctr.h"
#include "resources.h"
#include "runner.h"
#include "topo.h"

struct zf_sweep {
	const struct zf_strategy **strategies;
	size_t nstrategies;
	enum zf_task_kind *kinds;
	size_t nkinds;
	enum zf_fault_mode *faults;
	size_t nfaults;
	char **placements;
	size_t nplacements;
	long *tasks;
	size_t ntasks;
	/* the same for every configuration */
	unsigned long long size, step;
	unsigned long fault_ns, reps, warmup, min_ms;
	bool reps_auto;			/* --reps auto: until the median's interval is narrow */
	bool mm_atomics;		/* --mm-atomics: emulated faults count the mm's tables */
	unsigned long max_reps;		/* --reps auto: at most this many */
	unsigned long min_reps;		/* --reps auto: at least this many (6: five give no 95%) */
	double target_ci_pct;		/* --reps auto: the interval's half-width, % of the median */
	struct zf_sched sched;		/* --sched: each task's policy; policy -1: inherited */
	const char *tag;		/* --tag: kept in meta.json and summary.csv */
	unsigned long shrink_hz;	/* the shrinker's scans per second meanwhile; 0: none */
	unsigned long watchdog_s;	/* a task silent this long fails the run; 0: the default */
	enum zf_workload workload;
	int counter_node;
	struct zf_perf_list events;	/* counted by every task of every run */
	bool events_given;		/* --events was typed: a refusal fails the run */
	bool profile;			/* sample where each task's time goes */
	const struct zf_kallsyms *kallsyms;	/* --profile: set by zf_sweep_run; NULL: none */
	const struct zf_strategy *inject;	/* --inject-ns: this strategy gets inject_ns more */
	unsigned long inject_ns;
	const char *out;		/* NULL: results/<time>-<host> */
	bool quiet;			/* no progress and no table */
	bool plan;			/* --plan: the estimate only, nothing run */
	char *dir_out;			/* when set: the folder written, dir_out_len bytes at most */
	size_t dir_out_len;
	int argc;
	char **argv;
	/* meta.json's "options", from the option table (zf_opt_meta); NULL: none */
	struct json_t *options;
};

/*
 * The configuration of index c, in sweep order: placement, fault mode, task
 * kind, task count, strategy innermost (plans: placement-major, as
 * zf_sweep_run makes them). False for a combination that does not exist
 * (`native` on emulated faults).
 */
bool zf_sweep_config(const struct zf_sweep *sw, struct zf_plan *plans, size_t c,
		     double busy_iters_per_ns, struct zf_run_config *cfg);
/*
 * --plan: the configurations, their rounds and the estimated wall time,
 * from short probe runs here and the runner's arithmetic (timing.h); prints
 * the plan, writes nothing. 0, or 1 when a probe failed.
 */
int zf_sweep_plan(struct zf_sweep *sw, struct zf_topo *topo, struct zf_plan *plans);
/* 0 when every configuration ran and passed its checks; 2 for a bad plan; else 1 */
int zf_sweep_run(struct zf_sweep *sw, struct zf_topo *topo);
/* what a sweep needs of the machine (sweepneed.c) */
struct zf_sweep_needs {
	struct zf_res_need fds, tasks, memory;	/* the configurations needing most of each */
	size_t fds_at, tasks_at, memory_at;	/* their indices */
	uint64_t samples;			/* the bytes of samples kept by the end */
	struct zf_res_limits limits;		/* this machine's, as read */
	long refused;				/* the first configuration short here, or -1 */
	enum zf_res_short short_of;		/* and what it is short of */
	char why[640];
};

/*
 * Every configuration's needs, and on this machine (not HWLOC_SYNTHETIC's)
 * each checked against its limits: 0, or -1 with refused naming the first
 * configuration short of something
 */
int zf_sweep_needs(const struct zf_sweep *sw, const struct zf_topo *topo, struct zf_plan *plans,
		   struct zf_sweep_needs *out);
/* the refusal's one line: the option, its value, the configuration, why */
void zf_sweep_needs_refusal(const struct zf_sweep *sw, struct zf_plan *plans,
			    const struct zf_sweep_needs *nd);
/* --plan's lines: the largest configuration's memory, fds and tasks, and the limits here */
void zf_sweep_needs_print(const struct zf_sweep *sw, const struct zf_topo *topo,
			  struct zf_plan *plans, const struct zf_sweep_needs *nd, FILE *out);
/* the lists the command line filled in: strategies, kinds, faults, placements, tasks */
void zf_sweep_free(struct zf_sweep *sw);

#endif
