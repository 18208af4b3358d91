// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench show DIR`: summary.csv as a table, then for every task kind and
 * placement how each strategy's ns per fault grows from 1 task to the most
 * tasks run, and what `global` costs above `persistent` at 1 task next to a
 * bare inc_not_zero loop measured in the same session (meta.json probes).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json.h"
#include "results.h"
#include "show.h"
#include "sysinfo.h"

static const char *const shown[] = {
	"strategy", "task_kind", "tasks", "placement", "ns_per_fault_median",
	"ns_per_fault_min", "ns_per_fault_max", "ns_per_fault_stddev",
	"faults_per_sec_median", "teardown_ns_per_fault_median", "fairness_min_max",
};
static const char *const titles[] = {
	"strategy", "kind", "tasks", "placement", "ns/fault", "min", "max", "stddev",
	"faults/s", "teardown ns", "fairness",
};
#define NSHOWN (sizeof(shown) / sizeof(shown[0]))

/* the row of (strategy, kind, placement) with the given task count; NULL if none */
static char **find_row(const struct zf_csv *csv, const char *strategy, const char *kind,
		       const char *placement, long tasks)
{
	int cs = zf_csv_col(csv, "strategy"), ck = zf_csv_col(csv, "task_kind");
	int cp = zf_csv_col(csv, "placement"), ct = zf_csv_col(csv, "tasks");
	size_t i;

	for (i = 0; i < csv->nrows; i++) {
		char **row = csv->rows[i];

		if (!strcmp(row[cs], strategy) && !strcmp(row[ck], kind) &&
		    !strcmp(row[cp], placement) && atol(row[ct]) == tasks)
			return row;
	}
	return NULL;
}

static void headline(const struct zf_csv *csv, const char *dir, FILE *out)
{
	int cs = zf_csv_col(csv, "strategy"), ck = zf_csv_col(csv, "task_kind");
	int cp = zf_csv_col(csv, "placement"), ct = zf_csv_col(csv, "tasks");
	int cn = zf_csv_col(csv, "ns_per_fault_median");
	char path[PATH_MAX + 16], text[65536], probe[64];
	size_t i;

	fprintf(out, "\nns per fault, most tasks over 1 task (1.0 = no contention):\n");
	for (i = 0; i < csv->nrows; i++) {
		char **row = csv->rows[i], **one, **most = row;
		size_t j;

		if (atol(row[ct]) != 1)
			continue;
		for (j = 0; j < csv->nrows; j++) {
			char **o = csv->rows[j];

			if (!strcmp(o[cs], row[cs]) && !strcmp(o[ck], row[ck]) &&
			    !strcmp(o[cp], row[cp]) && atol(o[ct]) > atol(most[ct]))
				most = o;
		}
		one = row;
		if (most == one)
			continue;
		fprintf(out, "  %-11s %-8s %-10s %3s tasks: %7.2fx  (%.2f -> %.2f ns)\n",
			one[cs], one[ck], one[cp], most[ct], atof(most[cn]) / atof(one[cn]),
			atof(one[cn]), atof(most[cn]));
	}
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	if (zf_read_file(path, text, sizeof(text)) ||
	    zf_json_get(text, "probes.inc_not_zero_ns", probe, sizeof(probe)))
		return;
	for (i = 0; i < csv->nrows; i++) {
		char **g = csv->rows[i], **p;

		if (strcmp(g[cs], "global") || atol(g[ct]) != 1)
			continue;
		p = find_row(csv, "persistent", g[ck], g[cp], 1);
		if (!p)
			continue;
		fprintf(out, "global - persistent at 1 task (%s, %s): %.2f ns; "
			"bare inc_not_zero loop: %.2f ns (%.2fx)\n", g[ck], g[cp],
			atof(g[cn]) - atof(p[cn]), atof(probe),
			(atof(g[cn]) - atof(p[cn])) / atof(probe));
	}
}

int zf_show(const char *dir, FILE *out)
{
	char path[PATH_MAX + 16];
	int col[NSHOWN], width[NSHOWN];
	struct zf_csv csv;
	size_t i, j, line;
	int err;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	err = zf_csv_read(path, &csv, &line);
	if (err) {
		fprintf(stderr, "hzfbench: %s: %s%s\n", path, strerror(-err),
			err == -EINVAL ? " (not a summary.csv)" : "");
		return err;
	}
	for (j = 0; j < NSHOWN; j++) {
		col[j] = zf_csv_col(&csv, shown[j]);
		if (col[j] < 0) {
			fprintf(stderr, "hzfbench: %s: no column %s\n", path, shown[j]);
			zf_csv_free(&csv);
			return -EINVAL;
		}
		width[j] = strlen(titles[j]);
		for (i = 0; i < csv.nrows; i++)
			if ((int)strlen(csv.rows[i][col[j]]) > width[j])
				width[j] = strlen(csv.rows[i][col[j]]);
	}
	for (j = 0; j < NSHOWN; j++)
		fprintf(out, j < 4 ? "%-*s%s" : "%*s%s", width[j], titles[j],
			j + 1 < NSHOWN ? "  " : "\n");
	for (i = 0; i < csv.nrows; i++)
		for (j = 0; j < NSHOWN; j++)
			fprintf(out, j < 4 ? "%-*s%s" : "%*s%s", width[j], csv.rows[i][col[j]],
				j + 1 < NSHOWN ? "  " : "\n");
	headline(&csv, dir, out);
	zf_csv_free(&csv);
	return 0;
}
