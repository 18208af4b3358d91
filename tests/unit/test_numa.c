// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA verification: where each task was seen against its plan, on
 * hand-made move_pages() results, and the real read-back on this machine.
 */
#define _GNU_SOURCE	/* sched_getcpu */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "../../harness/run/numa.h"
#include "test.h"

TEST(numa_move_pages_status_read_as_nodes)
{
	/* what move_pages(NULL nodes) gives: a node, or -errno for a page it cannot tell */
	const int status[] = { 1, 0, -EFAULT, -ENOENT, 3 };
	int nodes[5];

	zf_numa_status_nodes(status, 5, nodes);
	EXPECT_EQ(nodes[0], 1);
	EXPECT_EQ(nodes[1], 0);
	EXPECT_EQ(nodes[2], -1);
	EXPECT_EQ(nodes[3], -1);
	EXPECT_EQ(nodes[4], 3);
}

TEST(numa_check_names_what_went_elsewhere)
{
	/* 2 nodes, PUs 0-1 on node 0, 2-3 on node 1: task planned on PU 2, node 1 */
	struct zf_numa_seen right = { .cpu = 2, .cpu_node = 1, .table_node = 1, .mm_node = 1 };
	struct zf_numa_seen moved = { .cpu = 0, .cpu_node = 0, .table_node = 1, .mm_node = 1 };
	struct zf_numa_seen table = { .cpu = 2, .cpu_node = 1, .table_node = 0, .mm_node = 1 };
	struct zf_numa_seen unknown = { .cpu = -1, .cpu_node = -1, .table_node = -1, .mm_node = -1 };
	struct zf_numa_seen part = { .cpu = 2, .cpu_node = -1, .table_node = -1, .mm_node = -1 };
	char buf[64];

	EXPECT_EQ(zf_numa_check(2, 1, 1, &right, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "ok");
	EXPECT_EQ(zf_numa_check(2, 1, 1, &moved, buf, sizeof(buf)), 2);
	EXPECT_STREQ(buf, "cpu+node");
	EXPECT_EQ(zf_numa_check(2, 1, 1, &table, buf, sizeof(buf)), 1);
	EXPECT_STREQ(buf, "table");
	/* thread tasks share task 0's mm: planned on node 0 while the task is on 1 */
	EXPECT_EQ(zf_numa_check(2, 1, 0, &right, buf, sizeof(buf)), 1);
	EXPECT_STREQ(buf, "mm");
	EXPECT_EQ(zf_numa_check(2, 1, 0, &moved, buf, sizeof(buf)), 3);
	EXPECT_STREQ(buf, "cpu+node+mm");
	/* nothing told is not ok: empty */
	EXPECT_EQ(zf_numa_check(2, 1, 1, &unknown, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "");
	EXPECT_EQ(zf_numa_check(2, 1, 1, &part, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "ok");
	/* placement none plans nothing */
	EXPECT_EQ(zf_numa_check(-1, -1, -1, &moved, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "");
}

TEST(numa_pages_read_back_on_this_machine)
{
	void *bound = zf_numa_alloc(4096, 0, false), *pages[2];
	int nodes[2] = { -2, -2 };

	if (!zf_numa_available())
		SKIP("no NUMA support in this kernel (libnuma)");
	ASSERT_TRUE(bound != NULL);
	pages[0] = bound;
	pages[1] = NULL;	/* not mapped: the kernel cannot tell */
	EXPECT_EQ(zf_numa_pages_nodes(pages, 2, nodes), 0);
	EXPECT_EQ(nodes[0], 0);
	EXPECT_EQ(nodes[1], -1);
	EXPECT_EQ(zf_numa_cpu_node(sched_getcpu()) >= 0, 1);
	EXPECT_EQ(zf_numa_cpu_node(-1), -1);
	zf_numa_free(bound, 4096);
}

TEST(numa_pages_read_back_past_64)
{
	const int n = 300;
	int *nodes, i, on_0 = 0;
	void **pages;
	char *bound;

	if (!zf_numa_available())
		SKIP("no NUMA support in this kernel (libnuma)");
	bound = zf_numa_alloc((size_t)n * 4096, 0, false);
	pages = calloc(n + 1, sizeof(*pages));
	nodes = calloc(n + 1, sizeof(*nodes));
	ASSERT_TRUE(bound && pages && nodes);
	/* 300 pages bound to node 0 (touched), and one not mapped */
	for (i = 0; i < n; i++)
		pages[i] = bound + (size_t)i * 4096;
	pages[n] = NULL;
	ASSERT_EQ(zf_numa_pages_nodes(pages, n + 1, nodes), 0);
	for (i = 0; i < n; i++)
		on_0 += nodes[i] == 0;
	EXPECT_EQ(on_0, n);
	EXPECT_EQ(nodes[n], -1);
	zf_numa_free(bound, (size_t)n * 4096);
	free(pages);
	free(nodes);
}

TEST(numa_a_busy_page_is_said_and_not_failed)
{
	/* -EBUSY, -EAGAIN: being migrated; read again, and said if it stays so */
	const int status[] = { -EBUSY, -EAGAIN, 2 };
	struct zf_numa_seen busy = { .cpu = 2, .cpu_node = 1, .table_node = -1, .mm_node = 1,
				     .table_busy = true };
	struct zf_numa_seen both = busy, wrong = busy;
	int nodes[3];
	char buf[64];

	zf_numa_status_nodes(status, 3, nodes);
	EXPECT_EQ(nodes[0], ZF_NUMA_BUSY);
	EXPECT_EQ(nodes[1], ZF_NUMA_BUSY);
	EXPECT_EQ(nodes[2], 2);
	EXPECT_EQ(zf_numa_check(2, 1, 1, &busy, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "unread:table");
	both.mm_busy = true;
	both.mm_node = -1;
	EXPECT_EQ(zf_numa_check(2, 1, 1, &both, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "unread:table+mm");
	/* a real misplacement beside it still fails */
	wrong.mm_node = 0;
	EXPECT_EQ(zf_numa_check(2, 1, 1, &wrong, buf, sizeof(buf)), 1);
	EXPECT_STREQ(buf, "mm");
}

TEST(numa_pages_the_kernel_put_elsewhere_are_found)
{
	/* bound to node 1: the kernel's answers, as Debian's 6.1 gave them in a guest */
	const int status[] = { 1, 3, 3, -ENOENT, 1, 0, -EBUSY };
	int idx[7];

	ASSERT_EQ(zf_numa_misplaced(status, 7, 1, idx), 3);
	EXPECT_EQ(idx[0], 1);
	EXPECT_EQ(idx[1], 2);
	EXPECT_EQ(idx[2], 5);
	EXPECT_EQ(zf_numa_misplaced(status, 1, 1, idx), 0);
}

TEST(numa_bound_memory_settles_on_its_node_here)
{
	const size_t LEN = 64UL << 12;
	int moved = -1, node;
	char *mem;

	if (!zf_numa_available())
		SKIP("no libnuma support in this kernel");
	mem = zf_numa_alloc_placed(LEN, 0, false, &moved);
	ASSERT_TRUE(mem != NULL);
	EXPECT_EQ(moved, 0);	/* one node: nothing can be elsewhere */
	node = zf_numa_node_of(mem + LEN - 4096);
	EXPECT_EQ(node, 0);
	EXPECT_EQ(zf_numa_settle(mem, LEN, 0), 0);
	zf_numa_free(mem, LEN);
}
