// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the meta.json reader (harness/out/json.c, over libjansson) that history, report
 * and compare use: validation, and the lookup of a dotted path. The first
 * line of the input is the path, the rest the document.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *doc, out[64];
	int valid, got;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	doc = strchr(text, '\n');
	if (doc) {
		*doc++ = '\0';
		valid = !zf_json_validate(doc);
		got = zf_json_get(doc, text, out, sizeof(out));
		if (!got && strnlen(out, sizeof(out)) == sizeof(out))
			abort();	/* a value found but not terminated */
		(void)valid;
	}
	free(text);
	return 0;
}
