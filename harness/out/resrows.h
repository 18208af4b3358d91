/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rows of a results folder's CSV files, written through the files'
 * column tables (rescols.h): each run's rows of samples.csv, tasks.csv
 * and perf.csv streamed as it is added (resrun.c), and each
 * configuration's rows of summary.csv, counters.csv and profile.csv, and
 * summary.csv's figures as stats.json's members (statsjson.h), made anew
 * from what it kept at every write.
 */
#ifndef HZF_RESROWS_H
#define HZF_RESROWS_H

#include <jansson.h>

#include "buf.h"
#include "results.h"

struct zf_results_csv {
	struct zf_buf summary, counters;
	struct zf_buf profile;	/* --profile's: written only then */
	json_t *stats;		/* stats.json's object; NULL: out of memory */
};

/* every file's header line */
void zf_results_csv_begin(struct zf_results_csv *f);
/* configuration c's rows, added to every file; out of memory: f->summary.oom or !f->stats */
void zf_results_csv_config(struct zf_results_csv *f, const struct zf_results *r,
			   const struct zf_config_result *c);
/* profile.csv's rows of c (resprof.c): none where c was not profiled */
void zf_results_profile_rows(struct zf_buf *b, const struct zf_results *r,
			     const struct zf_config_result *c);
/* a run's --profile samples pooled into c's, as profile.csv counts them; -ENOMEM */
int zf_results_profile_pool(const struct zf_results *r, struct zf_config_result *c,
			    const struct zf_run_result *res);
void zf_results_csv_free(struct zf_results_csv *f);

/* the streamed files made, each with its header; 0, or -errno and why names the file */
int zf_results_streams_begin(struct zf_results *r, char *why, size_t len);
/* the streamed files fsync()ed; 0, or -errno and why names the file */
int zf_results_streams_sync(struct zf_results *r, char *why, size_t len);

#endif
