/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench report DIR`: every chart of plots/ rendered into DIR/plots (PNG,
 * SVG, PDF; a chart without its data says why and is left out), and
 * DIR/report.html: the machine and kernel, a headline computed from
 * summary.csv, the key table, and every chart inline. One folder to copy.
 */
#ifndef HZF_REPORT_H
#define HZF_REPORT_H

#include <stddef.h>

/* the charts, in the order the report shows them */
extern const char *const zf_charts[];

/* where the gnuplot scripts are: $HZF_PLOTS, or beside the binary; 0 or -ENOENT */
int zf_plots_dir(char *out, size_t len);
/* the headline: strategies' throughput over global's at the most tasks run */
void zf_report_headline(const char *summary_csv_text, char *out, size_t len);
/* render and write; 0, or non-zero with the reason on stderr */
int zf_report(const char *dir);

#endif
