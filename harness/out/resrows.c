// SPDX-License-Identifier: GPL-2.0
/*
 * A configuration's rows in summary.csv and counters.csv, filled from what
 * it kept of its runs and written through their column tables
 * (rescols.c), and summary.csv's as stats.json's members: see resrows.h.
 * The rows of every repetition, task and event are streamed as each run
 * is added (resrun.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "perfcols.h"
#include "rescols.h"
#include "resrows.h"
#include "statsjson.h"

/* per repetition: what summary.csv takes the medians of */
struct reps {
	struct zf_rep_metrics *m;
	double (*perf)[ZF_PERF_NCOLS];
	double **perf_at;		/* each repetition's perf, for zf_perf_summary_cols() */
	double *get_share, *put_share, *allocs_per_sec, *frees_per_sec, *alloc_share;
	double *kernel[3];		/* kernel_share, kernel_get_share, kernel_put_share */
};

static void reps_free(struct reps *p)
{
	free(p->m);
	free(p->perf);
	free(p->perf_at);
	free(p->get_share);
	free(p->put_share);
	free(p->allocs_per_sec);
	free(p->frees_per_sec);
	free(p->alloc_share);
	free(p->kernel[0]);
	free(p->kernel[1]);
	free(p->kernel[2]);
}

static int reps_alloc(struct reps *p, unsigned int n)
{
	size_t k = n ? n : 1;

	p->m = calloc(k, sizeof(*p->m));
	p->perf = calloc(k, sizeof(*p->perf));
	p->perf_at = calloc(k, sizeof(*p->perf_at));
	p->get_share = calloc(k, sizeof(double));
	p->put_share = calloc(k, sizeof(double));
	p->allocs_per_sec = calloc(k, sizeof(double));
	p->frees_per_sec = calloc(k, sizeof(double));
	p->alloc_share = calloc(k, sizeof(double));
	p->kernel[0] = calloc(k, sizeof(double));
	p->kernel[1] = calloc(k, sizeof(double));
	p->kernel[2] = calloc(k, sizeof(double));
	if (p->m && p->perf && p->perf_at && p->get_share && p->put_share && p->allocs_per_sec &&
	    p->frees_per_sec && p->alloc_share && p->kernel[0] && p->kernel[1] && p->kernel[2])
		return 0;
	reps_free(p);
	return -1;
}

/* what summary.csv takes the medians of, from c's kept repetitions into p */
static void reps_fill(struct reps *p, const struct zf_config_result *c)
{
	unsigned int i;

	for (i = 0; i < c->reps; i++) {
		const struct zf_rep_kept *k = &c->rep[i];

		p->m[i] = k->m;
		memcpy(p->perf[i], k->perf, sizeof(p->perf[i]));
		p->perf_at[i] = p->perf[i];
		p->get_share[i] = k->get_share;
		p->put_share[i] = k->put_share;
		p->kernel[0][i] = k->kernel_share;
		p->kernel[1][i] = k->kernel_get_share;
		p->kernel[2][i] = k->kernel_put_share;
		p->allocs_per_sec[i] = k->allocs_per_sec;
		p->frees_per_sec[i] = k->frees_per_sec;
		p->alloc_share[i] = k->alloc_share;
	}
}

/* summary.csv's row of c: the medians over its repetitions */
static void summary_row(struct zf_results_csv *f, const struct zf_results *r,
			const struct zf_config_result *c, const struct reps *p)
{
	struct zf_summary s;
	struct zf_summary_row row;

	zf_summarize(p->m, c->reps, &s);
	row = (struct zf_summary_row){
		.reps = s.reps, .ns_per_fault_median = s.ns_per_fault_median,
		.ns_per_fault_min = s.ns_per_fault_min, .ns_per_fault_max = s.ns_per_fault_max,
		.ns_per_fault_stddev = s.ns_per_fault_stddev,
		.faults_per_sec_median = s.faults_per_sec_median,
		.teardown_ns_per_fault_median = s.teardown_ns_per_fault_median,
		.fairness_min_max = s.fairness_min_max_median,
		.get_ns_in_fault_median = s.get_ns_in_fault_median,
		.get_share_of_fault = s.ns_per_fault_median > 0 ?
				      s.get_ns_in_fault_median / s.ns_per_fault_median : NAN,
		.get_share = zf_median_measured(p->get_share, c->reps),
		.put_share = zf_median_measured(p->put_share, c->reps),
		.workload = zf_workload_name(c->cfg.workload),
		.allocs_per_sec_median = zf_median_measured(p->allocs_per_sec, c->reps),
		.frees_per_sec_median = zf_median_measured(p->frees_per_sec, c->reps),
		.alloc_share_median = zf_median_measured(p->alloc_share, c->reps),
		.overlap_median = s.overlap_median, .cpu_wall_median = s.cpu_wall_median,
		.flagged_reps = s.flagged_reps, .ci95_lo = s.ci95_lo, .ci95_hi = s.ci95_hi,
		.ci95_pct = s.ci95_pct, .tag = r->tag ? r->tag : "",
	};
	zf_results_key(&c->cfg, &row.key);
	zf_perf_summary_cols(p->perf_at, c->reps, row.perf);
	row.kernel_share = zf_median_measured(p->kernel[0], c->reps);
	row.kernel_get_share = zf_median_measured(p->kernel[1], c->reps);
	row.kernel_put_share = zf_median_measured(p->kernel[2], c->reps);
	zf_cols_row(&f->summary, &zf_summary_table, &row, true);
	if (zf_stats_json_row(f->stats, &row)) {
		json_decref(f->stats);
		f->stats = NULL;
	}
}

/* counters.csv's row of c: every run of it added up */
static void counters_row(struct zf_buf *b, const struct zf_config_result *c)
{
	const struct zf_stats *t = &c->total;
	struct zf_counters_row row = {
		.passes = c->passes, .counter_node = c->counter_node, .gets = t->gets,
		.puts = t->puts, .zaps = t->zaps, .mm_exits = t->mm_exits, .ref_gets = t->ref_gets,
		.ref_puts = t->ref_puts, .counter_touches = t->counter_touches,
		.cas_retries = t->cas_retries, .allocs = t->allocs, .frees = t->frees,
		.alloc_races_lost = t->alloc_races_lost, .alloc_failures = t->alloc_failures,
		.shrinks = t->shrinks, .broken = t->broken,
		.counter_touches_per_fault = t->gets ? (double)t->counter_touches / t->gets : 0.0,
		.alloc_ns = t->alloc_ns,
	};

	zf_results_key(&c->cfg, &row.key);
	zf_cols_row(b, &zf_counters_table, &row, true);
}

void zf_results_csv_begin(struct zf_results_csv *f)
{
	*f = (struct zf_results_csv){ 0 };
	zf_cols_header(&f->summary, &zf_summary_table);
	zf_cols_header(&f->counters, &zf_counters_table);
	zf_cols_header(&f->profile, &zf_profile_table);
	f->stats = json_object();
}

void zf_results_csv_config(struct zf_results_csv *f, const struct zf_results *r,
			   const struct zf_config_result *c)
{
	struct reps p;

	if (reps_alloc(&p, c->reps)) {
		f->summary.oom = 1;
		return;
	}
	reps_fill(&p, c);
	summary_row(f, r, c, &p);
	counters_row(&f->counters, c);
	zf_results_profile_rows(&f->profile, r, c);
	reps_free(&p);
}

void zf_results_csv_free(struct zf_results_csv *f)
{
	zf_buf_free(&f->summary);
	zf_buf_free(&f->counters);
	zf_buf_free(&f->profile);
	json_decref(f->stats);
}
