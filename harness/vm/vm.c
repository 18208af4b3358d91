// SPDX-License-Identifier: GPL-2.0
/* hzfbench vm: qemu's command line, the guest's /init, and reading its ports. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirror.h"
#include "vm.h"

/* qemu's apicid_bitwidth_for_count(): the bits that number 0 to count - 1 */
static unsigned int id_bits(unsigned long count)
{
	unsigned int bits = 0;

	while (count > 1UL << bits)
		bits++;
	return bits;
}

unsigned long zf_vm_max_apic_id(const struct zf_vm_opts *o)
{
	unsigned long cores = o->smp / o->sockets / o->threads;
	unsigned int core_shift = id_bits(o->threads), socket_shift = core_shift + id_bits(cores);

	return (o->sockets - 1) << socket_shift | (cores - 1) << core_shift | (o->threads - 1);
}

static bool needs_x2apic(const struct zf_vm_opts *o)
{
	return zf_vm_max_apic_id(o) > ZF_VM_XAPIC_MAX_ID;
}

int zf_vm_tcg_check(const struct zf_vm_opts *o, int major, int minor, char *why,
		    size_t whylen)
{
	if (!needs_x2apic(o) || major >= 9)
		return 0;
	snprintf(why, whylen, "APIC IDs up to %lu (%lu sockets, %lu cores, %lu threads) need "
		 "x2APIC, which qemu %d.%d's TCG does not emulate (9.0's does, and KVM)",
		 zf_vm_max_apic_id(o), o->sockets, o->smp / o->sockets / o->threads, o->threads,
		 major, minor);
	return -EINVAL;
}

void zf_vm_argv_add(struct zf_vm_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->oom)
		return;
	if (a->argc + 2 > a->cap) {
		int cap = a->cap ? 2 * a->cap : 32;
		char **grown = realloc(a->argv, (size_t)cap * sizeof(*grown));

		if (!grown) {
			a->oom = true;
			return;
		}
		a->argv = grown;
		a->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		a->oom = true;
	else
		a->argv[a->argc++] = s;
	va_end(ap);
	a->argv[a->argc] = NULL;
}

void zf_vm_argv_free(struct zf_vm_argv *a)
{
	int i;

	for (i = 0; i < a->argc; i++)
		free(a->argv[i]);
	free(a->argv);
	*a = (struct zf_vm_argv){ 0 };
}

/* guest node k's vCPUs, as qemu's -numa takes them: cpus=A-B for each run */
static void mirror_node_cpus(const struct zf_vm_mirror *m, int k, struct zf_vm_argv *a,
			     unsigned long long node_mib)
{
	struct zf_buf b = { 0 };
	int i, start;

	zf_buf_printf(&b, "node,nodeid=%d,memdev=mem%d", k, k);
	for (i = 0; i < m->ncpus; i++) {
		if (m->vnode[i] != k)
			continue;
		for (start = i; i + 1 < m->ncpus && m->vnode[i + 1] == k; i++)
			;
		zf_buf_printf(&b, start == i ? ",cpus=%d" : ",cpus=%d-%d", start, i);
	}
	zf_vm_argv_add(a, "-object");
	zf_vm_argv_add(a, "memory-backend-ram,size=%lluM,id=mem%d,host-nodes=%d,policy=bind,"
		       "prealloc=on", node_mib, k, m->host_node[k]);
	zf_vm_argv_add(a, "-numa");
	if (b.oom)
		a->oom = true;
	else
		zf_vm_argv_add(a, "%s", b.text);
	zf_buf_free(&b);
}

int zf_vm_qemu_argv(const struct zf_vm_opts *o, enum zf_vm_accel accel, const char *kernel,
		    const char *initrd, const char *data_path, const char *qmp_path,
		    struct zf_vm_argv *a)
{
	unsigned long long node_mib = o->mem_bytes / o->nodes >> 20;
	unsigned long per_node = o->smp / o->nodes;
	bool x2apic = needs_x2apic(o);
	unsigned long i;

