// SPDX-License-Identifier: GPL-2.0
/* The usemem workload's out-of-line parts: see usemem.h. */
#include <errno.h>
#include <sys/mman.h>

#include "usemem.h"

int zf_region_map(struct zf_pass *p, size_t len)
{
	void *region = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (region == MAP_FAILED)
		return -errno;
	if (madvise(region, len, MADV_HUGEPAGE)) {
		int err = -errno;

		munmap(region, len);
		return err;
	}
	p->region = region;
	p->region_len = len;
	return 0;
}

int zf_region_unmap(struct zf_pass *p)
{
	int err = munmap((void *)p->region, p->region_len) ? -errno : 0;

	p->region = NULL;
	return err;
}

void zf_mm_exit(const struct zf_strategy *s, struct zf_shared *zs, struct zf_mm *mm,
		struct zf_stats *st)
{
	st->mm_exits++;
	if (s->mm_exit)
		s->mm_exit(zs, mm, st);
}
