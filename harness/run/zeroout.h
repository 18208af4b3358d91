/* SPDX-License-Identifier: GPL-2.0 */
/* `hzfbench zeroout` (--workload zeroout): mm-less users zeroing storage, see zeroout.c */
#ifndef HZF_ZEROOUT_H
#define HZF_ZEROOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../bench/folio.h"

struct zf_topo;

int zf_zeroout_main(int argc, char **argv);

#define ZF_ZEROOUT_DEPTH	4		/* requests in flight before the oldest completes */
#define ZF_ZEROOUT_PAGE		4096UL		/* a page segment */
#define ZF_ZEROOUT_FOLIO	ZF_FOLIO_SIZE	/* a folio segment */

/* what the tasks of --workload zeroout are given (zf_run_config's work) */
struct zf_zeroout_work {
	unsigned long seg, nseg;	/* a segment's bytes, segments a request */
	int fd;				/* --sink file: the file; -1: the emulated sink */
	uint64_t span;			/* --sink file: a task's stretch of it */
	int stretches;			/* distinct stretches, the tasks' count or fewer */
};

/* what zeroout --plan plans (zoplan.c) */
struct zf_zeroout_plan {
	const char *strategy;		/* the probes' (the first asked) */
	size_t nstrategies;
	char **segments;		/* page, folio */
	size_t nsegments;
	const long *tasks;
	size_t ntasks;
	unsigned long reps, min_ms, warmup;
	uint64_t zero_size;
	bool file;			/* --sink file */
	const char *out;		/* --out, NULL: results/ */
};

/* prints the configurations, the probes and the estimate; 0, or 1 (said on stderr) */
int zf_zeroout_plan(struct zf_topo *topo, const struct zf_zeroout_plan *p);

/*
 * --plan's probe: ntasks tasks, compact on here, each one request of bytes
 * of folio or page segments, to fd (-1: the emulated sink), three times;
 * the median wall, from the start barrier to the last task's completion (the
 * first allocates what the strategy and the threads need; a disk may stall
 * once), into *wall_s. 0, or 1 (said on stderr).
 */
int zf_zeroout_probe(struct zf_topo *here, const char *strategy, bool folio, int fd,
		     uint64_t bytes, int ntasks, double *wall_s);

/*
 * --sink file: each task's stretch of the file, in bytes, a multiple of
 * zero_size (256 MiB or less), and into *stretches how many distinct ones
 * the tasks write round (task i the (i mod stretches)-th): ntasks of them
 * where budget bytes hold them, fewer where not (tasks then share, and the
 * file stays within budget whatever the count of tasks), never under one.
 */
uint64_t zf_zeroout_span(uint64_t budget, int ntasks, uint64_t zero_size, int *stretches);

#endif
