// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench doctor`: the sampled factors, the table and the JSON (the
 * probes are in doctor_probes.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpustat.h"
#include "doctor.h"
#include "doctor_sample.h"
#include "json.h"

const char *zf_doctor_status_name(enum zf_doctor_status s)
{
	return s == ZF_DOCTOR_OK ? "ok" : s == ZF_DOCTOR_WARN ? "warn" : "unknown";
}

int zf_proc_stat_state(const char *text, char *state, int *cpu, char *comm, size_t len)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	int field;

	if (!open || !close || close < open || close[1] != ' ' || !close[2])
		return -EINVAL;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	*state = close[2];
	/* the CPU last run on is field 39; the state is field 3 */
	for (p = close + 2, field = 3; *p && field < 39; p++)
		if (*p == ' ')
			field++;
	if (field != 39 || *p < '0' || *p > '9')
		return -EINVAL;
	*cpu = atoi(p);
	return 0;
}

/* -ENOMEM */
static int runnable_add(struct zf_doctor_sample *s, pid_t pid, int cpu, const char *comm)
{
	struct zf_runnable *more;
	int i;

	for (i = 0; i < s->nrunnable; i++) {
		if (s->runnable[i].pid == pid) {
			s->runnable[i].seen++;
			s->runnable[i].cpu = cpu;
			return 0;
		}
	}
	if (s->nrunnable == s->runnable_cap) {
		more = reallocarray(s->runnable, s->runnable_cap ? 2 * s->runnable_cap : 16,
				    sizeof(*more));
		if (!more)
			return -ENOMEM;
		s->runnable = more;
		s->runnable_cap = s->runnable_cap ? 2 * s->runnable_cap : 16;
	}
	s->runnable[s->nrunnable] = (struct zf_runnable){ .pid = pid, .cpu = cpu, .seen = 1 };
	snprintf(s->runnable[s->nrunnable++].comm, sizeof(s->runnable[0].comm), "%s", comm);
	return 0;
}

static bool numeric(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (*name < '0' || *name > '9')
			return false;
	return true;
}

/* 52 fields of at most 20 digits, and a comm of at most 64 bytes in parentheses */
#define PROC_STAT_LINE_MAX	1280

int zf_doctor_scan(const struct zf_doctor_ctx *ctx, struct zf_doctor_sample *s)
{
	char path[PATH_MAX], text[PROC_STAT_LINE_MAX], comm[32], state;
	struct dirent *p, *t;
	DIR *procs, *tasks;
	int cpu, err = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/proc", ctx->root) >= sizeof(path))
		return -ENAMETOOLONG;
	procs = opendir(path);
	if (!procs)
		return -errno;
	while (!err && (p = readdir(procs))) {
		if (!numeric(p->d_name) || atoi(p->d_name) == ctx->self)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%s/task", ctx->root, p->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;	/* it ended meanwhile */
		while (!err && (t = readdir(tasks))) {
			if (!numeric(t->d_name))
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", p->d_name, t->d_name);
			if (zf_doctor_read(ctx, path, text, sizeof(text)) ||
			    zf_proc_stat_state(text, &state, &cpu, comm, sizeof(comm)))
				continue;
			if (state == 'R' && hwloc_bitmap_isset(ctx->cpus, cpu))
				err = runnable_add(s, atoi(t->d_name), cpu, comm);
		}
		closedir(tasks);
	}
	closedir(procs);
	s->scans++;
	return err;
}

/* a's CPU's line and b's */
static bool stat_has(const struct zf_cpustat *a, const struct zf_cpustat *b, int cpu)
{
	return cpu < a->ncpus && a->cpu[cpu].present && cpu < b->ncpus && b->cpu[cpu].present;
}

/* the share of the PUs' time between a and b into s; -ENOENT with s->stat_missing said */
static int stat_share(const struct zf_doctor_ctx *ctx, const struct zf_cpustat *a,
		      const struct zf_cpustat *b, struct zf_doctor_sample *s)
{
	int n = hwloc_bitmap_weight(ctx->cpus), i = 0, cpu, err;
	int *cpus;

	if (n < 0)
		return -EINVAL;
	s->stat_missing = hwloc_bitmap_alloc();
	cpus = malloc((n ? n : 1) * sizeof(*cpus));
	if (!s->stat_missing || !cpus) {
		free(cpus);
		return -ENOMEM;
	}
	hwloc_bitmap_foreach_begin(cpu, ctx->cpus) {
		cpus[i++] = cpu;
		if (!stat_has(a, b, cpu))
			hwloc_bitmap_set(s->stat_missing, cpu);
	} hwloc_bitmap_foreach_end();
	err = hwloc_bitmap_iszero(s->stat_missing) ?
	      zf_cpustat_share(a, b, cpus, n, &s->steal_pct, &s->idle_pct) : -ENOENT;
	free(cpus);
	return err;
}

