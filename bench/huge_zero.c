// SPDX-License-Identifier: GPL-2.0
/* The global huge zero folio's slow paths and shrinker: see huge_zero.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "huge_zero.h"
#include "tick.h"

/* the part of get_huge_zero_folio() after inc_not_zero failed */
ZF_GET_CODE
bool zf_huge_zero_alloc_slow(struct zf_shared *zs, struct zf_stats *st)
{
	for (;;) {
		struct zf_folio *zero_folio, *expected = NULL;
		unsigned long t0;

		if (zf_inc_not_zero(&zs->refcount, st)) {
			st->ref_gets++;
			return true;
		}
		/* a put found zero: the state is broken, never spin on it */
		if (atomic_load_explicit(&zs->broken, memory_order_relaxed))
			return false;
		t0 = zf_now_ns();
		zero_folio = zf_folio_alloc(&zs->pool);
		st->alloc_ns += zf_now_ns() - t0;
		if (!zero_folio) {
			st->alloc_failures++;
			return false;
		}
		st->allocs++;
		if (!atomic_compare_exchange_strong_explicit(&zs->folio, &expected, zero_folio,
				memory_order_seq_cst, memory_order_relaxed)) {
			/* another task installed one first: free ours and retry */
			zf_folio_free(zero_folio);
			st->frees++;
			st->alloc_races_lost++;
			continue;
		}
		/* one reference for us, one put back by the shrinker */
		atomic_store_explicit(&zs->refcount, 2, memory_order_release);
		st->counter_touches++;
		st->ref_gets++;
		return true;
	}
}

struct zf_folio *zf_huge_zero_pin(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st)
{
	(void)mm;
	return zf_get_huge_zero_folio(zs, st) ? zf_huge_zero_folio(zs) : NULL;
}

void zf_huge_zero_unpin(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st)
{
	(void)mm;
	zf_put_huge_zero_folio(zs, st);
}

ZF_PUT_CODE
void zf_huge_zero_broken(struct zf_shared *zs, struct zf_stats *st)
{
	st->broken++;
	atomic_store_explicit(&zs->broken, 1, memory_order_relaxed);
}

unsigned long zf_huge_zero_shrink_count(struct zf_shared *zs)
{
	/* the folio can be freed only when the shrinker's reference is the last */
	return atomic_load(&zs->refcount) == 1 ? ZF_FOLIO_PAGES : 0;
}

unsigned long zf_huge_zero_shrink_scan(struct zf_shared *zs, struct zf_stats *st)
{
	long one = 1;
	struct zf_folio *zero_folio;

	st->counter_touches++;
	if (!atomic_compare_exchange_strong_explicit(&zs->refcount, &one, 0,
			memory_order_seq_cst, memory_order_relaxed))
		return 0;
	zero_folio = atomic_exchange_explicit(&zs->folio, NULL, memory_order_seq_cst);
	if (!zero_folio || zf_folio_free(zero_folio)) {
		zf_huge_zero_broken(zs, st);
		return 0;
	}
	st->frees++;
	st->shrinks++;
	return ZF_FOLIO_PAGES;
}

int zf_huge_zero_check_mapped(struct zf_shared *zs, const struct zf_stats *total,
			      char *why, size_t len)
{
	if (total->puts != total->zaps) {
		snprintf(why, len, "%lu PMDs zapped but %lu puts", total->zaps, total->puts);
		return -EPROTO;
	}
	return zf_huge_zero_check(zs, total, why, len);
}

int zf_huge_zero_check(struct zf_shared *zs, const struct zf_stats *total,
		       char *why, size_t len)
{
	struct zf_folio *folio = zf_huge_zero_folio(zs);
	long count = atomic_load(&zs->refcount);
	unsigned long live = zf_folio_live_count(&zs->pool);
	size_t bad;

	if (total->broken || atomic_load(&zs->broken)) {
		snprintf(why, len, "a put found the count at zero or the shrinker found no folio (%lu times)",
			 total->broken);
		return -EPROTO;
	}
	if (count != (folio ? 1 : 0)) {
		snprintf(why, len, "refcount is %ld at rest, expected %d", count, folio ? 1 : 0);
		return -EPROTO;
	}
	if (total->ref_gets != total->ref_puts) {
		snprintf(why, len, "%lu references taken, %lu dropped",
			 total->ref_gets, total->ref_puts);
		return -EPROTO;
	}
	if (live != (folio ? 1UL : 0UL) || total->allocs - total->frees != live) {
		snprintf(why, len, "%lu folios live, %lu allocated, %lu freed",
			 live, total->allocs, total->frees);
		return -EPROTO;
	}
	if (folio && (bad = zf_folio_verify(folio))) {
		snprintf(why, len, "folio byte %zu is not zero", bad - 1);
		return -EPROTO;
	}
	return 0;
}
