// SPDX-License-Identifier: GPL-2.0
/*
 * A configuration's rows in samples.csv, tasks.csv, perf.csv, summary.csv
 * and counters.csv, each filled from what was kept of its runs and written
 * through its column table (rescols.c): see resrows.h.
 */
#define _GNU_SOURCE	/* SCHED_BATCH, SCHED_IDLE */
#include <math.h>
#include <sched.h>
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

/*
 * --profile: samples in get() and put() over all of a repetition's, every
 * task's; in the kernel, and (named by kallsyms) in its get and put
 */
static void rep_shares(const struct zf_results *r, const struct zf_task_sample *ts, int ntasks,
		       struct zf_samples_row *row)
{
	uint64_t g = 0, p = 0, all = 0, kernel = 0, kget = 0, kput = 0;
	int k;

	for (k = 0; k < ntasks; k++) {
		g += ts[k].prof.get;
		p += ts[k].prof.put;
		all += ts[k].prof.get + ts[k].prof.put + ts[k].prof.other;
		kernel += ts[k].prof.kernel;
		kget += ts[k].prof.kernel_get;
		kput += ts[k].prof.kernel_put;
	}
	if (r->profile && !r->profile_err && all) {
		row->profile_samples = (int64_t)all;
		row->get_share = (double)g / all;
		row->put_share = (double)p / all;
		row->kernel_share = (double)kernel / all;
	}
	if (r->profile && !r->profile_err && all && r->kallsyms) {
		row->kernel_get_share = (double)kget / all;
		row->kernel_put_share = (double)kput / all;
	}
}

/* samples.csv's kernel columns: left empty for emulated faults, never a made-up zero */
static void kernel_sample(const struct zf_config_result *c, unsigned int rep,
			  struct zf_samples_row *row, char *verdict, size_t len)
{
	const struct zf_task_sample *ts = &c->samples[(size_t)rep * c->cfg.plan->ntasks];
	uint64_t faults = 0, minflt = 0, rss = 0, anon = 0;
	int k;

	if (c->cfg.fault != ZF_FAULT_KERNEL)
		return;
	for (k = 0; k < c->cfg.plan->ntasks; k++) {
		faults += ts[k].faults;
		minflt += ts[k].minflt;
		rss = ts[k].rss_growth_kb > rss ? ts[k].rss_growth_kb : rss;
		anon = ts[k].anon_huge_kb > anon ? ts[k].anon_huge_kb : anon;
	}
	row->thp_zero_page_alloc = (int64_t)c->kernel[rep].thp_zero_page_alloc;
	row->thp_fault_fallback = (int64_t)c->kernel[rep].thp_fault_fallback;
	row->minflt_per_fault = faults ? (double)minflt / faults : 0.0;
	row->rss_growth_kb = (int64_t)rss;
	row->anon_huge_kb = (int64_t)anon;
	row->kernel_check = zf_results_rep_verdict(c, rep, verdict, len);
}

/* every task where its plan put it ("ok"), or "" where nothing could be told */
static const char *numa_sample(const struct zf_run_config *cfg, const struct zf_task_sample *ts,
			       char *buf, size_t len)
{
	const struct zf_plan *plan = cfg->plan;
	char what[64];
	bool told = false;
	int k;

	buf[0] = '\0';
	for (k = 0; k < plan->ntasks; k++) {
		if (zf_task_numa_check(cfg, k, &ts[k].seen, what, sizeof(what))) {
			/* a run that differed failed, but a kept row says it all the same */
			snprintf(buf, len, "task %d %s", k, what);
			return buf;
		}
		if (!buf[0] && !strncmp(what, "unread:", 7))
			snprintf(buf, len, "task %d %s", k, what);
		told = told || what[0];
	}
	return buf[0] ? buf : told ? "ok" : "";
}

static const char *const phase_names[ZF_PHASES] = { "fault", "teardown" };

