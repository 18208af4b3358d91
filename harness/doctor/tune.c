// SPDX-License-Identifier: GPL-2.0
/*
 * What `hzfbench doctor --tune` changes (tune.h): the doctor's fixes that a
 * write to sysfs or procfs makes, one function a factor. A file that is
 * absent is passed over (a virtual machine has no cpufreq); one that
 * already reads as wanted is left alone, so that --reset writes back only
 * what --tune wrote.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "doctor_sample.h"
#include "sysinfo.h"
#include "tune.h"

#define CPU_DIR		"/sys/devices/system/cpu"
#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"

void zf_tune_free(struct zf_tune *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		free(t->f[i].path);
		free(t->f[i].was);
		free(t->f[i].restore);
		free(t->f[i].now);
	}
	free(t->f);
	t->f = NULL;
	t->n = t->cap = 0;
}

struct zf_tune_file *zf_tune_add(struct zf_tune *t)
{
	struct zf_tune_file *more;

	if (t->n == t->cap) {
		more = reallocarray(t->f, t->cap ? 2 * t->cap : 16, sizeof(*more));
		if (!more) {
			t->oom = 1;
			return NULL;
		}
		t->f = more;
		t->cap = t->cap ? 2 * t->cap : 16;
	}
	memset(&t->f[t->n], 0, sizeof(t->f[0]));
	return &t->f[t->n++];
}

void zf_tune_want(struct zf_tune *t, const char *path, const char *now, bool choice)
{
	struct zf_doctor_ctx ctx = { .root = t->root };
	char full[PATH_MAX], *was, *word;
	struct zf_tune_file *f;
	size_t n;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", t->root, path) >= sizeof(full) ||
	    zf_read_file_alloc(full, &was, &n))
		return;		/* no such knob here: nothing to tune */
	/* the value as the doctor reads it: no final newline, a choice's word */
	if (zf_doctor_read_alloc(&ctx, path, &word)) {
		free(was);
		return;
	}
	if (choice) {
		char chosen[64];

		zf_sysfs_choice(word, chosen, sizeof(chosen));
		free(word);
		word = strdup(chosen);
	}
	if (!word) {
		free(was);
		t->oom = 1;
		return;
	}
	if (!strcmp(word, now)) {
		free(was);
		free(word);
		return;
	}
	f = zf_tune_add(t);
	if (!f) {
		free(was);
		free(word);
		return;
	}
	f->path = strdup(path);
	f->was = was;
	/* the kernel takes a choice's word, not "always [madvise] never" */
	f->restore = choice ? word : strdup(was);
	f->now = strdup(now);
	if (!choice)
		free(word);
	if (!f->path || !f->restore || !f->now)
		t->oom = 1;
}

/* a sysctl above ok_max set to fixed: the doctor's threshold and fix (doctor_probes.c) */
static void want_sysctl(struct zf_tune *t, const char *name, long ok_max, long fixed)
{
	struct zf_doctor_ctx ctx = { .root = t->root };
	char path[PATH_MAX], now[24];
	long v;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	if (zf_doctor_read_long(&ctx, path, &v) || v <= ok_max)
		return;
	snprintf(now, sizeof(now), "%ld", fixed);
	zf_tune_want(t, path, now, false);
}

/* the governor of each PU measured: performance */
static void want_governor(struct zf_tune *t, const struct zf_tune_ask *ask)
{
	char path[PATH_MAX];
	int cpu;

	hwloc_bitmap_foreach_begin(cpu, ask->cpus) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
		zf_tune_want(t, path, "performance", false);
	} hwloc_bitmap_foreach_end();
}

/* boost off, by whichever control the doctor found (zf_doctor_probe_boost) */
static void want_boost_off(struct zf_tune *t, const struct zf_tune_ask *ask)
{
	struct zf_doctor_ctx ctx = { .root = t->root };
	char path[PATH_MAX];
	long v;
	int cpu;

	if (!zf_doctor_read_long(&ctx, CPU_DIR "/cpufreq/boost", &v)) {
		zf_tune_want(t, CPU_DIR "/cpufreq/boost", "0", false);
		return;
	}
	if (!zf_doctor_read_long(&ctx, CPU_DIR "/intel_pstate/no_turbo", &v)) {
		zf_tune_want(t, CPU_DIR "/intel_pstate/no_turbo", "1", false);
		return;
	}
	hwloc_bitmap_foreach_begin(cpu, ask->cpus) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/boost", cpu);
		zf_tune_want(t, path, "0", false);
	} hwloc_bitmap_foreach_end();
}

/*
 * Every IRQ that may land on a PU measured moved to the others. When every
 * PU is measured there are no others: the IRQs stay (said once).
 */
static void want_irqs_away(struct zf_tune *t, const struct zf_tune_ask *ask)
{
	struct zf_doctor_ctx ctx = { .root = t->root };
	hwloc_bitmap_t others = hwloc_bitmap_alloc(), aff;
	char path[PATH_MAX], *list = NULL;
	struct dirent **irq = NULL;
	int i, n;

	if (!others || hwloc_bitmap_andnot(others, ask->all, ask->cpus)) {
		t->oom = 1;
		goto out;
	}
	if (hwloc_bitmap_iszero(others)) {
		printf("tune: irq: every PU is measured, none to move the IRQs to "
		       "(--placement, --tasks: the PUs measured)\n");
		goto out;
	}
	list = zf_doctor_list(others);
	snprintf(path, sizeof(path), "%s/proc/irq", t->root);
	/* in the kernel's order, 0 first: one --tune says what the next one does */
	n = list ? scandir(path, &irq, NULL, versionsort) : 0;
	t->oom |= !list;
	for (i = 0; i < n; i++) {
		if (irq[i]->d_name[0] >= '0' && irq[i]->d_name[0] <= '9') {
			snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list",
				 irq[i]->d_name);
			if (!zf_doctor_read_cpulist(&ctx, path, &aff)) {
				if (hwloc_bitmap_intersects(aff, ask->cpus))
					zf_tune_want(t, path, list, false);
				hwloc_bitmap_free(aff);
			}
		}
		free(irq[i]);
	}
	free(irq);
out:
	free(list);
	hwloc_bitmap_free(others);
}

void zf_tune_plan(struct zf_tune *t, const struct zf_tune_ask *ask)
{
	want_governor(t, ask);
	want_boost_off(t, ask);
	want_sysctl(t, "numa_balancing", 0, 0);
	want_sysctl(t, "nmi_watchdog", 0, 0);
	/* 1: a user's own tasks counted, kernel side too, and no more (the doctor's fix) */
	want_sysctl(t, "perf_event_paranoid", 1, 1);
	zf_tune_want(t, THP_DIR "/use_zero_page", "1", false);
	if (ask->thp)
		zf_tune_want(t, THP_DIR "/enabled", ask->thp, true);
	want_irqs_away(t, ask);
}
