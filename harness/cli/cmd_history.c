// SPDX-License-Identifier: GPL-2.0
/* history: a results folder appended to a CI history file. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "history.h"

static const char history_usage[] =
"usage: hzfbench history FILE DIR\n"
"  Append every configuration of the complete results folder DIR (its\n"
"  summary.csv medians, with its end time, git revision, host and kernel) to\n"
"  the CI history FILE, made with a header when new. Appenders take an\n"
"  exclusive lock on FILE, so that runs at once never interleave rows.\n";

static const struct zf_opt history_table[] = {
	ZF_OPT_HELP_ENTRY(1),
};

const struct zf_opt_set zf_history_opts =
	ZF_OPT_SET_WITH_OPERANDS(history_table, "history", history_usage);

int cmd_history(int argc, char **argv)
{
	int err = zf_opt_parse_only(&zf_history_opts, argc, argv, NULL);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (argc - optind != 2) {
		fprintf(stderr, "hzfbench: history: FILE and DIR are needed (hzfbench history --help)\n");
		return 2;
	}
	return zf_history_append(argv[optind], argv[optind + 1]);
}
