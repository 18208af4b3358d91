/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench compare BASE NEW`: every configuration of two results folders
 * matched by its key columns, each metric's per-repetition samples held
 * against each other (median ± %stddev, %change, Mann-Whitney U), in the
 * manner of LKP's comparison table. A configuration regressed when the change
 * is significant (p < alpha) and worse than the threshold.
 */
#ifndef HZF_COMPARE_H
#define HZF_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

struct zf_compare_opts {
	const char *base, *new_dir, *out;	/* out: where compare.csv/json go (NULL: NEW) */
	const char *metrics[8];
	int nmetrics;
	double threshold_pct, alpha;
	/* set: each repetition's metric over the same repetition of this strategy in
	 * the same fault/kind/tasks/placement (sweeps run them in the same round) */
	const char *normalize;
	/* configurations tested and shown but not failing the comparison:
	 * key patterns, "global,*,*,2" (fields in key order, '*' any, the rest any) */
	const char *ungated[8];
	int nungated;
	bool quiet;
};

/* the metrics compare knows, and whether more of each is better */
bool zf_compare_metric_known(const char *name, bool *higher_is_better);
/* a pattern for --ungated: 0, or -1 with why */
int zf_compare_pattern_check(const char *pattern, const char **why);
/* 0: nothing regressed; 1: something did; 2: bad input (said on stderr) */
int zf_compare(const struct zf_compare_opts *o, FILE *out);

#endif
