// SPDX-License-Identifier: GPL-2.0
/* What the subcommands' own files share: see cmd.h. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

bool zf_asked_help(int argc, char **argv, const char *usage)
{
	if (argc != 2 || (strcmp(argv[1], "-h") && strcmp(argv[1], "--help")))
		return false;
	printf("%s", usage);
	return true;
}
