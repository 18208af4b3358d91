/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two tasks contending for one line with work between their operations: each
 * does `ops` increments of the line by an inc-not-zero CAS loop, as a
 * `global` get does, with `work_iters` of calibrated busy work after each.
 * The line also holds who wrote it last, so each increment knows whether the
 * line came from the other task (an ownership change: the line moved for
 * writing) or was still this task's own. Ops per ownership change is how many
 * gets a CPU does while it keeps the line; the contention model (docs/model.md)
 * assumes one. The caller pins the two sides; this is only the measured loop.
 */
#ifndef HZF_CONTEND_H
#define HZF_CONTEND_H

#include <stdatomic.h>
#include <stdint.h>

#include "folio.h"

#define ZF_CONTEND_ID_BITS	2	/* the writer: 0 nobody yet, 1 side 0, 2 side 1 */

/*
 * Lines 0-1, the contended line: the count above ZF_CONTEND_ID_BITS, the last
 * writer below. Lines 2-3, set by the side that ends a batch first and read by
 * both after every increment (shared, written once a batch). Lines 4-5, the
 * start and end barrier, which both sides touch only between the timed loops.
 */
struct zf_contend {
	_Atomic uint64_t line __attribute__((aligned(ZF_LINE)));
	_Atomic int ended __attribute__((aligned(ZF_LINE)));
	_Atomic unsigned long arrived __attribute__((aligned(ZF_LINE)));	/* 0 before batch 0 */
	unsigned long ops;		/* each side's increments in one batch */
	unsigned long work_iters;	/* zf_busy() iterations after each increment */
};

/*
 * One side's batch. The first four count while both sides ran: until this side
 * ended, or until it saw the other end (the rest it did alone, uncontended).
 */
struct zf_contend_count {
	uint64_t ns;			/* the side's own wall time for those ops and their work */
	unsigned long ops;		/* increments */
	unsigned long retries;		/* CAS attempts that lost */
	unsigned long transfers;	/* increments whose previous writer was the other side */
	unsigned long done;		/* increments in the whole batch (ops, unless the count was 0) */
	unsigned long line_ops;		/* side 0: the count's growth over the batch, both sides */
};

/*
 * One side (0 or 1) of batch `batch` (0, 1, ... in turn on both sides): side
 * 0 resets the line, both start together, each times its own ops, both wait
 * for the other to end. Both sides call it for the same batches.
 */
void zf_contend_batch(struct zf_contend *c, int side, unsigned long batch,
		      struct zf_contend_count *out);

#endif
