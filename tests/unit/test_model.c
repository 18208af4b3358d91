// SPDX-License-Identifier: GPL-2.0
/*
 * The contention model on machines we do not have: hand-off matrices built
 * from levels on synthetic topologies (1 node, 2 packages, 8 nodes), read
 * from a committed c2c.csv, and the predictions they give: exact where the
 * arithmetic is simple, monotone in tasks and inside their bounds always.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../harness/out/buf.h"
#include "../../harness/out/csv.h"
#include "../../harness/analyze/model.h"
#include "fakeres.h"
#include "synthetic.h"
#include "test.h"

#define ONE_NODE "core:8 pu:2"
#define TWO_PACKAGES "pack:2 [numa] core:18 pu:2"
#define EIGHT_NODES "pack:2 group:4 [numa] core:4 pu:2"
static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (1 + fabs(b));
}
#define NEAR(a, b) near((a), (b))

/* the hand-off matrix of the first n PUs of a placement, from levels */
static double *level_matrix(struct zf_topo *topo, const char *placement, int n,
			    const char *levels, char *why, size_t len)
{
	double lv[ZF_LV_N], *h = calloc((size_t)n * n, sizeof(*h));
	struct zf_plan plan;
	const char *w;

	if (!h || zf_model_levels_parse(levels, lv, &w) ||
	    zf_plan_make(topo, placement, n, &plan, why, len)) {
		free(h);
		return NULL;
	}
	if (zf_model_matrix_levels(&plan, lv, h, why, len)) {
		free(h);
		h = NULL;
	}
	zf_plan_free(&plan);
	return h;
}

TEST(model_levels_parse)
{
	double lv[ZF_LV_N];
	const char *why = NULL;

	ASSERT_EQ(zf_model_levels_parse("40", lv, &why), 0);
	EXPECT_TRUE(lv[ZF_LV_CORE] == 40 && lv[ZF_LV_MACHINE] == 40);
	ASSERT_EQ(zf_model_levels_parse("core=10,machine=120.5", lv, &why), 0);
	EXPECT_TRUE(lv[ZF_LV_CORE] == 10 && lv[ZF_LV_NODE] < 0 && lv[ZF_LV_PACKAGE] < 0 &&
		    lv[ZF_LV_MACHINE] == 120.5);
	EXPECT_TRUE(zf_model_levels_parse("socket=10", lv, &why) != 0 && strstr(why, "level"));
	EXPECT_TRUE(zf_model_levels_parse("core=10,core=20", lv, &why) != 0 &&
		    strstr(why, "twice"));
	EXPECT_TRUE(zf_model_levels_parse("core=fast", lv, &why) != 0 && strstr(why, "ns"));
	EXPECT_TRUE(zf_model_levels_parse("core=-1", lv, &why) != 0);
	EXPECT_TRUE(zf_model_levels_parse("core", lv, &why) != 0 && strstr(why, "LEVEL=NS"));
	EXPECT_TRUE(zf_model_levels_parse("", lv, &why) != 0);
}

/* each pair gets its level's latency; a missing level takes the next outer one */
TEST(model_matrix_from_levels_two_packages)
{
	struct zf_topo topo;
	char why[256];
	double *h;

	ASSERT_EQ(open_synthetic(&topo, TWO_PACKAGES), 0);
	/* scatter: PU 0 (package 0), 36 (package 1), 2 (package 0), 38 */
	h = level_matrix(&topo, "scatter", 4, "core=15,node=50,machine=120", why, sizeof(why));
	ASSERT_TRUE(h != NULL);
	EXPECT_TRUE(h[0 * 4 + 1] == 120 && h[0 * 4 + 2] == 50 && h[1 * 4 + 3] == 50 &&
		    h[0 * 4 + 0] < 0);
	EXPECT_TRUE(NEAR(zf_model_handoff(h, 4, 4), (4 * 120 + 2 * 50) / 6.0));
	EXPECT_TRUE(NEAR(zf_model_handoff(h, 4, 2), 120));
	free(h);
	/* node level not given: same-node pairs take package's, here machine's */
	h = level_matrix(&topo, "scatter", 4, "core=15,machine=120", why, sizeof(why));
	ASSERT_TRUE(h != NULL);
	EXPECT_TRUE(h[0 * 4 + 2] == 120);
	free(h);
	/* nothing outer than core: pairs of different cores have no latency */
	h = level_matrix(&topo, "compact", 2, "core=15", why, sizeof(why));
	EXPECT_TRUE(h == NULL && strstr(why, "no latency for PUs 0 and 2"));
	free(h);
	zf_topo_close(&topo);
}

