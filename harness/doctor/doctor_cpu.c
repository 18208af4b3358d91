// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's probes of the CPUs (doctor.h): cpufreq, boost, SMT, the
 * hypervisor, isolation and the clock source.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "doctor.h"
#include "doctor_sample.h"
#include "sysinfo.h"

#define CLOCKSOURCE_DIR	"/sys/devices/system/clocksource/clocksource0"
/* the kernel's clock source names are under 32 bytes */
#define CLOCKSOURCE_NAME_MAX	48

/* ---- cpufreq: driver and governor per PU ---- */

/* the kernel's CPUFREQ_NAME_LEN is 16 */
#define CPUFREQ_NAME_MAX	32

/* the PUs whose file says the same word (a governor, a driver) */
struct group {
	char *name;
	hwloc_bitmap_t cpus;
};

struct groups {
	struct group *g;
	int n;
};

/* cpu into the group of name; -ENOMEM */
static int group_add(struct groups *gs, const char *name, int cpu)
{
	struct group *more;
	int i;

	for (i = 0; i < gs->n && strcmp(gs->g[i].name, name); i++)
		;
	if (i == gs->n) {
		more = reallocarray(gs->g, gs->n + 1, sizeof(*more));
		if (!more)
			return -ENOMEM;
		gs->g = more;
		gs->g[i].cpus = hwloc_bitmap_alloc();
		gs->g[i].name = strdup(name);
		gs->n++;
		if (!gs->g[i].cpus || !gs->g[i].name)
			return -ENOMEM;
	}
	return hwloc_bitmap_set(gs->g[i].cpus, cpu) ? -ENOMEM : 0;
}

/* "SEP WHAT NAME on PUs LIST" for each group, the first after first_sep */
static void groups_say(const struct groups *gs, struct zf_buf *b, const char *first_sep,
		       const char *sep, const char *what)
{
	int i;

	for (i = 0; i < gs->n; i++) {
		zf_buf_printf(b, "%s%s %s on PUs ", i ? sep : first_sep, what, gs->g[i].name);
		zf_doctor_buf_list(b, gs->g[i].cpus);
	}
}

static void groups_free(struct groups *gs)
{
	int i;

	for (i = 0; i < gs->n; i++) {
		free(gs->g[i].name);
		hwloc_bitmap_free(gs->g[i].cpus);
	}
	free(gs->g);
}

void zf_doctor_probe_cpufreq(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			  struct zf_doctor_factor *f)
{
	hwloc_bitmap_t missing = hwloc_bitmap_alloc();
	struct zf_buf value = { 0 }, fix = { 0 };
	enum zf_doctor_status status = ZF_DOCTOR_UNKNOWN;
	struct groups gov = { 0 }, drv = { 0 };
	char path[PATH_MAX], text[CPUFREQ_NAME_MAX];
	int cpu, e, err = 0, oom = !missing;
	bool slow = false;

	(void)s;
	hwloc_bitmap_foreach_begin(cpu, ctx->cpus) {
		if (oom)
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		e = zf_doctor_read(ctx, path, text, sizeof(text));
		if (e) {
			err = err ? err : e;
			oom = hwloc_bitmap_set(missing, cpu);
			continue;
		}
		oom = group_add(&gov, text, cpu);
		slow = slow || strcmp(text, "performance");
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu);
		oom = oom || group_add(&drv, zf_doctor_read(ctx, path, text, sizeof(text)) ? "?" : text,
				       cpu);
	} hwloc_bitmap_foreach_end();
	if (oom)
		goto out;
	if (!gov.n) {
		zf_buf_printf(&value, "no cpufreq for PUs ");
		zf_doctor_buf_list(&value, missing);
		zf_buf_printf(&value, " (%s: %s): a virtual machine, or a kernel without CPU_FREQ; "
			      "the clock cannot be told", "cpuN/cpufreq/scaling_governor",
			      strerror(-err));
		goto out;
	}
	groups_say(&drv, &value, "", ", ", "driver");
	groups_say(&gov, &value, "; ", "; ", "governor");
	if (!hwloc_bitmap_iszero(missing)) {
		zf_buf_printf(&value, "; no cpufreq on PUs ");
		zf_doctor_buf_list(&value, missing);
	}
	status = slow ? ZF_DOCTOR_WARN : hwloc_bitmap_iszero(missing) ? ZF_DOCTOR_OK :
		 ZF_DOCTOR_UNKNOWN;
	if (slow) {
		zf_buf_printf(&fix, "cpupower -c ");
		zf_doctor_buf_list(&fix, ctx->cpus);
		zf_buf_printf(&fix, " frequency-set -g performance");
	}
