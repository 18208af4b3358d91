// SPDX-License-Identifier: GPL-2.0
/* Results files: see results.h and results/README.md. */
#define _GNU_SOURCE	/* SCHED_BATCH, SCHED_IDLE */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../../bench/strategy.h"
#include "chartstyle.h"
#include "json.h"
#include "kcheck.h"
#include "metrics.h"
#include "numa.h"
#include "perfcols.h"
#include "rescols.h"
#include "results.h"
#include "thpset.h"
#include "timing.h"

#ifndef HZF_VERSION
#define HZF_VERSION "0.1"
#endif
#ifndef HZF_GIT_REV
#define HZF_GIT_REV "unknown"
#endif

#define KEY_COLUMNS ZF_KEY_COLUMNS

void zf_utc_time(char *buf, size_t len, bool compact)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

int zf_results_dir(const char *out, char *dir, size_t len, char *why, size_t whylen)
{
	struct stat st;
	int err;

	if (!out) {
		struct zf_sysinfo si;
		char stamp[32];

		zf_sysinfo_read(&si);
		zf_utc_time(stamp, sizeof(stamp), true);
		snprintf(dir, len, "results/%s-%s", stamp, si.host);
	} else if (snprintf(dir, len, "%s", out) >= (int)len || !*out) {
		snprintf(why, whylen, "not a usable folder name");
		return -EINVAL;
	}
	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			snprintf(why, whylen, "exists and is not a folder");
			return -EEXIST;
		}
		if (!dir_is_empty(dir)) {
			snprintf(why, whylen, "exists and is not empty");
			return -EEXIST;
		}
	}
	err = mkdir_p(dir);
	if (err)
		snprintf(why, whylen, "%s", strerror(-err));
	return err;
}

static int write_buf(struct zf_results *r, const char *name, struct zf_buf *b,
		     char *why, size_t len)
{
	int err = b->oom ? -ENOMEM : zf_write_atomic(r->dir, name, b->text ? b->text : "",
						     b->len);

	if (err)
		snprintf(why, len, "%s/%s: %s", r->dir, name, strerror(-err));
	return err;
}

/* meta.json's members, in order: each set fails the whole when NULL */
static int put(json_t *meta, const char *key, json_t *value)
{
	return json_object_set_new(meta, key, value) ? -ENOMEM : 0;
}

/* the events asked for, and those this machine could not count, with why */
static int put_perf(json_t *meta, const struct zf_results *r)
{
	json_t *asked = json_array(), *refused = json_array(), *profile = json_null();
	size_t i;
	int err = 0;

	for (i = 0; r->events && i < r->events->n; i++) {
		zf_json_push(&asked, zf_json_text(r->events->ev[i].name));
		if (r->perf_err[i])
			zf_json_push(&refused, json_pack("{s:o, s:i, s:o}",
				"event", zf_json_text(r->events->ev[i].name), "errno", r->perf_err[i],
				"error", zf_json_text(strerror(r->perf_err[i]))));
	}
	if (r->profile)
		profile = json_pack("{s:i, s:o}", "period_ns", ZF_PROFILE_PERIOD_NS, "error",
				    zf_json_text(r->profile_err ? strerror(r->profile_err) : NULL));
	err |= put(meta, "perf_events", asked);
	err |= put(meta, "unsupported_events", refused);
	err |= put(meta, "profile", profile);
	return err ? -ENOMEM : 0;
}

/* what --set-thp changed for this run, null when hzfbench wrote nothing */
static int put_set_thp(json_t *meta)
{
	const struct zf_thp_saved *t = zf_thp_saved();

	return put(meta, "set_thp", !t->active ? json_null() :
		   json_pack("{s:o, s:o, s:o}", "enabled", zf_json_text(t->mode),
			     "enabled_was", zf_json_text(t->enabled_was),
			     "use_zero_page_was", zf_json_text(t->zero_was)));
}

/*
 * Under hzfbench vm, the guest's /init hands the boot's description down
 * in $HZF_VM; "virtualized" is its accelerator (tcg: emulated times), null
 * when hzfbench vm did not run this (doctor.hypervisor says whether the
 * machine itself is virtual).
 */