TEST(model_exact_at_two_tasks)
{
	struct zf_model_in in = { .fixed_ns = 1, .get_ns = 2, .faults_per_pass = 100 };
	struct zf_model_out o;

	/*
	 * Two tasks queue: 2 x (2 + 20) = 44 > 1 + 2 + (1/2) 20 = 13; queued,
	 * the line always comes from the other task: a whole hand-off a get.
	 */
	ASSERT_EQ(zf_model_predict(&in, "global", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.line_ns, 22) && NEAR(o.ns_per_fault, 44) && NEAR(o.get_ns, 43));
	EXPECT_TRUE(NEAR(o.faults_per_sec, 2e9 / 44) && NEAR(o.get_share, 43.0 / 44));
	/* a long fault: no queue, the last get was either task's: half a hand-off */
	in.fixed_ns = 1000;
	ASSERT_EQ(zf_model_predict(&in, "global", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 1012) && NEAR(o.line_ns, 12));
	/* the knee: the queue (2 x 22 = 44) rules while F + 12 is shorter */
	in.fixed_ns = 31;
	ASSERT_EQ(zf_model_predict(&in, "global", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 44) && NEAR(o.line_ns, 22));
	in.fixed_ns = 33;
	ASSERT_EQ(zf_model_predict(&in, "global", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 45) && NEAR(o.line_ns, 12));
	in.fixed_ns = 1000;
	/* one task: the line never moves */
	ASSERT_EQ(zf_model_predict(&in, "global", 1, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 1002) && NEAR(o.line_ns, 2));
	/* mmflag: processes, one get per mm per pass, never queued; threads share the mm's */
	ASSERT_EQ(zf_model_predict(&in, "mmflag", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 1000 + 12 / 100.0));
	in.threads = true;
	ASSERT_EQ(zf_model_predict(&in, "mmflag", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 1000 + 12 / 200.0));
	ASSERT_EQ(zf_model_predict(&in, "persistent", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 1000) && o.get_ns == 0 && NEAR(o.faults_per_sec, 2e6));
	EXPECT_EQ(zf_model_predict(&in, "native", 2, 20, &o), -1);
}

/* usemem's whole clock: the gets at the faults and the puts at teardown */
TEST(model_whole_clock_gets_and_batched_puts)
{
	struct zf_model_in in = { .fixed_ns = 100, .get_ns = 2, .faults_per_pass = 100,
				  .teardown_ns = 50, .put_batch = 1 };
	struct zf_model_out o;

	/*
	 * Four tasks, a 20 ns hand-off: at the faults F + D0 = 100 + 2 + 15 =
	 * 117 > 4 x 22 = 88, no queue; the puts, one a move, queue: Z + D0 =
	 * 50 + 17 = 67 < 88.
	 */
	ASSERT_EQ(zf_model_predict(&in, "global", 4, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 117) && NEAR(o.life_ns, 117 + 88) && NEAR(o.put_ns, 38));
	EXPECT_TRUE(NEAR(o.life_get_share, 17.0 / 205));
	/* 10 puts in a row a move: U + H/10 each, never queued: 50 + 2 + 0.75 x 2 */
	in.put_batch = 10;
	ASSERT_EQ(zf_model_predict(&in, "global", 4, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.life_ns, 117 + 53.5) && NEAR(o.put_ns, 3.5));
	/* 40 tasks: the puts queue again, 40 x (2 + 2) = 160 */
	ASSERT_EQ(zf_model_predict(&in, "global", 40, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 880) && NEAR(o.life_ns, 880 + 160));
	/* mmflag: a get and a put per mm, spread over its faults */
	ASSERT_EQ(zf_model_predict(&in, "mmflag", 4, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.life_ns, 150 + 2 * 17 / 100.0) && NEAR(o.put_ns, 17 / 100.0));
	ASSERT_EQ(zf_model_predict(&in, "persistent", 4, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.life_ns, 150) && o.put_ns == 0 && o.life_get_share == 0);
	/* no teardown known: no life figures */
	in.teardown_ns = -1;
	ASSERT_EQ(zf_model_predict(&in, "global", 4, 20, &o), 0);
	EXPECT_TRUE(isnan(o.life_ns) && isnan(o.life_get_share) && NEAR(o.ns_per_fault, 117));
}

