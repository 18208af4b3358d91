// SPDX-License-Identifier: GPL-2.0
/* history: a results folder appended to a CI history file. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "history.h"

static const char history_usage[] =
"usage: hzfbench history FILE DIR\n"
"  Append every configuration of the complete results folder DIR (its\n"
"  summary.csv medians, with its end time, git revision, host and kernel) to\n"
"  the CI history FILE, made with a header when new. Appenders take an\n"
"  exclusive lock on FILE, so that runs at once never interleave rows.\n";

int cmd_history(int argc, char **argv)
{
	if (zf_asked_help(argc, argv, history_usage))
		return 0;
	if (argc != 3) {
		fprintf(stderr, "hzfbench: history: FILE and DIR are needed (hzfbench history --help)\n");
		return 2;
	}
	return zf_history_append(argv[1], argv[2]);
}