	zf_vm_argv_add(a, "qemu-system-x86_64");
	/*
	 * q35 takes 288 CPUs where pc takes 255, and has the IOMMU whose
	 * interrupt remapping Linux wants before it turns x2APIC on (under KVM,
	 * qemu's half of a split irqchip remaps)
	 */
	zf_vm_argv_add(a, "-machine");
	zf_vm_argv_add(a, "q35%s", x2apic && accel == ZF_VM_KVM ? ",kernel-irqchip=split" : "");
	/* no network card, no VGA: the firmware has nothing to try before the kernel */
	zf_vm_argv_add(a, "-nodefaults");
	zf_vm_argv_add(a, "-no-reboot");	/* a panic (panic=-1) ends qemu */
	zf_vm_argv_add(a, "-display");
	zf_vm_argv_add(a, "none");
	zf_vm_argv_add(a, "-accel");
	zf_vm_argv_add(a, accel == ZF_VM_KVM ? "kvm" : o->tcg == ZF_VM_TCG_SINGLE ?
		       "tcg,thread=single" : "tcg,thread=multi");
	/*
	 * -cpu host fails under nested KVM on some hosts (MSR 0x10a); max works
	 * under both. TCG's max is an AMD CPU without topoext, whose SMT threads
	 * Linux does not see; as an Intel one it reads them from leaf 0xb.
	 */
	zf_vm_argv_add(a, "-cpu");
	if (o->m && accel == ZF_VM_KVM)	/* the mirror: the host's CPU, and its PMU */
		zf_vm_argv_add(a, "host,pmu=%s", o->m->pmu ? "on" : "off");
	else
		zf_vm_argv_add(a, accel == ZF_VM_KVM ? "max" : "max,vendor=GenuineIntel");
	zf_vm_argv_add(a, "-smp");
	zf_vm_argv_add(a, "%lu,sockets=%lu,cores=%lu,threads=%lu", o->smp, o->sockets,
		       o->smp / o->sockets / o->threads, o->threads);
	if (x2apic) {
		zf_vm_argv_add(a, "-device");
		zf_vm_argv_add(a, "intel-iommu,intremap=on,eim=on");
	}
	zf_vm_argv_add(a, "-m");
	zf_vm_argv_add(a, "%lluM", o->mem_bytes >> 20);
	for (i = 0; o->m && i < o->nodes; i++)
		mirror_node_cpus(o->m, (int)i, a, node_mib);
	for (i = 0; !o->m && o->nodes > 1 && i < o->nodes; i++) {
		zf_vm_argv_add(a, "-object");
		zf_vm_argv_add(a, "memory-backend-ram,size=%lluM,id=mem%lu", node_mib, i);
		zf_vm_argv_add(a, "-numa");
		zf_vm_argv_add(a, "node,nodeid=%lu,memdev=mem%lu,cpus=%lu-%lu", i, i,
			       i * per_node, (i + 1) * per_node - 1);
	}
	zf_vm_argv_add(a, "-kernel");
	zf_vm_argv_add(a, "%s", kernel);
	zf_vm_argv_add(a, "-initrd");
	zf_vm_argv_add(a, "%s", initrd);
	zf_vm_argv_add(a, "-append");
	/*
	 * Linux isolates page tables on an Intel CPU that no list calls immune
	 * to Meltdown, as TCG's is, which makes a fault 4 times slower under
	 * TCG; the AMD one had no isolation
	 */
	zf_vm_argv_add(a, "console=ttyS0 quiet loglevel=3 panic=-1%s%s%s",
		       accel == ZF_VM_KVM ? "" : " nopti", o->append ? " " : "",
		       o->append ? o->append : "");
	zf_vm_argv_add(a, "-serial");		/* ttyS0: the console, on qemu's stdout */
	zf_vm_argv_add(a, "stdio");
	zf_vm_argv_add(a, "-serial");		/* ttyS1: the data port */
	zf_vm_argv_add(a, "file:%s", data_path);
	zf_vm_argv_add(a, "-monitor");
	zf_vm_argv_add(a, "none");
	if (o->m) {	/* stopped until its vCPU threads are pinned */
		zf_vm_argv_add(a, "-qmp");
		zf_vm_argv_add(a, "unix:%s,server=on,wait=off", qmp_path);
		zf_vm_argv_add(a, "-S");
	}
	return a->oom ? -ENOMEM : 0;
}

