/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory placement with libnuma: the global counter's line on one node, each
 * mm and each task's page table on the task's node. Every placement is read
 * back from the kernel so results say where memory really was.
 */
#ifndef HZF_NUMA_H
#define HZF_NUMA_H

#include <stdbool.h>
#include <stddef.h>

bool zf_numa_available(void);
/* highest node number, 0 without NUMA support */
int zf_numa_max_node(void);
/*
 * len bytes of zeroed memory, MAP_SHARED (visible to forked tasks) or
 * private, bound to `node` (-1: first touch decides) and touched.
 * NULL with errno set on failure.
 */
void *zf_numa_alloc(size_t len, int node, bool shared);
void zf_numa_free(void *mem, size_t len);
/* the node the page at addr is on, -1 when it cannot be told */
int zf_numa_node_of(const void *addr);

#endif
