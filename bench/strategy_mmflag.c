// SPDX-License-Identifier: GPL-2.0
/*
 * mmflag: Linux 4.9 to today (seed 007). An mm takes one global reference on
 * its first huge zero fault and remembers it in MMF_HUGE_ZERO_FOLIO; later
 * faults only test that bit, on the mm's own line. The reference is dropped
 * once, when the mm exits, so the folio can be freed only after every mm that
 * ever used it is gone.
 */
#include "huge_zero.h"
#include "usemem.h"

#define MMF_MASK	(1UL << ZF_MMF_HUGE_ZERO_FOLIO)

/* mm_get_huge_zero_folio() */
ZF_GET_CODE
static inline struct zf_folio *mmflag_get(struct zf_shared *zs, struct zf_mm *mm,
					  struct zf_stats *st)
{
	/* test_bit(): a relaxed read */
	if (atomic_load_explicit(&mm->flags, memory_order_relaxed) & MMF_MASK)
		return zf_huge_zero_folio(zs);

	if (!zf_get_huge_zero_folio(zs, st))
		return NULL;

	/* test_and_set_bit(): fully ordered; a task of this mm won the race */
	if (atomic_fetch_or_explicit(&mm->flags, MMF_MASK, memory_order_seq_cst) & MMF_MASK)
		zf_put_huge_zero_folio(zs, st);

	return zf_huge_zero_folio(zs);
}

/* mm_put_huge_zero_folio(), from __mmput() */
ZF_PUT_CODE
static void mmflag_mm_exit(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st)
{
	if (atomic_load_explicit(&mm->flags, memory_order_relaxed) & MMF_MASK)
		zf_put_huge_zero_folio(zs, st);
}

/* zapping a huge zero PMD drops no reference since seed 007 */
#define mmflag_put	NULL

ZF_DEFINE_PASSES(mmflag, mmflag_get, mmflag_put)

const struct zf_strategy zf_strategy_mmflag = {
	.name		= "mmflag",
	.summary	= "a per-mm flag: the global count is touched on an mm's first fault and exit (4.9+)",
	.model		= ZF_MODEL_PER_MM,
	.style		= { .colour = "#0072B2", .dash = 2, .point = 5 },
	.init		= NULL,
	.get		= mmflag_get,
	.put		= mmflag_put,
	.mm_exit	= mmflag_mm_exit,
	.pin		= zf_huge_zero_pin,	/* no mm to flag: a reference a request */
	.unpin		= zf_huge_zero_unpin,
	.shrink_count	= zf_huge_zero_shrink_count,
	.shrink_scan	= zf_huge_zero_shrink_scan,
	.check		= zf_huge_zero_check,
	.fault_pass	= mmflag_fault_pass,
	.kernel_fault_pass = mmflag_kernel_fault_pass,
	.zap_pass	= mmflag_zap_pass,
};
