/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a sweep's wall time goes, run by run (timing.csv), and --plan's
 * estimate of it made before anything runs, with the same arithmetic.
 */
#ifndef HZF_TIMING_H
#define HZF_TIMING_H

#include "buf.h"
#include "results.h"

#define ZF_TIMING_COLUMNS "round,passes,calibrate_reps,start_ms,calibrate_ms,warmup_ms," \
	"measure_ms,stop_ms,wall_ms"

/* timing.csv: one row per run of r->runs, in the order they ran */
void zf_timing_csv(const struct zf_results *r, struct zf_buf *b);

/* meta.json's "timing" line: the runs, the set-up and the writing, in seconds */
void zf_timing_json(const struct zf_results *r, struct zf_buf *b);

#endif
