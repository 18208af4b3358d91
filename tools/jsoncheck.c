// SPDX-License-Identifier: GPL-2.0
/*
 * jsoncheck FILE [PATH]: exit 0 when FILE is one well-formed JSON value (and,
 * with PATH, print the value at that dotted path of keys), 1 otherwise, with
 * why on stderr. hzfbench's own reader, for the tests of what it writes
 * (`hzfbench doctor --json`, meta.json) on machines without python or jq.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo.h"
#include "json.h"

int main(int argc, char **argv)
{
	char *text, value[4096];
	int err;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: jsoncheck FILE [PATH]\n");
		return 2;
	}
	err = zf_read_file_alloc(argv[1], &text, NULL);
	if (err) {
		fprintf(stderr, "jsoncheck: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	err = zf_json_validate(text);
	if (err) {
		fprintf(stderr, "jsoncheck: %s: not well-formed JSON\n", argv[1]);
	} else if (argc == 3) {
		err = zf_json_get(text, argv[2], value, sizeof(value));
		if (err)
			fprintf(stderr, "jsoncheck: %s: %s: %s\n", argv[1], argv[2], strerror(-err));
		else
			printf("%s\n", value);
	}
	free(text);
	return err ? 1 : 0;
}
