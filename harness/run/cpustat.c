// SPDX-License-Identifier: GPL-2.0
/* /proc/stat: see cpustat.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpustat.h"
#include "sysinfo.h"

/* "cpuN user nice system idle iowait irq softirq steal ..." after the name */
static void parse_times(const char *p, struct zf_cpu_times *t)
{
	uint64_t v[8];
	int i, n = 0;

	for (i = 0; i < 8; i++) {
		char *end;

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[i] = strtoull(p, &end, 10);
		p = end;
		n++;
	}
	memset(t, 0, sizeof(*t));
	if (n < 4)	/* user nice system idle: the least any kernel gives */
		return;
	t->present = true;
	t->has_steal = n >= 8;
	for (i = 0; i < n; i++)
		t->total += v[i];
	t->idle = v[3] + (n > 4 ? v[4] : 0);
	t->steal = t->has_steal ? v[7] : 0;
}

int zf_cpustat_parse(const char *text, struct zf_cpustat *st)
{
	const char *line;
	int max = -1;

	memset(st, 0, sizeof(*st));
	/*
	 * first the highest CPU number, to size the array; one past 65535, eight
	 * times the most CPUs a Linux kernel can be built for (NR_CPUS 8192), is
	 * taken for a fabricated file's and left out rather than allocated for
	 */
	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char *end;
		long cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		cpu = strtol(line + 3, &end, 10);
		if (*end == ' ' && cpu >= 0 && cpu < 65536 && cpu > max)
			max = (int)cpu;
	}
	if (max >= 0) {
		st->cpu = calloc(max + 1, sizeof(*st->cpu));
		if (!st->cpu)
			return -ENOMEM;
		st->ncpus = max + 1;
	}
	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char *end;
		long cpu;

		if (strncmp(line, "cpu", 3))
			continue;
		if (line[3] == ' ') {
			parse_times(line + 3, &st->all);
			continue;
		}
		cpu = strtol(line + 3, &end, 10);
		if (end != line + 3 && *end == ' ' && cpu >= 0 && cpu < st->ncpus)
			parse_times(end, &st->cpu[cpu]);
	}
	if (st->all.present)
		return 0;
	zf_cpustat_free(st);	/* not /proc/stat: nothing kept */
	return -EINVAL;
}

int zf_cpustat_read(const char *root, struct zf_cpustat *st)
{
	char path[4096], *text = NULL;
	int err;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	err = zf_read_file_alloc(path, &text, NULL);
	if (err)
		return err;
	err = zf_cpustat_parse(text, st);
	free(text);
	return err;
}

void zf_cpustat_free(struct zf_cpustat *st)
{
	free(st->cpu);
	st->cpu = NULL;
	st->ncpus = 0;
}

static const struct zf_cpu_times *times_of(const struct zf_cpustat *st, int cpu)
{
	if (cpu < 0)
		return &st->all;
	return cpu < st->ncpus && st->cpu[cpu].present ? &st->cpu[cpu] : NULL;
}

int zf_cpustat_share(const struct zf_cpustat *a, const struct zf_cpustat *b, const int *cpus,
		     int ncpus, double *steal_pct, double *idle_pct)
{
	uint64_t total = 0, idle = 0, steal = 0;
	bool has_steal = true;
	int i, n = cpus ? ncpus : 1;

	*steal_pct = *idle_pct = NAN;
	for (i = 0; i < n; i++) {
		const struct zf_cpu_times *x = times_of(a, cpus ? cpus[i] : -1);
		const struct zf_cpu_times *y = times_of(b, cpus ? cpus[i] : -1);

		if (!x || !y || !x->present || !y->present)
			return -ENOENT;
		/* counters only grow; a CPU taken offline and back may restart them */
		if (y->total < x->total || y->idle < x->idle || y->steal < x->steal)
			return -ENODATA;
		total += y->total - x->total;
		idle += y->idle - x->idle;
		steal += y->steal - x->steal;
		has_steal = has_steal && x->has_steal && y->has_steal;
	}
	if (!total)
		return -ENODATA;
	*idle_pct = 100.0 * idle / total;
	if (!has_steal)
		return -ENODATA;
	*steal_pct = 100.0 * steal / total;
	return 0;
}
