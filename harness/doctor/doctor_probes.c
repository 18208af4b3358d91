// SPDX-License-Identifier: GPL-2.0
/*
 * The probes of `hzfbench doctor` (doctor.h), one function a factor, and
 * their table: here the sampled ones (steal, load) and the kernel's settings
 * (THP, sysctls); the CPUs' in doctor_cpu.c. Each reads its files under
 * ctx->root and says ok, warn with the fix, or unknown with what could not
 * be read.
 */
#define _GNU_SOURCE	/* strchrnul */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "doctor_sample.h"
#include "sysinfo.h"

/* ---- steal and load, from the sample ---- */

static void probe_steal(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			struct zf_doctor_factor *f)
{
	char *list = zf_doctor_list(ctx->cpus), *missing = NULL;

	if (zf_doctor_oom(f, list))
		return;
	if (s->stat_err == -ENOENT && s->stat_missing) {
		missing = zf_doctor_list(s->stat_missing);
		if (!zf_doctor_oom(f, missing))
			zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "/proc/stat has no line for PUs %s",
			    missing);
	} else if (s->stat_err) {
		zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "/proc/stat over %lu ms: %s", s->ms,
		    s->stat_err == -ENODATA ? "no steal field, or no time counted" :
		    strerror(-s->stat_err));
	} else if (s->steal_pct >= 1.0) {
		zf_doctor_say(f, ZF_DOCTOR_WARN, "a host that runs nothing else on these CPUs, or bare metal",
		    "%.2f%% of PUs %s's time over %lu ms was stolen by the hypervisor (idle %.1f%%)",
		    s->steal_pct, list, s->ms, s->idle_pct);
	} else {
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "%.2f%% of PUs %s's time over %lu ms (idle %.1f%%)",
		    s->steal_pct, list, s->ms, s->idle_pct);
	}
	free(missing);
	free(list);
}

static void probe_load(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
		       struct zf_doctor_factor *f)
{
	char loadavg[128], *list = NULL;
	struct zf_buf others = { 0 };
	int i, steady = 0, err;

	/* "1.02 0.50 0.20 2/300 4242": three figures and three counts */
	err = zf_doctor_read(ctx, "/proc/loadavg", loadavg, sizeof(loadavg));
	if (err) {
		zf_doctor_unreadable(f, "/proc/loadavg", err);
		return;
	}
	*strchrnul(loadavg, ' ') = '\0';	/* the 1-minute figure */
	if (s->scan_err) {
		zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "load average %s; the tasks in /proc: %s", loadavg,
		    strerror(-s->scan_err));
		return;
	}
	for (i = 0; i < s->nrunnable; i++) {
		const struct zf_runnable *r = &s->runnable[i];

		/* seen runnable in half the looks or more: not a passing kernel thread */
		if (2 * r->seen < s->scans)
			continue;
		steady++;
		zf_buf_printf(&others, "%s%s (pid %d, PU %d)", steady > 1 ? ", " : "", r->comm,
			      (int)r->pid, r->cpu);
	}
	list = others.oom ? NULL : zf_doctor_list(ctx->cpus);
	if (zf_doctor_oom(f, list))
		goto out;
	if (steady)
		zf_doctor_say(f, ZF_DOCTOR_WARN, "stop them, or give the run other PUs (--placement cpus:LIST)",
		    "load average %s (1 min); runnable on PUs %s in %d looks over %lu ms: %s",
		    loadavg, list, s->scans, s->ms, others.text);
	else
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "load average %s (1 min); no other task runnable on PUs "
		    "%s in %d looks over %lu ms", loadavg, list, s->scans, s->ms);
out:
	zf_buf_free(&others);
	free(list);
}

/* ---- THP ---- */

static void probe_thp(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
		      struct zf_doctor_factor *f)
{
	static const char dir[] = "/sys/kernel/mm/transparent_hugepage";
	char path[PATH_MAX], text[128], enabled[32], defrag[32], zero[32];
	int err;

