/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The global huge zero folio and its reference count, as mm/huge_memory.c has
 * it: the machinery `global` uses on every fault, `mmflag` on an mm's first,
 * and `persistent` once at init. The fast paths are inline so that each
 * strategy's fault loop has them inlined; the slow path (allocate, race,
 * install) is out of line in huge_zero.c.
 */
#ifndef HZF_HUGE_ZERO_H
#define HZF_HUGE_ZERO_H

#include "strategy.h"

/*
 * atomic_inc_not_zero(): the kernel's atomic_fetch_add_unless(v, 1, 0), a
 * compare-and-swap loop. Fully ordered when it succeeds. Every attempt is a
 * locked RMW on the counter's line, and under contention the attempts lose
 * to each other: that is why `global` collapses.
 */
static inline bool zf_inc_not_zero(_Atomic long *v, struct zf_stats *st)
{
	long c = atomic_load_explicit(v, memory_order_relaxed);

	for (;;) {
		if (unlikely(!c))
			return false;
		st->counter_touches++;
		if (likely(atomic_compare_exchange_weak_explicit(v, &c, c + 1,
				memory_order_seq_cst, memory_order_relaxed)))
			return true;
		st->cas_retries++;
	}
}

bool zf_huge_zero_alloc_slow(struct zf_shared *zs, struct zf_stats *st);
void zf_huge_zero_broken(struct zf_shared *zs, struct zf_stats *st);

/* get_huge_zero_folio(): take a global reference; false if no folio */
static inline bool zf_get_huge_zero_folio(struct zf_shared *zs, struct zf_stats *st)
{
	if (likely(zf_inc_not_zero(&zs->refcount, st))) {
		st->ref_gets++;
		return true;
	}
	return zf_huge_zero_alloc_slow(zs, st);
}

/*
 * put_huge_zero_folio(): the count never reaches zero here; only the
 * shrinker takes the last reference. The kernel BUG()s; we record it.
 */
static inline void zf_put_huge_zero_folio(struct zf_shared *zs, struct zf_stats *st)
{
	st->ref_puts++;
	st->counter_touches++;
	if (unlikely(atomic_fetch_sub_explicit(&zs->refcount, 1, memory_order_seq_cst) == 1))
		zf_huge_zero_broken(zs, st);
}

/*
 * An mm-less user of a counted strategy (global, mmflag): no mm to tie the
 * folio's life to, so a global reference per request, dropped at completion.
 */
struct zf_folio *zf_huge_zero_pin(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st);
void zf_huge_zero_unpin(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st);

/* READ_ONCE(huge_zero_folio) */
static inline struct zf_folio *zf_huge_zero_folio(struct zf_shared *zs)
{
	return atomic_load_explicit(&zs->folio, memory_order_acquire);
}

/* shrink_huge_zero_folio_count() */
unsigned long zf_huge_zero_shrink_count(struct zf_shared *zs);
/* shrink_huge_zero_folio_scan() */
unsigned long zf_huge_zero_shrink_scan(struct zf_shared *zs, struct zf_stats *st);
/*
 * At rest, shared by `global` and `mmflag`: the count is 1 with a folio (the
 * shrinker's reference) or 0 without; every reference taken was dropped; no
 * put found the count at zero; the folio, if any, is all zeroes.
 */
int zf_huge_zero_check(struct zf_shared *zs, const struct zf_stats *total,
		       char *why, size_t len);
/* and a put for every zapped PMD: for the strategies that count per mapping (global, percpu) */
int zf_huge_zero_check_mapped(struct zf_shared *zs, const struct zf_stats *total,
			      char *why, size_t len);

#endif
