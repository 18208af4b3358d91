// SPDX-License-Identifier: GPL-2.0
/* The PMU's own event names through libpfm4, where the build has it: see pmu.h. */
#define _GNU_SOURCE	/* strcasestr */
#include <errno.h>
#include <string.h>

#include "perfctr.h"
#include "pmu.h"

#ifdef HZF_HAVE_PFM
#include <perfmon/pfmlib_perf_event.h>

bool zf_pmu_built(void)
{
	return true;
}

/* libpfm4's refusals, each as one line can say it */
static const struct {
	int err;
	int errno_val;
	const char *why;
} refusals[] = {
	{ PFM_ERR_NOTFOUND, ENOENT, "not an event: neither a perf generic name (cycles, "
	  "LLC-load-misses) nor rNNNN, nor an event of a PMU libpfm4 detected on this CPU "
	  "(--events list names them)" },
	{ PFM_ERR_UMASK, EINVAL, "libpfm4: a unit mask is missing, or is not this event's" },
	{ PFM_ERR_ATTR, EINVAL, "libpfm4: not a unit mask or modifier of this event" },
	{ PFM_ERR_ATTR_VAL, EINVAL, "libpfm4: a modifier's value is out of its range" },
	{ PFM_ERR_ATTR_SET, EINVAL, "libpfm4: a unit mask or modifier given twice" },
	{ PFM_ERR_FEATCOMB, EINVAL, "libpfm4: unit masks or modifiers that cannot go together" },
};

int zf_pmu_encode(const char *name, struct zf_perf_event *e, const char **why)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	pfm_perf_encode_arg_t arg = { .attr = &attr, .size = sizeof(arg) };
	int ret = pfm_initialize();
	size_t i;

	if (ret == PFM_SUCCESS)	/* PLM0 and PLM3: kernel and user, as the generic names */
		ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT,
						&arg);
	if (ret != PFM_SUCCESS) {
		for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
			if (refusals[i].err == ret) {
				*why = refusals[i].why;
				return -refusals[i].errno_val;
			}
		*why = pfm_strerror(ret);
		return -EINVAL;
	}
	e->type = attr.type;
	e->config = attr.config;
	e->config1 = attr.config1;
	e->config2 = attr.config2;
	e->exclude_user = attr.exclude_user;
	e->exclude_kernel = attr.exclude_kernel;
	return 0;
}

static bool holds(const char *s, const char *pattern)
{
	return !pattern || strcasestr(s, pattern);
}

/* one event and its unit masks, if its name or one of theirs holds pattern */
static void print_event(FILE *out, const char *pmu, int idx, const char *pattern)
{
	pfm_event_info_t info = { .size = sizeof(info) };
	bool all;
	int a;

	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &info) != PFM_SUCCESS)
		return;
	all = holds(info.name, pattern);
	for (a = 0; !all && a < info.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_UMASK && holds(ai.name, pattern))
			break;
	}
	if (!all && a == info.nattrs)
		return;
	fprintf(out, "  %s::%s", pmu, info.name);
	for (a = 0; a < info.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_UMASK && (all || holds(ai.name, pattern)))
			fprintf(out, " :%s", ai.name);
	}
	fputc('\n', out);
	if (pattern && info.desc)	/* a few lines asked for: what each counts */
		fprintf(out, "      %s\n", info.desc);
}

void zf_pmu_print(FILE *out, const char *pattern)
{
	int ret = pfm_initialize(), own = 0, shown = 0;
	pfm_pmu_t p;

	if (ret != PFM_SUCCESS) {
		fprintf(out, "libpfm4: could not start (%s): the PMU's own names are refused\n",
			pfm_strerror(ret));
		return;
	}
	fprintf(out, "libpfm4: PMUs detected on this CPU:");
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		fprintf(out, "%s %s (%s, %d events)", shown++ ? ";" : "", pi.name, pi.desc,
			pi.nevents);
		own += pi.type != PFM_PMU_TYPE_OS_GENERIC;
	}
	fputc('\n', out);
	if (!own) {
		fprintf(out, "  none but perf's own tables (perf, perf_raw: the generic names and "
			"raw codes above): this CPU's own event names are refused here\n");
		return;
	}
	fprintf(out, "the PMU's own names, PMU::EVENT :UNIT_MASK... (--events EVENT:UNIT_MASK;"
		" PMU:: may be left out; modifiers as libpfm4 documents them, :u user only, :k"
		" kernel only):\n");
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };
		int idx;

		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present ||
		    pi.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		for (idx = pi.first_event; idx != -1; idx = pfm_get_event_next(idx))
			print_event(out, pi.name, idx, pattern);
	}
}

void zf_pmu_done(void)
{
	pfm_terminate();
}

#else	/* !HZF_HAVE_PFM */

bool zf_pmu_built(void)
{
	return false;
}

int zf_pmu_encode(const char *name, struct zf_perf_event *e, const char **why)
{
	(void)name;
	(void)e;
	*why = "not an event: neither a perf generic name (cycles, LLC-load-misses) nor rNNNN, "
	       "and this build has no libpfm4 for the PMU's own names (Debian: libpfm4-dev, "
	       "then rebuild)";
	return -ENOTSUP;
}

void zf_pmu_print(FILE *out, const char *pattern)
{
	(void)pattern;
	fprintf(out, "libpfm4: not in this build (Debian: libpfm4-dev, then rebuild): the PMU's "
		"own event names are refused\n");
}

void zf_pmu_done(void)
{
}

#endif
