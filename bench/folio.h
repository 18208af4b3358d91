/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The huge zero folio: a real 2 MiB buffer of zeroes, allocated (and zeroed,
 * which is the cost the kernel pays) on demand, poisoned when freed so that a
 * read of a freed folio is seen. Folios come from a pool mapped MAP_SHARED
 * before any task starts, so a folio allocated by one process is readable by
 * every other.
 */
#ifndef HZF_FOLIO_H
#define HZF_FOLIO_H

#include <stdatomic.h>
#include <stddef.h>

#define ZF_LINE		128	/* two lines: x86's adjacent-line prefetcher pairs them */
#define ZF_FOLIO_SIZE	(2UL << 20)
#define ZF_FOLIO_PAGES	(ZF_FOLIO_SIZE / 4096)
#define ZF_POISON_FREE	0x6b	/* the kernel's POISON_FREE */

enum zf_folio_state { ZF_FOLIO_FREE, ZF_FOLIO_BUSY, ZF_FOLIO_LIVE };

struct zf_folio {
	_Atomic int state;
	unsigned int index;
	unsigned char *data;
} __attribute__((aligned(ZF_LINE)));

struct zf_folio_pool {
	struct zf_folio *folios;	/* headers, in shared memory */
	unsigned char *data;		/* nr * 2 MiB, shared */
	unsigned int nr;
	size_t map_len;
};

int zf_folio_pool_init(struct zf_folio_pool *pool, unsigned int nr);
void zf_folio_pool_fini(struct zf_folio_pool *pool);
/* a zeroed folio, or NULL when every folio of the pool is in use */
struct zf_folio *zf_folio_alloc(struct zf_folio_pool *pool);
/* poison and give back; -EINVAL if it was not live (double free) */
int zf_folio_free(struct zf_folio *folio);
unsigned int zf_folio_live_count(const struct zf_folio_pool *pool);
/* 0 when all 2 MiB are zero, else the first offset that is not, plus one */
size_t zf_folio_verify(const struct zf_folio *folio);

/* the user's read: one byte at off (already within the folio) */
static inline unsigned char zf_folio_read(const struct zf_folio *folio, unsigned long off)
{
	return *(volatile const unsigned char *)(folio->data + off);
}

#endif
