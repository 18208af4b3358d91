// SPDX-License-Identifier: GPL-2.0
/* libnuma placement: see numa.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
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

int zf_numa_misplaced(const int *status, int n, int node, int *idx)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (status[i] >= 0 && status[i] != node)
			idx[k++] = i;
	return k;
}

int zf_numa_settle(void *mem, size_t len, int node)
{
	long page = sysconf(_SC_PAGESIZE);
	int n = (int)((len + page - 1) / page), i, k, moved = 0, err = 0;
	void **pages = malloc(n * sizeof(*pages));
	int *status = malloc(n * sizeof(*status)), *idx = malloc(n * sizeof(*idx));
	int *to = malloc(n * sizeof(*to));

	if (!pages || !status || !idx || !to) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		pages[i] = (char *)mem + (size_t)i * page;
	if (move_pages(0, n, pages, NULL, status, 0)) {
		err = -errno;
		goto out;
	}
	k = zf_numa_misplaced(status, n, node, idx);
	if (!k)
		goto out;
	/* the kernel did not honour the binding: move them where it says they belong */
	for (i = 0; i < k; i++) {
		pages[i] = pages[idx[i]];
		to[i] = node;
	}
	if (move_pages(0, k, pages, to, status, MPOL_MF_MOVE) < 0) {
		err = -errno;
		goto out;
	}
	if (move_pages(0, k, pages, NULL, status, 0)) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < k; i++)
		if (status[i] != node)
			err = -EXDEV;	/* still elsewhere: say so, never measure there */
	moved = k;
out:
	free(pages);
	free(status);
	free(idx);
	free(to);
	return err ? err : moved;
}

void *zf_numa_alloc(size_t len, int node, bool shared)
{
	return zf_numa_alloc_placed(len, node, shared, NULL);
}

void *zf_numa_alloc_placed(size_t len, int node, bool shared, int *moved)
{
	void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

	if (moved)
		*moved = 0;
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
	if (node >= 0 && zf_numa_available()) {
		int err = zf_numa_settle(mem, len, node);

		if (err < 0) {
			munmap(mem, len);
			errno = -err;
			return NULL;
		}
		if (moved)
			*moved = err;
	}
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

void zf_numa_status_nodes(const int *status, int n, int *nodes)
{
	int i;

	for (i = 0; i < n; i++)
		nodes[i] = status[i] >= 0 ? status[i] :
			   status[i] == -EBUSY || status[i] == -EAGAIN ? ZF_NUMA_BUSY :
			   -1;	/* -EFAULT, -ENOENT: not told */
}

int zf_numa_pages_nodes(void *const *pages, int n, int *nodes)
{
	int *status, i, try, busy, err = 0;

	for (i = 0; i < n; i++)
		nodes[i] = -1;
	if (n < 0 || !zf_numa_available())
		return -EINVAL;
	status = malloc((n ? n : 1) * sizeof(*status));
	if (!status)
		return -ENOMEM;
	for (try = 0; try < ZF_NUMA_READ_TRIES; try++) {
		/* NULL nodes: move nothing, say where each page is */
		if (n && move_pages(0, n, (void **)pages, NULL, status, 0)) {
			err = -errno;
			break;
		}
		zf_numa_status_nodes(status, n, nodes);
		for (i = busy = 0; i < n; i++)
			busy += nodes[i] == ZF_NUMA_BUSY;
		if (!busy)
			break;
		usleep(1000);	/* being migrated or locked: it settles in a moment */
	}
	free(status);
	return err;
}

int zf_numa_cpu_node(int cpu)
{
	if (cpu < 0 || !zf_numa_available())
		return -1;
	return numa_node_of_cpu(cpu);
}

int zf_numa_check(int plan_pu, int plan_node, int mm_plan_node, const struct zf_numa_seen *s,
		  char *buf, size_t len)
{
	bool cpu = plan_pu >= 0 && s->cpu >= 0 && s->cpu != plan_pu;
	bool node = plan_node >= 0 && s->cpu_node >= 0 && s->cpu_node != plan_node;
	bool table = plan_node >= 0 && s->table_node >= 0 && s->table_node != plan_node;
	bool mm = mm_plan_node >= 0 && s->mm_node >= 0 && s->mm_node != mm_plan_node;
	bool told = (plan_pu >= 0 && s->cpu >= 0) ||
		    (plan_node >= 0 && (s->cpu_node >= 0 || s->table_node >= 0)) ||
		    (mm_plan_node >= 0 && s->mm_node >= 0);

	bool table_busy = plan_node >= 0 && s->table_busy, mm_busy = mm_plan_node >= 0 && s->mm_busy;
	bool differs = cpu || node || table || mm;

	if (!differs && (table_busy || mm_busy)) {
		snprintf(buf, len, "unread:%s%s%s", table_busy ? "table" : "",
			 table_busy && mm_busy ? "+" : "", mm_busy ? "mm" : "");
		return 0;
	}
	snprintf(buf, len, "%s%s%s%s%s%s%s%s", !told ? "" : !differs ? "ok" : "",
		 cpu ? "cpu" : "", cpu && (node || table || mm) ? "+" : "",
		 node ? "node" : "", node && (table || mm) ? "+" : "",
		 table ? "table" : "", table && mm ? "+" : "", mm ? "mm" : "");
	return cpu + node + table + mm;
}

int *zf_numa_cpu_nodes(int *n)
{
	int cpus = zf_numa_available() ? numa_num_configured_cpus() : 0, i;
	int *map = malloc((cpus > 0 ? cpus : 1) * sizeof(*map));

	*n = map && cpus > 0 ? cpus : 0;
	for (i = 0; i < *n; i++)
		map[i] = numa_node_of_cpu(i);
	return map;
}
