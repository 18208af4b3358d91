// SPDX-License-Identifier: GPL-2.0
/* Placement plans on machines we do not have: hwloc synthetic topologies, exact PU lists. */
#include <stdlib.h>

#include "../../harness/run/topo.h"
#include "test.h"

/* the PU list `placement` gives `ntasks` tasks on a synthetic machine */
static int plan_list(const char *synthetic, const char *placement, int ntasks,
		     char *out, size_t len)
{
	struct zf_topo topo;
	struct zf_plan plan;
	char why[256];
	int err;

	setenv("HWLOC_SYNTHETIC", synthetic, 1);
	err = zf_topo_open(&topo, NULL, why, sizeof(why));
	unsetenv("HWLOC_SYNTHETIC");
	if (err)
		return err;
	err = zf_plan_make(&topo, placement, ntasks, &plan, why, sizeof(why));
	if (err) {
		snprintf(out, len, "error: %s", why);
	} else {
		char *list = zf_plan_pu_list(&plan);

		snprintf(out, len, "%s", list ? list : "out of memory");
		free(list);
		zf_plan_free(&plan);
	}
	zf_topo_close(&topo);
	return err;
}

#define HASWELL "pack:2 [numa] core:18 pu:2"
#define EIGHT_NODES "pack:2 group:4 [numa] core:4 pu:2"

#define EXPECT_PLAN(topo, placement, n, want)					\
	do {									\
		char got[4096];							\
		EXPECT_EQ(plan_list(topo, placement, n, got, sizeof(got)), 0);	\
		EXPECT_STREQ(got, want);					\
	} while (0)

#define EXPECT_PLAN_ERROR(topo, placement, n, want)				\
	do {									\
		char got[4096] = "";						\
		EXPECT_TRUE(plan_list(topo, placement, n, got, sizeof(got)) != 0); \
		EXPECT_TRUE(strstr(got, want) != NULL);				\
	} while (0)

TEST(topo_synthetic_two_packages_is_read)
{
	struct zf_topo topo;
	char why[256];

	setenv("HWLOC_SYNTHETIC", HASWELL, 1);
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	unsetenv("HWLOC_SYNTHETIC");
	EXPECT_EQ(topo.packages, 2);
	EXPECT_EQ(topo.numa_nodes, 2);
	EXPECT_EQ(topo.cores, 36);
	EXPECT_EQ(topo.pus, 72);
	EXPECT_TRUE(!topo.thissystem);
	zf_topo_close(&topo);
}

TEST(topo_a_long_bad_description_is_named_whole_or_by_size)
{
	char long_one[600], why[256];
	struct zf_topo topo;

	memset(long_one, 'x', sizeof(long_one) - 1);
	long_one[sizeof(long_one) - 1] = '\0';
	setenv("HWLOC_SYNTHETIC", "pack:2 bogus:3", 1);
	EXPECT_TRUE(zf_topo_open(&topo, NULL, why, sizeof(why)) != 0);
	EXPECT_STREQ(why, "pack:2 bogus:3: cannot be loaded");
	setenv("HWLOC_SYNTHETIC", long_one, 1);
	EXPECT_TRUE(zf_topo_open(&topo, NULL, why, sizeof(why)) != 0);
	EXPECT_STREQ(why, "HWLOC_SYNTHETIC of 599 bytes: cannot be loaded");
	unsetenv("HWLOC_SYNTHETIC");
}

TEST(compact_fills_cores_of_package_0_first)
{
	EXPECT_PLAN(HASWELL, "compact", 4, "0,2,4,6");
	EXPECT_PLAN(HASWELL, "compact", 1, "0");
}

TEST(compact_puts_smt_siblings_last)
{
	/* all 36 cores' first PUs (package 0, then 1), then the siblings */
	EXPECT_PLAN(HASWELL, "compact", 38,
		    "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,"
		    "36,38,40,42,44,46,48,50,52,54,56,58,60,62,64,66,68,70,1,3");
}

TEST(scatter_alternates_packages)
{
	EXPECT_PLAN(HASWELL, "scatter", 4, "0,36,2,38");
}

TEST(node_placement_stays_on_its_node)
{
	EXPECT_PLAN(HASWELL, "node:1", 3, "36,38,40");
	EXPECT_PLAN_ERROR(HASWELL, "node:2", 1, "no NUMA node 2");
}

TEST(cpus_placement_takes_the_set_in_order)
{
	EXPECT_PLAN(HASWELL, "cpus:5,3", 2, "3,5");
	EXPECT_PLAN(HASWELL, "cpus:8-11", 3, "8,9,10");
	EXPECT_PLAN_ERROR(HASWELL, "cpus:70-75", 1, "no usable CPU 72");
	EXPECT_PLAN_ERROR(HASWELL, "cpus:1-2", 3, "has 2 PUs for 3 tasks");
}

TEST(none_placement_binds_nothing)
{
	EXPECT_PLAN(HASWELL, "none", 200, "none");
}