#define DOCTOR_LOOKS 5

struct zf_doctor_sample *zf_doctor_sample(const struct zf_doctor_ctx *ctx)
{
	struct zf_doctor_sample *s = calloc(1, sizeof(*s));
	struct zf_cpustat a, b;
	int i, err;

	if (!s)
		return NULL;
	s->ms = ctx->sample_ms;
	s->stat_err = zf_cpustat_read(ctx->root, &a);
	for (i = 0; i < DOCTOR_LOOKS; i++) {
		struct timespec ts = { 0, (long)(ctx->sample_ms * 1000000UL / DOCTOR_LOOKS) };

		err = zf_doctor_scan(ctx, s);
		s->scan_err = s->scan_err ? s->scan_err : err;
		while (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		nanosleep(&ts, NULL);
	}
	if (!s->stat_err) {
		s->stat_err = zf_cpustat_read(ctx->root, &b);
		if (!s->stat_err)
			s->stat_err = stat_share(ctx, &a, &b, s);
		zf_cpustat_free(&b);
	}
	zf_cpustat_free(&a);
	return s;
}

void zf_doctor_sample_free(struct zf_doctor_sample *s)
{
	if (!s)
		return;
	hwloc_bitmap_free(s->stat_missing);
	free(s->runnable);
	free(s);
}

struct zf_doctor *zf_doctor_run(const struct zf_doctor_ctx *ctx)
{
	struct zf_doctor *d = calloc(1, sizeof(*d));
	struct zf_doctor_sample none = { .ms = ctx->sample_ms, .stat_err = -ENOMEM,
					 .scan_err = -ENOMEM };
	struct zf_doctor_sample *s;

	if (d)
		d->cpus = zf_doctor_list(ctx->cpus);
	if (!d || !d->cpus) {
		free(d);
		return NULL;
	}
	s = zf_doctor_sample(ctx);
	zf_doctor_probes_run(ctx, s ? s : &none, d);
	zf_doctor_sample_free(s);
	return d;
}

void zf_doctor_free(struct zf_doctor *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		zf_doctor_factor_free(&d->f[i]);
	free(d->cpus);
	free(d);
}

/* a factor's text; NULL when it could not be had */
static const char *said(const char *text)
{
	return text ? text : "out of memory";
}

int zf_doctor_count(const struct zf_doctor *d, enum zf_doctor_status st)
{
	int i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->f[i].status == st;
	return n;
}

void zf_doctor_print(const struct zf_doctor *d, FILE *f, bool warnings_only)
{
	int i;

	if (!warnings_only)
		fprintf(f, "%-20s %-8s what was read (PUs %s)\n", "factor", "status", d->cpus);
	for (i = 0; i < d->n; i++) {
		const struct zf_doctor_factor *x = &d->f[i];

		if (warnings_only) {
			if (x->status == ZF_DOCTOR_WARN)
				fprintf(f, "doctor: warn %s: %s (fix: %s)\n", x->name, said(x->value),
					said(x->fix));
			continue;
		}
		fprintf(f, "%-20s %-8s %s\n", x->name, zf_doctor_status_name(x->status), said(x->value));
		if (x->fix && x->fix[0])
			fprintf(f, "%-20s %-8s fix: %s\n", "", "", x->fix);
	}
	if (!warnings_only)
		fprintf(f, "%d ok, %d warn, %d unknown\n", zf_doctor_count(d, ZF_DOCTOR_OK),
			zf_doctor_count(d, ZF_DOCTOR_WARN), zf_doctor_count(d, ZF_DOCTOR_UNKNOWN));
}

json_t *zf_doctor_json_obj(const struct zf_doctor *d)
{
	json_t *factors = json_array();
	int i;

	for (i = 0; i < d->n; i++) {
		const struct zf_doctor_factor *x = &d->f[i];

		/* json_pack() fails whole, and releases its "o"s, when any part is NULL */
		zf_json_push(&factors, json_pack("{s:s, s:s, s:o, s:o}", "name", x->name,
						 "status", zf_doctor_status_name(x->status),
						 "value", zf_json_text(said(x->value)),
						 "fix", zf_json_text(x->fix && x->fix[0] ? x->fix : NULL)));
	}
	return json_pack("{s:o, s:o, s:i, s:i, s:i}", "cpus", zf_json_text(d->cpus),
			 "factors", factors, "ok", zf_doctor_count(d, ZF_DOCTOR_OK),
			 "warn", zf_doctor_count(d, ZF_DOCTOR_WARN),
			 "unknown", zf_doctor_count(d, ZF_DOCTOR_UNKNOWN));
}

void zf_doctor_json(const struct zf_doctor *d, struct zf_buf *b)
{
	/* one line, as before: JSON_INDENT(0) keeps ", " and ": " */
	zf_json_dump(zf_doctor_json_obj(d), JSON_INDENT(0), b);
}
