/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task counters on perf_event_open(2): each task opens its own events on
 * itself after binding (hardware events in groups of at most
 * ZF_PERF_HW_GROUP, software events in one group), and reads them at every
 * phase boundary. An event the machine cannot count is not opened, and its
 * errno is kept: it is reported as unsupported, never as a zero. One hzfbench
 * could not open (out of file descriptors or memory) fails the run instead.
 */
#ifndef HZF_PERFCTR_H
#define HZF_PERFCTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ZF_PERF_MAX_EVENTS	16
#define ZF_PERF_HW_GROUP	4	/* general-purpose counters every x86 PMU has */
#define ZF_PERF_NAME_MAX	128	/* OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS_LOCAL:SNP_ANY */

/*
 * An event as perf_event_attr takes it: a generic name's from perfname.c's
 * table, a raw code's as typed, a PMU event's as libpfm4 encoded it (pmu.h).
 * Kernel and user are both counted unless a PMU event's u or k modifier says.
 */
struct zf_perf_event {
	char name[ZF_PERF_NAME_MAX];	/* as the user wrote it: cycles, r01d3, INST_RETIRED:ANY_P */
	uint32_t type;		/* PERF_TYPE_*, or a PMU's dynamic type */
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel;
};

struct zf_perf_list {
	struct zf_perf_event ev[ZF_PERF_MAX_EVENTS];
	size_t n;
};

/* one reading of one event, or the sum of several: count over its time counted */
struct zf_perf_value {
	uint64_t count, enabled_ns, running_ns;
};

/* one task's open events */
struct zf_perf_task {
	const struct zf_perf_list *list;
	int fd[ZF_PERF_MAX_EVENTS];	/* -1: not counted (err says why) */
	int err[ZF_PERF_MAX_EVENTS];	/* 0 or the errno perf_event_open gave */
	int leader[ZF_PERF_MAX_EVENTS];	/* index of each event's group leader */
};

/*
 * --profile: a cpu-clock sampling event on the task (it needs no PMU), its
 * ring buffer drained into counts of where the samples fell: in the
 * strategy's get() code, its put() code, or anywhere else (kernel included).
 * A kernel sample is also named by kallsyms (when it can be), at drain time:
 * the kernel's huge zero folio get and put functions counted, and a task's
 * first ZF_PROFILE_KSYMS symbols kept with their samples.
 */
#define ZF_PROFILE_PERIOD_NS	1000000	/* 1 kHz: sampling costs ~1% here, ~13% at 10 kHz */
#define ZF_PROFILE_KSYMS	16
#define ZF_PROFILE_TOP_KSYMS	8	/* profile.csv's, a configuration's, and the get and put ones */

struct zf_kallsyms;

/* a kernel symbol's samples: sym is its index in the kallsyms + 1; 0 is a free slot */
struct zf_ksym_count {
	uint32_t sym, samples;
};

struct zf_profile {
	uint64_t get, put, other, lost;
	uint64_t kernel;		/* of other: in the kernel */
	uint64_t kernel_get, kernel_put;	/* of kernel: in zf_kernel_role()'s functions */
	struct zf_ksym_count ksym[ZF_PROFILE_KSYMS];	/* the rest: in kernel alone */
};

struct zf_sampler {
	int fd;
	void *ring;
	size_t ring_len;
	uintptr_t get_lo, get_hi, put_lo, put_hi;	/* [lo, hi) */
	const struct zf_kallsyms *ks;	/* NULL: kernel samples are not named */
};

/* the kernel's huge zero folio functions: ZF_KERNEL_GET, ZF_KERNEL_PUT, or 0 for name */
#define ZF_KERNEL_GET	1
#define ZF_KERNEL_PUT	2
int zf_kernel_role(const char *name);

/* the default set: what --events means when it is not given */
extern const char zf_perf_default_events[];

/*
 * "cycles,instructions,r01d3" into list; "none" is the empty list. 0, or
 * -EINVAL with the bad word in bad and the reason in *why.
 */
int zf_perf_parse(const char *s, struct zf_perf_list *list, char *bad, size_t badlen,
		  const char **why);
/*
 * name as an event: a generic name, rNNNN[:config1=HEX][:config2=HEX], or
 * (with libpfm4) the PMU's own name; 0, or -ENOENT, -EINVAL with *why (why
 * may be NULL)
 */
int zf_perf_lookup(const char *name, struct zf_perf_event *out, const char **why);
/*
 * --events list[=PATTERN]: each generic name with what perf_event_open says
 * of it on this task, the raw syntax, and libpfm4's PMUs and their events;
 * PATTERN (NULL: all) keeps the names that hold it, in any case
 */
void zf_perf_print_list(FILE *out, const char *pattern);
/* the index of event name in list (or of the same event by another name), or -1 */
int zf_perf_find(const struct zf_perf_list *list, const char *name);

/* open every event on the calling task, disabled; events that fail keep their errno */
void zf_perf_open(struct zf_perf_task *t, const struct zf_perf_list *list);
/* start counting, from zero */
void zf_perf_start(struct zf_perf_task *t);
/* the current value of every event (unopened ones left zero); 0 or -errno */
int zf_perf_read(struct zf_perf_task *t, struct zf_perf_value *vals);
void zf_perf_close(struct zf_perf_task *t);

/*
 * sample the calling task every period_ns, attributing [get_lo, get_hi) and
 * [put_lo, put_hi), and the kernel's samples by ks (NULL: not named); -errno
 */
int zf_sampler_open(struct zf_sampler *s, uint64_t period_ns, const void *get_lo,
		    const void *get_hi, const void *put_lo, const void *put_hi,
		    const struct zf_kallsyms *ks);
void zf_sampler_enable(struct zf_sampler *s, bool on);
/* every sample recorded so far, counted into p */
void zf_sampler_drain(struct zf_sampler *s, struct zf_profile *p);
void zf_sampler_close(struct zf_sampler *s);

/* v scaled for multiplexing: count * enabled / running; false if it never ran */
bool zf_perf_scaled(const struct zf_perf_value *v, double *out, bool *multiplexed);
/* the one-line hint for a refusal, naming perf_event_paranoid; NULL if err is not one */
const char *zf_perf_hint(int err, char *buf, size_t len);
/*
 * An errno of perf_event_open that is hzfbench's failure, not the machine's
 * refusal: out of file descriptors (EMFILE, ENFILE) or memory (ENOMEM). The
 * rest (ENOENT, EOPNOTSUPP, EINVAL for an event the PMU does not know,
 * EACCES and EPERM under perf_event_paranoid) say what the machine cannot
 * count: unsupported.
 */
bool zf_perf_tool_failure(int err);
/*
 * The first of t's events that failed so: its errno, with why naming the
 * event, the error and RLIMIT_NOFILE; 0 when none did
 */
int zf_perf_failed(const struct zf_perf_task *t, char *why, size_t len);
/* the same for one errno of what (an event, "--profile's sampler"), into why */
void zf_perf_failure(const char *what, int err, char *why, size_t len);

#endif