TEST(too_many_tasks_is_an_error_not_oversubscription)
{
	EXPECT_PLAN_ERROR(HASWELL, "compact", 73, "has 72 PUs for 73 tasks");
	EXPECT_PLAN_ERROR(HASWELL, "node:0", 37, "has 36 PUs for 37 tasks");
}

TEST(eight_nodes_scatter_takes_nodes_of_alternate_packages)
{
	struct zf_topo topo;
	char why[256];

	setenv("HWLOC_SYNTHETIC", EIGHT_NODES, 1);
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	unsetenv("HWLOC_SYNTHETIC");
	EXPECT_EQ(topo.numa_nodes, 8);
	EXPECT_EQ(topo.pus, 64);
	zf_topo_close(&topo);
	/* nodes 0-3 on package 0 (PUs 0-31), 4-7 on package 1 (PUs 32-63) */
	EXPECT_PLAN(EIGHT_NODES, "scatter", 9, "0,32,8,40,16,48,24,56,2");
	EXPECT_PLAN(EIGHT_NODES, "compact", 5, "0,2,4,6,8");
	EXPECT_PLAN(EIGHT_NODES, "node:5", 4, "40,42,44,46");
}

TEST(one_package_one_node_scatter_is_compact)
{
	EXPECT_PLAN("core:4 pu:2", "scatter", 5, "0,2,4,6,1");
	EXPECT_PLAN("core:4 pu:2", "compact", 5, "0,2,4,6,1");
}

TEST(plan_records_core_package_and_node)
{
	struct zf_topo topo;
	struct zf_plan plan;
	char why[256];

	setenv("HWLOC_SYNTHETIC", HASWELL, 1);
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_plan_make(&topo, "scatter", 2, &plan, why, sizeof(why)), 0);
	EXPECT_EQ(plan.pu[1], 36);
	EXPECT_EQ(plan.core[1], 18);
	EXPECT_EQ(plan.package[1], 1);
	EXPECT_EQ(plan.node[1], 1);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}

TEST(placement_names_are_checked)
{
	const char *why;

	EXPECT_EQ(zf_placement_check("compact", &why), 0);
	EXPECT_EQ(zf_placement_check("node:3", &why), 0);
	EXPECT_EQ(zf_placement_check("cpus:0-3,8", &why), 0);
	EXPECT_TRUE(zf_placement_check("spread", &why) != 0);
	EXPECT_TRUE(zf_placement_check("node:", &why) != 0);
	EXPECT_TRUE(zf_placement_check("node:x", &why) != 0);
	EXPECT_TRUE(zf_placement_check("cpus:", &why) != 0);
	EXPECT_TRUE(zf_placement_check("cpus:3-1", &why) != 0);
	/* what hwloc_bitmap_list_sscanf() would take: octal, hex, open ranges, garbage */
	EXPECT_TRUE(zf_placement_check("cpus:0x10", &why) != 0);
	EXPECT_TRUE(zf_placement_check("cpus:3-", &why) != 0);
	EXPECT_TRUE(zf_placement_check("cpus:1x2", &why) != 0);
	EXPECT_TRUE(zf_placement_check("cpus: 5", &why) != 0);
	EXPECT_TRUE(zf_placement_check("cpus:1,,2", &why) != 0);
	EXPECT_TRUE(zf_placement_check("cpus:0-1048577", &why) != 0);
	EXPECT_EQ(zf_placement_check("cpus:0-1048576", &why), 0);
	EXPECT_EQ(zf_placement_check("node:5000", &why), 0);	/* the machine says */
}

TEST(cpus_placement_reads_decimal_and_dedups)
{
	EXPECT_PLAN(HASWELL, "cpus:010,9,10,9-10", 2, "9,10");
}

TEST(binding_on_this_machine_takes)
{
	struct zf_topo topo;
	char why[256];

	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	ASSERT_TRUE(topo.thissystem);
	EXPECT_EQ(zf_topo_bind_self(&topo, 0, why, sizeof(why)), 0);
	EXPECT_TRUE(zf_topo_bind_self(&topo, topo.pus + 1000, why, sizeof(why)) != 0);
	zf_topo_close(&topo);
}

TEST(plans_pus_distinct_in_first_use_order_and_unbound_said)
{
	int a_pu[] = { 4, 0, 4 }, b_pu[] = { 0, 6 }, none_pu[] = { -1, -1 };
	struct zf_plan plans[3] = {
		{ .ntasks = 3, .pu = a_pu }, { .ntasks = 2, .pu = b_pu }, { .ntasks = 2, .pu = none_pu },
	};
	int *pus, n;

	ASSERT_EQ(zf_plans_pus(plans, 2, &pus, &n), 0);
	ASSERT_EQ(n, 3);
	EXPECT_EQ(pus[0], 4);
	EXPECT_EQ(pus[1], 0);
	EXPECT_EQ(pus[2], 6);
	free(pus);
	ASSERT_EQ(zf_plans_pus(plans, 3, &pus, &n), 1);	/* the bound ones, and unbound said */
	EXPECT_EQ(n, 3);
	free(pus);
	ASSERT_EQ(zf_plans_pus(&plans[2], 1, &pus, &n), 1);
	EXPECT_EQ(n, 0);
	free(pus);
}