out:
	if (!zf_doctor_oom(f, oom || value.oom || fix.oom ? NULL : value.text))
		zf_doctor_say(f, status, fix.text, "%s", value.text);
	zf_buf_free(&value);
	zf_buf_free(&fix);
	groups_free(&gov);
	groups_free(&drv);
	hwloc_bitmap_free(missing);
}

/* ---- boost / turbo ---- */

void zf_doctor_probe_boost(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			struct zf_doctor_factor *f)
{
	static const char boost[] = "/sys/devices/system/cpu/cpufreq/boost";
	static const char no_turbo[] = "/sys/devices/system/cpu/intel_pstate/no_turbo";
	int cpu, on = 0, seen = 0, n = hwloc_bitmap_weight(ctx->cpus);
	char path[PATH_MAX];
	long v;

	(void)s;
	if (!zf_doctor_read_long(ctx, boost, &v)) {
		if (v)
			zf_doctor_say(f, ZF_DOCTOR_WARN, "echo 0 > /sys/devices/system/cpu/cpufreq/boost",
			    "on (%s is %ld): the clock follows the load and heat of the other cores",
			    boost, v);
		else
			zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "off (%s is 0)", boost);
		return;
	}
	if (!zf_doctor_read_long(ctx, no_turbo, &v)) {
		if (!v)
			zf_doctor_say(f, ZF_DOCTOR_WARN, "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo",
			    "turbo on (%s is 0): the clock follows the load and heat of the other cores",
			    no_turbo);
		else
			zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "turbo off (%s is %ld)", no_turbo, v);
		return;
	}
	/* amd-pstate and others: a boost file per policy */
	hwloc_bitmap_foreach_begin(cpu, ctx->cpus) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/boost", cpu);
		if (zf_doctor_read_long(ctx, path, &v))
			continue;
		seen++;
		on += v != 0;
	} hwloc_bitmap_foreach_end();
	if (on)
		zf_doctor_say(f, ZF_DOCTOR_WARN, "echo 0 | tee /sys/devices/system/cpu/cpu*/cpufreq/boost",
		    "on for %d of %d PUs (cpuN/cpufreq/boost)", on, n);
	else if (seen == n && seen)
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "off on every PU (cpuN/cpufreq/boost)");
	else
		zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "no boost control (%s, %s, cpuN/cpufreq/boost): "
		    "cannot tell", boost, no_turbo);
}

/* ---- SMT: do two of the placement's PUs share a core? ---- */

void zf_doctor_probe_smt(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
		      struct zf_doctor_factor *f)
{
	static const char active[] = "/sys/devices/system/cpu/smt/active";
	char path[PATH_MAX];
	hwloc_bitmap_t sib;
	int cpu, other, err;
	long v;

	(void)s;
	err = zf_doctor_read_long(ctx, active, &v);
	if (err) {
		zf_doctor_unreadable(f, active, err);
		return;
	}
	if (!v) {
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "off (%s is 0)", active);
		return;
	}
	hwloc_bitmap_foreach_begin(cpu, ctx->cpus) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 cpu);
		err = zf_doctor_read_cpulist(ctx, path, &sib);
		if (err) {
			zf_doctor_unreadable(f, path, err);
			return;
		}
		/* its siblings among the placement's other PUs */
		hwloc_bitmap_clr(sib, cpu);
		hwloc_bitmap_and(sib, sib, ctx->cpus);
		other = hwloc_bitmap_first(sib);
		hwloc_bitmap_free(sib);
		if (other >= 0) {
			zf_doctor_say(f, ZF_DOCTOR_WARN, "echo off > /sys/devices/system/cpu/smt/control",
			    "on, and PUs %d and %d of the placement share a core: each task "
			    "runs at about half speed (or use fewer tasks than cores)", cpu, other);
			return;
		}
	} hwloc_bitmap_foreach_end();
	zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "on, but no two of the placement's PUs share a core");
}

