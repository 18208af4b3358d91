/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a sweep's wall time goes, run by run (timing.csv), and --plan's
 * estimate of it made before anything runs, with the same arithmetic.
 */
#ifndef HZF_TIMING_H
#define HZF_TIMING_H

#include "buf.h"
#include "results.h"

/* timing.csv's row: one run, written through the file's column table (cols.h) */
struct zf_timing_row {
	struct zf_config_key key;
	uint64_t round, passes, calibrate_reps;
	double start_ms, calibrate_ms, warmup_ms, measure_ms, stop_ms, wall_ms;
};

/* timing.csv: one row per run of r->runs, in the order they ran */
void zf_timing_csv(const struct zf_results *r, struct zf_buf *b);

/* meta.json's "timing" line: the runs, the set-up and the writing, in seconds */
json_t *zf_timing_json(const struct zf_results *r);

/*
 * What one short probe run of --plan measured here: `tasks` tasks of one
 * strategy, fault mode and task kind, placed compact
 */
struct zf_plan_probe {
	int tasks;
	double fault_ns;		/* the slowest task's time per fault, its teardown in */
	double wall_fault_ns;		/* a repetition's wall per fault (waves, waits in) */
	double rep_extra_ns;		/* a kept repetition's wall beyond its passes */
	double start_ns, stop_ns;	/* the run's start and stop (timing.csv's) */
};

/* one configuration's runs, as --plan works them out */
struct zf_plan_estimate {
	unsigned long passes;		/* what calibration will find */
	unsigned int calibrate_reps;
	double rep_ms;			/* one repetition's wall */
	double first_ms;		/* round 0's run: start, calibration, warm-up, kept, stop */
	double later_ms;		/* each later round's run */
};

/*
 * The runs of n tasks from two probes of the same strategy, fault mode and
 * kind (lo at fewer tasks than hi, or the same): each cost linear in the
 * tasks between them and beyond, never below the lower of the two; a fault
 * costs fault_ns instead where that is not negative (a machine the probes
 * did not run on), and a repetition's wall is its tasks' time there (each
 * its own PU; where a probe here waited beyond its work, it waited for this
 * machine's shared CPUs), or, where by_wall (a lifecycle's waves), in the
 * same proportion as in lo. Then the
 * runner's own arithmetic: calibration from one pass (zf_next_passes) until
 * a repetition lasts min_ms (by its wall too where by_wall: a lifecycle),
 * `warmup` repetitions and one kept.
 */
void zf_plan_estimate(const struct zf_plan_probe *lo, const struct zf_plan_probe *hi, int n,
		      double fault_ns, unsigned long faults_per_pass, unsigned long min_ms,
		      unsigned long warmup, bool by_wall, struct zf_plan_estimate *e);

#endif