/* 'text' for sh, a single quote as '\'' */
static void sh_quote(struct zf_buf *b, const char *s)
{
	zf_buf_append(b, "'", 1);
	for (; *s; s++) {
		if (*s == '\'')
			zf_buf_printf(b, "'\\''");
		else
			zf_buf_append(b, s, 1);
	}
	zf_buf_append(b, "'", 1);
}

json_t *zf_vm_json(const struct zf_vm_opts *o, enum zf_vm_accel accel, const char *kernel_path,
		   const char *release)
{
	json_t *vm = json_pack("{s:o, s:o, s:o}", "kernel", zf_json_text(o->kernel),
			       "kernel_path", zf_json_text(kernel_path),
			       "kernel_release", zf_json_text(release));

	if (vm && accel == ZF_VM_TCG &&
	    json_object_set_new(vm, "tcg_threads",
				json_string(o->tcg == ZF_VM_TCG_SINGLE ? "single" : "multi")))
		goto fail;
	if (vm && o->m && json_object_update_new(vm, json_pack("{s:s, s:b}", "mirror_host_pus",
						       o->m->pus, "pmu",
						       accel == ZF_VM_KVM && o->m->pmu)))
		goto fail;
	if (vm && json_object_update_new(vm, json_pack("{s:s, s:I, s:I, s:I, s:I, s:I}",
						       "accel", zf_vm_accel_name(accel),
						       "cpus", (json_int_t)o->smp,
						       "sockets", (json_int_t)o->sockets,
						       "threads", (json_int_t)o->threads,
						       "nodes", (json_int_t)o->nodes,
						       "mem_mib", (json_int_t)(o->mem_bytes >> 20))))
		goto fail;
	return vm;
fail:
	json_decref(vm);
	return NULL;
}

void zf_vm_init_script(const struct zf_vm_opts *o, enum zf_vm_accel accel,
		       const char *kernel_path, struct zf_buf *script)
{
	struct zf_buf vm = { 0 };
	int i;

	zf_json_dump(zf_vm_json(o, accel, kernel_path, NULL), JSON_INDENT(0), &vm);
	zf_buf_printf(script,
		"#!/bin/busybox sh\n"
		"# the guest's /init, written by hzfbench vm\n"
		"/bin/busybox --install -s /bin\n"
		"export PATH=/bin HOME=/work\n"
		"mount -t proc proc /proc\n"
		"mount -t sysfs sysfs /sys\n"
		"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
		"ln -sf /proc/self/fd /dev/fd\n"	/* bash's <(...) */
		"mount -t tmpfs tmpfs /tmp\n"
		"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
		"hostname hzf-guest\n"
		"export HZF_VM=");
	sh_quote(script, vm.text ? vm.text : "{}");
	zf_buf_printf(script, "\necho \"HZF-UP $(uname -r)\"\n");
	if (o->script)	/* the bundle's run.sh: its results/ is /work */
		zf_buf_printf(script, "cd /" ZF_VM_SCRIPT_DIR "\n/bin/bash ./run.sh");
	else
		zf_buf_printf(script, "cd /work\n/bin/hzfbench");
	for (i = o->script ? 1 : 0; i < o->ncmd; i++) {
		zf_buf_append(script, " ", 1);
		sh_quote(script, o->cmd[i]);
	}
	zf_buf_printf(script, " </dev/null\n"
		"status=$?\n"
		"tar -c -f /tmp/work.tar -C /work .\n"
		"stty -F /dev/ttyS1 raw -echo\n"
		"{ echo HZF-DATA-BEGIN; base64 /tmp/work.tar;\n"
		"  echo \"HZF-DATA-END $(stat -c %%s /tmp/work.tar)\"; } >/dev/ttyS1\n"
		"echo \"HZF-EXIT $status\"\n"
		"poweroff -f\n");
	zf_buf_free(&vm);
}