/* a thread mm's page-table bytes: one more line every strategy writes a fault and a zap */
TEST(model_mm_line_every_strategy_pays_in_threads)
{
	struct zf_model_in in = { .fixed_ns = 100, .get_ns = 2, .faults_per_pass = 100,
				  .threads = true, .mm_line = true, .teardown_ns = 50,
				  .put_batch = 1 };
	struct zf_model_out o;

	/* one task: the line never moves, its add is in F */
	ASSERT_EQ(zf_model_predict(&in, "persistent", 1, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 100) && o.mm_ns == 0 && NEAR(o.life_ns, 150));
	/* four: three quarters of a trip a fault, 100 + 15; not queued (4 x 22 = 88) */
	ASSERT_EQ(zf_model_predict(&in, "persistent", 4, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 115) && NEAR(o.mm_ns, 15) && o.get_ns == 0);
	/* the zap's subs, one a move, queue: 4 x 22 = 88 > 50 + 15 */
	EXPECT_TRUE(NEAR(o.life_ns, 115 + 88) && o.put_ns == 0);
	/* forty: the mm line's queue, 40 x 22, whatever the strategy counts */
	ASSERT_EQ(zf_model_predict(&in, "persistent", 40, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 880) && NEAR(o.mm_ns, 780));
	ASSERT_EQ(zf_model_predict(&in, "mmflag", 40, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 880));
	/* global: both lines; alone 100 + 17 + 15 = 132 > 4 x 22, so not queued at four */
	ASSERT_EQ(zf_model_predict(&in, "global", 4, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 132) && NEAR(o.get_ns, 17) && NEAR(o.mm_ns, 15));
	/* queued on its own line, the mm's trip is not added on top of the queue */
	ASSERT_EQ(zf_model_predict(&in, "global", 40, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 880) && NEAR(o.get_ns, 780) && o.mm_ns == 0);
	/* processes, or no mm line: persistent stays F */
	in.mm_line = false;
	ASSERT_EQ(zf_model_predict(&in, "persistent", 40, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 100) && NEAR(o.life_ns, 150));
}

TEST(model_lost_cas_each_another_get)
{
	struct zf_model_in in = { .fixed_ns = 1, .get_ns = 2, .faults_per_pass = 100,
				  .retries = 0.75 };
	struct zf_model_out o;

	/* (1 + 3/4) 2 + 20 = 23.5 a get, queued; two tasks: 47 */
	ASSERT_EQ(zf_model_predict(&in, "global", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.line_ns, 23.5) && NEAR(o.ns_per_fault, 47));
	/* no queue: (1 + 3/4) 2 + (1/2) 20 = 13.5 */
	in.fixed_ns = 1000;
	ASSERT_EQ(zf_model_predict(&in, "global", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.line_ns, 13.5) && NEAR(o.ns_per_fault, 1013.5));
	/* one task: no hand-off, whatever the matrix says */
	in.retries = 0;
	ASSERT_EQ(zf_model_predict(&in, "global", 1, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.line_ns, 2) && NEAR(o.ns_per_fault, 1002));
	/* a negative rate is no rate */
	in.fixed_ns = 1;
	in.retries = -1;
	ASSERT_EQ(zf_model_predict(&in, "global", 2, 20, &o), 0);
	EXPECT_TRUE(NEAR(o.ns_per_fault, 44));
}

/*
 * Every strategy at every task count of a machine: persistent scales
 * linearly, global never beats the line (one get per line time, all tasks
 * together) nor its own uncontended cost, mmflag sits between, and global's
 * time per fault does not fall as tasks are added (but for the one case the
 * comment inside says).
 */
