/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference points measured in the same session as a run: what a bare
 * atomic_inc_not_zero() costs on one uncontended line, what a plain pointer
 * read costs, and how many units of busy work make a nanosecond.
 */
#ifndef HZF_PROBE_H
#define HZF_PROBE_H

struct zf_probe {
	double inc_not_zero_ns;		/* one CAS-loop increment, one task, one line */
	double pointer_read_ns;		/* one relaxed pointer load in a loop */
	const char *busy_unit;		/* zf_busy()'s unit: "tsc", "cntvct" (ticks) or "loop" */
	double busy_iters_per_ns;	/* zf_busy() units per nanosecond, at busy_ns */
	double busy_ns;			/* the work a call was calibrated to (0: one long call) */
	unsigned long busy_iters;	/* the units a call of busy_ns takes */
	double busy_call_ns;		/* what a call of busy_iters measured, the call in */
	double busy_ipn_end;		/* calibrated again at the end of a run; 0: not */
};

/* how far the end's calibration may be from the start's before a run says so */
#define ZF_BUSY_DRIFT	0.10

/*
 * Each figure is the median of several timed loops. With busy_ns > 0 the
 * busy work is calibrated as --fault-ns uses it: calls of zf_busy() one
 * after another, the iterations corrected until a call takes busy_ns.
 */
void zf_probe_measure(struct zf_probe *probe, double busy_ns);
/*
 * busy_ns calibrated again into busy_ipn_end (the start's figures kept);
 * returns |end / start - 1|, 0 where nothing was calibrated
 */
double zf_probe_recheck(struct zf_probe *probe);
/* zf_busy() units per ns of one long call */
double zf_busy_calibrate(void);
/*
 * units per ns for calls of ns each, starting from the rate from_ipn
 * (0: one long call measured first); *iters and *call_ns what the last
 * round measured
 */
double zf_busy_calibrate_at(double ns, double from_ipn, unsigned long *iters, double *call_ns);
/* the median of v[0..n-1] (sorts v); 0 for n == 0 */
double zf_median(double *v, int n);

#endif
