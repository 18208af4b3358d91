/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for comparing two runs: the Mann-Whitney U test on their
 * per-repetition samples (no assumption of normality; a noisy machine's
 * outliers do not drive it), exact for small samples without ties, the normal
 * approximation with tie correction otherwise.
 */
#ifndef HZF_STATS_H
#define HZF_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct zf_mwu {
	double u;		/* U of the first sample: pairs (a, b) with a > b, ties half */
	double p;		/* two-sided p-value */
	int exact;		/* 1: from the exact distribution of U */
};

/* a (na values) against b (nb); -EINVAL when either is empty */
int zf_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct zf_mwu *out);
/*
 * Holm's step-down adjustment of n p-values into adj (same order): the i-th
 * smallest times (n - i + 1), never below the one before, at most 1; so that
 * many tests together keep the chance of any false alarm under alpha. -ENOMEM
 */
int zf_holm(const double *p, size_t n, double *adj);
/* sample standard deviation; 0 with fewer than two values */
double zf_stddev(const double *v, size_t n);
/* sample standard deviation over mean, in percent; 0 with fewer than two values */
double zf_stddev_pct(const double *v, size_t n);

/*
 * The 95% confidence interval of the median of v (n values; v is left
 * untouched), distribution-free: with the values in order, [x(l), x(n+1-l)]
 * for the largest l whose binomial(n, 1/2) tails leave at least 95%
 * between them. -EINVAL below 6 values (five cannot give 95%).
 */
int zf_median_ci95(const double *v, size_t n, double *lo, double *hi);
/* the interval's half-width, in percent of the median: the x of "median ± x%" */
double zf_ci95_pct(double median, double lo, double hi);
/*
 * --reps auto's stopping rule: enough when the interval of the median of
 * these n repetitions is within target_pct of it (and n is at least 6)
 */
bool zf_reps_enough(const double *v, size_t n, double target_pct);

/*
 * The one rule for "inside the noise", wherever a difference of two medians
 * would become a ratio: the difference a - b is inside the noise when it is
 * no larger than the sum of the two figures' spreads (the standard deviation
 * of their repetitions, summary.csv's ns_per_fault_stddev), that is when the
 * two medians' one-stddev bands overlap. A spread that is not known (NaN or
 * negative) cannot tell a difference from noise: inside it too.
 */
double zf_noise_of(double spread_a, double spread_b);
bool zf_inside_noise(double a, double spread_a, double b, double spread_b);

#endif
