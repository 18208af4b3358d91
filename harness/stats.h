/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for comparing two runs: the Mann-Whitney U test on their
 * per-repetition samples (no assumption of normality; a noisy machine's
 * outliers do not drive it), exact for small samples without ties, the normal
 * approximation with tie correction otherwise.
 */
#ifndef HZF_STATS_H
#define HZF_STATS_H

#include <stddef.h>

struct zf_mwu {
	double u;		/* U of the first sample: pairs (a, b) with a > b, ties half */
	double p;		/* two-sided p-value */
	int exact;		/* 1: from the exact distribution of U */
};

/* a (na values) against b (nb); -EINVAL when either is empty */
int zf_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct zf_mwu *out);
/* sample standard deviation over mean, in percent; 0 with fewer than two values */
double zf_stddev_pct(const double *v, size_t n);

#endif
