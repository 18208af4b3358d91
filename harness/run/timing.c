// SPDX-License-Identifier: GPL-2.0
/* timing.csv, and --plan's arithmetic: see timing.h. */
#include <math.h>
#include <string.h>

#include "timing.h"

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static uint64_t run_wall_ns(const struct zf_run_timing *t)
{
	return t->start_ns + t->calibrate_ns + t->warmup_ns + t->measure_ns + t->stop_ns;
}

/* seconds to the millisecond, as they were printed */
static json_t *seconds(uint64_t ns)
{
	return json_real(round(ns / 1e6) / 1e3);
}

json_t *zf_timing_json(const struct zf_results *r)
{
	uint64_t runs = 0;
	size_t i;

	for (i = 0; i < r->nruns; i++)
		runs += run_wall_ns(&r->runs[i].timing);
	return json_pack("{s:I, s:o, s:o, s:o}", "runs", (json_int_t)r->nruns,
			 "runs_s", seconds(runs), "setup_s", seconds(r->setup_ns),
			 "write_s", seconds(r->write_ns));
}

#define UINT(f)	ZF_COL(struct zf_timing_row, ZF_COL_UINT, f, NULL)
#define MS(f)	ZF_COL(struct zf_timing_row, ZF_COL_NUM, f, "%.3f")
static const struct zf_col timing_cols[] = {
	ZF_COL_KEY(struct zf_timing_row),
	UINT(round), UINT(passes), UINT(calibrate_reps),
	MS(start_ms), MS(calibrate_ms), MS(warmup_ms), MS(measure_ms), MS(stop_ms), MS(wall_ms),
};
static const struct zf_col_table timing_table = ZF_COL_TABLE_OF(timing_cols);

void zf_timing_csv(const struct zf_results *r, struct zf_buf *b)
{
	size_t i;

	zf_cols_header(b, &timing_table);
	for (i = 0; i < r->nruns; i++) {
		const struct zf_run_record *run = &r->runs[i];
		const struct zf_run_timing *t = &run->timing;
		struct zf_timing_row row = {
			.round = run->round, .passes = run->passes,
			.calibrate_reps = t->calibrate_reps, .start_ms = ms(t->start_ns),
			.calibrate_ms = ms(t->calibrate_ns), .warmup_ms = ms(t->warmup_ns),
			.measure_ms = ms(t->measure_ns), .stop_ms = ms(t->stop_ns),
			.wall_ms = ms(run_wall_ns(t)),
		};

		zf_results_key(&r->configs[run->config].cfg, &row.key);
		zf_cols_row(b, &timing_table, &row, true);
	}
}

/* a cost at n tasks, from its values at lo and hi tasks */
static double at_tasks(double v_lo, double v_hi, int lo, int hi, int n)
{
	double slope = hi > lo ? (v_hi - v_lo) / (hi - lo) : 0, v = v_lo + slope * (n - lo);
	double floor = v_lo < v_hi ? v_lo : v_hi;

	return v > floor ? v : floor;
}

void zf_plan_estimate(const struct zf_plan_probe *lo, const struct zf_plan_probe *hi, int n,
		      double fault_ns, unsigned long faults_per_pass, unsigned long min_ms,
		      unsigned long warmup, bool by_wall, struct zf_plan_estimate *e)
{
	double extra_ns = at_tasks(lo->rep_extra_ns, hi->rep_extra_ns, lo->tasks, hi->tasks, n);
	double start_ns = at_tasks(lo->start_ns, hi->start_ns, lo->tasks, hi->tasks, n);
	double stop_ns = at_tasks(lo->stop_ns, hi->stop_ns, lo->tasks, hi->tasks, n);
	double wall_ns = at_tasks(lo->wall_fault_ns, hi->wall_fault_ns, lo->tasks, hi->tasks, n);
	double pass_ns;

	double took_ns, calib_ns = 0;
	unsigned long passes = 1;

	if (fault_ns < 0)
		fault_ns = at_tasks(lo->fault_ns, hi->fault_ns, lo->tasks, hi->tasks, n);
	else if (by_wall && lo->fault_ns > 0)
		wall_ns = fault_ns * lo->wall_fault_ns / lo->fault_ns;	/* the waves */
	else
		wall_ns = fault_ns;	/* each task its own PU: the slowest one's time */
	if (wall_ns < fault_ns)
		wall_ns = fault_ns;	/* a repetition lasts its slowest task at least */
	pass_ns = faults_per_pass * (fault_ns > 0.001 ? fault_ns : 0.001);
	memset(e, 0, sizeof(*e));
	/* the runner's loop: a repetition of `passes`, until it lasts min_ms */
	for (;;) {
		double rep_wall_ns = passes * faults_per_pass * wall_ns + extra_ns;

		took_ns = passes * pass_ns;
		if (by_wall && rep_wall_ns > took_ns)
			took_ns = rep_wall_ns;
		calib_ns += rep_wall_ns;
		e->calibrate_reps++;
		if (took_ns >= min_ms * 1e6 || e->calibrate_reps >= 64)
			break;
		passes = zf_next_passes(passes, (uint64_t)took_ns, min_ms);
	}
	e->passes = passes;
	e->rep_ms = (passes * faults_per_pass * wall_ns + extra_ns) / 1e6;
	e->later_ms = (start_ns + stop_ns) / 1e6 + (warmup + 1) * e->rep_ms;
	e->first_ms = e->later_ms + calib_ns / 1e6;
}
