// SPDX-License-Identifier: GPL-2.0
/* The results folder's column tables: see rescols.h. */
#include "rescols.h"

#define NUM(f, fmt)	ZF_COL(ROW, ZF_COL_NUM, f, fmt)
#define UINT(f)		ZF_COL(ROW, ZF_COL_UINT, f, NULL)
#define INT(f)		ZF_COL(ROW, ZF_COL_INT, f, NULL)
#define TOLD(f)		ZF_COL(ROW, ZF_COL_TOLD, f, NULL)
#define TEXT(f)		ZF_COL(ROW, ZF_COL_TEXT, f, NULL)
#define PERF(f)		ZF_COL(ROW, ZF_COL_PERF, f, NULL)

#define ROW struct zf_summary_row
static const struct zf_col summary_cols[] = {
	ZF_COL_KEY(ROW),
	UINT(reps),
	NUM(ns_per_fault_median, "%.3f"),
	NUM(ns_per_fault_min, "%.3f"),
	NUM(ns_per_fault_max, "%.3f"),
	NUM(ns_per_fault_stddev, "%.3f"),
	NUM(faults_per_sec_median, "%.0f"),
	NUM(teardown_ns_per_fault_median, "%.3f"),
	NUM(fairness_min_max, "%.4f"),
	NUM(get_ns_in_fault_median, "%.3f"),
	NUM(get_share_of_fault, "%.5f"),
	PERF(perf),
	NUM(get_share, "%.5f"),
	NUM(put_share, "%.5f"),
	NUM(kernel_share, "%.5f"),
	NUM(kernel_get_share, "%.5f"),
	NUM(kernel_put_share, "%.5f"),
	TEXT(workload),
	NUM(allocs_per_sec_median, "%.1f"),
	NUM(frees_per_sec_median, "%.1f"),
	NUM(alloc_share_median, "%.6f"),
	NUM(overlap_median, "%.4f"),
	NUM(cpu_wall_median, "%.4f"),
	NUM(flagged_reps, "%.0f"),
	NUM(ci95_lo, "%.3f"),
	NUM(ci95_hi, "%.3f"),
	NUM(ci95_pct, "%.2f"),
	TEXT(tag),
};
#undef ROW

#define ROW struct zf_counters_row
static const struct zf_col counters_cols[] = {
	ZF_COL_KEY(ROW),
	UINT(passes), INT(counter_node), UINT(gets), UINT(puts), UINT(zaps), UINT(mm_exits),
	UINT(ref_gets), UINT(ref_puts), UINT(counter_touches), UINT(cas_retries), UINT(allocs),
	UINT(frees), UINT(alloc_races_lost), UINT(alloc_failures), UINT(shrinks), UINT(broken),
	NUM(counter_touches_per_fault, "%.4f"),
	UINT(alloc_ns),
};
#undef ROW

#define ROW struct zf_samples_row
static const struct zf_col samples_cols[] = {
	ZF_COL_KEY(ROW),
	UINT(rep), UINT(passes), UINT(faults),
	NUM(ns_per_fault, "%.3f"),
	NUM(faults_per_sec, "%.0f"),
	NUM(teardown_ns_per_fault, "%.3f"),
	NUM(fairness_min_max, "%.4f"),
	TOLD(thp_zero_page_alloc), TOLD(thp_fault_fallback),
	NUM(minflt_per_fault, "%.4f"),
	TOLD(rss_growth_kb), TOLD(anon_huge_kb),
	TEXT(kernel_check),
	NUM(get_ns_in_fault, "%.3f"),
	PERF(perf),
	TOLD(profile_samples),
	NUM(get_share, "%.5f"),
	NUM(put_share, "%.5f"),
	NUM(kernel_share, "%.5f"),
	NUM(kernel_get_share, "%.5f"),
	NUM(kernel_put_share, "%.5f"),
	UINT(wall_ns), UINT(allocs), UINT(frees), UINT(alloc_ns),
	TEXT(workload),
	NUM(overlap, "%.4f"),
	NUM(cpu_wall_min, "%.4f"),
	NUM(steal_pct, "%.3f"),
	NUM(idle_pct, "%.3f"),
	UINT(nivcsw), TOLD(migrations),
	TEXT(concurrency_check), TEXT(numa_check),
};
#undef ROW

#define ROW struct zf_tasks_row
static const struct zf_col tasks_cols[] = {
	ZF_COL_KEY(ROW),
	UINT(rep), UINT(task), INT(pu), INT(node), INT(mm_node), INT(cpu_seen),
	UINT(faults), UINT(fault_ns), UINT(teardown_ns),
	TOLD(minflt), TOLD(rss_growth_kb), TOLD(anon_huge_kb),
	NUM(get_ns_in_fault, "%.3f"),
	TOLD(span_start_ns), TOLD(span_wall_ns), TOLD(span_cpu_ns),
	NUM(cpu_wall, "%.4f"),
	NUM(steal_pct, "%.3f"),
	NUM(idle_pct, "%.3f"),
	UINT(nivcsw), TOLD(migrations),
	TEXT(sched),
	TOLD(start_cpu), TOLD(cpu_node), TOLD(table_node), TOLD(mm_node_seen),
};
#undef ROW

#define ROW struct zf_perf_row
static const struct zf_col perf_cols[] = {
	ZF_COL_KEY(ROW),
	UINT(rep), UINT(task), TEXT(phase), TEXT(event),
	UINT(count), UINT(time_enabled_ns), UINT(time_running_ns),
	NUM(scaled_count, "%.0f"),
	TOLD(multiplexed),
	NUM(per_fault, "%.4f"),
};
#undef ROW

#define ROW struct zf_profile_row
static const struct zf_col profile_cols[] = {
	ZF_COL_KEY(ROW),
	TEXT(mode), TEXT(symbol), UINT(samples),
	NUM(share, "%.5f"),
};
#undef ROW

const struct zf_col_table zf_summary_table = ZF_COL_TABLE_OF(summary_cols);
const struct zf_col_table zf_counters_table = ZF_COL_TABLE_OF(counters_cols);
const struct zf_col_table zf_samples_table = ZF_COL_TABLE_OF(samples_cols);
const struct zf_col_table zf_tasks_table = ZF_COL_TABLE_OF(tasks_cols);
const struct zf_col_table zf_perf_table = ZF_COL_TABLE_OF(perf_cols);
const struct zf_col_table zf_profile_table = ZF_COL_TABLE_OF(profile_cols);
