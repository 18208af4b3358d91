// SPDX-License-Identifier: GPL-2.0
/* show: a results folder's summary as a table. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "show.h"

int cmd_show(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: hzfbench show DIR\n"
		       "  Print DIR/summary.csv as a table, with the contention ratios.\n");
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "hzfbench: show: needs one results folder\n");
		return 2;
	}
	return zf_show(argv[1], stdout) ? 1 : 0;
}
