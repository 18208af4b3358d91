// SPDX-License-Identifier: GPL-2.0
/* --events' names: perf's generic ones and raw codes, into events (perfctr.h). */
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "perfctr.h"

const char zf_perf_default_events[] =
	"cycles,instructions,cache-references,cache-misses,L1-dcache-load-misses,"
	"LLC-load-misses,branch-misses,task-clock,page-faults,context-switches,cpu-migrations";

#define CACHE(id, op, result) \
	(PERF_COUNT_HW_CACHE_##id | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/* perf's generic names (perf list), the ones a scalability study asks for */
static const struct zf_perf_event known[] = {
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
};

/* rNNNN: a raw PMU code in hex, as perf takes it */
static bool parse_raw(const char *w, uint64_t *config)
{
	const char *p = w + 1;
	uint64_t v = 0;

	if (w[0] != 'r' || !*p || strlen(p) > 16)
		return false;
	for (; *p; p++) {
		if (!isxdigit((unsigned char)*p))
			return false;
		v = v << 4 | (isdigit((unsigned char)*p) ? *p - '0' : tolower(*p) - 'a' + 10);
	}
	*config = v;
	return true;
}

int zf_perf_find(const struct zf_perf_list *list, const char *name)
{
	struct zf_perf_event want;
	size_t i;

	for (i = 0; i < list->n; i++)
		if (!strcmp(list->ev[i].name, name))
			return i;
	if (zf_perf_lookup(name, &want))
		return -1;
	for (i = 0; i < list->n; i++)	/* the same event under another name: cpu-cycles */
		if (list->ev[i].type == want.type && list->ev[i].config == want.config)
			return i;
	return -1;
}

int zf_perf_lookup(const char *name, struct zf_perf_event *out)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name)) {
			*out = known[i];
			return 0;
		}
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", name);
	if (parse_raw(name, &out->config)) {
		out->type = PERF_TYPE_RAW;
		return 0;
	}
	return -ENOENT;
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
			*why = len ? "not an event (perf list names them)" : "empty item in list";
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, w);
		if (zf_perf_lookup(name, &e)) {
			*why = "not an event (a perf generic name such as cycles or LLC-load-misses, or rNNNN)";
			return -EINVAL;
		}
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