/* ---- hypervisor ---- */

/* the hypervisor's CPUID signature (leaf 0x40000000), in words; false when none */
static bool cpuid_hypervisor(char *out, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	static const char *const names[][2] = {
		{ "KVMKVMKVM", "KVM" }, { "Microsoft Hv", "Hyper-V" }, { "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" }, { "TCGTCGTCGTCG", "QEMU (TCG)" },
		{ "ACRNACRNACRN", "ACRN" }, { "bhyve bhyve ", "bhyve" },
		{ " lrpepyh  vr", "Parallels" }, { "VBoxVBoxVBox", "VirtualBox" },
	};
	unsigned int a, b, c, d;
	char sig[13];
	size_t i;

	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (i = 0; i < 12; i++)
		if (sig[i] && (sig[i] < ' ' || sig[i] > '~'))
			return false;
	if (!sig[0])
		return false;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(sig, names[i][0])) {
			snprintf(out, len, "%s (CPUID \"%s\")", names[i][1], sig);
			return true;
		}
	}
	snprintf(out, len, "CPUID \"%s\"", sig);
	return true;
#else
	(void)out;
	(void)len;
	return false;
#endif
}

/* the "flags" line of /proc/cpuinfo: 1 with the hypervisor flag, 0 without, -ENOENT no line */
static int cpuinfo_hypervisor(const char *cpuinfo)
{
	const char *line = cpuinfo;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *end = strchr(line, '\n'), *p;

		if (strncmp(line, "flags", 5))
			continue;
		for (p = strstr(line, " hypervisor"); p && (!end || p < end);
		     p = strstr(p + 1, " hypervisor"))
			if (p[11] == ' ' || p[11] == '\n' || !p[11])
				return 1;
		return 0;
	}
	return -ENOENT;
}

void zf_doctor_probe_hypervisor(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			     struct zf_doctor_factor *f)
{
	static const char fix[] = "run on bare metal (or pin every vCPU to a host CPU of its own)";
	char *cpuinfo, *clocks, name[160] = "", text[128], vendor[128];
	int flag, err;

	(void)s;
	err = zf_doctor_read_alloc(ctx, "/proc/cpuinfo", &cpuinfo);
	if (err) {
		zf_doctor_unreadable(f, "/proc/cpuinfo", err);
		return;
	}
	flag = cpuinfo_hypervisor(cpuinfo);
	free(cpuinfo);
	if (!(ctx->cpuid && flag == 1 && cpuid_hypervisor(name, sizeof(name)))) {
		if (!zf_doctor_read(ctx, "/sys/hypervisor/type", text, sizeof(text)) && text[0])
			snprintf(name, sizeof(name), "%s (/sys/hypervisor/type)", text);
		else if (!zf_doctor_read(ctx, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)) &&
			 !zf_doctor_read(ctx, "/sys/class/dmi/id/product_name", text, sizeof(text)) && flag == 1)
			snprintf(name, sizeof(name), "%.70s %.70s (DMI)", vendor, text);
	}
	/* a paravirtual clock names the host's kind too (a PVM guest on KVM says bhyve) */
	if (!zf_doctor_read_alloc(ctx, CLOCKSOURCE_DIR "/available_clocksource", &clocks) &&
	    (strstr(clocks, "kvm-clock") || strstr(clocks, "hyperv") || strstr(clocks, "xen"))) {
		size_t used = strlen(name);

		snprintf(name + used, sizeof(name) - used, "%sparavirtual clock %.40s",
			 used ? ", " : "", strstr(clocks, "kvm-clock") ? "kvm-clock" :
			 strstr(clocks, "hyperv") ? "hyperv" : "xen");
	}
	free(clocks);
	if (flag == 1)
		zf_doctor_say(f, ZF_DOCTOR_WARN, fix, "%s: the hypervisor flag is set; vCPUs share physical "
		    "CPUs with the host and other guests", name[0] ? name : "unnamed");
	else if (name[0])
		zf_doctor_say(f, ZF_DOCTOR_WARN, fix, "%s", name);
	else if (!flag)
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "none: no hypervisor flag in /proc/cpuinfo");
	else
		zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "no flags line in /proc/cpuinfo (not x86) and no "
		    "/sys/hypervisor/type: cannot tell");
}

