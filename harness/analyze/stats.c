// SPDX-License-Identifier: GPL-2.0
/* Mann-Whitney U and friends: see stats.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define EXACT_MAX 30	/* exact distribution up to 30 values a side */

static const double *holm_p;

static int by_p(const void *x, const void *y)
{
	double a = holm_p[*(const size_t *)x], b = holm_p[*(const size_t *)y];

	return a < b ? -1 : a > b;
}

int zf_holm(const double *p, size_t n, double *adj)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order)), i;
	double run = 0;

	if (!order)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		order[i] = i;
	holm_p = p;
	qsort(order, n, sizeof(*order), by_p);
	for (i = 0; i < n; i++) {
		run = fmax(run, fmin(1, (n - i) * p[order[i]]));
		adj[order[i]] = run;
	}
	free(order);
	return 0;
}

static double mean_of(const double *v, size_t n)
{
	double mean = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += v[i] / n;
	return mean;
}

double zf_stddev(const double *v, size_t n)
{
	double mean, var = 0;
	size_t i;

	if (n < 2)
		return 0;
	mean = mean_of(v, n);
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	return sqrt(var / (n - 1));
}

double zf_stddev_pct(const double *v, size_t n)
{
	double mean = n < 2 ? 0 : mean_of(v, n);

	return mean ? 100 * zf_stddev(v, n) / fabs(mean) : 0;
}

/*
 * P(U <= u) for samples of m and n without ties: the number of orderings with
 * that U over all C(m + n, m), by the recurrence
 * N(m, n, u) = N(m - 1, n, u - n) + N(m, n - 1, u).
 */
static double exact_cdf(size_t m, size_t n, long u)
{
	size_t umax = m * n, i, j;
	double *prev = calloc((umax + 1) * (n + 1), sizeof(double));
	double *cur = calloc((umax + 1) * (n + 1), sizeof(double));
	double total = 0, below = 0, *t;
	long k;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NAN;
	}
	/* prev[j][k]: orderings of (i - 1) a's and j b's with U = k; start at i = 0 */
	for (j = 0; j <= n; j++)
		prev[j * (umax + 1)] = 1;
	for (i = 1; i <= m; i++) {
		memset(cur, 0, (umax + 1) * (n + 1) * sizeof(double));
		for (j = 0; j <= n; j++)
			for (k = 0; k <= (long)umax; k++) {
				double v = 0;

				/* the largest value is an a (it beats all j b's) or a b */
				if (k >= (long)j)
					v += prev[j * (umax + 1) + k - j];
				if (j > 0)
					v += cur[(j - 1) * (umax + 1) + k];
				cur[j * (umax + 1) + k] = v;
			}
		t = prev;
		prev = cur;
		cur = t;
	}
	for (k = 0; k <= (long)umax; k++) {
		total += prev[n * (umax + 1) + k];
		if (k <= u)
			below += prev[n * (umax + 1) + k];
	}
	free(prev);
	free(cur);
	return below / total;
}

/* one value of either sample, for ranking both together */
struct ranked {
	double v;
	int of_a;
};

static int by_value(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;

	/* NaN (which no caller passes) last, so that the order is total all the same */
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/*
 * U of a from its rank sum, both samples ranked together (ties taking their
 * mean rank): the pair count of the definition without its na * nb pairs,
 * so that 20,000 repetitions a side take milliseconds, not seconds. *tied:
 * a value in both; *ties: the sum over groups of equal values of t^3 - t.
 */
static int rank_u(const double *a, size_t na, const double *b, size_t nb, double *u,
		  int *tied, double *ties)
{
	size_t i, j, k, n = na + nb, in_a;
	struct ranked *r = malloc(n * sizeof(*r));
	double rank_sum = 0;

	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r[i].v = i < na ? a[i] : b[i - na];
		r[i].of_a = i < na;
	}
	qsort(r, n, sizeof(*r), by_value);
	*tied = 0;
	*ties = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1, in_a = r[i].of_a; j < n && !by_value(&r[i], &r[j]); j++)
			in_a += r[j].of_a;
		/* ranks i + 1 to j: their mean, exact in halves */
		rank_sum += in_a * ((i + 1 + j) / 2.0);
		k = j - i;
		*tied |= in_a && in_a < k;
		if (k > 1)
			*ties += (double)k * k * k - k;
	}
	free(r);
	*u = rank_sum - na * (na + 1) / 2.0;
	return 0;
}

int zf_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct zf_mwu *out)
{
	double u, mean, var, ties, z;
	size_t n = na + nb;
	int tied;

	if (!na || !nb)
		return -EINVAL;
	if (rank_u(a, na, b, nb, &u, &tied, &ties))
		return -ENOMEM;
	out->u = u;
	mean = na * nb / 2.0;
	if (!tied && na <= EXACT_MAX && nb <= EXACT_MAX) {
		/* two-sided: twice the smaller tail, at most 1 */
		double lo = exact_cdf(na, nb, (long)u);
		double hi = 1 - exact_cdf(na, nb, (long)u - 1);

		out->p = fmin(1, 2 * fmin(lo, hi));
		out->exact = 1;
		return 0;
	}
	var = na * nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0) {
		out->p = 1;	/* every value the same */
		out->exact = 0;
		return 0;
	}
	z = (fabs(u - mean) - 0.5) / sqrt(var);	/* with continuity correction */
	out->p = fmin(1, z <= 0 ? 1 : erfc(z / sqrt(2)));
	out->exact = 0;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int zf_median_ci95(const double *v, size_t n, double *lo, double *hi)
{
	double *sorted, below = 0;
	size_t l = 0, k;

	if (n < 6)
		return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	/*
	 * P(B <= k) for B ~ binomial(n, 1/2), k counting up; l = k + 1 while it
	 * is <= 2.5%. Each P(B = k) from logarithms: 2^-n is 0 in a double from
	 * 1,075 values on, which shrank every interval past them to the two middle values.
	 */
	for (k = 0; k < n / 2; k++) {
		below += exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) - n * log(2.0));
		if (below > 0.025)
			break;
		l = k + 1;
	}
	if (!l) {	/* not reached for n >= 6, where P(B = 0) <= 1/64 */
		free(sorted);
		return -EINVAL;
	}
	*lo = sorted[l - 1];
	*hi = sorted[n - l];
	free(sorted);
	return 0;
}

double zf_ci95_pct(double median, double lo, double hi)
{
	return median > 0 ? 100.0 * (hi - lo) / 2 / median : NAN;
}

bool zf_reps_enough(const double *v, size_t n, double target_pct)
{
	double lo, hi, *copy, median;
	bool enough;

	if (zf_median_ci95(v, n, &lo, &hi))
		return false;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return false;
	memcpy(copy, v, n * sizeof(*copy));
	qsort(copy, n, sizeof(*copy), cmp_double);
	median = n % 2 ? copy[n / 2] : (copy[n / 2 - 1] + copy[n / 2]) / 2;
	free(copy);
	enough = zf_ci95_pct(median, lo, hi) <= target_pct;
	return enough;
}

double zf_noise_of(double spread_a, double spread_b)
{
	if (!(spread_a >= 0) || !(spread_b >= 0))
		return NAN;
	return spread_a + spread_b;
}

bool zf_inside_noise(double a, double spread_a, double b, double spread_b)
{
	double noise = zf_noise_of(spread_a, spread_b);

	if (isnan(a) || isnan(b) || isnan(noise))
		return true;
	return fabs(a - b) <= noise;
}
