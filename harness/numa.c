// SPDX-License-Identifier: GPL-2.0
/* libnuma placement: see numa.h. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <numa.h>
#include <numaif.h>

#include "numa.h"

bool zf_numa_available(void)
{
	return numa_available() >= 0;
}

int zf_numa_max_node(void)
{
	return zf_numa_available() ? numa_max_node() : 0;
}

void *zf_numa_alloc(size_t len, int node, bool shared)
{
	void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return NULL;
	if (node >= 0 && zf_numa_available()) {
		struct bitmask *mask = numa_allocate_nodemask();
		long err;

		numa_bitmask_setbit(mask, node);
		err = mbind(mem, len, MPOL_BIND, mask->maskp, mask->size + 1, 0);
		numa_bitmask_free(mask);
		if (err) {
			int saved = errno;

			munmap(mem, len);
			errno = saved;
			return NULL;
		}
	}
	memset(mem, 0, len);
	return mem;
}

void zf_numa_free(void *mem, size_t len)
{
	if (mem)
		munmap(mem, len);
}

int zf_numa_node_of(const void *addr)
{
	int node = -1;

	if (!zf_numa_available())
		return -1;
	if (get_mempolicy(&node, NULL, 0, (void *)addr, MPOL_F_NODE | MPOL_F_ADDR))
		return -1;
	return node;
}
