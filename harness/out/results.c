// SPDX-License-Identifier: GPL-2.0
/* Results files: see results.h and results/README.md. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../../bench/strategy.h"
#include "chartstyle.h"
#include "json.h"
#include "numa.h"
#include "resrows.h"
#include "results.h"
#include "thpset.h"
#include "timing.h"

#ifndef HZF_VERSION
#define HZF_VERSION "0.1"
#endif
#ifndef HZF_GIT_REV
#define HZF_GIT_REV "unknown"
#endif

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

int zf_results_out_usable(const char *out, char *why, size_t whylen)
{
	struct stat st;

	if (!out || stat(out, &st))
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "exists and is not a folder");
		return -EEXIST;
	}
	if (!dir_is_empty(out)) {
		snprintf(why, whylen, "exists and is not empty");
		return -EEXIST;
	}
	return 0;
}

int zf_results_dir(const char *out, char *dir, size_t len, char *why, size_t whylen)
{
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
	err = zf_results_out_usable(dir, why, whylen);
	if (err)
		return err;
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

/* what perf_event_attr got for e: a name is traceable to its counter */
static json_t *perf_encoding(const struct zf_perf_event *e)
{
	char config[3][20];

	snprintf(config[0], sizeof(config[0]), "0x%" PRIx64, e->config);
	snprintf(config[1], sizeof(config[1]), "0x%" PRIx64, e->config1);
	snprintf(config[2], sizeof(config[2]), "0x%" PRIx64, e->config2);
	return json_pack("{s:I, s:s, s:s, s:s, s:b, s:b}", "type", (json_int_t)e->type,
			 "config", config[0], "config1", config[1], "config2", config[2],
			 "exclude_user", e->exclude_user, "exclude_kernel", e->exclude_kernel);
}

/* the events asked for, how each was encoded, and those this machine could not count, with why */
static int put_perf(json_t *meta, const struct zf_results *r)
{
	json_t *asked = json_array(), *refused = json_array(), *profile = json_null();
	json_t *encoded = json_object();	/* by name: no "event" key beside unsupported's */
	size_t i;
	int err = 0;

	for (i = 0; r->events && i < r->events->n; i++) {
		zf_json_push(&asked, zf_json_text(r->events->ev[i].name));
		err |= json_object_set_new(encoded, r->events->ev[i].name,
					   perf_encoding(&r->events->ev[i]));
		if (r->perf_err[i])
			zf_json_push(&refused, json_pack("{s:o, s:i, s:o}",
				"event", zf_json_text(r->events->ev[i].name), "errno", r->perf_err[i],
				"error", zf_json_text(strerror(r->perf_err[i]))));
	}
	if (r->profile)
		profile = json_pack("{s:i, s:o}", "period_ns", ZF_PROFILE_PERIOD_NS, "error",
				    zf_json_text(r->profile_err ? strerror(r->profile_err) : NULL));
	err |= put(meta, "perf_events", asked);
	err |= put(meta, "perf_encodings", encoded);
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
	uint64_t peak_kb;
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
	/* as of this write: the last one's is the run's whole */
	err |= put(meta, "peak_rss_kb", zf_peak_rss_kb(&peak_kb) ? json_null() :
		   json_integer((json_int_t)peak_kb));
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
	return zf_results_streams_begin(r, why, len);
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

int zf_results_write(struct zf_results *r, char *why, size_t len)
{
	struct zf_buf timing = { 0 }, styles = { 0 };
	struct zf_results_csv f;
	unsigned int i;
	int err;

	zf_results_csv_begin(&f);
	for (i = 0; i < r->nconfigs; i++)
		if (r->configs[i].reps)
			zf_results_csv_config(&f, r, &r->configs[i]);
	/* the rows every other file sums up on disk before it */
	err = zf_results_streams_sync(r, why, len);
	if (!err)
		err = write_buf(r, "summary.csv", &f.summary, why, len);
	if (!err) {
		zf_chart_styles(&styles);
		err = write_buf(r, ZF_CHART_STYLES_CSV, &styles, why, len);
	}
	if (!err)
		err = write_buf(r, "counters.csv", &f.counters, why, len);
	if (!err && r->profile)
		err = write_buf(r, "profile.csv", &f.profile, why, len);
	if (!err) {
		zf_timing_csv(r, &timing);
		err = write_buf(r, "timing.csv", &timing, why, len);
	}
	if (!err)
		err = write_meta(r, false, NULL, why, len);
	/* stats.json's text for zf_results_end(): a folder cut short has none */
	zf_buf_free(&r->stats);
	if (zf_json_dump_lines(f.stats, false, &r->stats) && !err) {
		snprintf(why, len, "%s/stats.json: %s", r->dir, strerror(ENOMEM));
		err = -ENOMEM;
	}
	f.stats = NULL;	/* released by the dump */
	zf_results_csv_free(&f);
	zf_buf_free(&timing);
	zf_buf_free(&styles);
	return err;
}

int zf_results_end(struct zf_results *r, bool complete, char *why, size_t len)
{
	char end[32];
	int err;

	if (complete && !r->stats.len)	/* nothing kept: no figure, an object all the same */
		zf_json_dump_lines(json_object(), false, &r->stats);
	/* every row on disk before the folder says it is complete */
	err = complete ? zf_results_streams_sync(r, why, len) : 0;
	if (!err && complete)
		err = write_buf(r, "stats.json", &r->stats, why, len);
	if (err)
		return err;
	zf_utc_time(end, sizeof(end), false);
	return write_meta(r, complete, end, why, len);
}

void zf_results_free(struct zf_results *r)
{
	unsigned int i;

	for (i = 0; r->configs && i < r->nconfigs; i++) {
		free(r->configs[i].rep);
		free(r->configs[i].ksym);
	}
	for (i = 0; i < ZF_STREAMS; i++)
		zf_stream_close(&r->stream[i]);
	free(r->configs);
	r->configs = NULL;
	free(r->runs);
	r->runs = NULL;
	r->nruns = r->runs_cap = 0;
	zf_buf_free(&r->stats);
	json_decref(r->options);
	json_decref(r->doctor);
}
