/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU's own event names (MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM, an offcore
 * OCR:... that needs config1, an AMD event) through libpfm4, where the build
 * found it (Debian: libpfm4-dev; the Makefile looks for its header). They are
 * encoded to perf_event_attr's type, config, config1 and config2 once, when
 * --events is parsed: the measured loop never calls libpfm4. A build without
 * it takes perf's generic names and raw codes only, and says so.
 */
#ifndef HZF_PMU_H
#define HZF_PMU_H

#include <stdbool.h>
#include <stdio.h>

struct zf_perf_event;

/* whether this build has libpfm4 */
bool zf_pmu_built(void);

/*
 * name ([PMU::]EVENT[:UMASK][:MODIFIER]) encoded into e, whose name the
 * caller sets: 0; -ENOENT where no PMU libpfm4 detected on this CPU has it;
 * -EINVAL for a unit mask or modifier it refuses; -ENOTSUP in a build
 * without libpfm4. *why says which.
 */
int zf_pmu_encode(const char *name, struct zf_perf_event *e, const char **why);

/*
 * The PMUs libpfm4 detected here and their events, one line each with its
 * unit masks; an event is kept when its name or a unit mask's holds pattern
 * (any case; NULL keeps all). Without libpfm4, a line that says so.
 */
void zf_pmu_print(FILE *out, const char *pattern);

/* libpfm4's state freed (pfm_terminate): the next encode detects the PMUs anew */
void zf_pmu_done(void);

#endif
