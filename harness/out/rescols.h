/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The column tables of a results folder's CSV files (cols.h): each file's
 * row as a struct, and its table of names, formats and fields. summary.csv's
 * is model.csv's too. Columns: results/README.md.
 */
#ifndef HZF_RESCOLS_H
#define HZF_RESCOLS_H

#include "cols.h"
#include "perfcols.h"

/* a configuration over its repetitions; NAN and NULL: empty (zf_cols_unmeasured()) */
struct zf_summary_row {
	struct zf_config_key key;
	uint64_t reps;
	double ns_per_fault_median, ns_per_fault_min, ns_per_fault_max, ns_per_fault_stddev;
	double faults_per_sec_median, teardown_ns_per_fault_median, fairness_min_max;
	double get_ns_in_fault_median, get_share_of_fault;
	double perf[ZF_PERF_NCOLS];
	double get_share, put_share;		/* --profile's medians */
	const char *workload;
	double allocs_per_sec_median, frees_per_sec_median, alloc_share_median;
	double overlap_median, cpu_wall_median;
	double flagged_reps;			/* a count; NAN where none is told (model.csv) */
	double ci95_lo, ci95_hi, ci95_pct;
	const char *tag;
};

/* a configuration's counters, every run of it added up */
struct zf_counters_row {
	struct zf_config_key key;
	uint64_t passes;
	int64_t counter_node;
	uint64_t gets, puts, zaps, mm_exits, ref_gets, ref_puts, counter_touches, cas_retries;
	uint64_t allocs, frees, alloc_races_lost, alloc_failures, shrinks, broken;
	double counter_touches_per_fault;
	uint64_t alloc_ns;
};

extern const struct zf_col_table zf_summary_table, zf_counters_table;

#endif
