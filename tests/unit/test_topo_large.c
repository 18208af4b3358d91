// SPDX-License-Identifier: GPL-2.0
/*
 * Plans on machines of 1,024 and 4,096 PUs (hwloc synthetic topologies): the
 * PUs and nodes of the highest tasks, a cpus: placement of thousands of bytes
 * kept whole, and the CPU lists printed whole.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <stdio.h>
#include <stdlib.h>

#include "../../harness/out/buf.h"
#include "synthetic.h"
#include "test.h"

/* 4 packages of one node each, 128 cores of 2 PUs: node n holds PUs 256n to 256n+255 */
#define PUS_1024 "pack:4 [numa] core:128 pu:2"
/* 8 packages of 2 nodes, each node 128 cores of 2 PUs: node n holds PUs 256n to 256n+255 */
#define PUS_4096 "pack:8 numa:2 core:128 pu:2"

/* the synthetic machine, when it has that many PUs and nodes */
static int open_machine(struct zf_topo *topo, const char *synthetic, int pus, int nodes)
{
	if (open_synthetic(topo, synthetic))
		return -1;
	if (topo->pus == pus && topo->numa_nodes == nodes)
		return 0;
	zf_topo_close(topo);
	return -1;
}

/* "cpus:first,first+step,..." up to last, every CPU a single item */
static char *cpus_singles(int first, int last, int step)
{
	struct zf_buf b = { 0 };
	int cpu;

	zf_buf_printf(&b, "cpus:");
	for (cpu = first; cpu <= last; cpu += step)
		zf_buf_printf(&b, "%s%d", cpu == first ? "" : ",", cpu);
	return b.text;
}

static void print_plan(void *plan, FILE *out)
{
	zf_plan_print(plan, out);
}

static void print_topo(void *topo, FILE *out)
{
	zf_topo_print(topo, out);
}

/* what zf_plan_print() or zf_topo_print() writes, as one string */
static char *printed(void (*print)(void *what, FILE *out), void *what)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return NULL;
	print(what, out);
	fclose(out);
	return text;
}

/* the plan's first printed line holds its placement and every task's PU, whole */
static bool plan_line_whole(struct zf_plan *plan)
{
	struct zf_buf want = { 0 };
	char *text = printed(print_plan, plan);
	bool same;
	int i;

	zf_buf_printf(&want, "placement %s, %d tasks: PUs ", plan->placement, plan->ntasks);
	for (i = 0; i < plan->ntasks; i++)
		zf_buf_printf(&want, "%s%d", i ? "," : "", plan->pu[i]);
	zf_buf_printf(&want, "\n");
	same = text && want.text && !strncmp(text, want.text, want.len);
	free(text);
	zf_buf_free(&want);
	return same;
}

/*
 * The plan of every CPU of a cpus: placement; 0 when it has n, keeps the
 * placement whole and prints whole
 */
static int cpus_plan(struct zf_topo *topo, const char *cpus, int n, struct zf_plan *plan)
{
	char why[256];

	if (!cpus || zf_placement_capacity(topo, cpus, why, sizeof(why)) != n ||
	    zf_plan_make(topo, cpus, n, plan, why, sizeof(why)))
		return -1;
	if (strcmp(plan->placement, cpus) || !plan_line_whole(plan)) {
		zf_plan_free(plan);
		return -1;
	}
	return 0;
}

/* zf_topo_print() names the last package's and the last node's PUs so */
static bool topo_prints(struct zf_topo *topo, const char *package, const char *node)
{
	char *text = printed(print_topo, topo);
	bool both = text && strstr(text, package) && strstr(text, node);

	free(text);
	return both;
}

/* task `task` of `ntasks` placed by `placement` on `machine`: its PU, node and package */
static const struct task_want {
	const char *machine, *placement;
	int ntasks, task, pu, node, package;
} task_wants[] = {
	/* compact: the first PU of all 512 cores, then their siblings */
	{ PUS_1024, "compact", 1024, 511, 1022, 3, 3 },
	{ PUS_1024, "compact", 1024, 512, 1, 0, 0 },
	{ PUS_1024, "compact", 1024, 1023, 1023, 3, 3 },
	/* scatter: nodes 0-3 in turn, each in compact order */
	{ PUS_1024, "scatter", 1024, 3, 768, 3, 3 },
	{ PUS_1024, "scatter", 1024, 4, 2, 0, 0 },
	{ PUS_1024, "scatter", 1024, 1020, 255, 0, 0 },
	{ PUS_1024, "scatter", 1024, 1023, 1023, 3, 3 },
	{ PUS_1024, "node:2", 256, 127, 766, 2, 2 },
	{ PUS_1024, "node:2", 256, 255, 767, 2, 2 },
	{ PUS_4096, "compact", 4096, 2047, 4094, 15, 7 },
	{ PUS_4096, "compact", 4096, 2048, 1, 0, 0 },
	{ PUS_4096, "compact", 4096, 4095, 4095, 15, 7 },
	/* scatter: the first node of every package (0, 2, ... 14), then the second (1, ... 15) */
	{ PUS_4096, "scatter", 4096, 1, 512, 2, 1 },
	{ PUS_4096, "scatter", 4096, 8, 256, 1, 0 },
	{ PUS_4096, "scatter", 4096, 15, 3840, 15, 7 },
	{ PUS_4096, "scatter", 4096, 16, 2, 0, 0 },
	{ PUS_4096, "scatter", 4096, 4080, 255, 0, 0 },
	{ PUS_4096, "scatter", 4096, 4088, 511, 1, 0 },
	{ PUS_4096, "scatter", 4096, 4095, 4095, 15, 7 },
	{ PUS_4096, "node:15", 256, 0, 3840, 15, 7 },
	{ PUS_4096, "node:15", 256, 128, 3841, 15, 7 },
	{ PUS_4096, "node:15", 256, 255, 4095, 15, 7 },
};

