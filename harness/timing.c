// SPDX-License-Identifier: GPL-2.0
/* timing.csv, and --plan's arithmetic: see timing.h. */
#include "timing.h"

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static uint64_t run_wall_ns(const struct zf_run_timing *t)
{
	return t->start_ns + t->calibrate_ns + t->warmup_ns + t->measure_ns + t->stop_ns;
}

void zf_timing_json(const struct zf_results *r, struct zf_buf *b)
{
	uint64_t runs = 0;
	size_t i;

	for (i = 0; i < r->nruns; i++)
		runs += run_wall_ns(&r->runs[i].timing);
	zf_buf_printf(b, "  \"timing\": {\"runs\": %zu, \"runs_s\": %.3f, \"setup_s\": %.3f, "
		      "\"write_s\": %.3f},\n", r->nruns, runs / 1e9, r->setup_ns / 1e9,
		      r->write_ns / 1e9);
}

void zf_timing_csv(const struct zf_results *r, struct zf_buf *b)
{
	size_t i;

	zf_buf_printf(b, ZF_KEY_COLUMNS "," ZF_TIMING_COLUMNS "\n");
	for (i = 0; i < r->nruns; i++) {
		const struct zf_run_record *run = &r->runs[i];
		const struct zf_run_timing *t = &run->timing;
		uint64_t wall = run_wall_ns(t);

		zf_results_key_fields(b, &r->configs[run->config].cfg);
		zf_buf_printf(b, "%u,%lu,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", run->round,
			      run->passes, t->calibrate_reps, ms(t->start_ns), ms(t->calibrate_ns),
			      ms(t->warmup_ns), ms(t->measure_ns), ms(t->stop_ns), ms(wall));
	}
}