	(void)s;
	snprintf(path, sizeof(path), "%s/enabled", dir);
	err = zf_doctor_read(ctx, path, text, sizeof(text));
	if (!err) {
		zf_sysfs_choice(text, enabled, sizeof(enabled));
		snprintf(path, sizeof(path), "%s/defrag", dir);
		err = zf_doctor_read(ctx, path, text, sizeof(text));
	}
	if (!err) {
		zf_sysfs_choice(text, defrag, sizeof(defrag));
		snprintf(path, sizeof(path), "%s/use_zero_page", dir);
		err = zf_doctor_read(ctx, path, zero, sizeof(zero));
	}
	if (err) {
		zf_doctor_unreadable(f, path, err);
		return;
	}
	if (!strcmp(enabled, "never"))
		zf_doctor_say(f, ZF_DOCTOR_WARN, "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled "
		    "(or --set-thp madvise for the run)", "enabled never: no huge-page fault, real "
		    "faults refused (defrag %s, use_zero_page %s)", defrag, zero);
	else if (strcmp(zero, "1"))
		zf_doctor_say(f, ZF_DOCTOR_WARN, "echo 1 > /sys/kernel/mm/transparent_hugepage/use_zero_page",
		    "use_zero_page %s: read faults allocate memory, no huge zero folio (enabled %s, "
		    "defrag %s)", zero, enabled, defrag);
	else
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "enabled %s, defrag %s, use_zero_page 1%s", enabled,
		    defrag, strcmp(enabled, "always") ? " (hzfbench madvises its regions)" : "");
}

/* ---- sysctls: ok up to a value, else warn with the fix ---- */

/* exempt: why a value above ok_max does not matter here (NULL: it does) */
static void sysctl_factor(const struct zf_doctor_ctx *ctx, struct zf_doctor_factor *f,
			  const char *name, long ok_max, const char *why, long fixed,
			  const char *exempt)
{
	char path[PATH_MAX], fix[160];
	long v;
	int err;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	err = zf_doctor_read_long(ctx, path, &v);
	if (err) {
		zf_doctor_unreadable(f, path, err);
		return;
	}
	snprintf(fix, sizeof(fix), "sysctl -w kernel.%s=%ld", name, fixed);
	if (v > ok_max && exempt)
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "%ld (%s)", v, exempt);
	else if (v > ok_max)
		zf_doctor_say(f, ZF_DOCTOR_WARN, fix, "%ld: %s", v, why);
	else
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "%ld", v);
}

static void probe_numa_balancing(const struct zf_doctor_ctx *ctx,
				 const struct zf_doctor_sample *s, struct zf_doctor_factor *f)
{
	(void)s;
	sysctl_factor(ctx, f, "numa_balancing", 0, "the kernel unmaps pages to move them and "
		      "their tasks between nodes during the run", 0, NULL);
}

static void probe_perf_event_paranoid(const struct zf_doctor_ctx *ctx,
				      const struct zf_doctor_sample *s, struct zf_doctor_factor *f)
{
	(void)s;
	sysctl_factor(ctx, f, "perf_event_paranoid", 1, "the counters of a task's kernel side "
		      "are refused to a user without CAP_PERFMON", 1,
		      ctx->privileged ? "root: not limited by it" : NULL);
}

static void probe_nmi_watchdog(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			       struct zf_doctor_factor *f)
{
	(void)s;
	sysctl_factor(ctx, f, "nmi_watchdog", 0, "an NMI on every CPU every few seconds, and "
		      "one hardware counter held", 0, NULL);
}

static const struct {
	const char *name;
	zf_doctor_probe_fn fn;
} probes[] = {
	{ "cpufreq",		zf_doctor_probe_cpufreq },
	{ "boost",		zf_doctor_probe_boost },
	{ "smt",		zf_doctor_probe_smt },
	{ "hypervisor",		zf_doctor_probe_hypervisor },
	{ "steal",		probe_steal },
	{ "thp",		probe_thp },
	{ "numa_balancing",	probe_numa_balancing },
	{ "perf_event_paranoid", probe_perf_event_paranoid },
	{ "nmi_watchdog",	probe_nmi_watchdog },
	{ "isolation",		zf_doctor_probe_isolation },
	{ "clocksource",	zf_doctor_probe_clocksource },
	{ "load",		probe_load },
};

zf_doctor_probe_fn zf_doctor_probe(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (!strcmp(probes[i].name, name))
			return probes[i].fn;
	return NULL;
}

const char *zf_doctor_probe_name(size_t i)
{
	return i < sizeof(probes) / sizeof(probes[0]) ? probes[i].name : NULL;
}

void zf_doctor_probes_run(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			  struct zf_doctor *d)
{
	size_t i;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]) && d->n < ZF_DOCTOR_MAX; i++) {
		struct zf_doctor_factor *f = &d->f[d->n++];

		memset(f, 0, sizeof(*f));
		f->name = probes[i].name;
		probes[i].fn(ctx, s, f);
	}
}
