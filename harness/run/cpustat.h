/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the CPUs' time went, from /proc/stat: a snapshot of every CPU's
 * counters, and between two snapshots the share of a set of CPUs' time that
 * was stolen by the hypervisor or idle. The parser takes text so that it can
 * be tested on fabricated files; a field the kernel does not give (steal
 * before 2.6.11, or a fabricated file) is said to be missing, never 0.
 */
#ifndef HZF_CPUSTAT_H
#define HZF_CPUSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* one CPU's line, in USER_HZ ticks */
struct zf_cpu_times {
	bool present;		/* the CPU had a line */
	bool has_steal;		/* the line had a steal field */
	uint64_t total;		/* user nice system idle iowait irq softirq steal */
	uint64_t idle;		/* idle + iowait */
	uint64_t steal;
};

struct zf_cpustat {
	int ncpus;		/* entries in cpu[]: the highest CPU seen + 1 */
	struct zf_cpu_times all;	/* the "cpu" line: every CPU */
	struct zf_cpu_times *cpu;
};

/* parse /proc/stat text; -EINVAL (and nothing to free) when it has no "cpu" line */
int zf_cpustat_parse(const char *text, struct zf_cpustat *st);
/* read and parse ROOT/proc/stat (root "" for this machine); -errno */
int zf_cpustat_read(const char *root, struct zf_cpustat *st);
void zf_cpustat_free(struct zf_cpustat *st);

/*
 * Between a and b, over the CPUs listed (every CPU: cpus NULL), the
 * percentage of their time stolen and idle. -ENOENT when a CPU is missing
 * from either snapshot, -ENODATA when no time passed or no steal field was
 * there (then *steal_pct is NaN, *idle_pct still set when it can be).
 */
int zf_cpustat_share(const struct zf_cpustat *a, const struct zf_cpustat *b, const int *cpus,
		     int ncpus, double *steal_pct, double *idle_pct);

#endif
