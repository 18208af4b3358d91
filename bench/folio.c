// SPDX-License-Identifier: GPL-2.0
/* The huge zero folio pool: see folio.h. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "folio.h"

int zf_folio_pool_init(struct zf_folio_pool *pool, unsigned int nr)
{
	size_t hdr_len = ((nr * sizeof(struct zf_folio)) + ZF_FOLIO_SIZE - 1) &
			 ~(ZF_FOLIO_SIZE - 1);
	unsigned char *map;
	unsigned int i;

	if (!nr)
		return -EINVAL;
	pool->map_len = hdr_len + (size_t)nr * ZF_FOLIO_SIZE;
	map = mmap(NULL, pool->map_len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	pool->folios = (struct zf_folio *)map;
	pool->data = map + hdr_len;
	pool->nr = nr;
	for (i = 0; i < nr; i++) {
		pool->folios[i].index = i;
		pool->folios[i].data = pool->data + (size_t)i * ZF_FOLIO_SIZE;
		atomic_init(&pool->folios[i].state, ZF_FOLIO_FREE);
	}
	return 0;
}

void zf_folio_pool_fini(struct zf_folio_pool *pool)
{
	if (pool->folios)
		munmap(pool->folios, pool->map_len);
	pool->folios = NULL;
	pool->data = NULL;
	pool->nr = 0;
}

struct zf_folio *zf_folio_alloc(struct zf_folio_pool *pool)
{
	unsigned int i;

	for (i = 0; i < pool->nr; i++) {
		struct zf_folio *f = &pool->folios[i];
		int expected = ZF_FOLIO_FREE;

		if (!atomic_compare_exchange_strong_explicit(&f->state, &expected,
				ZF_FOLIO_BUSY, memory_order_acquire, memory_order_relaxed))
			continue;
		/* __GFP_ZERO: the 2 MiB clear is the allocation's real cost */
		memset(f->data, 0, ZF_FOLIO_SIZE);
		atomic_store_explicit(&f->state, ZF_FOLIO_LIVE, memory_order_release);
		return f;
	}
	return NULL;
}

int zf_folio_free(struct zf_folio *folio)
{
	int expected = ZF_FOLIO_LIVE;

	if (!atomic_compare_exchange_strong_explicit(&folio->state, &expected,
			ZF_FOLIO_BUSY, memory_order_acq_rel, memory_order_relaxed))
		return -EINVAL;
	memset(folio->data, ZF_POISON_FREE, ZF_FOLIO_SIZE);
	atomic_store_explicit(&folio->state, ZF_FOLIO_FREE, memory_order_release);
	return 0;
}

unsigned int zf_folio_live_count(const struct zf_folio_pool *pool)
{
	unsigned int i, live = 0;

	for (i = 0; i < pool->nr; i++)
		live += atomic_load(&pool->folios[i].state) == ZF_FOLIO_LIVE;
	return live;
}

size_t zf_folio_verify(const struct zf_folio *folio)
{
	const unsigned long *w = (const unsigned long *)folio->data;
	size_t i, n = ZF_FOLIO_SIZE / sizeof(*w);

	for (i = 0; i < n; i++) {
		if (w[i]) {
			size_t off = i * sizeof(*w);

			while (!folio->data[off])
				off++;
			return off + 1;
		}
	}
	return 0;
}
