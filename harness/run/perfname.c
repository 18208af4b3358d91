// SPDX-License-Identifier: GPL-2.0
/*
 * --events' names into events (perfctr.h): perf's generic ones, raw codes,
 * and the PMU's own through libpfm4 (pmu.h) where the build has it.
 */
#define _GNU_SOURCE	/* strcasestr */
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "perfctr.h"
#include "pmu.h"

const char zf_perf_default_events[] =
	"cycles,instructions,cache-references,cache-misses,L1-dcache-load-misses,"
	"LLC-load-misses,branch-misses,task-clock,page-faults,context-switches,cpu-migrations";

#define CACHE(id, op, result) \
	(PERF_COUNT_HW_CACHE_##id | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/* perf's generic names (perf list), the ones a scalability study asks for */
static const struct generic {
	const char *name;
	uint32_t type;
	uint64_t config;
} known[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "L1-dcache-loads", PERF_TYPE_HW_CACHE, CACHE(L1D, READ, ACCESS) },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, CACHE(L1D, READ, MISS) },
	{ "L1-dcache-stores", PERF_TYPE_HW_CACHE, CACHE(L1D, WRITE, ACCESS) },
	{ "LLC-loads", PERF_TYPE_HW_CACHE, CACHE(LL, READ, ACCESS) },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE, CACHE(LL, READ, MISS) },
	{ "LLC-stores", PERF_TYPE_HW_CACHE, CACHE(LL, WRITE, ACCESS) },
	{ "LLC-store-misses", PERF_TYPE_HW_CACHE, CACHE(LL, WRITE, MISS) },
	{ "dTLB-loads", PERF_TYPE_HW_CACHE, CACHE(DTLB, READ, ACCESS) },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE, CACHE(DTLB, READ, MISS) },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

#define RAW_SYNTAX	"rNNNN[:config1=HEX][:config2=HEX]"

/* len hex digits at p, 16 at most; with_0x: "0x" may come first */
static bool parse_hex(const char *p, size_t len, bool with_0x, uint64_t *v)
{
	if (with_0x && len > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		len -= 2;
	}
	if (!len || len > 16)
		return false;
	for (*v = 0; len--; p++) {
		if (!isxdigit((unsigned char)*p))
			return false;
		*v = *v << 4 | (isdigit((unsigned char)*p) ? *p - '0' : tolower(*p) - 'a' + 10);
	}
	return true;
}

/*
 * rNNNN: a raw PMU code in hex, as perf takes it, and what some events need
 * beside it in config1 or config2 (Intel's offcore response: which requests
 * and which responses), as rNNNN:config1=HEX. 0; 1 when w is no raw code;
 * -EINVAL, with *why, when it begins as one and goes wrong.
 */
static int parse_raw(const char *w, struct zf_perf_event *e, const char **why)
{
	size_t len = strcspn(w + 1, ":");
	const char *p = w + 1 + len;
	unsigned int seen = 0;

	if (w[0] != 'r' || !parse_hex(w + 1, len, false, &e->config))
		return 1;
	for (; *p; p += len) {
		unsigned int n = !strncmp(p, ":config1=", 9) ? 1 : !strncmp(p, ":config2=", 9) ? 2 : 0;

		len = 1 + strcspn(p + 1, ":");
		if (!n || seen & n || !parse_hex(p + 9, len - 9, true, n == 1 ? &e->config1 :
						  &e->config2)) {
			*why = "not a raw event: " RAW_SYNTAX ", each once, in hex";
			return -EINVAL;
		}
		seen |= n;
	}
	e->type = PERF_TYPE_RAW;
	return 0;
}

static bool same_event(const struct zf_perf_event *a, const struct zf_perf_event *b)
{
	return a->type == b->type && a->config == b->config && a->config1 == b->config1 &&
	       a->config2 == b->config2 && a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel;
}

int zf_perf_find(const struct zf_perf_list *list, const char *name)
{
	struct zf_perf_event want;
	size_t i;

	for (i = 0; i < list->n; i++)
		if (!strcmp(list->ev[i].name, name))
			return i;
	if (zf_perf_lookup(name, &want, NULL))
		return -1;
	for (i = 0; i < list->n; i++)	/* the same event under another name: cpu-cycles */
		if (same_event(&list->ev[i], &want))
			return i;
	return -1;
}

int zf_perf_lookup(const char *name, struct zf_perf_event *out, const char **why)
{
	const char *unsaid;
	size_t i;
	int err;

	if (!why)
		why = &unsaid;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", name);
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name)) {
			out->type = known[i].type;
			out->config = known[i].config;
			return 0;
		}
	err = parse_raw(name, out, why);
	if (err <= 0)
		return err;
	err = zf_pmu_encode(name, out, why);	/* set-up only: never in the measured loop */
	return err == -ENOTSUP ? -ENOENT : err;
}

int zf_perf_parse(const char *s, struct zf_perf_list *list, char *bad, size_t badlen,
		  const char **why)
{
	const char *w = s;

	list->n = 0;
	if (!strcmp(s, "none"))
		return 0;
	for (;;) {
		size_t len = strcspn(w, ",");
		struct zf_perf_event e;
		char name[sizeof(e.name)];

		snprintf(bad, badlen, "%.*s", (int)len, w);
		if (!len || len >= sizeof(name)) {
			*why = len ? "not an event: longer than any event's name" : "empty item in list";
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, w);
		if (zf_perf_lookup(name, &e, why))
			return -EINVAL;
		if (zf_perf_find(list, e.name) >= 0) {
			*why = "given twice";
			return -EINVAL;
		}
		if (list->n == ZF_PERF_MAX_EVENTS) {
			*why = "too many events (16 at most)";
			return -EINVAL;
		}
		list->ev[list->n++] = e;
		if (!w[len])
			return 0;
		w += len + 1;
	}
}

void zf_perf_print_list(FILE *out, const char *pattern)
{
	bool refused = false;
	char hint[256];
	size_t i;

	fprintf(out, "perf's generic names, each opened here on this task (--events NAME,...):\n");
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		struct zf_perf_list one = { .n = 1 };
		struct zf_perf_task t;
		const char *h;

		if (pattern && !strcasestr(known[i].name, pattern))
			continue;
		zf_perf_lookup(known[i].name, &one.ev[0], NULL);
		zf_perf_open(&t, &one);
		h = zf_perf_hint(t.err[0], hint, sizeof(hint));
		fprintf(out, "  %-24s %-9s %s%s%s\n", known[i].name,
			known[i].type == PERF_TYPE_SOFTWARE ? "software" : "hardware",
			!t.err[0] ? "counts" : h ? "refused: " : "unsupported: ",
			t.err[0] ? strerror(t.err[0]) : "", h ? " (perf_event_paranoid)" : "");
		refused |= h != NULL;
		zf_perf_close(&t);
	}
	if (refused)
		fprintf(out, "%s\n", hint);
	fprintf(out, "raw codes: " RAW_SYNTAX " (the PMU manual's codes, in hex: r01b7:config1="
		"0x10003c0001)\n");
	zf_pmu_print(out, pattern);
}
