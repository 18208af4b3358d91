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
	/* of them, in the kernel, and in its huge zero folio get and put (kallsyms) */
	double kernel_share, kernel_get_share, kernel_put_share;
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

/* one repetition of a configuration, every task's together */
struct zf_samples_row {
	struct zf_config_key key;
	uint64_t rep, passes, faults;
	double ns_per_fault, faults_per_sec, teardown_ns_per_fault, fairness_min_max;
	/* kernel faults only: empty for emulated ones */
	int64_t thp_zero_page_alloc, thp_fault_fallback;
	double minflt_per_fault;
	int64_t rss_growth_kb, anon_huge_kb;
	const char *kernel_check;
	double get_ns_in_fault;
	double perf[ZF_PERF_NCOLS];
	int64_t profile_samples;		/* --profile's; empty without its shares */
	double get_share, put_share;
	double kernel_share, kernel_get_share, kernel_put_share;
	uint64_t wall_ns, allocs, frees, alloc_ns;
	const char *workload;
	double overlap, cpu_wall_min, steal_pct, idle_pct;
	uint64_t nivcsw;
	int64_t migrations;
	const char *concurrency_check, *numa_check;
};

/* profile.csv: where a configuration's --profile samples fell */
struct zf_profile_row {
	struct zf_config_key key;
	const char *mode;			/* "[.]" user, "[k]" kernel, as perf report */
	const char *symbol;
	uint64_t samples;
	double share;				/* of every sample of the configuration */
};

/* one task of one repetition */
struct zf_tasks_row {
	struct zf_config_key key;
	uint64_t rep, task;
	int64_t pu, node, mm_node, cpu_seen;	/* planned, and as the run saw them (-1 too) */
	uint64_t faults, fault_ns, teardown_ns;
	int64_t minflt, rss_growth_kb, anon_huge_kb;	/* kernel faults only */
	double get_ns_in_fault;
	int64_t span_start_ns, span_wall_ns, span_cpu_ns;	/* empty without a span */
	double cpu_wall, steal_pct, idle_pct;
	uint64_t nivcsw;
	int64_t migrations;
	const char *sched;
	int64_t start_cpu, cpu_node, table_node, mm_node_seen;	/* where it was seen */
};

/* one event of one task in one phase of one repetition */
struct zf_perf_row {
	struct zf_config_key key;
	uint64_t rep, task;
	const char *phase, *event;
	uint64_t count, time_enabled_ns, time_running_ns;
	double scaled_count;			/* NAN: it never ran */
	int64_t multiplexed;
	double per_fault;
};

extern const struct zf_col_table zf_summary_table, zf_counters_table, zf_samples_table;
extern const struct zf_col_table zf_tasks_table, zf_perf_table;

extern const struct zf_col_table zf_profile_table;

#endif
