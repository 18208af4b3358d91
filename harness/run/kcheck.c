// SPDX-License-Identifier: GPL-2.0
/* Kernel-mode verification: see kcheck.h. */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/usemem.h"
#include "kcheck.h"
#include "sysinfo.h"

/* the number after "name" at the start of a line; -ENOENT when no such line */
static int line_value(const char *text, const char *name, const char *sep, uint64_t *value)
{
	size_t len = strlen(name);
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char *end;

		/* strchr() finds the terminator too: a name that ends the text is no match */
		if (strncmp(line, name, len) || !line[len] || !strchr(sep, line[len]))
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

int zf_proc_sched_value(const char *text, const char *name, uint64_t *value)
{
	size_t len = strlen(name);
	const char *line;

	/* "se.nr_migrations      :     3": the name, blanks, a colon, the number */
	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *p = line + len;
		char *end;

		if (strncmp(line, name, len) || (*p != ' ' && *p != ':'))
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p++ != ':')
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		*value = strtoull(p, &end, 10);
		return end == p ? -EINVAL : 0;
	}
	return -ENOENT;
}

int zf_smaps_rollup(const char *text, uint64_t *anon_kb, uint64_t *anon_huge_kb)
{
	int err = line_value(text, "Anonymous", ":", anon_kb);

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

int zf_huge_zero_decide(uint64_t anon_huge_before_kb, uint64_t anon_huge_after_kb,
			const char *cmdline, char *why, size_t len)
{
	const char *word = cmdline;
	size_t used;

	if (anon_huge_after_kb < anon_huge_before_kb + ZF_RSS_GROWTH_LIMIT_KB)
		return 1;
	used = snprintf(why, len, "a huge-page read fault allocated %" PRIu64 " kB of real memory, "
			"not the huge zero folio", anon_huge_after_kb - anon_huge_before_kb);
	/* a boot parameter that turns zero pages off (pvm_no_zero_page=1 seen here) */
	while (word && *word && used < len) {
		size_t n = strcspn(word, " \t\n");

		if (memmem(word, n, "zero_page", 9) && !memmem(word, n, "use_zero_page", 13))
			used += snprintf(why + used, len - used, "; the kernel command line has %.*s",
					 (int)n, word);
		word += n;
		word += strspn(word, " \t\n");
	}
	return 0;
}

int zf_huge_zero_probe(char *why, size_t len)
{
	uint64_t anon_kb, before_kb, after_kb;
	char text[4096], cmdline[4096] = "";
	struct zf_pass p = { 0 };
	int err;

	err = zf_region_map(&p, 2UL << 20);	/* one PMD, 2 MiB-aligned, MADV_HUGEPAGE */
	if (err) {
		snprintf(why, len, "a 2 MiB MADV_HUGEPAGE region: %s", strerror(-err));
		return err;
	}
	err = zf_read_file("/proc/self/smaps_rollup", text, sizeof(text));
	if (!err)
		err = zf_smaps_rollup(text, &anon_kb, &before_kb);
	if (!err) {
		(void)p.region[0];
		err = zf_read_file("/proc/self/smaps_rollup", text, sizeof(text));
	}
	if (!err)
		err = zf_smaps_rollup(text, &anon_kb, &after_kb);
	zf_region_unmap(&p);
	if (err) {
		snprintf(why, len, "/proc/self/smaps_rollup: %s", strerror(-err));
		return err;
	}
	zf_read_file("/proc/cmdline", cmdline, sizeof(cmdline));
	return zf_huge_zero_decide(before_kb, after_kb, cmdline, why, len);
}
