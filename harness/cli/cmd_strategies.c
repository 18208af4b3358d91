// SPDX-License-Identifier: GPL-2.0
/* strategies: the strategies and what each models. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/strategy.h"
#include "cmd.h"
#include "opt.h"

static const char strategies_usage[] =
"usage: hzfbench strategies\n"
"  The strategies this hzfbench knows, one a line: its name and what it\n"
"  models.\n";

static const struct zf_opt strategies_table[] = {
	ZF_OPT_HELP_ENTRY(1),
};

const struct zf_opt_set zf_strategies_opts =
	ZF_OPT_SET_OF(strategies_table, "strategies", strategies_usage);

int cmd_strategies(int argc, char **argv)
{
	const struct zf_strategy *const *s;
	int err = zf_opt_parse_only(&zf_strategies_opts, argc, argv, NULL);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	for (s = zf_strategies; *s; s++)
		printf("%-11s %s\n", (*s)->name, (*s)->summary);
	return 0;
}