/* perf.csv: every counted event of every task, phase and repetition */
static void perf_rows(struct zf_buf *b, const struct zf_results *r,
		      const struct zf_config_result *c, unsigned int rep,
		      const struct zf_task_sample *ts)
{
	struct zf_perf_row row = { .rep = rep };
	int k, ph;
	size_t i;

	zf_results_key(&c->cfg, &row.key);
	for (k = 0; r->events && k < c->cfg.plan->ntasks; k++)
		for (ph = 0; ph < ZF_PHASES; ph++)
			for (i = 0; i < r->events->n; i++) {
				const struct zf_perf_value *v = &ts[k].perf[ph][i];
				double scaled;
				bool mux;

				if (r->perf_err[i])
					continue;	/* in meta.json's unsupported_events instead */
				row.task = (uint64_t)k;
				row.phase = phase_names[ph];
				row.event = r->events->ev[i].name;
				row.count = v->count;
				row.time_enabled_ns = v->enabled_ns;
				row.time_running_ns = v->running_ns;
				row.scaled_count = row.per_fault = NAN;	/* it never ran */
				row.multiplexed = -1;
				if (zf_perf_scaled(v, &scaled, &mux) && ts[k].faults) {
					row.scaled_count = scaled;
					row.multiplexed = mux;
					row.per_fault = scaled / ts[k].faults;
				}
				zf_cols_row(b, &zf_perf_table, &row, true);
			}
}

/* samples.csv's row of repetition rep; its figures for summary.csv into p */
static void samples_row(struct zf_buf *b, const struct zf_results *r,
			const struct zf_config_result *c, unsigned int rep, struct reps *p)
{
	const struct zf_run_config *cfg = &c->cfg;
	int ntasks = cfg->plan->ntasks;
	const struct zf_task_sample *ts = &c->samples[(size_t)rep * ntasks];
	const struct zf_rep_kernel *l = &c->kernel[rep];	/* the folio's life over it */
	const struct zf_rep_metrics *m = &p->m[rep];
	double wall = l->wall_ns / 1e9;
	char verdict[64], flags[32], numa[80];
	struct zf_samples_row row;

	zf_rep_metrics(ts, ntasks, &p->m[rep]);
	zf_cols_unmeasured(&zf_samples_table, &row);
	zf_results_key(cfg, &row.key);
	row.rep = rep;
	row.passes = c->passes;
	row.faults = m->faults;
	row.ns_per_fault = m->ns_per_fault;
	row.faults_per_sec = m->faults_per_sec;
	row.teardown_ns_per_fault = m->teardown_ns_per_fault;
	row.fairness_min_max = m->fairness_min_max;
	kernel_sample(c, rep, &row, verdict, sizeof(verdict));
	row.get_ns_in_fault = m->get_ns_in_fault;
	zf_perf_rep_cols(r->events, r->perf_err, ts, ntasks, p->perf[rep]);
	p->perf_at[rep] = p->perf[rep];
	memcpy(row.perf, p->perf[rep], sizeof(row.perf));
	rep_shares(r, ts, ntasks, &row);
	row.wall_ns = l->wall_ns;
	row.allocs = l->allocs;
	row.frees = l->frees;
	row.alloc_ns = l->alloc_ns;
	row.workload = zf_workload_name(cfg->workload);
	row.overlap = m->overlap;
	row.cpu_wall_min = m->cpu_wall_min;
	row.steal_pct = l->steal_pct;
	row.idle_pct = l->idle_pct;
	row.nivcsw = m->nivcsw;
	row.migrations = m->migrations;
	row.concurrency_check = zf_flags_name(m->flags, flags, sizeof(flags));
	row.numa_check = numa_sample(cfg, ts, numa, sizeof(numa));
	zf_cols_row(b, &zf_samples_table, &row, true);
	p->get_share[rep] = row.get_share;
	p->put_share[rep] = row.put_share;
	p->kernel[0][rep] = row.kernel_share;
	p->kernel[1][rep] = row.kernel_get_share;
	p->kernel[2][rep] = row.kernel_put_share;
	p->allocs_per_sec[rep] = wall > 0 ? l->allocs / wall : NAN;
	p->frees_per_sec[rep] = wall > 0 ? l->frees / wall : NAN;
	p->alloc_share[rep] = l->wall_ns ? l->alloc_ns / ((double)l->wall_ns * ntasks) : NAN;
}

static const char *policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "other";
	case SCHED_FIFO: return "fifo";
	case SCHED_RR: return "rr";
	case SCHED_BATCH: return "batch";
	case SCHED_IDLE: return "idle";
	default: return "";
	}
}

