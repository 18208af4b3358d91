// SPDX-License-Identifier: GPL-2.0
/* usemem's units for a results folder: see compat.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "csv.h"

unsigned long long zf_usemem_bytes(unsigned long long size, unsigned long long step)
{
	/* usemem: size / 8 when the unit is allocated, sizeof(long) per access */
	return size / 8 + 8 * ((size + step - 1) / step);
}

unsigned long long zf_usemem_kbps(unsigned long long bytes, unsigned long long usecs)
{
	return usecs ? ((bytes * 1000000ULL) >> 10) / usecs : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int open_csv(const char *dir, const char *name, struct zf_csv *csv, FILE *err)
{
	char path[PATH_MAX + 32];
	size_t line;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = zf_csv_read(path, csv, &line);
	if (ret)
		fprintf(err, "hzfbench: %s: %s\n", path, strerror(-ret));
	return ret;
}

int zf_usemem_report(const char *dir, unsigned long long size, unsigned long long step,
		     FILE *out)
{
	struct zf_csv samples, tasks;
	double *ns = NULL, median;
	unsigned long long bytes = zf_usemem_bytes(size, step), sum = 0;
	long rep = -1, passes = 0;
	size_t i;
	int err;

	err = open_csv(dir, "samples.csv", &samples, stderr);
	if (err)
		return err;
	err = open_csv(dir, "tasks.csv", &tasks, stderr);
	if (err) {
		zf_csv_free(&samples);
		return err;
	}
	ns = calloc(samples.nrows ? samples.nrows : 1, sizeof(*ns));
	if (!ns || !samples.nrows) {
		err = ns ? -ENODATA : -ENOMEM;
		goto out;
	}
	for (i = 0; i < samples.nrows; i++)
		ns[i] = atof(samples.rows[i][zf_csv_col(&samples, "ns_per_fault")]);
	qsort(ns, samples.nrows, sizeof(*ns), cmp_double);
	median = ns[(samples.nrows - 1) / 2];	/* a repetition that happened, not a mean */
	for (i = 0; i < samples.nrows && rep < 0; i++) {
		char **row = samples.rows[i];

		if (atof(row[zf_csv_col(&samples, "ns_per_fault")]) == median) {
			rep = atol(row[zf_csv_col(&samples, "rep")]);
			passes = atol(row[zf_csv_col(&samples, "passes")]);
		}
	}
	fprintf(out, "\nusemem's units (repetition %ld, the median of %zu; one usemem lifetime is one pass,"
		" %ld passes each):\n", rep, samples.nrows, passes);
	for (i = 0; i < tasks.nrows; i++) {
		char **row = tasks.rows[i];
		unsigned long long usecs, kbps;

		if (atol(row[zf_csv_col(&tasks, "rep")]) != rep || passes < 1)
			continue;
		usecs = strtoull(row[zf_csv_col(&tasks, "fault_ns")], NULL, 10) / passes / 1000;
		kbps = zf_usemem_kbps(bytes, usecs);
		sum += kbps;
		if (usecs)
			fprintf(out, "%llu bytes / %llu usecs = %llu KB/s\n", bytes, usecs, kbps);
		else
			fprintf(out, "%llu bytes / under 1 usecs: no KB/s\n", bytes);
	}
	for (i = 0; i < tasks.nrows; i++) {
		char **row = tasks.rows[i];

		if (atol(row[zf_csv_col(&tasks, "rep")]) == rep && passes > 0)
			fprintf(out, "%llu usecs to free memory\n",
				strtoull(row[zf_csv_col(&tasks, "teardown_ns")], NULL, 10) / passes / 1000);
	}
	fprintf(out, "sum of the tasks' KB/s: %llu\n"
		"usemem's clock starts when usemem starts (fork and start-up included), ours when the\n"
		"tasks leave the barrier: these usecs are the reads alone, so for the same faults usemem\n"
		"prints fewer KB/s. usemem's bytes are SIZE/8 plus 8 a read: its KB/s scale with SIZE,\n"
		"not with the faults; ns per fault (above) is the figure to compare across sizes.\n", sum);
out:
	free(ns);
	zf_csv_free(&samples);
	zf_csv_free(&tasks);
	return err;
}
