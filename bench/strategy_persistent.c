// SPDX-License-Identifier: GPL-2.0
/*
 * persistent: Linux 6.18+ with CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y (seed 004).
 * The folio is allocated once at init, with a reference that is never put,
 * and no shrinker is registered: a fault just returns the pointer, nothing
 * is counted and nothing is ever freed.
 */
#include <errno.h>
#include <stdio.h>

#include "huge_zero.h"
#include "usemem.h"

/* mm_get_huge_zero_folio() with IS_ENABLED(CONFIG_PERSISTENT_HUGE_ZERO_FOLIO) */
ZF_GET_CODE
static inline struct zf_folio *persistent_get(struct zf_shared *zs, struct zf_mm *mm,
					      struct zf_stats *st)
{
	(void)mm;
	(void)st;
	return atomic_load_explicit(&zs->folio, memory_order_relaxed);
}

/* thp_shrinker_init(): take the folio for good, register no shrinker */
static int persistent_init(struct zf_shared *zs, struct zf_stats *st)
{
	return zf_get_huge_zero_folio(zs, st) ? 0 : -ENOMEM;
}

static int persistent_check(struct zf_shared *zs, const struct zf_stats *total,
			    char *why, size_t len)
{
	struct zf_folio *folio = zf_huge_zero_folio(zs);
	long count = atomic_load(&zs->refcount);
	size_t bad;

	if (!folio || atomic_load(&folio->state) != ZF_FOLIO_LIVE) {
		snprintf(why, len, "the persistent folio is gone");
		return -EPROTO;
	}
	if (total->allocs != 1 || total->frees) {
		snprintf(why, len, "%lu allocations and %lu frees, expected 1 and 0",
			 total->allocs, total->frees);
		return -EPROTO;
	}
	/* init took the count to 2; nothing may have touched it since */
	if (count != 2 || total->ref_gets != 1 || total->ref_puts) {
		snprintf(why, len, "refcount %ld, %lu gets, %lu puts after init",
			 count, total->ref_gets, total->ref_puts);
		return -EPROTO;
	}
	if ((bad = zf_folio_verify(folio))) {
		snprintf(why, len, "folio byte %zu is not zero", bad - 1);
		return -EPROTO;
	}
	return 0;
}

#define persistent_put	NULL

ZF_DEFINE_PASSES(persistent, persistent_get, persistent_put)

const struct zf_strategy zf_strategy_persistent = {
	.name		= "persistent",
	.summary	= "allocated at init, never counted, never freed (6.18+, PERSISTENT_HUGE_ZERO_FOLIO=y)",
	.model		= ZF_MODEL_UNCOUNTED,
	.style		= { .colour = "#009E73", .dash = 4, .point = 9 },
	.init		= persistent_init,
	.pin		= persistent_get,	/* largest_zero_folio(): the pointer */
	.unpin		= NULL,
	.get		= persistent_get,
	.put		= persistent_put,
	.mm_exit	= NULL,
	.shrink_count	= NULL,
	.shrink_scan	= NULL,
	.check		= persistent_check,
	.fault_pass	= persistent_fault_pass,
	.kernel_fault_pass = persistent_kernel_fault_pass,
	.zap_pass	= persistent_zap_pass,
};
