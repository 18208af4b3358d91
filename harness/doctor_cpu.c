// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's probes of the CPUs (doctor.h): cpufreq, boost, SMT, the
 * hypervisor, isolation and the clock source.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpustat.h"
#include "doctor.h"
#include "doctor_sample.h"
#include "parse.h"
#include "sysinfo.h"

#define CLOCKSOURCE_DIR	"/sys/devices/system/clocksource/clocksource0"

/* ---- cpufreq: driver and governor per PU ---- */

struct groups {
	char name[8][64];
	int cpus[8][256], n[8];
	int ngroups;
};

static void group_add(struct groups *g, const char *name, int cpu)
{
	int i;

	for (i = 0; i < g->ngroups && strcmp(g->name[i], name); i++)
		;
	if (i == g->ngroups) {
		if (g->ngroups == 8)
			i = 7;	/* the rest lumped into the last */
		else
			snprintf(g->name[g->ngroups++], sizeof(g->name[0]), "%s", name);
	}
	if (g->n[i] < 256)
		g->cpus[i][g->n[i]++] = cpu;
}

void zf_doctor_probe_cpufreq(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			  struct zf_doctor_factor *f)
{
	static struct groups gov, drv;	/* large; the probes run one at a time */
	int i, missing[256], nmissing = 0, err = 0;
	char path[128], text[64], list[256], fix[256] = "";
	size_t used = 0;
	bool slow = false;

	(void)s;
	memset(&gov, 0, sizeof(gov));
	memset(&drv, 0, sizeof(drv));
	for (i = 0; i < ctx->ncpus; i++) {
		int cpu = ctx->cpus[i], e;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		e = zf_doctor_read(ctx, path, text, sizeof(text));
		if (e) {
			err = err ? err : e;
			if (nmissing < 256)
				missing[nmissing++] = cpu;
			continue;
		}
		group_add(&gov, text, cpu);
		slow = slow || strcmp(text, "performance");
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu);
		group_add(&drv, zf_doctor_read(ctx, path, text, sizeof(text)) ? "?" : text, cpu);
	}
	if (!gov.ngroups) {
		zf_cpulist_format(missing, nmissing, list, sizeof(list));
		zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "no cpufreq for PUs %s (%s: %s): a virtual machine, "
		    "or a kernel without CPU_FREQ; the clock cannot be told", list,
		    "cpuN/cpufreq/scaling_governor", strerror(-err));
		return;
	}
	f->value[0] = '\0';
	for (i = 0; i < drv.ngroups && used < sizeof(f->value); i++) {
		zf_cpulist_format(drv.cpus[i], drv.n[i], list, sizeof(list));
		used += snprintf(f->value + used, sizeof(f->value) - used, "%sdriver %s on PUs %s",
				 i ? ", " : "", drv.name[i], list);
	}
	for (i = 0; i < gov.ngroups && used < sizeof(f->value); i++) {
		zf_cpulist_format(gov.cpus[i], gov.n[i], list, sizeof(list));
		used += snprintf(f->value + used, sizeof(f->value) - used, "; governor %s on PUs %s",
				 gov.name[i], list);
	}
	if (nmissing && used < sizeof(f->value)) {
		zf_cpulist_format(missing, nmissing, list, sizeof(list));
		snprintf(f->value + used, sizeof(f->value) - used, "; no cpufreq on PUs %s", list);
	}
	f->status = slow ? ZF_DOCTOR_WARN : nmissing ? ZF_DOCTOR_UNKNOWN : ZF_DOCTOR_OK;
	if (slow) {
		zf_cpulist_format(ctx->cpus, ctx->ncpus, list, sizeof(list));
		snprintf(fix, sizeof(fix), "cpupower -c %.200s frequency-set -g performance", list);
	}
	snprintf(f->fix, sizeof(f->fix), "%s", fix);
}

/* ---- boost / turbo ---- */

