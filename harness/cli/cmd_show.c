// SPDX-License-Identifier: GPL-2.0
/* show: a results folder's summary as a table. */
#include <getopt.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "show.h"

static const char show_usage[] =
"usage: hzfbench show DIR [--format F]\n"
"  Print DIR/summary.csv as a table, with the contention ratios (text), or the\n"
"  table alone as CSV, JSON (one array of objects), markdown or HTML.\n";

struct show_opts {
	const char *format;
};

static const struct zf_opt show_table[] = {
	{ .name = "format", .kind = ZF_OPT_WORD, .words = zf_format_names, .cmds = 1,
	  .off = offsetof(struct show_opts, format), .arg = "F", .def = "text",
	  .help = "text (the table and the ratios), csv, json, markdown or html (the table)" },
	ZF_OPT_HELP_ENTRY(1),
};

const struct zf_opt_set zf_show_opts =
	ZF_OPT_SET_WITH_OPERANDS(show_table, "show", show_usage);

int cmd_show(int argc, char **argv)
{
	struct show_opts o = { 0 };
	int err = zf_opt_parse_only(&zf_show_opts, argc, argv, &o);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (argc - optind != 1) {
		fprintf(stderr, "hzfbench: show: needs one results folder\n");
		return 2;
	}
	return zf_show_as(argv[optind], zf_format_of(o.format), stdout) ? 2 : 0;	/* a folder it cannot read */
}