/* tasks.csv's row of task k of repetition rep */
static void tasks_row(struct zf_buf *b, const struct zf_config_result *c, unsigned int rep, int k)
{
	const struct zf_run_config *cfg = &c->cfg;
	int ntasks = cfg->plan->ntasks, i;
	size_t at = (size_t)rep * ntasks + k;
	const struct zf_task_sample *ts = &c->samples[(size_t)rep * ntasks], *t = &ts[k];
	uint64_t earliest = t->span_start_ns, wall = t->span_end_ns - t->span_start_ns;
	struct zf_tasks_row row;

	zf_cols_unmeasured(&zf_tasks_table, &row);
	zf_results_key(cfg, &row.key);
	row.rep = rep;
	row.task = (uint64_t)k;
	row.pu = cfg->plan->pu[k];
	row.node = cfg->plan->node[k];
	row.mm_node = c->mm_node[at];
	row.cpu_seen = c->cpu_seen[at];
	row.faults = t->faults;
	row.fault_ns = t->fault_ns;
	row.teardown_ns = t->teardown_ns;
	if (cfg->fault == ZF_FAULT_KERNEL) {
		row.minflt = (int64_t)t->minflt;
		row.rss_growth_kb = (int64_t)t->rss_growth_kb;
		row.anon_huge_kb = (int64_t)t->anon_huge_kb;
	}
	row.get_ns_in_fault = zf_task_get_ns(t);
	/* its span: its start after the earliest task's, its wall and CPU time */
	for (i = 0; i < ntasks; i++)
		if (ts[i].span_start_ns < earliest)
			earliest = ts[i].span_start_ns;
	if (t->span_end_ns > t->span_start_ns) {
		row.span_start_ns = (int64_t)(t->span_start_ns - earliest);
		row.span_wall_ns = (int64_t)wall;
		row.span_cpu_ns = (int64_t)t->span_cpu_ns;
		row.cpu_wall = (double)t->span_cpu_ns / wall;
	}
	row.steal_pct = t->steal_pct;
	row.idle_pct = t->idle_pct;
	row.nivcsw = t->nivcsw;
	row.migrations = t->migrations;
	row.sched = policy_name(t->policy);
	/* where the task was seen at its repetition's start */
	row.start_cpu = t->seen.cpu;
	row.cpu_node = t->seen.cpu_node;
	row.table_node = t->seen.table_node;
	row.mm_node_seen = t->seen.mm_node;
	zf_cols_row(b, &zf_tasks_table, &row, true);
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
	zf_cols_header(&f->samples, &zf_samples_table);
	zf_cols_header(&f->tasks, &zf_tasks_table);
	zf_cols_header(&f->summary, &zf_summary_table);
	zf_cols_header(&f->counters, &zf_counters_table);
	zf_cols_header(&f->perf, &zf_perf_table);
	zf_cols_header(&f->profile, &zf_profile_table);
	f->stats = json_object();
}

void zf_results_csv_config(struct zf_results_csv *f, const struct zf_results *r,
			   const struct zf_config_result *c)
{
	struct reps p;
	unsigned int rep;
	int k;

	if (reps_alloc(&p, c->reps)) {
		f->samples.oom = 1;
		return;
	}
	for (rep = 0; rep < c->reps; rep++) {
		samples_row(&f->samples, r, c, rep, &p);
		perf_rows(&f->perf, r, c, rep, &c->samples[(size_t)rep * c->cfg.plan->ntasks]);
		for (k = 0; k < c->cfg.plan->ntasks; k++)
			tasks_row(&f->tasks, c, rep, k);
	}
	summary_row(f, r, c, &p);
	counters_row(&f->counters, c);
	zf_results_profile_rows(&f->profile, r, c);
	reps_free(&p);
}

void zf_results_csv_free(struct zf_results_csv *f)
{
	zf_buf_free(&f->samples);
	zf_buf_free(&f->tasks);
	zf_buf_free(&f->summary);
	zf_buf_free(&f->counters);
	zf_buf_free(&f->perf);
	zf_buf_free(&f->profile);
	json_decref(f->stats);
}