/* qemu's error_report() names the program; a few messages say "qemu: " */
static bool qemu_error(const char *line)
{
	static const char *const names[] = { "qemu-system-x86_64: ", "qemu: ", NULL };
	const char *const *name;

	for (name = names; *name; name++)
		if (!strncmp(line, *name, strlen(*name)))
			return strncmp(line + strlen(*name), "warning: ", 9) != 0;
	return false;
}

bool zf_vm_console_line(struct zf_vm_console *c, char *line)
{
	size_t n = strlen(line);
	const char *up;
	int status;

	while (n && (line[n - 1] == '\r' || line[n - 1] == '\n'))
		line[--n] = '\0';
	if (!c->qemu_said[0] && qemu_error(line))
		snprintf(c->qemu_said, sizeof(c->qemu_said), "%s", line);
	if (!c->up) {
		/* the firmware's escape sequences may come first on the line */
		up = strstr(line, "HZF-UP ");
		if (up) {
			c->up = true;
			snprintf(c->release, sizeof(c->release), "%s", up + 7);
		}
		return false;
	}
	if (c->done)
		return false;
	if (sscanf(line, "HZF-EXIT %d", &status) == 1 && !strncmp(line, "HZF-EXIT ", 9)) {
		c->done = true;
		c->exit_status = status;
		return false;
	}
	return true;
}

static int b64_value(char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

static const char *find_line(const char *text, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p;

	for (p = text; p + n <= end; p++)
		if ((p == text || p[-1] == '\n') && !memcmp(p, prefix, n))
			return p;
	return NULL;
}

int zf_vm_data_decode(const char *text, size_t len, struct zf_buf *tar, char *why,
		      size_t whylen)
{
	const char *end = text + len, *begin, *stop, *p;
	unsigned long long said;
	unsigned int acc = 0, bits = 0;
	char tail[32] = "";
	bool padded = false;

	begin = find_line(text, end, "HZF-DATA-BEGIN");
	if (!begin) {
		snprintf(why, whylen, "the guest sent no data (no HZF-DATA-BEGIN)");
		return -EPROTO;
	}
	begin += strlen("HZF-DATA-BEGIN");
	stop = find_line(begin, end, "HZF-DATA-END ");
	if (!stop) {
		snprintf(why, whylen, "the guest's data stops short (no HZF-DATA-END)");
		return -EPROTO;
	}
	memcpy(tail, stop + 13, (size_t)(end - stop - 13) < sizeof(tail) - 1 ?
	       (size_t)(end - stop - 13) : sizeof(tail) - 1);
	if (sscanf(tail, "%llu", &said) != 1) {
		snprintf(why, whylen, "HZF-DATA-END has no size");
		return -EPROTO;
	}
	for (p = begin; p < stop; p++) {
		int v;

		if (*p == '\n' || *p == '\r')
			continue;
		if (*p == '=') {
			padded = true;
			continue;
		}
		v = b64_value(*p);
		if (v < 0 || padded) {
			snprintf(why, whylen, "the guest's data is not base64 at byte %td",
				 p - text);
			return -EPROTO;
		}
		acc = acc << 6 | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			char byte = (char)(acc >> (bits - 8) & 0xff);

			zf_buf_append(tar, &byte, 1);
			bits -= 8;
		}
	}
	if (tar->oom)
		return -ENOMEM;
	if (tar->len != said) {
		snprintf(why, whylen, "the guest's data is %zu bytes, not the %llu it said",
			 tar->len, said);
		return -EPROTO;
	}
	return 0;
}
