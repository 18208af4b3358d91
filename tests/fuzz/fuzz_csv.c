// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the CSV reader compare, report, show, history and model read
 * results folders with (harness/out/csv.c). Whatever it accepts must be a
 * rectangle: every row as many fields as the header.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zf_csv csv;
	size_t line, r, c;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';	/* the reader refuses a NUL inside before parsing */
	if (!zf_csv_parse(text, &csv, &line)) {
		for (c = 0; c < csv.ncols; c++)
			if (!csv.header[c])
				abort();
		for (r = 0; r < csv.nrows; r++)
			for (c = 0; c < csv.ncols; c++)
				if (!csv.rows[r][c])
					abort();	/* a missing field */
		zf_csv_col(&csv, "strategy");
		zf_csv_free(&csv);
	}
	free(text);
	return 0;
}
