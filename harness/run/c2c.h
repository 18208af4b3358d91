/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench c2c`: the core-to-core hand-off latency matrix (c2c.c), and with
 * --contention how many operations a CPU does on a contended line before it
 * moves, against the work between them (c2c_contention.c).
 */
#ifndef HZF_C2C_H
#define HZF_C2C_H

#include <stddef.h>

#include "model.h"
#include "topo.h"

int zf_c2c_main(int argc, char **argv);

/*
 * A pair's two pinned sides, both running side(): b's thread started first
 * (it waits on the line they share), then a's, both joined. 0; -1 when b's
 * could not start (nothing ran: the caller frees what they share); -2 when
 * a's could not (b is left waiting on it: not to be freed; the process is
 * ending anyway). why says which.
 */
int zf_c2c_run_pair(void *(*side)(void *), void *a, void *b, char *why, size_t len);

/* DIR/c2c-contention.csv's columns, in order (NULL-terminated) */
extern const char *const zf_c2c_contention_cols[];
#define ZF_C2C_CONTENTION_CSV	"c2c-contention.csv"
#define ZF_C2C_WORK_NS_DEFAULT	"0,50,100,200,500,1000,2000"
#define ZF_C2C_WORK_NS_MAX	1000000UL	/* 1 ms between two operations */

/* two of a plan's tasks (indices into it) and the innermost object their PUs share */
struct zf_c2c_pair {
	int i, j;
	enum zf_level level;
};

/*
 * At most `max` pairs of the plan's PUs, spread over the levels they share
 * (core, node, package, machine: one of each level in turn, inner first,
 * each level's pairs in plan order), sorted by level then plan order;
 * malloc()ed into *pairs. -ENOMEM.
 */
int zf_c2c_contention_pairs(const struct zf_plan *plan, unsigned long max,
			    struct zf_c2c_pair **pairs, size_t *n);
/* --work-ns: comma-separated ns, each 0..ZF_C2C_WORK_NS_MAX, sorted, no repeats; 0 or 2 said */
int zf_c2c_work_parse(const char *arg, unsigned long **work_ns, size_t *n);
/* each side's operations in one batch at work_ns between them */
unsigned long zf_c2c_contention_ops(unsigned long work_ns);
/* --plan: the seconds the pairs take at each work amount, a hand-off taken as handoff_ns */
double zf_c2c_contention_plan_s(size_t npairs, const unsigned long *work_ns, size_t nwork,
				double handoff_ns);
/*
 * Measure every pair at every work amount, write DIR/c2c-contention.csv
 * and print it as a table; 0, or 1 with the error said
 */
int zf_c2c_contention(struct zf_topo *topo, const struct zf_plan *plan,
		      const struct zf_c2c_pair *pairs, size_t npairs,
		      const unsigned long *work_ns, size_t nwork, const char *dir);

#endif