TEST(topo_large_plans_place_the_highest_tasks)
{
	const struct task_want *w, *made = NULL;
	struct zf_topo topo = { 0 };
	struct zf_plan plan = { 0 };
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(task_wants) / sizeof(task_wants[0]); i++) {
		w = &task_wants[i];
		if (!made || strcmp(made->machine, w->machine) || strcmp(made->placement, w->placement)) {
			zf_plan_free(&plan);
			if (!made || strcmp(made->machine, w->machine)) {
				zf_topo_close(&topo);
				ASSERT_EQ(open_synthetic(&topo, w->machine), 0);
			}
			ASSERT_EQ(zf_plan_make(&topo, w->placement, w->ntasks, &plan, why,
					       sizeof(why)), 0);
			/* 4,096 PUs print in a line of 19,404 bytes: the whole line, not 8 KiB */
			EXPECT_TRUE(plan_line_whole(&plan));
			made = w;
		}
		if (plan.pu[w->task] != w->pu || plan.node[w->task] != w->node ||
		    plan.package[w->task] != w->package)
			fprintf(stderr, "  %s %s x%d: task %d on PU %d node %d package %d\n",
				w->machine, w->placement, w->ntasks, w->task, plan.pu[w->task],
				plan.node[w->task], plan.package[w->task]);
		EXPECT_EQ(plan.pu[w->task], w->pu);
		EXPECT_EQ(plan.node[w->task], w->node);
		EXPECT_EQ(plan.package[w->task], w->package);
	}
	EXPECT_EQ(plan.core[255], 2047);	/* node:15's last is the last core's sibling */
	zf_plan_free(&plan);
	EXPECT_TRUE(zf_plan_make(&topo, "node:15", 257, &plan, why, sizeof(why)) != 0);
	zf_topo_close(&topo);
}

TEST(topo_large_cpus_placements_and_lists_whole)
{
	char *third = cpus_singles(0, 1023, 3), *odd = cpus_singles(1, 4095, 2);
	struct zf_topo topo;
	struct zf_plan plan;

	ASSERT_EQ(open_machine(&topo, PUS_1024, 1024, 4), 0);
	/* every third PU, 342 CPUs in 1,342 bytes */
	ASSERT_EQ(cpus_plan(&topo, third, 342, &plan), 0);
	EXPECT_EQ(plan.pu[1], 3);
	EXPECT_EQ(plan.node[341], 3);
	EXPECT_EQ(plan.pu[341], 1023);
	zf_plan_free(&plan);
	EXPECT_TRUE(topo_prints(&topo, "  package 3: 128 cores, PUs 768-1023\n",
				"  NUMA node 3: PUs 768-1023, "));
	zf_topo_close(&topo);
	ASSERT_EQ(open_machine(&topo, PUS_4096, 4096, 16), 0);
	EXPECT_EQ(topo.packages, 8);
	/* every odd CPU, one by one: 2,048 CPUs in 9,689 bytes */
	ASSERT_EQ(cpus_plan(&topo, odd, 2048, &plan), 0);
	EXPECT_EQ(plan.pu[1024], 2049);
	EXPECT_EQ(plan.node[1024], 8);
	EXPECT_EQ(plan.pu[2047], 4095);
	EXPECT_EQ(plan.node[2047], 15);
	zf_plan_free(&plan);
	EXPECT_TRUE(topo_prints(&topo, "(synthetic: " PUS_4096 ")\n",
				"  package 7: 256 cores, PUs 3584-4095\n"));
	EXPECT_TRUE(topo_prints(&topo, "  NUMA node 15: PUs 3840-4095, ", "\n"));
	zf_topo_close(&topo);
	free(third);
	free(odd);
}

TEST(topo_long_placement_error_names_it_whole_or_not_at_all)
{
	char *odd = cpus_singles(1, 4095, 2), *why;
	size_t len = strlen(odd) + ZF_PLACEMENT_WHY_LEN;
	struct zf_topo topo;
	struct zf_plan plan;
	char small[256];

	ASSERT_TRUE(odd != NULL);
	why = malloc(len);
	ASSERT_TRUE(why != NULL);
	ASSERT_EQ(open_machine(&topo, PUS_4096, 4096, 16), 0);
	EXPECT_TRUE(zf_plan_make(&topo, odd, 2049, &plan, why, len) != 0);
	EXPECT_TRUE(!strncmp(why, "placement ", 10) && !strncmp(why + 10, odd, strlen(odd)));
	EXPECT_TRUE(strstr(why, " has 2048 PUs for 2049 tasks") != NULL);
	/* no room for it: left out, never cut */
	EXPECT_TRUE(zf_plan_make(&topo, odd, 2049, &plan, small, sizeof(small)) != 0);
	EXPECT_STREQ(small, "the placement has 2048 PUs for 2049 tasks");
	EXPECT_TRUE(zf_plan_make(&topo, "compact", 4097, &plan, small, sizeof(small)) != 0);
	EXPECT_STREQ(small, "placement compact has 4096 PUs for 4097 tasks");
	zf_topo_close(&topo);
	free(why);
	free(odd);
}
