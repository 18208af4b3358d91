/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.json, in the manner of LKP's (lkp-tests): one flat object of dotted
 * names to numbers, every number of summary.csv's column table under its
 * configuration's name, so that a harness that knows nothing of CSV can
 * keep, compare and plot a run. A configuration is named
 *
 *	hzfbench.STRATEGY.TASK_KIND.TASKS[.PLACEMENT][.FAULT].COLUMN
 *
 * PLACEMENT and FAULT left out where they are run's defaults (compact,
 * emulated); step and faults_per_pass are one folder's --size and --step,
 * in meta.json. A figure not measured is left out, never 0. Written only
 * once the folder is complete (results.c). Keys: docs/results.md.
 */
#ifndef HZF_STATSJSON_H
#define HZF_STATSJSON_H

#include <jansson.h>

#include "rescols.h"

#define ZF_STATS_PREFIX			"hzfbench"
/* run's and sweep's defaults (runopts.c's table; a unit test holds them equal) */
#define ZF_STATS_DEFAULT_PLACEMENT	"compact"
#define ZF_STATS_DEFAULT_FAULT		"emulated"

/* row's members added to stats, an object; -ENOMEM (stats then incomplete) */
int zf_stats_json_row(json_t *stats, const struct zf_summary_row *row);

#endif
