// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a results folder back (results.h): what every subcommand that
 * reads one (show, report, compare, history, model --from) asks first, so
 * that a folder cut short, torn or not hzfbench's is refused in one line
 * naming the file, and never read as a result.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csv.h"
#include "json.h"
#include "rescols.h"
#include "results.h"

/* what zf_read_file_alloc()'s -EINVAL says: a FIFO or a socket, never read */
#define NOT_FILE	"not a regular file (a FIFO or a socket)"

char *zf_results_meta(const char *dir)
{
	char path[PATH_MAX + 16], *meta;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	return zf_read_file_alloc(path, &meta, NULL) ? NULL : meta;
}

/* dir/meta.json is JSON and says "complete": true; its table's name into table */
static int meta_complete(const char *dir, const char **table, char *why, size_t len)
{
	char path[PATH_MAX + 16], complete[16] = "", workload[32] = "", *meta;
	int err;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	err = zf_read_file_alloc(path, &meta, NULL);
	if (err) {
		snprintf(why, len, "%s: %s", path, err == -EINVAL ? NOT_FILE : strerror(-err));
		if (err == -ENOENT)
			snprintf(why + strlen(why), len - strlen(why), ": not a results folder");
		return -1;
	}
	err = -1;
	if (zf_json_validate(meta))
		snprintf(why, len, "%s: not JSON (cut off, or not hzfbench's)", path);
	else if (zf_json_get(meta, "complete", complete, sizeof(complete)))
		snprintf(why, len, "%s: no \"complete\" (not a results folder of hzfbench's)", path);
	else if (strcmp(complete, "true"))
		snprintf(why, len, "%s: \"complete\": %s: its run was stopped or failed", path,
			 complete);
	else
		err = 0;
	zf_json_get(meta, "workload", workload, sizeof(workload));
	*table = !strcmp(workload, "zeroout") ? "zeroout.csv" : "summary.csv";
	free(meta);
	return err;
}

/* a column of words in any of the folder's files (a --tag may be "nan"): no figure */
static bool words_column(const char *name)
{
	static const struct zf_col_table *const tables[] = {
		&zf_summary_table, &zf_samples_table, &zf_counters_table, &zf_tasks_table,
		&zf_perf_table, &zf_profile_table,
	};
	size_t t;

	for (t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		if (zf_cols_text(tables[t], name))
			return true;
	return false;
}

int zf_results_finite(const char *path, const struct zf_csv *csv, char *why, size_t len)
{
	size_t r, c;

	for (r = 0; r < csv->nrows; r++)
		for (c = 0; c < csv->ncols; c++) {
			const char *field = csv->rows[r][c];
			char *end;
			double v;

			if (!*field)
				continue;	/* not measured */
			v = strtod(field, &end);
			if (*end || isfinite(v) || words_column(csv->header[c]))
				continue;	/* a word, or a figure */
			snprintf(why, len, "%s: line %zu, column %s: %s: not a finite number", path,
				 r + 2, csv->header[c], field);
			return -1;
		}
	return 0;
}

/* dir/table: CSV, whole (a newline at its end), a row at least; parsed into csv */
static int table_readable(const char *dir, const char *table, struct zf_csv *csv, char *why,
			  size_t len)
{
	char path[PATH_MAX + 16], *text;
	size_t n, line;
	int err;

	memset(csv, 0, sizeof(*csv));
	snprintf(path, sizeof(path), "%s/%s", dir, table);
	err = zf_read_file_alloc(path, &text, &n);
	if (err) {
		snprintf(why, len, "%s: %s", path, err == -EINVAL ? NOT_FILE : strerror(-err));
		return -1;
	}
	err = -1;
	if (strlen(text) != n)
		snprintf(why, len, "%s: not text (a NUL byte)", path);
	else if (n && text[n - 1] != '\n')
		snprintf(why, len, "%s: cut off (no newline at its end)", path);
	else if (zf_csv_parse(text, csv, &line))
		snprintf(why, len, "%s: line %zu is not CSV (torn, or not a %s)", path, line,
			 table);
	else if (!csv->nrows)
		snprintf(why, len, "%s: no rows (empty, or torn after its header)", path);
	else
		err = zf_results_finite(path, csv, why, len);
	if (err)
		zf_csv_free(csv);
	free(text);
	return err;
}

int zf_results_open(const char *dir, struct zf_csv *csv, char *why, size_t len)
{
	struct zf_csv mine;
	const char *table;
	struct stat st;

	if (stat(dir, &st)) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s: not a folder (a results folder is)", dir);
		return -1;
	}
	if (meta_complete(dir, &table, why, len) ||
	    table_readable(dir, table, csv ? csv : &mine, why, len))
		return -1;
	if (!csv)
		zf_csv_free(&mine);
	return 0;
}

int zf_results_complete(const char *dir, char *why, size_t len)
{
	return zf_results_open(dir, NULL, why, len);
}

void zf_results_virtualized(const char *dir, char *accel, size_t len)
{
	char *meta = zf_results_meta(dir);

	if (!meta || zf_json_get(meta, "virtualized", accel, len) || !strcmp(accel, "null"))
		accel[0] = '\0';
	free(meta);
}
