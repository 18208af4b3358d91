// SPDX-License-Identifier: GPL-2.0
/* Reference loops for a run's figures: see probe.h. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "huge_zero.h"
#include "probe.h"
#include "usemem.h"

#define PROBE_LOOPS	4000000UL
#define PROBE_ROUNDS	7

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double zf_median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct {
	_Atomic long count __attribute__((aligned(ZF_LINE)));
	void *_Atomic pointer __attribute__((aligned(ZF_LINE)));
} probe_lines;

static double inc_not_zero_round(void)
{
	struct zf_stats st = { 0 };
	unsigned long i;
	double t0;

	atomic_store(&probe_lines.count, 1);
	t0 = now_ns();
	for (i = 0; i < PROBE_LOOPS; i++)
		zf_inc_not_zero(&probe_lines.count, &st);
	return (now_ns() - t0) / PROBE_LOOPS;
}

static double pointer_read_round(void)
{
	unsigned long i, sum = 0;
	double t0;

	atomic_store(&probe_lines.pointer, &probe_lines);
	t0 = now_ns();
	for (i = 0; i < PROBE_LOOPS; i++)
		sum += (unsigned long)atomic_load_explicit(&probe_lines.pointer,
							  memory_order_relaxed);
	__asm__ __volatile__("" : : "r"(sum));
	return (now_ns() - t0) / PROBE_LOOPS;
}

static double busy_round(void)
{
	const unsigned long iters = 20000000UL;
	double t0 = now_ns();

	zf_busy(iters);
	return iters / (now_ns() - t0);
}

double zf_busy_calibrate(void)
{
	double v[PROBE_ROUNDS];
	int i;

	zf_busy_setup();
	for (i = 0; i < PROBE_ROUNDS; i++)
		v[i] = busy_round();
	return zf_median(v, PROBE_ROUNDS);
}

/* one call of zf_busy(iters) after another, the time of one */
static double busy_calls_ns(unsigned long iters, unsigned long calls)
{
	double t0 = now_ns();
	unsigned long i;

	for (i = 0; i < calls; i++)
		zf_busy(iters);
	return (now_ns() - t0) / calls;
}

/*
 * A call costs its iterations and a constant (the call, the loop's exit
 * mispredicted), so the long loop's rate is not a short call's: start from
 * it and correct the iterations in proportion, three times. Each round's
 * time is the median of BUSY_ROUNDS batches of about 1 ms, the statistic
 * the run's own figures are: the fastest batch read 2-4% under what a run
 * then delivered (tools/model-domain.sh, five rounds on a quiet host).
 */
#define BUSY_ROUNDS	9

double zf_busy_calibrate_at(double ns, double from_ipn, unsigned long *iters, double *call_ns)
{
	unsigned long k, calls;
	double v[BUSY_ROUNDS], t = 0;
	int pass, i;

	if (from_ipn <= 0)
		from_ipn = zf_busy_calibrate();
	k = (unsigned long)(ns * from_ipn + 0.5);
	calls = (unsigned long)(1e6 / ns) + 1;
	for (pass = 0; pass < 4; pass++) {
		if (k < 1)
			k = 1;
		for (i = 0; i < BUSY_ROUNDS; i++)
			v[i] = busy_calls_ns(k, calls);
		t = zf_median(v, BUSY_ROUNDS);
		if (pass < 3 && t > 0)
			k = (unsigned long)(k * ns / t + 0.5);
	}
	*iters = k;
	*call_ns = t;
	return t > 0 ? k / t : from_ipn;
}

void zf_probe_measure(struct zf_probe *probe, double busy_ns)
{
	double a[PROBE_ROUNDS], b[PROBE_ROUNDS];
	int i;

	for (i = 0; i < PROBE_ROUNDS; i++) {
		a[i] = inc_not_zero_round();
		b[i] = pointer_read_round();
	}
	probe->inc_not_zero_ns = zf_median(a, PROBE_ROUNDS);
	probe->pointer_read_ns = zf_median(b, PROBE_ROUNDS);
	probe->busy_unit = zf_busy_setup();
	probe->busy_ns = busy_ns > 0 ? busy_ns : 0;
	probe->busy_iters = 0;
	probe->busy_call_ns = 0;
	probe->busy_ipn_end = 0;
	if (busy_ns > 0)
		probe->busy_iters_per_ns = zf_busy_calibrate_at(busy_ns, 0, &probe->busy_iters,
								&probe->busy_call_ns);
	else
		probe->busy_iters_per_ns = zf_busy_calibrate();
}

double zf_probe_recheck(struct zf_probe *probe)
{
	unsigned long iters;
	double call_ns;

	if (probe->busy_ns <= 0 || probe->busy_iters_per_ns <= 0)
		return 0;
	probe->busy_ipn_end = zf_busy_calibrate_at(probe->busy_ns, probe->busy_iters_per_ns, &iters,
						   &call_ns);
	return fabs(probe->busy_ipn_end / probe->busy_iters_per_ns - 1);
}