/* ---- isolcpus and nohz_full ---- */

void zf_doctor_probe_isolation(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			    struct zf_doctor_factor *f)
{
	static const char isolated_path[] = "/sys/devices/system/cpu/isolated";
	hwloc_bitmap_t isolated, nohz, outside = hwloc_bitmap_alloc();
	char *list = NULL, *iso = NULL, *nz = NULL, *fix = NULL;
	int err = zf_doctor_read_cpulist(ctx, isolated_path, &isolated);

	(void)s;
	if (err) {
		zf_doctor_unreadable(f, isolated_path, err);
		hwloc_bitmap_free(outside);
		return;
	}
	/* no such file: a kernel without NO_HZ_FULL, so none */
	if (zf_doctor_read_cpulist(ctx, "/sys/devices/system/cpu/nohz_full", &nohz))
		nohz = hwloc_bitmap_alloc();
	if (outside && nohz) {
		hwloc_bitmap_andnot(outside, ctx->cpus, isolated);
		list = zf_doctor_list(outside);
		iso = zf_doctor_list(isolated);
		nz = zf_doctor_list(nohz);
	}
	if (zf_doctor_oom(f, list && iso && nz ? list : NULL))
		goto out;
	if (hwloc_bitmap_iszero(outside)) {
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "every PU of the placement isolated (isolated %s, "
		    "nohz_full %s)", iso, nz);
		goto out;
	}
	if (asprintf(&fix, "boot with isolcpus=%s nohz_full=%s rcu_nocbs=%s, keeping a CPU for "
		     "the system", list, list, list) < 0) {
		fix = NULL;
		zf_doctor_oom(f, NULL);
		goto out;
	}
	zf_doctor_say(f, ZF_DOCTOR_WARN, fix, "PUs %s not isolated (isolated %s, nohz_full %s): other "
	    "tasks, timers and interrupts run there", list, iso, nz);
out:
	free(fix);
	free(list);
	free(iso);
	free(nz);
	hwloc_bitmap_free(outside);
	hwloc_bitmap_free(isolated);
	hwloc_bitmap_free(nohz);
}

/* ---- clock source ---- */

void zf_doctor_probe_clocksource(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			      struct zf_doctor_factor *f)
{
	static const char dir[] = CLOCKSOURCE_DIR;
	/* read in user space by the vDSO, without a system call */
	static const char *const fast[] = { "tsc", "kvm-clock", "arch_sys_counter",
		"hyperv_clocksource_tsc_page", "xen", "riscv_clocksource", "timebase" };
	char path[PATH_MAX], current[CLOCKSOURCE_NAME_MAX], *avail = NULL, fix[160] = "";
	size_t i;
	int err;

	(void)s;
	snprintf(path, sizeof(path), "%s/current_clocksource", dir);
	err = zf_doctor_read(ctx, path, current, sizeof(current));
	if (err) {
		zf_doctor_unreadable(f, path, err);
		return;
	}
	for (i = 0; i < sizeof(fast) / sizeof(fast[0]); i++) {
		if (!strcmp(current, fast[i])) {
			zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "%s", current);
			return;
		}
	}
	snprintf(path, sizeof(path), "%s/available_clocksource", dir);
	if (zf_doctor_read_alloc(ctx, path, &avail) || !avail[0])
		snprintf(fix, sizeof(fix), "none here: available unknown");
	else if (strstr(avail, "tsc"))
		snprintf(fix, sizeof(fix), "echo tsc > %s/current_clocksource", dir);
	else
		snprintf(fix, sizeof(fix), "none here: available %.120s", avail);
	free(avail);
	zf_doctor_say(f, ZF_DOCTOR_WARN, fix, "%s: every clock read is a system call or an I/O read, "
	    "slow and costly beside a fault", current);
}
