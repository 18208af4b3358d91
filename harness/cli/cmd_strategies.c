// SPDX-License-Identifier: GPL-2.0
/* strategies: the strategies and what each models. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/strategy.h"
#include "cmd.h"

int cmd_strategies(int argc, char **argv)
{
	const struct zf_strategy *const *s;

	if (argc > 1 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h")) {
		fprintf(stderr, "hzfbench: strategies: %s: unexpected argument\n", argv[1]);
		return 2;
	}
	for (s = zf_strategies; *s; s++)
		printf("%-11s %s\n", (*s)->name, (*s)->summary);
	return 0;
}