static void check_machine(struct zf_test *_t, const char *synthetic, const char *placement,
			  const char *levels, double fixed_ns)
{
	struct zf_model_in in = { .fixed_ns = fixed_ns, .get_ns = 5, .faults_per_pass = 51200 };
	struct zf_topo topo;
	char why[256];
	double last = 0, last_hand = 0, last_p = 0, last_m = 0, *h, lo = 1e300;
	int n, cap, i;

	ASSERT_EQ(open_synthetic(&topo, synthetic), 0);
	cap = topo.pus;
	h = level_matrix(&topo, placement, cap, levels, why, sizeof(why));
	ASSERT_TRUE(h != NULL);
	for (i = 0; i < cap * cap; i++)
		if (h[i] >= 0 && h[i] < lo)
			lo = h[i];
	for (n = 1; n <= cap; n++) {
		double hand = n > 1 ? zf_model_handoff(h, cap, n) : 0;
		struct zf_model_out g, m, p;
		double moved = (double)(n - 1) / n;

		ASSERT_TRUE(n == 1 || hand >= lo);
		ASSERT_EQ(zf_model_predict(&in, "global", n, hand, &g), 0);
		ASSERT_EQ(zf_model_predict(&in, "mmflag", n, hand, &m), 0);
		ASSERT_EQ(zf_model_predict(&in, "persistent", n, hand, &p), 0);
		EXPECT_TRUE(NEAR(p.faults_per_sec, n * 1e9 / fixed_ns));
		EXPECT_TRUE(g.ns_per_fault >= fixed_ns + in.get_ns);
		EXPECT_TRUE(g.faults_per_sec <= 1e9 / (in.get_ns + moved * lo) * (1 + 1e-9));
		EXPECT_TRUE(g.faults_per_sec <= n * 1e9 / fixed_ns);
		EXPECT_TRUE(p.ns_per_fault <= m.ns_per_fault && m.ns_per_fault <= g.ns_per_fault);
		EXPECT_TRUE(g.get_share >= 0 && g.get_share < 1 && m.get_share >= 0);
		/*
		 * More tasks never make a fault cheaper, except where the PU added
		 * is nearer than the mean (scatter's SMT siblings at last): then the
		 * mean hand-off falls, and the time by no more than n times it fell
		 * (each of the n gets in the queue saves that).
		 */
		EXPECT_TRUE(g.ns_per_fault >= last - n * fmax(0, last_hand - hand) - 1e-9);
		if (fixed_ns < 10)
			EXPECT_TRUE(g.ns_per_fault >= last);	/* the queue's own growth */
		EXPECT_TRUE(p.faults_per_sec > last_p && m.faults_per_sec > last_m);
		last_hand = hand;
		last_p = p.faults_per_sec;
		last_m = m.faults_per_sec;
		last = g.ns_per_fault;
	}
	free(h);
	zf_topo_close(&topo);
}

TEST(model_one_node_monotone_bounded)
{
	check_machine(_t, ONE_NODE, "compact", "core=8,node=30", 1);
	check_machine(_t, ONE_NODE, "scatter", "core=8,node=30", 1500);
}

TEST(model_two_packages_monotone_bounded)
{
	check_machine(_t, TWO_PACKAGES, "compact", "core=15,node=50,machine=120", 1);
	check_machine(_t, TWO_PACKAGES, "scatter", "core=15,node=50,machine=120", 6000);
}

TEST(model_eight_nodes_monotone_bounded)
{
	check_machine(_t, EIGHT_NODES, "compact", "core=10,node=40,package=80,machine=160", 1);
	check_machine(_t, EIGHT_NODES, "scatter", "core=10,node=40,package=80,machine=160", 2000);
}

/* h from path's matrix for the plan: zf_c2c_read()'s error, or zf_model_matrix_c2c()'s */
static int matrix_of(const char *path, const struct zf_plan *plan, double *h, char *why,
		     size_t len)
{
	struct zf_c2c m;
	int err = zf_c2c_read(path, &m, why, len);

	if (err)
		return err;
	err = zf_model_matrix_c2c(&m, plan, h, why, len);
	zf_c2c_free(&m);
	return err;
}

/* tests/data/c2c: a hand-made 4-PU matrix, one pair sampled out */
TEST(model_matrix_from_c2c_csv)
{
	const char *path = "tests/data/c2c/c2c.csv";
	struct zf_topo topo;
	struct zf_plan plan;
	char why[256];
	double h[25];

	ASSERT_EQ(open_synthetic(&topo, "pack:2 core:2 pu:1"), 0);
	ASSERT_EQ(zf_plan_make(&topo, "compact", 4, &plan, why, sizeof(why)), 0);
	ASSERT_EQ(matrix_of(path, &plan, h, why, sizeof(why)), 0);
	EXPECT_TRUE(NEAR(h[0 * 4 + 1], 30.5) && NEAR(h[1 * 4 + 0], 30.5));
	EXPECT_TRUE(NEAR(h[0 * 4 + 2], 110.25) && h[1 * 4 + 3] < 0 && h[2 * 4 + 2] < 0);
	/* the empty pair is left out of the mean, never guessed */
	EXPECT_TRUE(NEAR(zf_model_handoff(h, 4, 4), (30.5 + 110.25 + 112 + 108 + 31) / 5));
	zf_plan_free(&plan);
	/* a PU the matrix does not have */
	ASSERT_EQ(zf_plan_make(&topo, "cpus:0,3,2,1", 4, &plan, why, sizeof(why)), 0);
	EXPECT_EQ(matrix_of(path, &plan, h, why, sizeof(why)), 0);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
	ASSERT_EQ(open_synthetic(&topo, "pack:2 core:4 pu:1"), 0);
	ASSERT_EQ(zf_plan_make(&topo, "compact", 5, &plan, why, sizeof(why)), 0);
	EXPECT_TRUE(matrix_of(path, &plan, h, why, sizeof(why)) != 0 &&
		    strstr(why, "PU 4 of the placement is not in the matrix"));
	EXPECT_TRUE(matrix_of("tests/data/sample/summary.csv", &plan, h, why,
			      sizeof(why)) != 0 && strstr(why, "not a c2c.csv"));
	EXPECT_TRUE(matrix_of("tests/data/none.csv", &plan, h, why, sizeof(why)) != 0 &&
		    strstr(why, "No such file"));
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}

