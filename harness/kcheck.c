// SPDX-License-Identifier: GPL-2.0
/* Kernel-mode verification: see kcheck.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcheck.h"
#include "sysinfo.h"

/* the number after "name" at the start of a line; -ENOENT when no such line */
static int line_value(const char *text, const char *name, const char *sep, uint64_t *value)
{
	size_t len = strlen(name);
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char *end;

		if (strncmp(line, name, len) || !strchr(sep, line[len]))
			continue;
		line += len + 1;
		while (*line == ' ' || *line == '\t')
			line++;
		*value = strtoull(line, &end, 10);
		return end == line ? -EINVAL : 0;
	}
	return -ENOENT;
}

int zf_vmstat_value(const char *text, const char *name, uint64_t *value)
{
	return line_value(text, name, " ", value);
}

int zf_smaps_rollup(const char *text, uint64_t *rss_kb, uint64_t *anon_huge_kb)
{
	int err = line_value(text, "Rss", ":", rss_kb);

	return err ? err : line_value(text, "AnonHugePages", ":", anon_huge_kb);
}

int zf_vmstat_read(struct zf_vmstat *v)
{
	char text[16384];
	int err = zf_read_file("/proc/vmstat", text, sizeof(text));

	if (!err)
		err = zf_vmstat_value(text, "thp_zero_page_alloc", &v->thp_zero_page_alloc);
	if (!err)
		err = zf_vmstat_value(text, "thp_fault_fallback", &v->thp_fault_fallback);
	return err;
}

const char *zf_kernel_verdict(const struct zf_kernel_obs *o, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (o->thp_fault_fallback)
		used += snprintf(buf + used, len - used, "%sfallback", used ? "+" : "");
	if (o->rss_growth_kb >= ZF_RSS_GROWTH_LIMIT_KB || o->anon_huge_kb)
		used += snprintf(buf + used, len - used, "%srss", used ? "+" : "");
	/* every read is one fault; a few more are the task's own (stack, libc) */
	if (o->minflt < o->faults || o->minflt > o->faults + o->faults / 100 + 64)
		used += snprintf(buf + used, len - used, "%sfaults", used ? "+" : "");
	if (!used)
		snprintf(buf, len, "ok");
	return buf;
}
