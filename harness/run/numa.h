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
/*
 * The same, and then every page read back: one the kernel put on another
 * node than `node` despite the binding (Debian's 6.1 under qemu did, for a
 * few fresh mappings in a hundred while threads came and went) is moved
 * there, *moved says how many; one that cannot be moved fails it (EXDEV).
 */
void *zf_numa_alloc_placed(size_t len, int node, bool shared, int *moved);
/* len bytes at mem onto `node` where they are not: pages moved, or -errno (-EXDEV: stuck) */
int zf_numa_settle(void *mem, size_t len, int node);
/* the indexes of move_pages() statuses that name another node than `node`; how many */
int zf_numa_misplaced(const int *status, int n, int node, int *idx);
void zf_numa_free(void *mem, size_t len);
/* the node the page at addr is on, -1 when it cannot be told */
int zf_numa_node_of(const void *addr);

/* a page being migrated or locked (-EBUSY, -EAGAIN): read again, then said */
#define ZF_NUMA_BUSY		(-2)
#define ZF_NUMA_READ_TRIES	5

/*
 * The node each page is on, by move_pages() with no target (it moves
 * nothing): nodes[i] is a node, -1 where the kernel could not tell (status
 * -EFAULT, -ENOENT: not mapped or not present), or ZF_NUMA_BUSY where the
 * page stayed busy over ZF_NUMA_READ_TRIES reads 1 ms apart. -errno when
 * the call itself failed (then every nodes[i] is -1).
 */
int zf_numa_pages_nodes(void *const *pages, int n, int *nodes);
/* move_pages()'s status array as zf_numa_pages_nodes() reads it: a node, -1, or busy */
void zf_numa_status_nodes(const int *status, int n, int *nodes);
/* the node of a CPU, -1 when it cannot be told */
int zf_numa_cpu_node(int cpu);
/*
 * Every configured CPU's node (-1 unknown), malloc()ed, *n entries: made by
 * one thread before tasks start, since libnuma fills its CPU-to-node cache
 * lazily and without a lock (ThreadSanitizer saw two tasks race in it)
 */
int *zf_numa_cpu_nodes(int *n);

/* where a task was seen, against its plan (-1 anywhere: could not be told) */
struct zf_numa_seen {
	int cpu;		/* sched_getcpu() at its repetition's start */
	int cpu_node;		/* that CPU's node */
	int table_node;		/* its page table's first page */
	int mm_node;		/* its mm's page (threads: the one shared mm) */
	bool table_busy, mm_busy;	/* the page stayed busy (migrating): not read */
};
/*
 * "ok", or what differs from the plan joined by '+': "cpu" (another PU than
 * planned), "node" (a CPU of another node), "table", "mm" (memory on another
 * node than plan_node, mm_plan_node for the mm); "" when nothing was planned
 * (placement none) or nothing could be told. A page that stayed busy is
 * said, not failed: "ok" becomes "unread:table", "unread:mm" or
 * "unread:table+mm". Returns how many differ.
 */
int zf_numa_check(int plan_pu, int plan_node, int mm_plan_node, const struct zf_numa_seen *s,
		  char *buf, size_t len);

#endif
