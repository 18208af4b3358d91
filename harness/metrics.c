// SPDX-License-Identifier: GPL-2.0
/* Repetition and configuration figures: see metrics.h. */
#include <math.h>
#include <stdlib.h>

#include "../bench/probe.h"
#include "metrics.h"

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
out:
	free(get);
	free(ns);
	free(fps);
	free(td);
	free(fair);
}
