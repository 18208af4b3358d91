/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tasks of a run do, one table per workload, after fio's
 * ioengine_ops and refscale's ref_scale_ops: the runner (runner.c) and its
 * tasks (tasks.c) start, pin, barrier, watch, warm up, calibrate and check
 * every workload alike, and call these hooks for the work itself. A hook is
 * called once a pass at most: the measured loops inside a pass (bench/usemem.h)
 * stay inlined, with no indirect call per fault.
 *
 * Adding a workload: a workload_NAME.c ending in its table, its extern
 * below, one value in enum zf_workload (runner.h) and one line in runner.c's
 * workloads[].
 */
#ifndef HZF_WORKLOAD_H
#define HZF_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner.h"

struct zf_task;

/* what one task holds at its peak, mid-pass, in bytes (resneed.c) */
struct zf_task_memory {
	uint64_t page_tables;		/* the kernel's, for its region */
	uint64_t slots;			/* its own "page table" */
	uint64_t region;		/* real pages, where the kernel does not map the folio */
	uint64_t per_fault;		/* what one more fault a pass adds to the three */
	uint64_t address_space;		/* its region's mapping */
};

struct zf_workload_ops {
	const char *name;		/* --workload's word, samples.csv's workload */
	const char *unit;		/* what a sample's faults count: "fault", "request" */
	unsigned int folios_per_task;	/* the folio pool: this many a task, and two */
	/*
	 * A repetition's length, for calibration to --min-ms: its wall (lifecycle's
	 * waves, each as long as its slowest life) where set, else the slowest
	 * task's timed work
	 */
	bool calibrate_by_wall;
	/* a pass is one --size region: --plan's probe takes a part of it */
	bool sized_pass;
	/* the task's own memory, on its node (t->table): 0, or -errno with why */
	int (*task_init)(struct zf_task *t, char *why, size_t len);
	void (*task_fini)(struct zf_task *t);
	/*
	 * The memory a task of cfg holds at its peak; mapped: whether the
	 * kernel maps the huge zero folio on read faults. NULL: none of its own.
	 */
	void (*task_memory)(const struct zf_run_config *cfg, bool mapped,
			    struct zf_task_memory *m);
	/* untimed, before a repetition's first pass; NULL: nothing */
	void (*rep_start)(struct zf_task *t);
	/* before every pass but the first (lifecycle: the wave); NULL: nothing */
	void (*between_passes)(struct zf_task *t);
	/*
	 * One pass, its timed parts added to t->sample (fault_ns, teardown_ns);
	 * last: the repetition's last. 0, or -errno with why.
	 */
	int (*pass)(struct zf_task *t, bool last, char *why, size_t len);
	/* after the last pass (zeroout: the requests in flight complete); NULL: nothing */
	void (*rep_end)(struct zf_task *t);
};

extern const struct zf_workload_ops zf_workload_usemem;
extern const struct zf_workload_ops zf_workload_lifecycle;
extern const struct zf_workload_ops zf_workload_zeroout;

/* the table of w */
const struct zf_workload_ops *zf_workload_ops(enum zf_workload w);

#endif
