/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What on this machine can skew a timing, one factor a line: ok, warn (with
 * the command that fixes it) or unknown (it could not be read: never ok).
 * Every file is read under a root folder ("" for this machine), so that each
 * probe can be tested on fabricated /proc and /sys trees.
 */
#ifndef HZF_DOCTOR_H
#define HZF_DOCTOR_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <hwloc.h>

#include "buf.h"
#include "json.h"

enum zf_doctor_status { ZF_DOCTOR_OK, ZF_DOCTOR_WARN, ZF_DOCTOR_UNKNOWN };

struct zf_doctor_factor {
	const char *name;
	enum zf_doctor_status status;
	char *value;			/* what was read, in words (malloc()ed) */
	char *fix;			/* warn: the command that fixes it; else "" (malloc()ed) */
};
/* a factor's value and fix freed (and NULL again) */
void zf_doctor_factor_free(struct zf_doctor_factor *f);

struct zf_doctor_ctx {
	const char *root;		/* "" for this machine, or a fabricated tree */
	hwloc_const_bitmap_t cpus;	/* the PUs a placement would use */
	unsigned long sample_ms;	/* steal and runnable tasks are sampled this long */
	bool privileged;		/* euid 0: perf_event_paranoid does not apply */
	pid_t self;			/* not counted among the other runnable tasks */
	bool cpuid;			/* may name the hypervisor from CPUID (this machine) */
};

#define ZF_DOCTOR_MAX 16

struct zf_doctor {
	struct zf_doctor_factor f[ZF_DOCTOR_MAX];
	int n;
	char *cpus;			/* the PUs looked at, as a list (malloc()ed) */
};

/* every probe for ctx; NULL when out of memory; freed with zf_doctor_free */
struct zf_doctor *zf_doctor_run(const struct zf_doctor_ctx *ctx);
void zf_doctor_free(struct zf_doctor *d);
const char *zf_doctor_status_name(enum zf_doctor_status s);
int zf_doctor_count(const struct zf_doctor *d, enum zf_doctor_status s);
/* the table; with warnings_only, "doctor: warn NAME: VALUE (fix: ...)" lines alone */
void zf_doctor_print(const struct zf_doctor *d, FILE *f, bool warnings_only);
/* {"cpus": ..., "factors": [...], "ok": N, "warn": N, "unknown": N} */
void zf_doctor_json(const struct zf_doctor *d, struct zf_buf *b);
/* the same as an object, for meta.json's "doctor"; NULL when it could not be made */
json_t *zf_doctor_json_obj(const struct zf_doctor *d);

/* the probes one by one, for the tests: each fills one factor */
struct zf_doctor_sample;
typedef void (*zf_doctor_probe_fn)(const struct zf_doctor_ctx *ctx,
				   const struct zf_doctor_sample *s, struct zf_doctor_factor *f);
/* the probe of that name, or NULL */
zf_doctor_probe_fn zf_doctor_probe(const char *name);
/* the i-th factor's name, in the table's order; NULL past the last */
const char *zf_doctor_probe_name(size_t i);
/* the sampled factors (steal, load) over ctx->sample_ms; freed with zf_doctor_sample_free */
struct zf_doctor_sample *zf_doctor_sample(const struct zf_doctor_ctx *ctx);
void zf_doctor_sample_free(struct zf_doctor_sample *s);

/* "S (comm) R ... processor": the state and the CPU last run on, from a stat line */
int zf_proc_stat_state(const char *text, char *state, int *cpu, char *comm, size_t len);

#endif
