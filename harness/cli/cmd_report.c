// SPDX-License-Identifier: GPL-2.0
/* report: a results folder's charts and report.html. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"

static const char report_usage[] =
"usage: hzfbench report DIR\n"
"  Render every chart of plots/ into DIR/plots (PNG, SVG, PDF; a chart whose\n"
"  data the folder lacks says why and is left out) and write DIR/report.html:\n"
"  machine and kernel, a headline, summary.csv's key table, every chart inline.\n"
"  The charts need gnuplot (Debian: gnuplot-nox); without it, one line says they\n"
"  are skipped and report.html holds the tables. HZF_PLOTS names the scripts' folder.\n";

int cmd_report(int argc, char **argv)
{
	if (zf_asked_help(argc, argv, report_usage))
		return 0;
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "hzfbench: report: %s\n", argc < 2 ? "DIR missing (hzfbench report --help)" :
			argc > 2 ? "one results folder at a time" : "not a folder name (hzfbench report --help)");
		return 2;
	}
	return zf_report(argv[1]);
}
