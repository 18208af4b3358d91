// SPDX-License-Identifier: GPL-2.0
/* compare's statistics on fixed vectors, against values worked out by hand. */
#include <math.h>

#include "../../harness/stats.h"
#include "test.h"

#define NEAR(x, want, tol)	EXPECT_TRUE(fabs((x) - (want)) < (tol))

TEST(mann_whitney_exact_for_small_samples_without_ties)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, c[] = { 3.5, 6, 7, 8, 9 };
	double d[] = { 1, 3, 5, 7, 9 }, e[] = { 2, 4, 6, 8, 10 };
	struct zf_mwu t;

	/* no overlap: U = 0, the one ordering of 252 at each end: p = 2/252 */
	ASSERT_EQ(zf_mann_whitney(a, 5, b, 5, &t), 0);
	EXPECT_TRUE(t.exact);
	NEAR(t.u, 0, 1e-12);
	NEAR(t.p, 2.0 / 252, 1e-12);
	/* symmetric: the other way round gives U = 25 and the same p */
	ASSERT_EQ(zf_mann_whitney(b, 5, a, 5, &t), 0);
	NEAR(t.u, 25, 1e-12);
	NEAR(t.p, 2.0 / 252, 1e-12);
	/* U = 2: orderings with U <= 2 are 1 + 1 + 2 = 4 of 252 */
	ASSERT_EQ(zf_mann_whitney(a, 5, c, 5, &t), 0);
	NEAR(t.u, 2, 1e-12);
	NEAR(t.p, 8.0 / 252, 1e-12);
	/* interleaved: U = 10 of 25, about the middle: p well above any alpha */
	ASSERT_EQ(zf_mann_whitney(d, 5, e, 5, &t), 0);
	NEAR(t.u, 10, 1e-12);
	EXPECT_TRUE(t.p > 0.5 && t.p <= 1);
	/* 1 against 1: the two orderings, each p = 1 */
	ASSERT_EQ(zf_mann_whitney(a, 1, b, 1, &t), 0);
	NEAR(t.p, 1, 1e-12);
	EXPECT_TRUE(zf_mann_whitney(a, 0, b, 1, &t) != 0);
}

TEST(mann_whitney_normal_approximation_with_ties)
{
	/*
	 * U = 5 (pairs a > b, ties half), mean 12.5; tie groups: three 2s and
	 * two 4s, so var = 25/12 * (11 - (24 + 6) / 90) = 22.2222; z = (7.5 - 0.5)
	 * / sqrt(var) = 1.48492; p = erfc(z / sqrt 2) = 0.137564.
	 */
	double a[] = { 1, 2, 2, 3, 5 }, b[] = { 2, 4, 4, 6, 7 };
	double same[] = { 3, 3, 3 };
	struct zf_mwu t;

	ASSERT_EQ(zf_mann_whitney(a, 5, b, 5, &t), 0);
	EXPECT_TRUE(!t.exact);
	NEAR(t.u, 5, 1e-12);
	NEAR(t.p, 0.137564, 1e-5);
	/* every value equal: nothing to tell apart */
	ASSERT_EQ(zf_mann_whitney(same, 3, same, 3, &t), 0);
	NEAR(t.p, 1, 1e-12);
}

TEST(holm_adjusts_in_step_down_order)
{
	/* sorted 0.005, 0.01, 0.03, 0.04: x4 = 0.02, x3 = 0.03, x2 = 0.06, x1 = 0.04 -> 0.06 */
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double big[] = { 0.5, 0.9 }, adj2[2];

	ASSERT_EQ(zf_holm(p, 4, adj), 0);
	NEAR(adj[0], 0.03, 1e-12);
	NEAR(adj[1], 0.06, 1e-12);
	NEAR(adj[2], 0.06, 1e-12);
	NEAR(adj[3], 0.02, 1e-12);
	ASSERT_EQ(zf_holm(big, 2, adj2), 0);
	NEAR(adj2[0], 1, 1e-12);	/* 2 x 0.5, capped */
	NEAR(adj2[1], 1, 1e-12);
}

TEST(stddev_in_percent_of_the_mean)
{
	double v[] = { 9, 10, 11 }, one[] = { 4 };

	NEAR(zf_stddev_pct(v, 3), 10.0, 1e-9);	/* sd 1 over mean 10 */
	NEAR(zf_stddev_pct(one, 1), 0, 1e-12);
}
