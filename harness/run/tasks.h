/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tasks of one run and how the runner drives them: a control block in
 * MAP_SHARED memory, one slot of results per task, threads or processes.
 * Internal to the runner (runner.c).
 */
#ifndef HZF_TASKS_H
#define HZF_TASKS_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../../bench/usemem.h"
#include "runner.h"
#include "workload.h"

enum { CMD_RUN, CMD_QUIT };

struct zf_ctl {
	_Atomic uint32_t gen __attribute__((aligned(ZF_LINE)));
	int cmd;
	unsigned long passes;
	_Atomic uint32_t arrived __attribute__((aligned(ZF_LINE)));
	_Atomic uint32_t start_sleepers;	/* asleep on arrived: the last one in wakes them */
	_Atomic uint32_t done __attribute__((aligned(ZF_LINE)));
	_Atomic uint32_t ready;
	_Atomic uint32_t ended;		/* tasks out of task_main, their memory freed */
	_Atomic int abort;
	/* lifecycle: every task's next life starts together (a wave) */
	_Atomic uint32_t wave_arrived __attribute__((aligned(ZF_LINE)));
	_Atomic uint32_t wave_gen __attribute__((aligned(ZF_LINE)));
	_Atomic uint32_t wave_sleepers;	/* asleep on wave_gen: the last one in wakes them */
};

/* one task's lines: written by that task alone */
struct zf_task_slot {
	struct zf_stats st __attribute__((aligned(ZF_LINE)));
	struct zf_task_sample sample __attribute__((aligned(ZF_LINE)));
	unsigned long read_sum, fallbacks;
	int perf_err[ZF_PERF_MAX_EVENTS];	/* what perf_event_open said, per event */
	int profile_err;			/* and for the sampling event */
	int cpu_seen, failed;
	int numa_moved;			/* page table pages moved onto its node (zf_numa_settle) */
	char error[256];
	/* a pass ended: the watchdog's sign of life, on a line of its own */
	_Atomic unsigned long beat __attribute__((aligned(ZF_LINE)));
} __attribute__((aligned(ZF_LINE)));

struct zf_runner {
	const struct zf_run_config *cfg;
	const struct zf_workload_ops *ops;	/* cfg->workload's */
	struct zf_topo *topo;
	struct zf_ctl *ctl;
	struct zf_task_slot *slots;
	size_t shm_len;
	struct zf_shared *zs;
	struct zf_mm **mm;		/* per task (threads: all the same one) */
	int nmm;
	pthread_t *threads;
	pid_t *pids;
	struct zf_stats st;		/* the runner's own: init, thread-mode mm exits */
	_Atomic unsigned long shrink_frees;	/* --shrink-hz: the shrinker's, as it goes */
	int *cpu_node, ncpu_node;	/* every CPU's node, made before the tasks start */
	int *plan_pus, nplan_pus;	/* the plan's distinct PUs (steal and idle over them) */
	bool plan_unbound;		/* a task is unbound: every PU's instead */
	bool stuck;			/* the watchdog fired: threads are not joined, nor
					 * the memory they use freed, the process ends */
};

/* a task's perf counters, their last reading, and its sampler (--profile) */
struct zf_task_perf {
	struct zf_perf_task pt;
	struct zf_perf_value last[ZF_PERF_MAX_EVENTS];
	struct zf_sampler smp;
	bool sampling;
};

/* one task, as its workload's hooks (workload.h) see it: on the task's own stack */
struct zf_task {
	struct zf_runner *r;
	int id;
	struct zf_task_slot *slot;
	struct zf_pass pass;		/* the mm, the counts; usemem's page table */
	void *table;			/* the task's own memory, on its node (numa_verify) */
	size_t table_len;
	struct zf_task_perf tp;
	struct zf_task_sample *sample;	/* the repetition's, as it fills */
	uint64_t anon_base_kb, huge_base_kb;	/* usemem on kernel faults: at the rep's start */
	void *work;			/* the workload's own state, if it has any */
};

/* the counts since the last reading added to phase (-1: to none) */
void zf_task_perf_mark(struct zf_task_perf *tp, struct zf_task_sample *sample, int phase);
/* every task's next pass starts together (lifecycle's waves) */
void zf_task_wave(struct zf_task *t);

/* start every task: each binds itself and makes its page table, then waits */
int zf_tasks_start(struct zf_runner *r, struct zf_run_result *res);
/* until every task is ready; then the first failure a task reported */
int zf_tasks_ready(struct zf_runner *r, struct zf_run_result *res);
/* one timed repetition of ctl passes by every task, from one barrier */
int zf_tasks_rep(struct zf_runner *r, unsigned long passes, struct zf_run_result *res);
/* tell every task to end (after a failure: kill), and reap them */
int zf_tasks_stop(struct zf_runner *r, struct zf_run_result *res, bool failed);

#endif
