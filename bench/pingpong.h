/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cache-line ping-pong: two tasks hand one line back and forth, the limit a
 * `global` get cannot beat (every get moves the counter's line). The caller
 * pins the two sides; this is only the measured loop.
 */
#ifndef HZF_PINGPONG_H
#define HZF_PINGPONG_H

#include <stdatomic.h>
#include <stdint.h>

#include "folio.h"

enum zf_pp_method {
	ZF_PP_CAS,	/* compare-and-swap the line to the next value: a locked RMW, as get() */
	ZF_PP_RW,	/* a plain load waits, a plain store answers */
};

struct zf_pingpong {
	_Atomic uint64_t line __attribute__((aligned(ZF_LINE)));
	_Atomic int go __attribute__((aligned(ZF_LINE)));
	enum zf_pp_method method;
	unsigned long rounds;		/* round trips in one batch */
};

/*
 * One side of one batch: side 0 starts, each waits for the value its
 * partner leaves and passes on the next. Returns the ns side 0 took for the
 * batch (side 1 returns 0).
 */
uint64_t zf_pingpong_side(struct zf_pingpong *pp, int side);

#endif
