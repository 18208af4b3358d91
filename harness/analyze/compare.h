/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench compare BASE NEW [MORE ...]`: every configuration of the results
 * folders matched by its key columns, each metric's per-repetition samples of
 * each folder held against the base's (median ± %stddev, %change,
 * Mann-Whitney U, Holm's adjustment over each folder's tests), in the manner
 * of LKP's comparison table, one column a folder as mmtests' compare-kernels
 * lays them out. A configuration regressed when the change is significant
 * (p < alpha) and worse than the threshold.
 */
#ifndef HZF_COMPARE_H
#define HZF_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

struct zf_compare_opts {
	const char *base, *new_dir, *out;	/* out: where compare.csv/json go (NULL: the last) */
	/* ndirs folders, the first the base; NULL: base and new_dir */
	const char *const *dirs;
	int ndirs;
	/* --label L1,L2,...: a name for each folder; NULL: each meta.json's tag, or kernel release */
	const char *labels;
	const char *format;	/* --format: text, csv, json, markdown or html (NULL: text) */
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
