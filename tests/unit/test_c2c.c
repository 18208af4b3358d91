// SPDX-License-Identifier: GPL-2.0
/*
 * c2c --contention: the pairs it picks on machines we do not have, its
 * --work-ns list, and the contended loop's own bookkeeping with two threads
 * (every increment counted once, no more moves than increments).
 */
#include <pthread.h>
#include <stdlib.h>

#include "../../bench/contend.h"
#include "../../harness/run/c2c.h"
#include "synthetic.h"
#include "test.h"

/* the pairs `max` gives on a synthetic machine, compact, every PU */
static int pairs_of(const char *synthetic, unsigned long max, struct zf_topo *topo,
		    struct zf_plan *plan, struct zf_c2c_pair **pairs, size_t *n)
{
	char why[256];

	if (open_synthetic(topo, synthetic))
		return -1;
	if (zf_plan_make(topo, "compact", topo->pus, plan, why, sizeof(why))) {
		zf_topo_close(topo);
		return -1;
	}
	return zf_c2c_contention_pairs(plan, max, pairs, n);
}

/* each pair's level is what its PUs share, each pair once, sorted by level */
static bool pairs_sound(const struct zf_plan *p, const struct zf_c2c_pair *pairs, size_t n)
{
	size_t a, b;

	for (a = 0; a < n; a++) {
		int i = pairs[a].i, j = pairs[a].j;
		enum zf_level want = p->core[i] == p->core[j] ? ZF_LV_CORE :
				     p->node[i] == p->node[j] ? ZF_LV_NODE :
				     p->package[i] == p->package[j] ? ZF_LV_PACKAGE : ZF_LV_MACHINE;

		if (i >= j || pairs[a].level != want || (a && pairs[a].level < pairs[a - 1].level))
			return false;
		for (b = 0; b < a; b++)
			if (pairs[b].i == i && pairs[b].j == j)
				return false;
	}
	return true;
}

TEST(c2c_contention_pairs_one_of_each_level_in_turn)
{
	struct zf_c2c_pair *pairs;
	struct zf_topo topo;
	struct zf_plan plan;
	size_t n;

	/* 2 packages, a node each, 18 cores of 2 SMT siblings: core, node, machine */
	ASSERT_EQ(pairs_of("pack:2 [numa] core:18 pu:2", 4, &topo, &plan, &pairs, &n), 0);
	ASSERT_EQ(n, 4);
	EXPECT_EQ(pairs[0].level, ZF_LV_CORE);
	EXPECT_EQ(pairs[1].level, ZF_LV_CORE);
	EXPECT_EQ(pairs[2].level, ZF_LV_NODE);
	EXPECT_EQ(pairs[3].level, ZF_LV_MACHINE);
	EXPECT_TRUE(pairs_sound(&plan, pairs, n));
	free(pairs);
	/* at most as many as there are: 36 cores, 2 x C(36,2) - 36 in a package, 36^2 across */
	ASSERT_EQ(zf_c2c_contention_pairs(&plan, 100000, &pairs, &n), 0);
	EXPECT_EQ(n, 72 * 71 / 2);
	EXPECT_TRUE(pairs_sound(&plan, pairs, n));
	free(pairs);
	ASSERT_EQ(zf_c2c_contention_pairs(&plan, 1, &pairs, &n), 0);
	ASSERT_EQ(n, 1);
	EXPECT_EQ(pairs[0].level, ZF_LV_CORE);
	free(pairs);
	zf_plan_free(&plan);
	zf_topo_close(&topo);

	/* two nodes a package: package is a level of its own */
	ASSERT_EQ(pairs_of("pack:2 group:2 [numa] core:4 pu:2", 4, &topo, &plan, &pairs, &n), 0);
	ASSERT_EQ(n, 4);
	EXPECT_EQ(pairs[0].level, ZF_LV_CORE);
	EXPECT_EQ(pairs[1].level, ZF_LV_NODE);
	EXPECT_EQ(pairs[2].level, ZF_LV_PACKAGE);
	EXPECT_EQ(pairs[3].level, ZF_LV_MACHINE);
	EXPECT_TRUE(pairs_sound(&plan, pairs, n));
	free(pairs);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}

