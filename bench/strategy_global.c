// SPDX-License-Identifier: GPL-2.0
/*
 * global: Linux 3.8 - 4.8. Every huge zero read fault takes a reference on one
 * global atomic count (get_huge_zero_page()) and every zapped huge zero PMD
 * drops it (put_huge_zero_page()), so every fault and every unmap of every
 * task moves the counter's cache line. Seed 007 is the patch that ended it.
 */
#include "huge_zero.h"
#include "usemem.h"

/* get_huge_zero_page() */
ZF_GET_CODE
static inline struct zf_folio *global_get(struct zf_shared *zs, struct zf_mm *mm,
					  struct zf_stats *st)
{
	(void)mm;
	if (unlikely(!zf_get_huge_zero_folio(zs, st)))
		return NULL;
	return zf_huge_zero_folio(zs);
}

/* put_huge_zero_page(), from zap_huge_pmd() */
ZF_PUT_CODE
static inline void global_put(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st)
{
	(void)mm;
	st->puts++;
	zf_put_huge_zero_folio(zs, st);
}

ZF_DEFINE_PASSES(global, global_get, global_put)

const struct zf_strategy zf_strategy_global = {
	.name		= "global",
	.summary	= "one atomic count: a reference per fault, a put per unmap (3.8-4.8)",
	.model		= ZF_MODEL_SHARED,
	.style		= { .colour = "#D55E00", .dash = 1, .point = 7 },
	.init		= NULL,
	.get		= global_get,
	.put		= global_put,
	.mm_exit	= NULL,
	.pin		= zf_huge_zero_pin,
	.unpin		= zf_huge_zero_unpin,
	.shrink_count	= zf_huge_zero_shrink_count,
	.shrink_scan	= zf_huge_zero_shrink_scan,
	.check		= zf_huge_zero_check_mapped,
	.fault_pass	= global_fault_pass,
	.kernel_fault_pass = global_kernel_fault_pass,
	.zap_pass	= global_zap_pass,
};