static int put_vm(json_t *meta)
{
	const char *vm = getenv("HZF_VM");
	json_t *desc = vm ? json_loads(vm, 0, NULL) : NULL;
	const char *accel = json_string_value(json_object_get(desc, "accel"));
	int err;

	if (!accel) {
		json_decref(desc);
		return put(meta, "virtualized", json_null());
	}
	err = put(meta, "virtualized", json_string(accel));
	return put(meta, "vm", desc) | err;
}

/* a copy of what is kept for every rewrite of meta.json; else {} or null */
static json_t *kept(json_t *v, bool object)
{
	if (v)
		return json_deep_copy(v);
	return object ? json_object() : json_null();
}

static int write_meta(struct zf_results *r, bool complete, const char *end_time,
		      char *why, size_t len)
{
	const struct zf_sysinfo *si = &r->si;
	json_t *meta = json_object(), *argv = json_array();
	struct zf_buf b = { 0 };
	int i, err = 0;

	err |= put(meta, "hzfbench_version", json_string(HZF_VERSION));
	err |= put(meta, "git_revision", zf_json_text(HZF_GIT_REV));
	err |= put(meta, "compiler", zf_json_text(__VERSION__));
	err |= put(meta, "host", zf_json_text(si->host));
	err |= put(meta, "cpu_model", zf_json_text(si->cpu_model));
	err |= put(meta, "machine", zf_json_text(si->machine));
	err |= put(meta, "online_cpus", json_integer(si->online_cpus));
	err |= put(meta, "kernel_release", zf_json_text(si->kernel_release));
	err |= put(meta, "kernel_version", zf_json_text(si->kernel_version));
	err |= put(meta, "thp", json_pack("{s:o, s:o, s:o}", "enabled", zf_json_text(si->thp_enabled),
					  "defrag", zf_json_text(si->thp_defrag),
					  "use_zero_page", zf_json_text(si->thp_use_zero_page)));
	err |= put_set_thp(meta);
	err |= put_perf(meta, r);
	err |= put(meta, "config_persistent_huge_zero_folio",
		   zf_json_text(si->persistent_huge_zero_folio));
	err |= put(meta, "kernel_config_source", zf_json_text(si->kernel_config_source));
	err |= put(meta, "kernel_strategy", zf_json_text(si->kernel_strategy));
	err |= put_vm(meta);
	err |= put(meta, "topology", json_pack("{s:o, s:i, s:i, s:i, s:i}",
					       "source", zf_json_text(r->topo->source),
					       "packages", r->topo->packages,
					       "numa_nodes", r->topo->numa_nodes,
					       "cores", r->topo->cores, "pus", r->topo->pus));
	err |= put(meta, "libnuma", json_pack("{s:b, s:i}", "available", zf_numa_available(),
					      "max_node", zf_numa_max_node()));
	err |= put(meta, "probes", json_pack("{s:o, s:o, s:s, s:o, s:o, s:I, s:o, s:o}",
		"inc_not_zero_ns", zf_json_real(r->probe.inc_not_zero_ns),
		"pointer_read_ns", zf_json_real(r->probe.pointer_read_ns),
		"busy_unit", r->probe.busy_unit ? r->probe.busy_unit : "loop",
		"busy_iters_per_ns", zf_json_real(r->probe.busy_iters_per_ns),
		"busy_ns", zf_json_real(r->probe.busy_ns), "busy_iters", (json_int_t)r->probe.busy_iters,
		"busy_call_ns", zf_json_real(r->probe.busy_call_ns),
		"busy_iters_per_ns_end", zf_json_real(r->probe.busy_ipn_end)));
	for (i = 0; i < r->argc; i++)
		zf_json_push(&argv, zf_json_text(r->argv[i]));
	err |= put(meta, "command_line", argv);
	err |= put(meta, "options", kept(r->options, true));
	err |= put(meta, "tag", zf_json_text(r->tag));
	err |= put(meta, "doctor", kept(r->doctor, false));
	err |= put(meta, "configurations", json_integer(r->nconfigs));
	err |= put(meta, "numa_moved_pages", json_integer((json_int_t)r->numa_moved_pages));
	err |= put(meta, "timing", zf_timing_json(r));
	err |= put(meta, "start_time", zf_json_text(r->start_time));
	if (end_time)
		err |= put(meta, "end_time", zf_json_text(end_time));
	err |= put(meta, "complete", json_boolean(complete));
	if (err) {
		json_decref(meta);
		meta = NULL;
	}
	zf_json_dump_lines(meta, false, &b);
	err = write_buf(r, "meta.json", &b, why, len);
	zf_buf_free(&b);
	return err;
}