/*
 * The matrix's PUs in measured order, not by number (compact's visits a
 * core's second thread last), and a label that is not a PU number as %d
 * writes it ("07"), which no PU is: each cell found by its PU, not its place
 */
TEST(model_matrix_by_pu_not_by_place)
{
	char path[] = "/tmp/hzfc2c.XXXXXX", why[256];
	static const char text[] = "pu,2,0,07,1\n"
				   "2,,10.00,20.00,30.00\n"
				   "0,10.00,,40.00,\n"
				   "07,20.00,40.00,,50.00\n"
				   "1,30.00,,50.00,\n";
	int fd = mkstemp(path), pu[] = { 0, 1, 2 }, zero[3] = { 0 };
	struct zf_plan plan = { .ntasks = 3, .pu = pu, .core = pu, .package = zero, .node = zero };
	struct zf_c2c m;
	double h[9];

	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	ASSERT_EQ(zf_c2c_read(path, &m, why, sizeof(why)), 0);
	EXPECT_EQ(m.n, 4);
	EXPECT_EQ(m.npus, 3);
	ASSERT_EQ(zf_model_matrix_c2c(&m, &plan, h, why, sizeof(why)), 0);
	/* PUs 0, 1, 2 are the file's rows 1, 3, 0 */
	EXPECT_TRUE(h[0 * 3 + 1] < 0 && h[1 * 3 + 0] < 0);
	EXPECT_TRUE(NEAR(h[0 * 3 + 2], 10) && NEAR(h[2 * 3 + 0], 10));
	EXPECT_TRUE(NEAR(h[1 * 3 + 2], 30) && NEAR(h[2 * 3 + 1], 30));
	EXPECT_TRUE(h[0] < 0 && h[4] < 0 && h[8] < 0);
	plan.pu[2] = 7;
	EXPECT_TRUE(zf_model_matrix_c2c(&m, &plan, h, why, sizeof(why)) != 0 &&
		    strstr(why, "PU 7 of the placement is not in the matrix"));
	zf_c2c_free(&m);
	unlink(path);
}

/* model's plan and model.csv keep a cpus: placement of 300 bytes and more whole */
TEST(model_keeps_a_long_cpus_placement_whole)
{
	char dir[] = "/tmp/hzfmodel.XXXXXX", path[PATH_MAX], *argv[16];
	struct zf_buf placement = { 0 };
	struct zf_csv csv;
	size_t line, r;
	int cpu, argc = 0, err;

	ASSERT_TRUE(mkdtemp(dir));
	zf_buf_printf(&placement, "cpus:");
	for (cpu = 0; placement.len < 300; cpu += 2)
		zf_buf_printf(&placement, "%s%d", cpu ? "," : "", cpu);
	ASSERT_TRUE(placement.text != NULL);
	argv[argc++] = "model";
	argv[argc++] = "--handoff-ns";
	argv[argc++] = "core=5,machine=100";
	argv[argc++] = "--fixed-ns";
	argv[argc++] = "1";
	argv[argc++] = "--get-ns";
	argv[argc++] = "0";
	argv[argc++] = "--tasks";
	argv[argc++] = "1,2";
	argv[argc++] = "--placement";
	argv[argc++] = placement.text;
	argv[argc++] = "--out";
	argv[argc++] = dir;
	argv[argc] = NULL;
	err = fake_model_quiet("pack:4 [numa] core:128 pu:2", argc, argv);
	ASSERT_EQ(err, 0);
	snprintf(path, sizeof(path), "%s/model.csv", dir);
	ASSERT_EQ(zf_csv_read(path, &csv, &line), 0);
	EXPECT_EQ(csv.nrows, 6);	/* global, mmflag, persistent at 1 and 2 tasks */
	for (r = 0; r < csv.nrows; r++)
		EXPECT_STREQ(csv.rows[r][zf_csv_col(&csv, "placement")], placement.text);
	zf_csv_free(&csv);
	zf_buf_free(&placement);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}
