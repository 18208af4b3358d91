// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench doctor`: the sampled factors, the table and the JSON (the
 * probes are in doctor_probes.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpustat.h"
#include "doctor.h"
#include "doctor_sample.h"
#include "sysinfo.h"

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

static bool wanted(const struct zf_doctor_ctx *ctx, int cpu)
{
	int i;

	for (i = 0; i < ctx->ncpus; i++)
		if (ctx->cpus[i] == cpu)
			return true;
	return false;
}

static void runnable_add(struct zf_doctor_sample *s, pid_t pid, int cpu, const char *comm)
{
	int i;

	for (i = 0; i < s->nrunnable; i++) {
		if (s->runnable[i].pid == pid) {
			s->runnable[i].seen++;
			s->runnable[i].cpu = cpu;
			return;
		}
	}
	if (s->nrunnable == ZF_DOCTOR_RUNNABLE_MAX)
		return;
	s->runnable[s->nrunnable] = (struct zf_runnable){ .pid = pid, .cpu = cpu, .seen = 1 };
	snprintf(s->runnable[s->nrunnable++].comm, sizeof(s->runnable[0].comm), "%s", comm);
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

int zf_doctor_scan(const struct zf_doctor_ctx *ctx, struct zf_doctor_sample *s)
{
	char path[4096], text[1024], comm[32], state;
	struct dirent *p, *t;
	DIR *procs, *tasks;
	int cpu;

	snprintf(path, sizeof(path), "%s/proc", ctx->root);
	procs = opendir(path);
	if (!procs)
		return -errno;
	while ((p = readdir(procs))) {
		if (!numeric(p->d_name) || atoi(p->d_name) == ctx->self)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%s/task", ctx->root, p->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;	/* it ended meanwhile */
		while ((t = readdir(tasks))) {
			if (!numeric(t->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/proc/%s/task/%s/stat", ctx->root,
				 p->d_name, t->d_name);
			if (zf_read_file(path, text, sizeof(text)) ||
			    zf_proc_stat_state(text, &state, &cpu, comm, sizeof(comm)))
				continue;
			if (state == 'R' && wanted(ctx, cpu))
				runnable_add(s, atoi(t->d_name), cpu, comm);
		}
		closedir(tasks);
	}
	closedir(procs);
	s->scans++;
	return 0;
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
			s->stat_err = zf_cpustat_share(&a, &b, ctx->cpus, ctx->ncpus, &s->steal_pct,
						       &s->idle_pct);
		zf_cpustat_free(&b);
	}
	zf_cpustat_free(&a);
	return s;
}

void zf_doctor_sample_free(struct zf_doctor_sample *s)
{
	free(s);
}

void zf_doctor_run(const struct zf_doctor_ctx *ctx, struct zf_doctor *d)
{
	struct zf_doctor_sample *s = zf_doctor_sample(ctx);
	struct zf_doctor_sample none = { .ms = ctx->sample_ms, .stat_err = -ENOMEM,
					 .scan_err = -ENOMEM };

	memset(d, 0, sizeof(*d));
	zf_cpulist_format(ctx->cpus, ctx->ncpus, d->cpus, sizeof(d->cpus));
	zf_doctor_probes_run(ctx, s ? s : &none, d);
	zf_doctor_sample_free(s);
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
				fprintf(f, "doctor: warn %s: %s (fix: %s)\n", x->name, x->value, x->fix);
			continue;
		}
		fprintf(f, "%-20s %-8s %s\n", x->name, zf_doctor_status_name(x->status), x->value);
		if (x->fix[0])
			fprintf(f, "%-20s %-8s fix: %s\n", "", "", x->fix);
	}
	if (!warnings_only)
		fprintf(f, "%d ok, %d warn, %d unknown\n", zf_doctor_count(d, ZF_DOCTOR_OK),
			zf_doctor_count(d, ZF_DOCTOR_WARN), zf_doctor_count(d, ZF_DOCTOR_UNKNOWN));
}

void zf_doctor_json(const struct zf_doctor *d, struct zf_buf *b)
{
	int i;

	zf_buf_printf(b, "{\"cpus\": ");
	zf_buf_json_str(b, d->cpus);
	zf_buf_printf(b, ", \"factors\": [");
	for (i = 0; i < d->n; i++) {
		const struct zf_doctor_factor *x = &d->f[i];

		zf_buf_printf(b, "%s{\"name\": \"%s\", \"status\": \"%s\", \"value\": ", i ? ", " : "",
			      x->name, zf_doctor_status_name(x->status));
		zf_buf_json_str(b, x->value);
		zf_buf_printf(b, ", \"fix\": ");
		if (x->fix[0])
			zf_buf_json_str(b, x->fix);
		else
			zf_buf_printf(b, "null");
		zf_buf_printf(b, "}");
	}
	zf_buf_printf(b, "], \"ok\": %d, \"warn\": %d, \"unknown\": %d}",
		      zf_doctor_count(d, ZF_DOCTOR_OK), zf_doctor_count(d, ZF_DOCTOR_WARN),
		      zf_doctor_count(d, ZF_DOCTOR_UNKNOWN));
}