int zf_results_begin(struct zf_results *r, unsigned int nconfigs, char *why, size_t len)
{
	char path[PATH_MAX + 16];
	int err;

	r->configs = calloc(nconfigs ? nconfigs : 1, sizeof(*r->configs));
	if (!r->configs) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	zf_sysinfo_read(&r->si);
	zf_utc_time(r->start_time, sizeof(r->start_time), false);
	err = write_meta(r, false, NULL, why, len);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/topology.xml", r->dir);
	if (zf_topo_export_xml(r->topo, path)) {
		snprintf(why, len, "%s: cannot be written", path);
		return -EIO;
	}
	return 0;
}

void zf_results_key(const struct zf_run_config *cfg, struct zf_config_key *key)
{
	*key = (struct zf_config_key){
		.strategy = cfg->strategy->name, .fault = zf_fault_mode_name(cfg->fault),
		.task_kind = zf_task_kind_name(cfg->kind), .tasks = (uint64_t)cfg->plan->ntasks,
		.placement = cfg->plan->placement, .step = cfg->step,
		.faults_per_pass = cfg->faults_per_pass,
	};
}

/* cfg's key columns, each followed by a comma: the rows not on a table yet */
static void key_fields(struct zf_buf *b, const struct zf_run_config *cfg)
{
	struct zf_config_key key;

	zf_results_key(cfg, &key);
	zf_cols_row(b, &zf_key_table, &key, false);
}

