// SPDX-License-Identifier: GPL-2.0
/*
 * A run added to its configuration: each repetition's row in samples.csv,
 * its tasks' in tasks.csv and their events' in perf.csv, streamed as they
 * are made (stream.h) through the files' column tables (rescols.c), and
 * what each repetition keeps for summary.csv (struct zf_rep_kept). The
 * run's samples are let go once it is added: see results.h.
 */
#define _GNU_SOURCE	/* SCHED_BATCH, SCHED_IDLE */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcheck.h"
#include "perfcols.h"
#include "rescols.h"
#include "resrows.h"
#include "results.h"

/* a run's repetition: where its figures are, and where it goes */
struct rep_in {
	const struct zf_config_result *c;	/* its configuration, cfg and passes set */
	const struct zf_run_result *res;
	unsigned int i;			/* its index in res */
	unsigned int rep;		/* the configuration's: rep in every file */
	const struct zf_task_sample *ts;	/* its tasks' */
};

const char *zf_results_rep_verdict(const struct zf_run_result *res, unsigned int rep,
				   char *buf, size_t len)
{
	const struct zf_task_sample *ts = &res->samples[(size_t)rep * res->ntasks];
	struct zf_kernel_obs o = { .thp_fault_fallback = res->kernel[rep].thp_fault_fallback };
	int k;

	for (k = 0; k < res->ntasks; k++) {
		o.faults += ts[k].faults;
		o.minflt += ts[k].minflt;
		if (ts[k].rss_growth_kb > o.rss_growth_kb)
			o.rss_growth_kb = ts[k].rss_growth_kb;
		if (ts[k].anon_huge_kb > o.anon_huge_kb)
			o.anon_huge_kb = ts[k].anon_huge_kb;
	}
	return zf_kernel_verdict(&o, buf, len);
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
static void kernel_sample(const struct rep_in *in, struct zf_samples_row *row, char *verdict,
			  size_t len)
{
	const struct zf_rep_kernel *l = &in->res->kernel[in->i];
	uint64_t faults = 0, minflt = 0, rss = 0, anon = 0;
	int k;

	if (in->c->cfg.fault != ZF_FAULT_KERNEL)
		return;
	for (k = 0; k < in->res->ntasks; k++) {
		faults += in->ts[k].faults;
		minflt += in->ts[k].minflt;
		rss = in->ts[k].rss_growth_kb > rss ? in->ts[k].rss_growth_kb : rss;
		anon = in->ts[k].anon_huge_kb > anon ? in->ts[k].anon_huge_kb : anon;
	}
	row->thp_zero_page_alloc = (int64_t)l->thp_zero_page_alloc;
	row->thp_fault_fallback = (int64_t)l->thp_fault_fallback;
	row->minflt_per_fault = faults ? (double)minflt / faults : 0.0;
	row->rss_growth_kb = (int64_t)rss;
	row->anon_huge_kb = (int64_t)anon;
	row->kernel_check = zf_results_rep_verdict(in->res, in->i, verdict, len);
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

/* the streamed files, in enum order: their names and column tables */
static const struct {
	const char *name;
	const struct zf_col_table *table;
} streamed[ZF_STREAMS] = {
	[ZF_STREAM_SAMPLES] = { "samples.csv", &zf_samples_table },
	[ZF_STREAM_TASKS] = { "tasks.csv", &zf_tasks_table },
	[ZF_STREAM_PERF] = { "perf.csv", &zf_perf_table },
};

int zf_results_streams_begin(struct zf_results *r, char *why, size_t len)
{
	int s, err = 0;

	for (s = 0; s < ZF_STREAMS && !err; s++) {
		struct zf_buf header = { 0 };

		zf_cols_header(&header, streamed[s].table);
		err = zf_stream_open(&r->stream[s], r->dir, streamed[s].name, &header);
		zf_buf_free(&header);
		if (err)
			snprintf(why, len, "%s/%s: %s", r->dir, streamed[s].name, strerror(-err));
	}
	return err;
}

int zf_results_streams_sync(struct zf_results *r, char *why, size_t len)
{
	int s, err = 0;

	for (s = 0; s < ZF_STREAMS && !err; s++) {
		err = zf_stream_sync(&r->stream[s]);
		if (err)
			snprintf(why, len, "%s/%s: %s", r->dir, streamed[s].name, strerror(-err));
	}
	return err;
}

/* perf.csv: every counted event of every task and phase of the repetition */
static void perf_rows(struct zf_stream *s, const struct zf_results *r, const struct rep_in *in)
{
	struct zf_perf_row row = { .rep = in->rep };
	int k, ph;
	size_t i;

	zf_results_key(&in->c->cfg, &row.key);
	for (k = 0; r->events && k < in->res->ntasks; k++)
		for (ph = 0; ph < ZF_PHASES; ph++)
			for (i = 0; i < r->events->n; i++) {
				const struct zf_perf_value *v = &in->ts[k].perf[ph][i];
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
				if (zf_perf_scaled(v, &scaled, &mux) && in->ts[k].faults) {
					row.scaled_count = scaled;
					row.multiplexed = mux;
					row.per_fault = scaled / in->ts[k].faults;
				}
				zf_cols_row(&s->rows, &zf_perf_table, &row, true);
				zf_stream_row(s);
			}
}

/* samples.csv's row of the repetition; what it keeps into kept */
static void samples_row(struct zf_stream *s, const struct zf_results *r, const struct rep_in *in,
			struct zf_rep_kept *kept, char *verdict, size_t verdict_len)
{
	const struct zf_run_config *cfg = &in->c->cfg;
	int ntasks = in->res->ntasks;
	const struct zf_rep_kernel *l = &in->res->kernel[in->i];	/* the folio's life over it */
	const struct zf_rep_metrics *m = &kept->m;
	double wall = l->wall_ns / 1e9;
	char flags[32], numa[80];
	struct zf_samples_row row;

	zf_rep_metrics(in->ts, ntasks, &kept->m);
	zf_cols_unmeasured(&zf_samples_table, &row);
	zf_results_key(cfg, &row.key);
	row.rep = in->rep;
	row.passes = in->c->passes;
	row.faults = m->faults;
	row.ns_per_fault = m->ns_per_fault;
	row.faults_per_sec = m->faults_per_sec;
	row.teardown_ns_per_fault = m->teardown_ns_per_fault;
	row.fairness_min_max = m->fairness_min_max;
	kernel_sample(in, &row, verdict, verdict_len);
	row.get_ns_in_fault = m->get_ns_in_fault;
	zf_perf_rep_cols(r->events, r->perf_err, in->ts, ntasks, kept->perf);
	memcpy(row.perf, kept->perf, sizeof(row.perf));
	rep_shares(r, in->ts, ntasks, &row);
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
	row.numa_check = numa_sample(cfg, in->ts, numa, sizeof(numa));
	zf_cols_row(&s->rows, &zf_samples_table, &row, true);
	zf_stream_row(s);
	kept->get_share = row.get_share;
	kept->put_share = row.put_share;
	kept->kernel_share = row.kernel_share;
	kept->kernel_get_share = row.kernel_get_share;
	kept->kernel_put_share = row.kernel_put_share;
	kept->allocs_per_sec = wall > 0 ? l->allocs / wall : NAN;
	kept->frees_per_sec = wall > 0 ? l->frees / wall : NAN;
	kept->alloc_share = l->wall_ns ? l->alloc_ns / ((double)l->wall_ns * ntasks) : NAN;
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

/* tasks.csv's row of task k of the repetition */
static void tasks_row(struct zf_stream *s, const struct rep_in *in, int k)
{
	const struct zf_run_config *cfg = &in->c->cfg;
	const struct zf_task_sample *t = &in->ts[k];
	uint64_t earliest = t->span_start_ns, wall = t->span_end_ns - t->span_start_ns;
	struct zf_tasks_row row;
	int i;

	zf_cols_unmeasured(&zf_tasks_table, &row);
	zf_results_key(cfg, &row.key);
	row.rep = in->rep;
	row.task = (uint64_t)k;
	row.pu = cfg->plan->pu[k];
	row.node = cfg->plan->node[k];
	row.mm_node = in->res->mm_node[k];
	row.cpu_seen = in->res->cpu_seen[k];
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
	for (i = 0; i < in->res->ntasks; i++)
		if (in->ts[i].span_start_ns < earliest)
			earliest = in->ts[i].span_start_ns;
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
	zf_cols_row(&s->rows, &zf_tasks_table, &row, true);
	zf_stream_row(s);
}

/*
 * The run's rows, repetition by repetition, into the streams; each
 * repetition's figures into kept. 0, or the first stream that failed
 * (*failed) and its -errno.
 */
static int run_rows(struct zf_results *r, const struct zf_config_result *c,
		    const struct zf_run_result *res, struct zf_rep_kept *kept,
		    unsigned int *suspect, char *verdict, size_t verdict_len, int *failed)
{
	struct zf_stream *st = r->stream;
	unsigned int i;
	int s, k, err = 0;

	*suspect = 0;
	for (i = 0; i < res->reps; i++) {
		struct rep_in in = { .c = c, .res = res, .i = i, .rep = c->reps + i,
				     .ts = &res->samples[(size_t)i * res->ntasks] };
		char buf[64] = "ok";

		samples_row(&st[ZF_STREAM_SAMPLES], r, &in, &kept[i], buf, sizeof(buf));
		if (strcmp(buf, "ok") && !(*suspect)++)
			snprintf(verdict, verdict_len, "%s", buf);
		perf_rows(&st[ZF_STREAM_PERF], r, &in);
		for (k = 0; k < res->ntasks; k++)
			tasks_row(&st[ZF_STREAM_TASKS], &in, k);
	}
	for (s = 0; s < ZF_STREAMS; s++) {
		int e = zf_stream_flush(&st[s]);

		if (e && !err) {
			err = e;
			*failed = s;
		}
	}
	return err;
}

int zf_results_add(struct zf_results *r, unsigned int idx, const struct zf_run_config *cfg,
		   const struct zf_run_result *res, unsigned int *suspect, char *verdict,
		   size_t verdict_len, char *why, size_t len)
{
	struct zf_config_result *c = &r->configs[idx];
	size_t i, n = (size_t)c->reps + res->reps;
	struct zf_rep_kept *kept = n ? realloc(c->rep, n * sizeof(*kept)) : c->rep;
	int s, failed = 0, err;

	if (n && !kept) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	c->rep = kept;
	if (!c->reps && !c->total.gets) {
		c->cfg = *cfg;
		c->passes = res->passes;
		c->counter_node = res->counter_node;
		if (idx >= r->nconfigs)
			r->nconfigs = idx + 1;
	}
	/* what could not be counted or sampled, before the rows that leave it out */
	for (i = 0; i < ZF_PERF_MAX_EVENTS; i++)
		if (!r->perf_err[i])
			r->perf_err[i] = res->perf_err[i];
	if (!r->profile_err)
		r->profile_err = res->profile_err;
	for (s = 0; s < ZF_STREAMS; s++)
		zf_stream_mark(&r->stream[s]);
	err = run_rows(r, c, res, c->rep + c->reps, suspect, verdict, verdict_len, &failed);
	if (err) {
		for (s = 0; s < ZF_STREAMS; s++)	/* every file ends with the run before */
			zf_stream_cut(&r->stream[s]);
		snprintf(why, len, "%s/%s: %s", r->dir, streamed[failed].name,
			 strerror(-err));
		return err;
	}
	if (zf_results_profile_pool(r, c, res)) {
		snprintf(why, len, "profile.csv: out of memory");
		return -ENOMEM;
	}
	c->reps += res->reps;
	zf_stats_add(&c->total, &res->total);
	return 0;
}

size_t zf_results_rep_bytes(int ntasks)
{
	(void)ntasks;	/* a repetition keeps its figures, none of its tasks' */
	return sizeof(struct zf_rep_kept) + 2 * sizeof(struct zf_run_record);
}

size_t zf_results_run_bytes(int ntasks, unsigned int reps)
{
	size_t n = ntasks > 0 ? (size_t)ntasks : 0;

	return (size_t)reps * (n * sizeof(struct zf_task_sample) + sizeof(struct zf_rep_kernel)) +
	       n * 2 * sizeof(int) +			/* mm_node, cpu_seen */
	       ZF_STREAMS * ZF_STREAM_BUF_MAX;		/* the rows being written */
}
