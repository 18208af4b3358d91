/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From what each task did to the figures of a repetition, and from
 * repetitions to a configuration's summary (usemem's convention: a run is as
 * fast as its slowest task).
 */
#ifndef HZF_METRICS_H
#define HZF_METRICS_H

#include <stddef.h>

#include "runner.h"

struct zf_rep_metrics {
	uint64_t faults;		/* all tasks */
	double ns_per_fault;		/* slowest task's fault phase / its faults */
	double faults_per_sec;		/* all tasks' faults / slowest task's fault phase */
	double teardown_ns_per_fault;	/* slowest task's teardown / its faults */
	double fairness_min_max;	/* slowest task's fault rate / fastest's */
	double get_ns_in_fault;		/* kernel faults: mean over tasks; NAN otherwise */
	double overlap;			/* zf_rep_overlap(); NAN where not measured */
	double cpu_wall_min;		/* the lowest task's CPU time over wall time */
	uint64_t nivcsw;		/* involuntary context switches, all tasks */
	int64_t migrations;		/* all tasks; -1 where any could not be read */
	unsigned int flags;		/* ZF_FLAG_*: the tasks did not all run together */
};

/* below this, a repetition's overlap or CPU/wall flags it */
#define ZF_CONCURRENCY_MIN	0.9
enum { ZF_FLAG_OVERLAP = 1, ZF_FLAG_CPU_WALL = 2 };

struct zf_summary {
	unsigned int reps;
	double ns_per_fault_median, ns_per_fault_min, ns_per_fault_max, ns_per_fault_stddev;
	double faults_per_sec_median;
	double teardown_ns_per_fault_median;
	double fairness_min_max_median;
	double get_ns_in_fault_median;	/* NAN where no repetition has one */
	double overlap_median, cpu_wall_median;	/* NAN where not measured */
	unsigned int flagged_reps;	/* repetitions with any ZF_FLAG_* */
	/* the median ns/fault's 95% confidence interval (zf_median_ci95); NAN below 6 reps */
	double ci95_lo, ci95_hi, ci95_pct;
};

/*
 * The share of the slowest task's span (the longest) during which every
 * task was inside its own span: 1.0 all ran together the whole time, 0.5
 * half of it. NAN when a span was not measured.
 */
double zf_rep_overlap(const struct zf_task_sample *tasks, int ntasks);
/* "ok", or what flags says joined by '+': "overlap", "cpu_wall" */
const char *zf_flags_name(unsigned int flags, char *buf, size_t len);

/* the median of v's values that are not NAN (v is reordered); NAN if none is */
double zf_median_measured(double *v, size_t n);
/* what get() took inside one task's real faults (usemem.h); NAN where not timed */
double zf_task_get_ns(const struct zf_task_sample *t);

void zf_rep_metrics(const struct zf_task_sample *tasks, int ntasks, struct zf_rep_metrics *m);
void zf_summarize(const struct zf_rep_metrics *reps, unsigned int n, struct zf_summary *s);

#endif