int zf_results_add_run(struct zf_results *r, const struct zf_run_record *run)
{
	if (r->nruns == r->runs_cap) {
		size_t cap = r->runs_cap ? 2 * r->runs_cap : 64;
		struct zf_run_record *grown = realloc(r->runs, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		r->runs = grown;
		r->runs_cap = cap;
	}
	r->runs[r->nruns++] = *run;
	return 0;
}

static void *grow(void *p, size_t n, size_t size)
{
	return realloc(p, n * size);
}

/* repetition rep of c, verified: see zf_kernel_verdict() */
static const char *rep_verdict(const struct zf_config_result *c, unsigned int rep,
			       char *buf, size_t len)
{
	const struct zf_task_sample *ts = &c->samples[(size_t)rep * c->cfg.plan->ntasks];
	struct zf_kernel_obs o = { .thp_fault_fallback = c->kernel[rep].thp_fault_fallback };
	int k;

	for (k = 0; k < c->cfg.plan->ntasks; k++) {
		o.faults += ts[k].faults;
		o.minflt += ts[k].minflt;
		if (ts[k].rss_growth_kb > o.rss_growth_kb)
			o.rss_growth_kb = ts[k].rss_growth_kb;
		if (ts[k].anon_huge_kb > o.anon_huge_kb)
			o.anon_huge_kb = ts[k].anon_huge_kb;
	}
	return zf_kernel_verdict(&o, buf, len);
}

int zf_results_add(struct zf_results *r, unsigned int idx, const struct zf_run_config *cfg,
		   const struct zf_run_result *res, unsigned int *suspect, char *verdict,
		   size_t verdict_len, char *why, size_t len)
{
	struct zf_config_result *c = &r->configs[idx];
	size_t n = res->ntasks, old = (size_t)c->reps * n, add = (size_t)res->reps * n, i;
	struct zf_task_sample *samples = grow(c->samples, old + add, sizeof(*samples));
	struct zf_rep_kernel *kernel;
	int *mm_node, *cpu_seen;
	unsigned int rep;

	if (samples)
		c->samples = samples;
	mm_node = samples ? grow(c->mm_node, old + add, sizeof(int)) : NULL;
	if (mm_node)
		c->mm_node = mm_node;
	cpu_seen = mm_node ? grow(c->cpu_seen, old + add, sizeof(int)) : NULL;
	if (cpu_seen)
		c->cpu_seen = cpu_seen;
	kernel = cpu_seen ? grow(c->kernel, c->reps + res->reps, sizeof(*kernel)) : NULL;
	if (!kernel) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	c->kernel = kernel;
	memcpy(c->kernel + c->reps, res->kernel, res->reps * sizeof(*kernel));
	if (!c->reps && !c->total.gets) {
		c->cfg = *cfg;
		c->passes = res->passes;
		c->counter_node = res->counter_node;
		if (idx >= r->nconfigs)
			r->nconfigs = idx + 1;
	}
	memcpy(c->samples + old, res->samples, add * sizeof(*samples));
	for (i = 0; i < add; i++) {
		c->mm_node[old + i] = res->mm_node[i % n];
		c->cpu_seen[old + i] = res->cpu_seen[i % n];
	}
	*suspect = 0;
	for (rep = c->reps; cfg->fault == ZF_FAULT_KERNEL && rep < c->reps + res->reps; rep++) {
		char buf[64];

		if (strcmp(rep_verdict(c, rep, buf, sizeof(buf)), "ok") && !(*suspect)++)
			snprintf(verdict, verdict_len, "%s", buf);
	}
	c->reps += res->reps;
	zf_stats_add(&c->total, &res->total);
	for (i = 0; i < ZF_PERF_MAX_EVENTS; i++)
		if (!r->perf_err[i])
			r->perf_err[i] = res->perf_err[i];
	if (!r->profile_err)
		r->profile_err = res->profile_err;
	return 0;
}

/* a measured value, or an empty field where there is none (never a made-up zero) */
static void csv_measured(struct zf_buf *b, const char *fmt, double v, const char *end)
{
	if (!isnan(v))
		zf_buf_printf(b, fmt, v);
	zf_buf_printf(b, "%s", end);
}

/* --profile: samples in get() and put() over all of a repetition's, every task's */
static void rep_shares(const struct zf_results *r, const struct zf_task_sample *ts, int ntasks,
		       uint64_t *total, double *get, double *put)
{
	uint64_t g = 0, p = 0, all = 0;
	int k;

	for (k = 0; k < ntasks; k++) {
		g += ts[k].prof.get;
		p += ts[k].prof.put;
		all += ts[k].prof.get + ts[k].prof.put + ts[k].prof.other;
	}
	*total = all;
	*get = *put = NAN;
	if (r->profile && !r->profile_err && all) {
		*get = (double)g / all;
		*put = (double)p / all;
	}
}

/* samples.csv's kernel columns: empty for emulated faults, never a made-up zero */
static void kernel_sample_fields(struct zf_buf *b, const struct zf_config_result *c,
				 unsigned int rep)
{
	const struct zf_task_sample *ts = &c->samples[(size_t)rep * c->cfg.plan->ntasks];
	uint64_t faults = 0, minflt = 0, rss = 0, anon = 0;
	char verdict[64];
	int k;

	if (c->cfg.fault != ZF_FAULT_KERNEL) {
		zf_buf_printf(b, ",,,,,,");
		return;
	}
	for (k = 0; k < c->cfg.plan->ntasks; k++) {
		faults += ts[k].faults;
		minflt += ts[k].minflt;
		rss = ts[k].rss_growth_kb > rss ? ts[k].rss_growth_kb : rss;
		anon = ts[k].anon_huge_kb > anon ? ts[k].anon_huge_kb : anon;
	}
	zf_buf_printf(b, "%llu,%llu,%.4f,%llu,%llu,%s,",
		      (unsigned long long)c->kernel[rep].thp_zero_page_alloc,
		      (unsigned long long)c->kernel[rep].thp_fault_fallback,
		      faults ? (double)minflt / faults : 0.0, (unsigned long long)rss,
		      (unsigned long long)anon, rep_verdict(c, rep, verdict, sizeof(verdict)));
}

static const char *const phase_names[ZF_PHASES] = { "fault", "teardown" };

/* perf.csv: every counted event of every task, phase and repetition */
static void perf_rows(struct zf_buf *perf, const struct zf_results *r,
		      const struct zf_config_result *c, unsigned int rep,
		      const struct zf_task_sample *ts)
{
	int k, ph;
	size_t i;

	for (k = 0; r->events && k < c->cfg.plan->ntasks; k++)
		for (ph = 0; ph < ZF_PHASES; ph++)
			for (i = 0; i < r->events->n; i++) {
				const struct zf_perf_value *v = &ts[k].perf[ph][i];
				double scaled;
				bool mux;

				if (r->perf_err[i])
					continue;	/* in meta.json's unsupported_events instead */
				key_fields(perf, &c->cfg);
				zf_buf_printf(perf, "%u,%d,%s,", rep, k, phase_names[ph]);
				zf_buf_csv(perf, r->events->ev[i].name, 0);
				zf_buf_printf(perf, "%llu,%llu,%llu,", (unsigned long long)v->count,
					      (unsigned long long)v->enabled_ns,
					      (unsigned long long)v->running_ns);
				if (zf_perf_scaled(v, &scaled, &mux) && ts[k].faults)
					zf_buf_printf(perf, "%.0f,%d,%.4f\n", scaled, mux,
						      scaled / ts[k].faults);
				else
					zf_buf_printf(perf, ",,\n");	/* it never ran */
			}
}

/* samples.csv: whether the tasks ran together, and on their CPUs */
static void concurrency_sample_fields(struct zf_buf *b, const struct zf_rep_metrics *m,
				      const struct zf_rep_kernel *l)
{
	char flags[32];

	csv_measured(b, "%.4f", m->overlap, ",");
	csv_measured(b, "%.4f", m->cpu_wall_min, ",");
	csv_measured(b, "%.3f", l->steal_pct, ",");
	csv_measured(b, "%.3f", l->idle_pct, ",");
	zf_buf_printf(b, "%llu,", (unsigned long long)m->nivcsw);
	if (m->migrations >= 0)
		zf_buf_printf(b, "%lld", (long long)m->migrations);
	zf_buf_printf(b, ",%s,", zf_flags_name(m->flags, flags, sizeof(flags)));
}

/* a node or CPU read back, or empty where it could not be told */
static void csv_told(struct zf_buf *b, int v, const char *end)
{
	if (v >= 0)
		zf_buf_printf(b, "%d", v);
	zf_buf_printf(b, "%s", end);
}

/* tasks.csv: where the task was seen at its repetition's start */
static void numa_fields(struct zf_buf *b, const struct zf_numa_seen *s)
{
	csv_told(b, s->cpu, ",");
	csv_told(b, s->cpu_node, ",");
	csv_told(b, s->table_node, ",");
	csv_told(b, s->mm_node, "\n");
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

/* samples.csv: every task where its plan put it ("ok"), or "" where nothing could be told */
static void numa_sample_field(struct zf_buf *b, const struct zf_run_config *cfg,
			      const struct zf_task_sample *ts)
{
	const struct zf_plan *plan = cfg->plan;
	char what[64], unread[80] = "";
	bool told = false;
	int k;

	for (k = 0; k < plan->ntasks; k++) {
		if (zf_task_numa_check(cfg, k, &ts[k].seen, what, sizeof(what))) {
			/* a run that differed failed, but a kept row says it all the same */
			zf_buf_printf(b, "task %d %s\n", k, what);
			return;
		}
		if (!unread[0] && !strncmp(what, "unread:", 7))
			snprintf(unread, sizeof(unread), "task %d %s", k, what);
		told = told || what[0];
	}
	zf_buf_printf(b, "%s\n", unread[0] ? unread : told ? "ok" : "");
}

/* tasks.csv: the task's span (its start after the earliest task's), CPU time, steal, switches */
static void concurrency_task_fields(struct zf_buf *b, const struct zf_task_sample *ts,
				    int ntasks, int k)
{
	const struct zf_task_sample *t = &ts[k];
	uint64_t earliest = t->span_start_ns, wall = t->span_end_ns - t->span_start_ns;
	int i;

	for (i = 0; i < ntasks; i++)
		if (ts[i].span_start_ns < earliest)
			earliest = ts[i].span_start_ns;
	if (t->span_end_ns > t->span_start_ns)
		zf_buf_printf(b, "%llu,%llu,%llu,%.4f,",
			      (unsigned long long)(t->span_start_ns - earliest),
			      (unsigned long long)wall, (unsigned long long)t->span_cpu_ns,
			      (double)t->span_cpu_ns / wall);
	else
		zf_buf_printf(b, ",,,,");
	csv_measured(b, "%.3f", t->steal_pct, ",");
	csv_measured(b, "%.3f", t->idle_pct, ",");
	zf_buf_printf(b, "%llu,", (unsigned long long)t->nivcsw);
	if (t->migrations >= 0)
		zf_buf_printf(b, "%lld", (long long)t->migrations);
	zf_buf_printf(b, ",%s,", policy_name(t->policy));
	numa_fields(b, &t->seen);
}

/* summary.csv's row of c: s and the medians of the per-repetition figures */
static void summary_row(struct zf_buf *b, const struct zf_results *r,
			const struct zf_config_result *c, const struct zf_summary *s,
			const double *perf, double *gs, double *ps, double *as, double *fs,
			double *ss)
{
	struct zf_summary_row row = {
		.reps = s->reps, .ns_per_fault_median = s->ns_per_fault_median,
		.ns_per_fault_min = s->ns_per_fault_min, .ns_per_fault_max = s->ns_per_fault_max,
		.ns_per_fault_stddev = s->ns_per_fault_stddev,
		.faults_per_sec_median = s->faults_per_sec_median,
		.teardown_ns_per_fault_median = s->teardown_ns_per_fault_median,
		.fairness_min_max = s->fairness_min_max_median,
		.get_ns_in_fault_median = s->get_ns_in_fault_median,
		.get_share_of_fault = s->ns_per_fault_median > 0 ?
				      s->get_ns_in_fault_median / s->ns_per_fault_median : NAN,
		.get_share = zf_median_measured(gs, c->reps),
		.put_share = zf_median_measured(ps, c->reps),
		.workload = zf_workload_name(c->cfg.workload),
		.allocs_per_sec_median = zf_median_measured(as, c->reps),
		.frees_per_sec_median = zf_median_measured(fs, c->reps),
		.alloc_share_median = zf_median_measured(ss, c->reps),
		.overlap_median = s->overlap_median, .cpu_wall_median = s->cpu_wall_median,
		.flagged_reps = s->flagged_reps, .ci95_lo = s->ci95_lo, .ci95_hi = s->ci95_hi,
		.ci95_pct = s->ci95_pct, .tag = r->tag ? r->tag : "",
	};

	zf_results_key(&c->cfg, &row.key);
	memcpy(row.perf, perf, sizeof(row.perf));
	zf_cols_row(b, &zf_summary_table, &row, true);
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

static void config_rows(struct zf_buf *samples, struct zf_buf *tasks, struct zf_buf *summary,
			struct zf_buf *counters, struct zf_buf *perf, const struct zf_results *r,
			const struct zf_config_result *c)
{
	struct zf_rep_metrics *m = calloc(c->reps ? c->reps : 1, sizeof(*m));
	double (*pc)[ZF_PERF_NCOLS] = calloc(c->reps ? c->reps : 1, sizeof(*pc));
	double **pcs = calloc(c->reps ? c->reps : 1, sizeof(*pcs)), sum_pc[ZF_PERF_NCOLS];
	double *gs = calloc(c->reps ? c->reps : 1, sizeof(*gs));
	double *ps = calloc(c->reps ? c->reps : 1, sizeof(*ps));
	double *as = calloc(c->reps ? c->reps : 1, sizeof(*as));
	double *fs = calloc(c->reps ? c->reps : 1, sizeof(*fs));
	double *ss = calloc(c->reps ? c->reps : 1, sizeof(*ss));
	const struct zf_run_config *cfg = &c->cfg;
	const struct zf_plan *plan = cfg->plan;
	int ntasks = plan->ntasks, k;
	struct zf_summary s;
	unsigned int rep;

	if (!m || !pc || !pcs || !gs || !ps || !as || !fs || !ss) {
		samples->oom = 1;
		free(m);
		free(pc);
		free(pcs);
		free(gs);
		free(ps);
		free(as);
		free(fs);
		free(ss);
		return;
	}
	for (rep = 0; rep < c->reps; rep++) {
		const struct zf_task_sample *ts = &c->samples[(size_t)rep * ntasks];

		zf_rep_metrics(ts, ntasks, &m[rep]);
		key_fields(samples, cfg);
		zf_buf_printf(samples, "%u,%lu,%llu,%.3f,%.0f,%.3f,%.4f,", rep, c->passes,
			      (unsigned long long)m[rep].faults, m[rep].ns_per_fault,
			      m[rep].faults_per_sec, m[rep].teardown_ns_per_fault,
			      m[rep].fairness_min_max);
		kernel_sample_fields(samples, c, rep);
		csv_measured(samples, "%.3f", m[rep].get_ns_in_fault, "");
		zf_perf_rep_cols(r->events, r->perf_err, ts, ntasks, pc[rep]);
		pcs[rep] = pc[rep];
		zf_perf_cols_csv(samples, pc[rep]);
		{
			uint64_t total;

			rep_shares(r, ts, ntasks, &total, &gs[rep], &ps[rep]);
			if (isnan(gs[rep]))
				zf_buf_printf(samples, ",,,");
			else
				zf_buf_printf(samples, ",%llu,%.5f,%.5f", (unsigned long long)total,
					      gs[rep], ps[rep]);
		}
		{	/* the folio's life over the repetition */
			const struct zf_rep_kernel *l = &c->kernel[rep];
			double wall = l->wall_ns / 1e9;

			zf_buf_printf(samples, ",%llu,%llu,%llu,%llu,%s,",
				      (unsigned long long)l->wall_ns, (unsigned long long)l->allocs,
				      (unsigned long long)l->frees, (unsigned long long)l->alloc_ns,
				      zf_workload_name(cfg->workload));
			concurrency_sample_fields(samples, &m[rep], l);
			numa_sample_field(samples, cfg, ts);
			as[rep] = wall > 0 ? l->allocs / wall : NAN;
			fs[rep] = wall > 0 ? l->frees / wall : NAN;
			ss[rep] = l->wall_ns ? l->alloc_ns / ((double)l->wall_ns * ntasks) : NAN;
		}
		perf_rows(perf, r, c, rep, ts);
		for (k = 0; k < ntasks; k++) {
			size_t i = (size_t)rep * ntasks + k;

			key_fields(tasks, cfg);
			zf_buf_printf(tasks, "%u,%d,%d,%d,%d,%d,%llu,%llu,%llu,", rep, k,
				      plan->pu[k], plan->node[k], c->mm_node[i], c->cpu_seen[i],
				      (unsigned long long)ts[k].faults,
				      (unsigned long long)ts[k].fault_ns,
				      (unsigned long long)ts[k].teardown_ns);
			if (cfg->fault == ZF_FAULT_KERNEL)
				zf_buf_printf(tasks, "%llu,%llu,%llu,",
					      (unsigned long long)ts[k].minflt,
					      (unsigned long long)ts[k].rss_growth_kb,
					      (unsigned long long)ts[k].anon_huge_kb);
			else
				zf_buf_printf(tasks, ",,,");
			csv_measured(tasks, "%.3f", zf_task_get_ns(&ts[k]), ",");
			concurrency_task_fields(tasks, ts, ntasks, k);
		}
	}
	zf_summarize(m, c->reps, &s);
	zf_perf_summary_cols(pcs, c->reps, sum_pc);
	free(m);
	free(pc);
	free(pcs);
	summary_row(summary, r, c, &s, sum_pc, gs, ps, as, fs, ss);
	free(gs);
	free(ps);
	free(as);
	free(fs);
	free(ss);
	counters_row(counters, c);
}

int zf_results_write(struct zf_results *r, char *why, size_t len)
{
	struct zf_buf samples = { 0 }, tasks = { 0 }, summary = { 0 }, counters = { 0 };
	struct zf_buf perf = { 0 }, timing = { 0 }, styles = { 0 };
	unsigned int i;
	int err;

	zf_buf_printf(&samples, KEY_COLUMNS ",rep,passes,faults,ns_per_fault,faults_per_sec,"
		      "teardown_ns_per_fault,fairness_min_max,thp_zero_page_alloc,"
		      "thp_fault_fallback,minflt_per_fault,rss_growth_kb,anon_huge_kb,"
		      "kernel_check,get_ns_in_fault," ZF_PERF_COLUMNS
		      ",profile_samples,get_share,put_share,wall_ns,allocs,frees,alloc_ns,workload,"
		      "overlap,cpu_wall_min,steal_pct,idle_pct,nivcsw,migrations,concurrency_check,"
		      "numa_check\n");
	zf_buf_printf(&tasks, KEY_COLUMNS ",rep,task,pu,node,mm_node,cpu_seen,faults,"
		      "fault_ns,teardown_ns,minflt,rss_growth_kb,anon_huge_kb,get_ns_in_fault,"
		      "span_start_ns,span_wall_ns,span_cpu_ns,cpu_wall,steal_pct,idle_pct,nivcsw,"
		      "migrations,sched,start_cpu,cpu_node,table_node,mm_node_seen\n");
	zf_cols_header(&summary, &zf_summary_table);
	zf_cols_header(&counters, &zf_counters_table);
	zf_buf_printf(&perf, KEY_COLUMNS ",rep,task,phase,event,count,time_enabled_ns,"
		      "time_running_ns,scaled_count,multiplexed,per_fault\n");
	for (i = 0; i < r->nconfigs; i++)
		if (r->configs[i].reps)
			config_rows(&samples, &tasks, &summary, &counters, &perf, r,
				    &r->configs[i]);
	err = write_buf(r, "samples.csv", &samples, why, len);
	if (!err)
		err = write_buf(r, "tasks.csv", &tasks, why, len);
	if (!err)
		err = write_buf(r, "summary.csv", &summary, why, len);
	if (!err) {
		zf_chart_styles(&styles);
		err = write_buf(r, ZF_CHART_STYLES_CSV, &styles, why, len);
	}
	if (!err)
		err = write_buf(r, "counters.csv", &counters, why, len);
	if (!err)
		err = write_buf(r, "perf.csv", &perf, why, len);
	if (!err) {
		zf_timing_csv(r, &timing);
		err = write_buf(r, "timing.csv", &timing, why, len);
	}
	if (!err)
		err = write_meta(r, false, NULL, why, len);
	zf_buf_free(&samples);
	zf_buf_free(&tasks);
	zf_buf_free(&summary);
	zf_buf_free(&counters);
	zf_buf_free(&perf);
	zf_buf_free(&timing);
	zf_buf_free(&styles);
	return err;
}

int zf_results_end(struct zf_results *r, bool complete, char *why, size_t len)
{
	char end[32];

	zf_utc_time(end, sizeof(end), false);
	return write_meta(r, complete, end, why, len);
}

void zf_results_free(struct zf_results *r)
{
	unsigned int i;

	for (i = 0; r->configs && i < r->nconfigs; i++) {
		free(r->configs[i].samples);
		free(r->configs[i].mm_node);
		free(r->configs[i].cpu_seen);
		free(r->configs[i].kernel);
	}
	free(r->configs);
	r->configs = NULL;
	free(r->runs);
	r->runs = NULL;
	r->nruns = r->runs_cap = 0;
	json_decref(r->options);
	json_decref(r->doctor);
}

char *zf_results_meta(const char *dir)
{
	char path[PATH_MAX + 16], *meta;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	return zf_read_file_alloc(path, &meta, NULL) ? NULL : meta;
}

int zf_results_complete(const char *dir, char *why, size_t len)
{
	char complete[16] = "", *meta = zf_results_meta(dir);
	int err = 0;

	if (!meta) {
		snprintf(why, len, "%s: not a results folder (no meta.json)", dir);
		return -1;
	}
	if (zf_json_get(meta, "complete", complete, sizeof(complete)) || strcmp(complete, "true")) {
		snprintf(why, len, "%s: an incomplete results folder (meta.json complete: %s): "
			 "its run was stopped or failed", dir, complete[0] ? complete : "missing");
		err = -1;
	}
	free(meta);
	return err;
}

void zf_results_virtualized(const char *dir, char *accel, size_t len)
{
	char *meta = zf_results_meta(dir);

	if (!meta || zf_json_get(meta, "virtualized", accel, len) || !strcmp(accel, "null"))
		accel[0] = '\0';
	free(meta);
}
