// SPDX-License-Identifier: GPL-2.0
/*
 * show's view of profile.csv, where a folder has one (--profile): each
 * configuration's samples as perf report lists them, "80.14%  [k] clear_page_erms".
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cols.h"
#include "csv.h"
#include "show.h"

/* rows a and b are one configuration: every key column alike as written */
static bool same_config(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t a, size_t b)
{
	int i;

	for (i = 0; i < ZF_KEY_NCOLS; i++)
		if (strcmp(zf_key_field(csv, kc, a, i), zf_key_field(csv, kc, b, i)))
			return false;
	return true;
}

void zf_show_profile(const char *dir, FILE *out)
{
	char path[PATH_MAX + 16];
	struct zf_key_cols kc;
	const char *missing;
	struct zf_csv csv;
	int mode, symbol, share;
	size_t i, line;

	snprintf(path, sizeof(path), "%s/profile.csv", dir);
	if (zf_csv_read(path, &csv, &line))
		return;	/* not profiled */
	mode = zf_csv_col(&csv, "mode");
	symbol = zf_csv_col(&csv, "symbol");
	share = zf_csv_col(&csv, "share");
	if (mode < 0 || symbol < 0 || share < 0 || zf_key_cols_find(&csv, &kc, &missing))
		goto out;
	if (csv.nrows)
		fprintf(out, "\nprofile.csv (cpu-clock samples over fault and teardown, as perf report; "
			"[.] the strategy's get and put, [k] the kernel's symbols):\n");
	for (i = 0; i < csv.nrows; i++) {
		char **row = csv.rows[i];

		if (!i || !same_config(&csv, &kc, i - 1, i))
			fprintf(out, "  %s %s %s x%s %s:\n", zf_key_field(&csv, &kc, i, 0),
				zf_key_field(&csv, &kc, i, 1), zf_key_field(&csv, &kc, i, 2),
				zf_key_field(&csv, &kc, i, 3), zf_key_field(&csv, &kc, i, 4));
		fprintf(out, "    %6.2f%%  %s %s\n", 100 * atof(row[share]), row[mode], row[symbol]);
	}
out:
	zf_csv_free(&csv);
}
