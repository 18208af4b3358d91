/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference points measured in the same session as a run: what a bare
 * atomic_inc_not_zero() costs on one uncontended line, what a plain pointer
 * read costs, and how many busy-work iterations make a nanosecond.
 */
#ifndef HZF_PROBE_H
#define HZF_PROBE_H

struct zf_probe {
	double inc_not_zero_ns;		/* one CAS-loop increment, one task, one line */
	double pointer_read_ns;		/* one relaxed pointer load in a loop */
	double busy_iters_per_ns;	/* zf_busy() iterations per nanosecond */
};

/* each figure is the median of several timed loops */
void zf_probe_measure(struct zf_probe *probe);
double zf_busy_calibrate(void);
/* the median of v[0..n-1] (sorts v); 0 for n == 0 */
double zf_median(double *v, int n);

#endif