TEST(c2c_contention_pairs_at_1024_pus)
{
	struct zf_c2c_pair *pairs;
	struct zf_topo topo;
	struct zf_plan plan;
	size_t n;

	ASSERT_EQ(pairs_of("pack:4 [numa] core:128 pu:2", 4, &topo, &plan, &pairs, &n), 0);
	ASSERT_EQ(plan.ntasks, 1024);
	ASSERT_EQ(n, 4);
	EXPECT_TRUE(pairs_sound(&plan, pairs, n));
	EXPECT_EQ(pairs[3].level, ZF_LV_MACHINE);
	/* spread: the second core pair is not the first one's neighbour */
	EXPECT_TRUE(pairs[1].i - pairs[0].i > 100);
	free(pairs);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}

TEST(c2c_work_ns_list)
{
	unsigned long *w = NULL;
	size_t n = 0;

	ASSERT_EQ(zf_c2c_work_parse(ZF_C2C_WORK_NS_DEFAULT, &w, &n), 0);
	ASSERT_EQ(n, 7);
	EXPECT_EQ(w[0], 0);
	EXPECT_EQ(w[6], 2000);
	free(w);
	ASSERT_EQ(zf_c2c_work_parse("500,0,1000000", &w, &n), 0);
	ASSERT_EQ(n, 3);
	EXPECT_TRUE(w[0] == 0 && w[1] == 500 && w[2] == 1000000);
	free(w);
	/* each refused with the usage status (the one-line error goes to stderr) */
	EXPECT_EQ(zf_c2c_work_parse("abc", &w, &n), 2);
	EXPECT_EQ(zf_c2c_work_parse("0,-5", &w, &n), 2);
	EXPECT_EQ(zf_c2c_work_parse("1000001", &w, &n), 2);
	EXPECT_EQ(zf_c2c_work_parse("100,100", &w, &n), 2);
	EXPECT_EQ(zf_c2c_work_parse("", &w, &n), 2);
	EXPECT_EQ(zf_c2c_work_parse("0,,5", &w, &n), 2);
	/* more work, fewer ops a batch; never fewer than a couple of hundred */
	EXPECT_TRUE(zf_c2c_contention_ops(0) > zf_c2c_contention_ops(2000));
	EXPECT_TRUE(zf_c2c_contention_ops(1000000) >= 200);
}

#define RACE_BATCHES	4

struct race_side {
	struct zf_contend *c;
	int side;
	struct zf_contend_count count[RACE_BATCHES];
};

static void *race_side_main(void *p)
{
	struct race_side *s = p;
	int b;

	for (b = 0; b < RACE_BATCHES; b++)
		zf_contend_batch(s->c, s->side, b, &s->count[b]);
	return NULL;
}

/* make test-tsan runs it (its name has "race"): the two sides touch atomics only */
TEST(c2c_contention_race_counts_every_increment_once)
{
	static const unsigned long work_iters[] = { 0, 3000 };
	size_t w;

	for (w = 0; w < sizeof(work_iters) / sizeof(work_iters[0]); w++) {
		struct zf_contend *c = aligned_alloc(ZF_LINE, sizeof(*c));
		struct race_side a = { .side = 0 }, b = { .side = 1 };
		pthread_t ta, tb;
		int i;

		ASSERT_TRUE(c != NULL);
		memset(c, 0, sizeof(*c));
		c->ops = work_iters[w] ? 500 : 20000;
		c->work_iters = work_iters[w];
		a.c = b.c = c;
		ASSERT_EQ(pthread_create(&ta, NULL, race_side_main, &a), 0);
		ASSERT_EQ(pthread_create(&tb, NULL, race_side_main, &b), 0);
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
		for (i = 0; i < RACE_BATCHES; i++) {
			const struct zf_contend_count *x = &a.count[i], *y = &b.count[i];

			EXPECT_EQ(x->done, c->ops);
			EXPECT_EQ(y->done, c->ops);
			EXPECT_EQ(x->line_ops, 2 * c->ops);	/* the line counted both, each once */
			EXPECT_TRUE(x->ops <= x->done && y->ops <= y->done);
			/* one side ran to its end while both ran */
			EXPECT_TRUE(x->ops == x->done || y->ops == y->done);
			EXPECT_TRUE(x->transfers <= x->ops && y->transfers <= y->ops);
		}
		free(c);
	}
}
