// SPDX-License-Identifier: GPL-2.0
/* compare's statistics on fixed vectors, against values worked out by hand. */
#include <errno.h>
#include <math.h>

#include "../../harness/analyze/stats.h"
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

TEST(median_ci95_order_statistics)
{
	double five[] = { 1, 2, 3, 4, 5 };
	double six[] = { 6, 1, 5, 2, 4, 3 };
	double twelve[] = { 12, 1, 11, 2, 10, 3, 9, 4, 8, 5, 7, 6 };
	double lo, hi;

	/* five values cannot give 95%: P(B = 0) is 1/32 a side */
	EXPECT_EQ(zf_median_ci95(five, 5, &lo, &hi), -EINVAL);
	/* six: P(B = 0) = 1/64 <= 2.5%, P(B <= 1) = 7/64 > it: the extremes */
	ASSERT_EQ(zf_median_ci95(six, 6, &lo, &hi), 0);
	NEAR(lo, 1, 1e-12);
	NEAR(hi, 6, 1e-12);
	NEAR(six[0], 6, 1e-12);		/* left as it was */
	/* twelve: P(B <= 2) = 79/4096 = 1.9%, P(B <= 3) = 7.3%: x(3) and x(10) */
	ASSERT_EQ(zf_median_ci95(twelve, 12, &lo, &hi), 0);
	NEAR(lo, 3, 1e-12);
	NEAR(hi, 10, 1e-12);
	/* the half-width over the median, in percent: (10 - 3) / 2 / 6.5 */
	NEAR(zf_ci95_pct(6.5, lo, hi), 100.0 * 3.5 / 6.5, 1e-9);
}

TEST(reps_auto_stops_once_the_interval_is_within_the_target)
{
	/* a quiet configuration: 1% either side of 100 */
	double quiet[] = { 100, 101, 99, 100.5, 99.5, 100, 100.2, 99.8 };
	/* a noisy one: 20% apart */
	double noisy[] = { 100, 120, 80, 110, 90, 105, 95, 115, 85, 100 };
	/* steady, with one late outlier: the order statistics shrug it off */
	double outlier[] = { 50, 50.2, 49.9, 50.1, 49.8, 50, 50.1, 49.9, 50, 80 };
	size_t n;

	EXPECT_TRUE(!zf_reps_enough(quiet, 5, 2.0));	/* never below 6 */
	EXPECT_TRUE(zf_reps_enough(quiet, 6, 2.0));	/* [99, 101]: 1% */
	EXPECT_TRUE(!zf_reps_enough(quiet, 6, 0.5));
	for (n = 6; n <= 10; n++)
		EXPECT_TRUE(!zf_reps_enough(noisy, n, 2.0));
	EXPECT_TRUE(zf_reps_enough(noisy, 10, 25.0));
	EXPECT_TRUE(!zf_reps_enough(outlier, 6, 0.1));
	EXPECT_TRUE(zf_reps_enough(outlier, 10, 1.0));	/* [49.9, 50.2] at 10: x(2), x(9) */
}

/* U by its definition, pair by pair, for checking the rank sum against */
static double pairs_u(const double *a, size_t na, const double *b, size_t nb)
{
	double u = 0;
	size_t i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	return u;
}

TEST(mann_whitney_rank_sum_is_the_pair_count)
{
	double a[300], b[200];
	struct zf_mwu t;
	size_t i;

	/* values of 0-49, many tied within and across the samples */
	for (i = 0; i < 300; i++)
		a[i] = (i * 37) % 50;
	for (i = 0; i < 200; i++)
		b[i] = (i * 11 + 3) % 47;
	ASSERT_EQ(zf_mann_whitney(a, 300, b, 200, &t), 0);
	NEAR(t.u, pairs_u(a, 300, b, 200), 1e-9);
	ASSERT_EQ(zf_mann_whitney(b, 200, a, 300, &t), 0);
	NEAR(t.u, pairs_u(b, 200, a, 300), 1e-9);
}

TEST(mann_whitney_and_median_ci95_on_20000_values)
{
	static double a[20000], b[20000];
	double lo, hi;
	struct zf_mwu t;
	size_t i;

	/* 1..20000 shuffled (7919 is prime to 20000), and the same 1000 higher */
	for (i = 0; i < 20000; i++) {
		a[i] = (double)((i * 7919) % 20000 + 1);
		b[i] = a[i] + 1000;
	}
	ASSERT_EQ(zf_mann_whitney(a, 20000, b, 20000, &t), 0);
	/* a's i beats b's j where i > j + 1000: 18999 * 19000 / 2 pairs, and 19000 ties */
	NEAR(t.u, 18999.0 * 19000 / 2 + 19000 / 2.0, 1e-6);
	EXPECT_TRUE(t.p < 1e-6);
	/* binomial(n, 1/2) tails at 2.5%, worked out exactly: x(9861) and x(10140) */
	ASSERT_EQ(zf_median_ci95(a, 20000, &lo, &hi), 0);
	NEAR(lo, 9861, 1e-12);
	NEAR(hi, 10140, 1e-12);
	/* and past 1,074 values, where 2^-n is no longer a double: x(956), x(1045) of 2000 */
	for (i = 0; i < 2000; i++)
		a[i] = (double)((i * 7919) % 2000 + 1);
	ASSERT_EQ(zf_median_ci95(a, 2000, &lo, &hi), 0);
	NEAR(lo, 956, 1e-12);
	NEAR(hi, 1045, 1e-12);
}

/* the one rule: a difference no larger than the two spreads together is noise */
TEST(difference_inside_the_sum_of_the_spreads_is_noise)
{
	/* 1 us faults, ±2 ns each: 0.19 ns apart is noise, 5 ns is not */
	EXPECT_TRUE(zf_inside_noise(1000.19, 2, 1000, 2));
	EXPECT_TRUE(zf_inside_noise(1000, 2, 1004, 2));		/* on the edge: noise */
	EXPECT_TRUE(!zf_inside_noise(1005, 2, 1000, 2));
	EXPECT_TRUE(!zf_inside_noise(1000, 2, 1005, 2));	/* either sign */
	/* the stress regime: 5.4 ns over 0.6, spreads of 0.1 */
	EXPECT_TRUE(!zf_inside_noise(6.0, 0.13, 0.57, 0.01));
	/* no spread known: nothing can be told from noise */
	EXPECT_TRUE(zf_inside_noise(6.0, NAN, 0.57, 0.01));
	EXPECT_TRUE(zf_inside_noise(6.0, 0.1, 0.57, -1));
	EXPECT_TRUE(zf_inside_noise(NAN, 0.1, 0.57, 0.1));
	EXPECT_TRUE(fabs(zf_noise_of(1.5, 2) - 3.5) < 1e-12);
	EXPECT_TRUE(isnan(zf_noise_of(NAN, 2)));
}
