/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The default events' columns of samples.csv and summary.csv (a
 * ZF_COL_PERF in their column tables, cols.h): per fault in the fault phase, all tasks together. A
 * column whose event was not asked for, could not be opened, or never ran is
 * NAN here and an empty field in the file.
 */
#ifndef HZF_PERFCOLS_H
#define HZF_PERFCOLS_H

#include "perfctr.h"
#include "runner.h"

#define ZF_PERF_NCOLS	13

/* column c's name */
const char *zf_perf_col_name(int c);
/* and the printf format of its value, a double */
const char *zf_perf_col_fmt(int c);
/* one repetition's columns from its tasks' samples */
void zf_perf_rep_cols(const struct zf_perf_list *list, const int *perf_err,
		      const struct zf_task_sample *ts, int ntasks, double *cols);
/* a configuration's: the median of each over its repetitions, multiplexed if any was */
void zf_perf_summary_cols(double *const *reps, unsigned int n, double *cols);

#endif
