/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rows of a results folder's CSV files, each configuration's made from
 * what was kept of its runs and written through the files' column tables
 * (rescols.h): samples.csv, tasks.csv, perf.csv, summary.csv, counters.csv,
 * and summary.csv's figures as stats.json's members (statsjson.h).
 */
#ifndef HZF_RESROWS_H
#define HZF_RESROWS_H

#include <jansson.h>

#include "buf.h"
#include "results.h"

struct zf_results_csv {
	struct zf_buf samples, tasks, summary, counters, perf;
	struct zf_buf profile;	/* --profile's: written only then */
	json_t *stats;		/* stats.json's object; NULL: out of memory */
};

/* every file's header line */
void zf_results_csv_begin(struct zf_results_csv *f);
/* configuration c's rows, added to every file; out of memory: f->samples.oom or !f->stats */
void zf_results_csv_config(struct zf_results_csv *f, const struct zf_results *r,
			   const struct zf_config_result *c);
/* profile.csv's rows of c (resprof.c): none where c was not profiled */
void zf_results_profile_rows(struct zf_buf *b, const struct zf_results *r,
			     const struct zf_config_result *c);
void zf_results_csv_free(struct zf_results_csv *f);

#endif
