/* SPDX-License-Identifier: GPL-2.0 */
/* `hzfbench doctor`, and the doctor's snapshot of the PUs a run's plans use. */
#ifndef HZF_DOCTORCMD_H
#define HZF_DOCTORCMD_H

#include <stddef.h>

#include "doctor.h"
#include "topo.h"

int zf_doctor_main(int argc, char **argv);
/* $HZF_SYSROOT, or "" for this machine */
const char *zf_doctor_root(void);
/* the PUs the plans use (every PU when a task is unbound), a new *cpus; -ENOMEM */
int zf_doctor_cpus(struct zf_topo *topo, const struct zf_plan *plans, size_t nplans,
		   hwloc_bitmap_t *cpus);
/* every factor, for the PUs of the plans, sampled sample_ms, into a new *d (zf_doctor_free) */
int zf_doctor_snapshot(struct zf_topo *topo, const struct zf_plan *plans, size_t nplans,
		       unsigned long sample_ms, struct zf_doctor **d);

#endif
