/* SPDX-License-Identifier: GPL-2.0 */
/* What doctor samples over time, shared by doctor.c and its probes. */
#ifndef HZF_DOCTOR_SAMPLE_H
#define HZF_DOCTOR_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "doctor.h"

/* another task found runnable on one of the placement's PUs */
struct zf_runnable {
	pid_t pid;
	int cpu;
	int seen;			/* in how many of the looks */
	char comm[32];
};

struct zf_doctor_sample {
	unsigned long ms;		/* how long */
	int stat_err;			/* 0, or why steal_pct could not be had */
	hwloc_bitmap_t stat_missing;	/* stat_err -ENOENT: the PUs /proc/stat has no line for */
	double steal_pct, idle_pct;	/* of the placement's PUs' time */
	int scans, scan_err;		/* looks at every task in /proc */
	int nrunnable, runnable_cap;
	struct zf_runnable *runnable;	/* malloc()ed, nrunnable of them */
};

/* every probe of the table into d, in order (doctor_probes.c) */
void zf_doctor_probes_run(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			  struct zf_doctor *d);
/* one look at /proc: every task in state R on one of ctx's PUs, but ctx->self's; -errno */
int zf_doctor_scan(const struct zf_doctor_ctx *ctx, struct zf_doctor_sample *s);

/* the probes of doctor_cpu.c */
void zf_doctor_probe_cpufreq(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			     struct zf_doctor_factor *f);
void zf_doctor_probe_boost(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			   struct zf_doctor_factor *f);
void zf_doctor_probe_smt(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			 struct zf_doctor_factor *f);
void zf_doctor_probe_hypervisor(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
				struct zf_doctor_factor *f);
void zf_doctor_probe_isolation(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			       struct zf_doctor_factor *f);
void zf_doctor_probe_clocksource(const struct zf_doctor_ctx *ctx,
				 const struct zf_doctor_sample *s, struct zf_doctor_factor *f);

/* how every probe reads and speaks (doctor_read.c) */
void zf_doctor_say(struct zf_doctor_factor *f, enum zf_doctor_status status, const char *fix,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* ROOT/path whole, trailing newlines cut, into *text (malloc()ed); -errno */
int zf_doctor_read_alloc(const struct zf_doctor_ctx *ctx, const char *path, char **text);
/* ROOT/path (a word or a number) into buf; -errno, -EFBIG when it does not fit */
int zf_doctor_read(const struct zf_doctor_ctx *ctx, const char *path, char *buf, size_t len);
/* p NULL: "out of memory", unknown, and true */
bool zf_doctor_oom(struct zf_doctor_factor *f, const void *p);
/* "cannot read PATH: why", unknown */
void zf_doctor_unreadable(struct zf_doctor_factor *f, const char *path, int err);
/* a whole number from a one-value file; -errno, or -EINVAL for anything else */
int zf_doctor_read_long(const struct zf_doctor_ctx *ctx, const char *path, long *v);
/* a CPU list file ("0-3,8", "" or "(null)") into a new *set; -errno, -EINVAL for no list */
int zf_doctor_read_cpulist(const struct zf_doctor_ctx *ctx, const char *path,
			   hwloc_bitmap_t *set);
/* "0-3,8", or "none" for an empty set, malloc()ed; NULL when out of memory */
char *zf_doctor_list(hwloc_const_bitmap_t set);
/* the same appended to b (b->oom when out of memory) */
void zf_doctor_buf_list(struct zf_buf *b, hwloc_const_bitmap_t set);

#endif