void zf_doctor_probe_boost(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			struct zf_doctor_factor *f)
{
	static const char boost[] = "/sys/devices/system/cpu/cpufreq/boost";
	static const char no_turbo[] = "/sys/devices/system/cpu/intel_pstate/no_turbo";
	char path[128];
	long v;
	int i, on = 0, seen = 0;

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
	for (i = 0; i < ctx->ncpus; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/boost",
			 ctx->cpus[i]);
		if (zf_doctor_read_long(ctx, path, &v))
			continue;
		seen++;
		on += v != 0;
	}
	if (on)
		zf_doctor_say(f, ZF_DOCTOR_WARN, "echo 0 | tee /sys/devices/system/cpu/cpu*/cpufreq/boost",
		    "on for %d of %d PUs (cpuN/cpufreq/boost)", on, ctx->ncpus);
	else if (seen == ctx->ncpus && seen)
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
	char path[128];
	int i, j, err;
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
	for (i = 0; i < ctx->ncpus; i++) {
		long *sib;
		size_t n;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 ctx->cpus[i]);
		err = zf_doctor_read_cpulist(ctx, path, &sib, &n);
		if (err) {
			zf_doctor_unreadable(f, path, err);
			return;
		}
		for (j = i + 1; j < ctx->ncpus; j++) {
			if (zf_doctor_in_list(sib, n, ctx->cpus[j])) {
				zf_doctor_say(f, ZF_DOCTOR_WARN, "echo off > /sys/devices/system/cpu/smt/control",
				    "on, and PUs %d and %d of the placement share a core: each task "
				    "runs at about half speed (or use fewer tasks than cores)",
				    ctx->cpus[i], ctx->cpus[j]);
				free(sib);
				return;
			}
		}
		free(sib);
	}
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
	char path[4096], *cpuinfo, name[160] = "", text[128], vendor[128];
	int flag, err;

	(void)s;
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", ctx->root);
	err = zf_read_file_alloc(path, &cpuinfo, NULL);
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
	if (!zf_doctor_read(ctx, CLOCKSOURCE_DIR "/available_clocksource", text, sizeof(text)) &&
	    (strstr(text, "kvm-clock") || strstr(text, "hyperv") || strstr(text, "xen"))) {
		size_t used = strlen(name);

		snprintf(name + used, sizeof(name) - used, "%sparavirtual clock %.40s",
			 used ? ", " : "", strstr(text, "kvm-clock") ? "kvm-clock" :
			 strstr(text, "hyperv") ? "hyperv" : "xen");
	}
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
	long *isolated, *nohz;
	size_t nisolated, nnohz;
	int i, outside[256], noutside = 0;
	char list[256], iso[256], nz[256], fix[256];
	int err = zf_doctor_read_cpulist(ctx, isolated_path, &isolated, &nisolated);

	(void)s;
	if (err) {
		zf_doctor_unreadable(f, isolated_path, err);
		return;
	}
	/* no such file: a kernel without NO_HZ_FULL, so none */
	if (zf_doctor_read_cpulist(ctx, "/sys/devices/system/cpu/nohz_full", &nohz, &nnohz)) {
		nohz = NULL;
		nnohz = 0;
	}
	for (i = 0; i < ctx->ncpus; i++)
		if (!zf_doctor_in_list(isolated, nisolated, ctx->cpus[i]) && noutside < 256)
			outside[noutside++] = ctx->cpus[i];
	zf_doctor_cpulist_format(isolated, nisolated, iso, sizeof(iso));
	zf_doctor_cpulist_format(nohz, nnohz, nz, sizeof(nz));
	free(isolated);
	free(nohz);
	if (!noutside) {
		zf_doctor_say(f, ZF_DOCTOR_OK, NULL, "every PU of the placement isolated (isolated %s, "
		    "nohz_full %s)", iso, nz);
		return;
	}
	zf_cpulist_format(outside, noutside, list, sizeof(list));
	snprintf(fix, sizeof(fix), "boot with isolcpus=%.60s nohz_full=%.60s rcu_nocbs=%.60s, keeping a "
		 "CPU for the system", list, list, list);
	zf_doctor_say(f, ZF_DOCTOR_WARN, fix, "PUs %s not isolated (isolated %s, nohz_full %s): other "
	    "tasks, timers and interrupts run there", list, iso, nz);
}

/* ---- clock source ---- */

void zf_doctor_probe_clocksource(const struct zf_doctor_ctx *ctx, const struct zf_doctor_sample *s,
			      struct zf_doctor_factor *f)
{
	static const char dir[] = CLOCKSOURCE_DIR;
	/* read in user space by the vDSO, without a system call */
	static const char *const fast[] = { "tsc", "kvm-clock", "arch_sys_counter",
		"hyperv_clocksource_tsc_page", "xen", "riscv_clocksource", "timebase" };
	char path[128], current[64], avail[256], fix[160] = "";
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
	if (!zf_doctor_read(ctx, path, avail, sizeof(avail)) && strstr(avail, "tsc"))
		snprintf(fix, sizeof(fix), "echo tsc > %s/current_clocksource", dir);
	else
		snprintf(fix, sizeof(fix), "none here: available %.120s", avail[0] ? avail : "unknown");
	zf_doctor_say(f, ZF_DOCTOR_WARN, fix, "%s: every clock read is a system call or an I/O read, "
	    "slow and costly beside a fault", current);
}
