// SPDX-License-Identifier: GPL-2.0
/* Repetition and configuration figures: see metrics.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bench/probe.h"
#include "metrics.h"
#include "stats.h"

double zf_task_get_ns(const struct zf_task_sample *t)
{
	if (!t->timed_gets || !t->timed_empties)
		return NAN;
	return t->get_ns / t->timed_gets - t->empty_ns / t->timed_empties;
}

double zf_median_measured(double *v, size_t n)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[kept++] = v[i];
	return kept ? zf_median(v, kept) : NAN;
}

double zf_rep_overlap(const struct zf_task_sample *tasks, int ntasks)
{
	uint64_t latest_start = 0, earliest_end = UINT64_MAX, longest = 0;
	int i;

	for (i = 0; i < ntasks; i++) {
		const struct zf_task_sample *t = &tasks[i];

		if (t->span_end_ns <= t->span_start_ns)
			return NAN;
		if (t->span_start_ns > latest_start)
			latest_start = t->span_start_ns;
		if (t->span_end_ns < earliest_end)
			earliest_end = t->span_end_ns;
		if (t->span_end_ns - t->span_start_ns > longest)
			longest = t->span_end_ns - t->span_start_ns;
	}
	if (!ntasks)
		return NAN;
	return earliest_end > latest_start ? (double)(earliest_end - latest_start) / longest : 0;
}

const char *zf_flags_name(unsigned int flags, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", !flags ? "ok" : flags & ZF_FLAG_OVERLAP ? "overlap" : "",
		 (flags & ZF_FLAG_OVERLAP) && (flags & ZF_FLAG_CPU_WALL) ? "+" : "",
		 flags & ZF_FLAG_CPU_WALL ? "cpu_wall" : "");
	return buf;
}

/* overlap, CPU over wall time, switches and migrations, and the flags they raise */
static void concurrency_metrics(const struct zf_task_sample *tasks, int ntasks,
				struct zf_rep_metrics *m)
{
	int i;

	m->overlap = zf_rep_overlap(tasks, ntasks);
	m->cpu_wall_min = NAN;
	m->nivcsw = 0;
	m->migrations = 0;
	for (i = 0; i < ntasks; i++) {
		const struct zf_task_sample *t = &tasks[i];
		uint64_t wall = t->span_end_ns - t->span_start_ns;
		double ratio = t->span_end_ns > t->span_start_ns ? (double)t->span_cpu_ns / wall : NAN;

		if (!isnan(ratio) && (isnan(m->cpu_wall_min) || ratio < m->cpu_wall_min))
			m->cpu_wall_min = ratio;
		m->nivcsw += t->nivcsw;
		m->migrations = m->migrations < 0 || t->migrations < 0 ? -1 :
				m->migrations + t->migrations;
	}
	m->flags = 0;
	if (!isnan(m->overlap) && m->overlap < ZF_CONCURRENCY_MIN)
		m->flags |= ZF_FLAG_OVERLAP;
	if (!isnan(m->cpu_wall_min) && m->cpu_wall_min < ZF_CONCURRENCY_MIN)
		m->flags |= ZF_FLAG_CPU_WALL;
}

void zf_rep_metrics(const struct zf_task_sample *tasks, int ntasks, struct zf_rep_metrics *m)
{
	const struct zf_task_sample *slow = &tasks[0], *fast = &tasks[0], *slow_td = &tasks[0];
	int i;

	m->faults = 0;
	m->get_ns_in_fault = 0;
	for (i = 0; i < ntasks; i++) {
		const struct zf_task_sample *t = &tasks[i];

		m->faults += t->faults;
		m->get_ns_in_fault += zf_task_get_ns(t) / ntasks;	/* NAN stays NAN */
		/* compare rates, not times: tasks may differ in fault count */
		if (t->fault_ns * slow->faults > slow->fault_ns * t->faults)
			slow = t;
		if (t->fault_ns * fast->faults < fast->fault_ns * t->faults)
			fast = t;
		if (t->teardown_ns * slow_td->faults > slow_td->teardown_ns * t->faults)
			slow_td = t;
	}
	m->ns_per_fault = slow->faults ? (double)slow->fault_ns / slow->faults : 0;
	m->faults_per_sec = slow->fault_ns ? m->faults * 1e9 / slow->fault_ns : 0;
	m->teardown_ns_per_fault = slow_td->faults ?
				   (double)slow_td->teardown_ns / slow_td->faults : 0;
	m->fairness_min_max = slow->fault_ns && fast->faults ?
		((double)slow->faults / slow->fault_ns) / ((double)fast->faults / fast->fault_ns) : 0;
	concurrency_metrics(tasks, ntasks, m);
}

void zf_summarize(const struct zf_rep_metrics *reps, unsigned int n, struct zf_summary *s)
{
	double *ns = calloc(n ? n : 1, sizeof(double));
	double *fps = calloc(n ? n : 1, sizeof(double));
	double *td = calloc(n ? n : 1, sizeof(double));
	double *fair = calloc(n ? n : 1, sizeof(double));
	double *get = calloc(n ? n : 1, sizeof(double));
	double mean = 0, var = 0;
	unsigned int i;

	s->reps = n;
	s->get_ns_in_fault_median = NAN;
	s->overlap_median = s->cpu_wall_median = NAN;
	s->ci95_lo = s->ci95_hi = s->ci95_pct = NAN;
	s->flagged_reps = 0;
	if (!ns || !fps || !td || !fair || !get)
		goto out;
	s->ns_per_fault_min = n ? reps[0].ns_per_fault : 0;
	s->ns_per_fault_max = s->ns_per_fault_min;
	for (i = 0; i < n; i++) {
		ns[i] = reps[i].ns_per_fault;
		fps[i] = reps[i].faults_per_sec;
		td[i] = reps[i].teardown_ns_per_fault;
		fair[i] = reps[i].fairness_min_max;
		get[i] = reps[i].get_ns_in_fault;
		mean += ns[i] / n;
		s->ns_per_fault_min = fmin(s->ns_per_fault_min, ns[i]);
		s->ns_per_fault_max = fmax(s->ns_per_fault_max, ns[i]);
	}
	for (i = 0; i < n; i++)
		var += (ns[i] - mean) * (ns[i] - mean);
	/* the sample standard deviation; one repetition has none */
	s->ns_per_fault_stddev = n > 1 ? sqrt(var / (n - 1)) : 0;
	s->ns_per_fault_median = zf_median(ns, n);
	s->faults_per_sec_median = zf_median(fps, n);
	s->teardown_ns_per_fault_median = zf_median(td, n);
	s->fairness_min_max_median = zf_median(fair, n);
	s->get_ns_in_fault_median = zf_median_measured(get, n);
	s->flagged_reps = 0;
	for (i = 0; i < n; i++) {
		fair[i] = reps[i].overlap;
		get[i] = reps[i].cpu_wall_min;
		s->flagged_reps += reps[i].flags != 0;
	}
	s->overlap_median = zf_median_measured(fair, n);
	s->cpu_wall_median = zf_median_measured(get, n);
	for (i = 0; i < n; i++)
		ns[i] = reps[i].ns_per_fault;
	if (zf_median_ci95(ns, n, &s->ci95_lo, &s->ci95_hi))
		s->ci95_lo = s->ci95_hi = s->ci95_pct = NAN;
	else
		s->ci95_pct = zf_ci95_pct(s->ns_per_fault_median, s->ci95_lo, s->ci95_hi);
out:
	free(get);
	free(ns);
	free(fps);
	free(td);
	free(fair);
}
