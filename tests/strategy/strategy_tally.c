// SPDX-License-Identifier: GPL-2.0
/*
 * tally: a strategy only the tests know, linked into build/hzfbench-tally
 * and never into hzfbench. The folio is taken for good at init, as
 * persistent does, and every fault still adds a reference on the shared
 * line and every zap drops one: a shared counter on every fault, with no
 * allocation on the way. It registers itself before main(); tests/e2e.sh
 * runs the sweep, the model and the charts with it: it must come out in
 * summary.csv, model.csv and the charts with no other file naming it, or a
 * fact about strategies has crept back out of struct zf_strategy.
 */
#include <errno.h>
#include <stdio.h>

#include "../../bench/huge_zero.h"
#include "../../bench/usemem.h"

static int tally_init(struct zf_shared *zs, struct zf_stats *st)
{
	return zf_get_huge_zero_folio(zs, st) ? 0 : -ENOMEM;
}

ZF_GET_CODE
static inline struct zf_folio *tally_get(struct zf_shared *zs, struct zf_mm *mm,
					 struct zf_stats *st)
{
	(void)mm;
	atomic_fetch_add_explicit(&zs->refcount, 1, memory_order_seq_cst);
	st->ref_gets++;
	st->counter_touches++;
	return atomic_load_explicit(&zs->folio, memory_order_relaxed);
}

ZF_PUT_CODE
static inline void tally_put(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st)
{
	(void)mm;
	st->puts++;
	zf_put_huge_zero_folio(zs, st);
}

/* at rest: init's reference alone, over the folio's own */
static int tally_check(struct zf_shared *zs, const struct zf_stats *total,
		       char *why, size_t len)
{
	long count = atomic_load(&zs->refcount);

	if (total->allocs != 1 || total->frees) {
		snprintf(why, len, "%lu allocations and %lu frees, expected 1 and 0",
			 total->allocs, total->frees);
		return -EPROTO;
	}
	if (count != 2 || total->ref_gets != total->ref_puts + 1) {
		snprintf(why, len, "refcount %ld, %lu gets and %lu puts at rest",
			 count, total->ref_gets, total->ref_puts);
		return -EPROTO;
	}
	return 0;
}

ZF_DEFINE_PASSES(tally, tally_get, tally_put)

static const struct zf_strategy zf_strategy_tally = {
	.name		= "tally",
	.summary	= "the tests' own: held for good, yet counted on a shared line every fault (tests/strategy/)",
	.model		= ZF_MODEL_SHARED,
	.style		= { .colour = "#E69F00", .dash = 6, .point = 15 },
	.init		= tally_init,
	.get		= tally_get,
	.put		= tally_put,
	.mm_exit	= NULL,
	.pin		= NULL,
	.unpin		= NULL,
	.shrink_count	= NULL,
	.shrink_scan	= NULL,
	.check		= tally_check,
	.fault_pass	= tally_fault_pass,
	.kernel_fault_pass = tally_kernel_fault_pass,
	.zap_pass	= tally_zap_pass,
};

/* a failure leaves tally out of the list, which every test of it then says */
__attribute__((constructor)) static void tally_register(void)
{
	(void)zf_strategy_register(&zf_strategy_tally);
}
