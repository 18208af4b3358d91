// SPDX-License-Identifier: GPL-2.0
/* The results folder's column tables: see rescols.h. */
#include "rescols.h"

#define KEY(row)		{ "", ZF_COL_TABLE, NULL, offsetof(struct row, key), &zf_key_table }
#define NUM(row, f, fmt)	{ #f, ZF_COL_NUM, fmt, offsetof(struct row, f), NULL }
#define UINT(row, f)		{ #f, ZF_COL_UINT, NULL, offsetof(struct row, f), NULL }
#define INT(row, f)		{ #f, ZF_COL_INT, NULL, offsetof(struct row, f), NULL }
#define TEXT(row, f)		{ #f, ZF_COL_TEXT, NULL, offsetof(struct row, f), NULL }
#define PERF(row, f)		{ #f, ZF_COL_PERF, NULL, offsetof(struct row, f), NULL }

#define S(type, ...)		type(zf_summary_row, __VA_ARGS__)
static const struct zf_col summary_cols[] = {
	KEY(zf_summary_row),
	S(UINT, reps),
	S(NUM, ns_per_fault_median, "%.3f"),
	S(NUM, ns_per_fault_min, "%.3f"),
	S(NUM, ns_per_fault_max, "%.3f"),
	S(NUM, ns_per_fault_stddev, "%.3f"),
	S(NUM, faults_per_sec_median, "%.0f"),
	S(NUM, teardown_ns_per_fault_median, "%.3f"),
	S(NUM, fairness_min_max, "%.4f"),
	S(NUM, get_ns_in_fault_median, "%.3f"),
	S(NUM, get_share_of_fault, "%.5f"),
	S(PERF, perf),
	S(NUM, get_share, "%.5f"),
	S(NUM, put_share, "%.5f"),
	S(TEXT, workload),
	S(NUM, allocs_per_sec_median, "%.1f"),
	S(NUM, frees_per_sec_median, "%.1f"),
	S(NUM, alloc_share_median, "%.6f"),
	S(NUM, overlap_median, "%.4f"),
	S(NUM, cpu_wall_median, "%.4f"),
	S(NUM, flagged_reps, "%.0f"),
	S(NUM, ci95_lo, "%.3f"),
	S(NUM, ci95_hi, "%.3f"),
	S(NUM, ci95_pct, "%.2f"),
	S(TEXT, tag),
};
#undef S

const struct zf_col_table zf_summary_table = ZF_COL_TABLE_OF(summary_cols);

#define C(type, f)		type(zf_counters_row, f)
static const struct zf_col counters_cols[] = {
	KEY(zf_counters_row),
	C(UINT, passes),
	C(INT, counter_node),
	C(UINT, gets),
	C(UINT, puts),
	C(UINT, zaps),
	C(UINT, mm_exits),
	C(UINT, ref_gets),
	C(UINT, ref_puts),
	C(UINT, counter_touches),
	C(UINT, cas_retries),
	C(UINT, allocs),
	C(UINT, frees),
	C(UINT, alloc_races_lost),
	C(UINT, alloc_failures),
	C(UINT, shrinks),
	C(UINT, broken),
	NUM(zf_counters_row, counter_touches_per_fault, "%.4f"),
	C(UINT, alloc_ns),
};
#undef C

const struct zf_col_table zf_counters_table = ZF_COL_TABLE_OF(counters_cols);
