// SPDX-License-Identifier: GPL-2.0
/* The default events' CSV columns: see perfcols.h. */
#include <math.h>
#include <stdlib.h>

#include "metrics.h"
#include "perfcols.h"

enum how { PER_FAULT, PER_REP, IPC, MULTIPLEXED };

/* the columns, in order: their names, and what each is made of */
static const struct {
	const char *name, *event;
	enum how how;
} cols[ZF_PERF_NCOLS] = {
	{ "cycles_per_fault", "cycles", PER_FAULT },
	{ "instructions_per_fault", "instructions", PER_FAULT },
	{ "ipc", NULL, IPC },
	{ "cache_references_per_fault", "cache-references", PER_FAULT },
	{ "cache_misses_per_fault", "cache-misses", PER_FAULT },
	{ "l1d_load_misses_per_fault", "L1-dcache-load-misses", PER_FAULT },
	{ "llc_load_misses_per_fault", "LLC-load-misses", PER_FAULT },
	{ "branch_misses_per_fault", "branch-misses", PER_FAULT },
	{ "task_clock_ns_per_fault", "task-clock", PER_FAULT },
	{ "page_faults_per_fault", "page-faults", PER_FAULT },
	{ "context_switches", "context-switches", PER_REP },
	{ "cpu_migrations", "cpu-migrations", PER_REP },
	{ "perf_multiplexed", NULL, MULTIPLEXED },
};

const char *zf_perf_col_name(int c)
{
	return cols[c].name;
}

const char *zf_perf_col_fmt(int c)
{
	return cols[c].how == PER_REP || cols[c].how == MULTIPLEXED ? "%.0f" : "%.4f";
}

/* event i over every task's fault phases; false if it was not counted throughout */
static bool event_total(const struct zf_task_sample *ts, int ntasks, int i, double *total,
			bool *multiplexed)
{
	int k;

	*total = 0;
	for (k = 0; k < ntasks; k++) {
		double v;
		bool mux;

		if (!zf_perf_scaled(&ts[k].perf[ZF_PHASE_FAULT][i], &v, &mux))
			return false;
		*total += v;
		*multiplexed |= mux;
	}
	return true;
}

void zf_perf_rep_cols(const struct zf_perf_list *list, const int *perf_err,
		      const struct zf_task_sample *ts, int ntasks, double *out)
{
	uint64_t faults = 0;
	bool counted = false, multiplexed = false;
	int c, k;

	for (k = 0; k < ntasks; k++)
		faults += ts[k].faults;
	for (c = 0; c < ZF_PERF_NCOLS; c++) {
		int i = cols[c].event && list ? zf_perf_find(list, cols[c].event) : -1;
		double total;

		out[c] = NAN;
		if (i < 0 || perf_err[i] || !faults ||
		    !event_total(ts, ntasks, i, &total, &multiplexed))
			continue;
		counted = true;
		out[c] = cols[c].how == PER_REP ? total : total / faults;
	}
	out[2] = out[0] > 0 ? out[1] / out[0] : NAN;	/* ipc: instructions / cycles */
	out[ZF_PERF_NCOLS - 1] = counted ? multiplexed : NAN;
}

void zf_perf_summary_cols(double *const *reps, unsigned int n, double *out)
{
	double *v = calloc(n ? n : 1, sizeof(*v));
	unsigned int c, r;

	for (c = 0; c < ZF_PERF_NCOLS; c++) {
		out[c] = NAN;
		for (r = 0; v && r < n; r++)
			v[r] = reps[r][c];
		if (!v)
			continue;
		if (cols[c].how == MULTIPLEXED) {
			for (r = 0; r < n; r++)
				if (!isnan(v[r]))
					out[c] = isnan(out[c]) ? v[r] : fmax(out[c], v[r]);
		} else {
			out[c] = zf_median_measured(v, n);
		}
	}
	free(v);
}
