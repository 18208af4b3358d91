// SPDX-License-Identifier: GPL-2.0
/* report: a results folder's charts and report.html. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "report.h"

static const char report_usage[] =
"usage: hzfbench report DIR\n"
"  Render every chart of plots/ into DIR/plots (PNG, SVG, PDF; a chart whose\n"
"  data the folder lacks says why and is left out) and write DIR/report.html:\n"
"  machine and kernel, a headline, summary.csv's key table, every chart inline.\n"
"  The charts need gnuplot (Debian: gnuplot-nox); without it, one line says they\n"
"  are skipped and report.html holds the tables. HZF_PLOTS names the scripts' folder.\n";

static const struct zf_opt report_table[] = {
	ZF_OPT_HELP_ENTRY(1),
};

const struct zf_opt_set zf_report_opts =
	ZF_OPT_SET_WITH_OPERANDS(report_table, "report", report_usage);

int cmd_report(int argc, char **argv)
{
	int err = zf_opt_parse_only(&zf_report_opts, argc, argv, NULL);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (argc - optind != 1) {
		fprintf(stderr, "hzfbench: report: %s\n", argc == optind ?
			"DIR missing (hzfbench report --help)" : "one results folder at a time");
		return 2;
	}
	return zf_report(argv[optind]);
}
