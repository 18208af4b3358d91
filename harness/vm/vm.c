// SPDX-License-Identifier: GPL-2.0
/* hzfbench vm: options, qemu's command line, the guest's /init, and reading its ports. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirror.h"
#include "opt.h"
#include "parse.h"
#include "vm.h"

static const char vm_usage[] =
"usage: hzfbench vm [options] -- SUBCOMMAND [ARGS...]\n"
"  Boot a Linux kernel under qemu with the CPUs, sockets and NUMA nodes asked\n"
"  for, run one hzfbench subcommand inside, and bring back its output and\n"
"  every file it wrote in its working folder (a relative --out lands there).\n"
"  Times measured under tcg are emulated: compare them only with each other.\n";

/* what the table parses into: the options, and two words that become enums */
struct vm_parse {
	struct zf_vm_opts o;
	const char *accel, *tcg;
};

static const char q35_most[] = "the most CPUs qemu's q35 machine takes";

/* a count from 1 to max; above max, one line that says what max is */
static int parse_count(const char *opt, const char *arg, unsigned long max, const char *what,
		       unsigned long *out)
{
	char why[128];
	int err = zf_parse_num_opt(opt, arg, 1, ~0UL, out);

	if (err || *out <= max)
		return err;
	snprintf(why, sizeof(why), "over %lu, %s", max, what);
	return zf_bad_value(opt, arg, why);
}

/* --smp, --sockets, --threads: CPUs, up to q35's most */
static int opt_cpus(const char *opt, const char *arg, void *opts)
{
	struct zf_vm_opts *o = &((struct vm_parse *)opts)->o;
	unsigned long *field = !strcmp(opt, "--smp") ? &o->smp :
			       !strcmp(opt, "--sockets") ? &o->sockets : &o->threads;

	return parse_count(opt, arg, ZF_VM_MAX_CPUS, q35_most, field);
}

static int opt_nodes(const char *opt, const char *arg, void *opts)
{
	return parse_count(opt, arg, ZF_VM_MAX_NODES, "the most NUMA nodes hzfbench vm makes",
			   &((struct vm_parse *)opts)->o.nodes);
}

static int opt_mem(const char *opt, const char *arg, void *opts)
{
	struct zf_vm_opts *o = &((struct vm_parse *)opts)->o;

	o->mem_arg = arg;
	return zf_parse_size_opt(opt, arg, &o->mem_bytes);
}

static int not_empty(const char *value, const char **why)
{
	*why = "empty";
	return !*value;
}

static int one_line(const char *value, const char **why)
{
	*why = "has a quote or a newline";
	return strpbrk(value, "\"\n") != NULL;
}

static int placement_ok(const char *value, const char **why)
{
	if (zf_placement_check(value, why))
		return 1;
	*why = "binds no PU: nothing to mirror";
	return !strcmp(value, "none");
}

static int cpus_ok(const char *value, const char **why)
{
	char *placement;
	int bad;

	if (not_empty(value, why))
		return 1;
	if (asprintf(&placement, "cpus:%s", value) < 0) {
		*why = "out of memory";
		return 1;
	}
	bad = zf_placement_check(placement, why);
	free(placement);
	return bad;
}

static const char *const accels[] = { "auto", "tcg", "kvm", NULL };
static const char *const tcgs[] = { "multi", "single", NULL };

#define FIELD(f)	.off = offsetof(struct vm_parse, f)
#define CUSTOM(fn)	.kind = ZF_OPT_CUSTOM, .parse = fn

static const struct zf_opt vm_table[] = {
	{ .name = "kernel", .kind = ZF_OPT_STRING, .cmds = 1, FIELD(o.kernel), .check = not_empty,
	  .arg = "K", .def = "debian", .help = "debian (Debian's cloud kernel, fetched with "
	  "apt-get download and kept in ~/.cache/hzfbench), global, mmflag or persistent (a "
	  "kernel make kernels built), or a bzImage file" },
	{ .name = "smp", CUSTOM(opt_cpus), .cmds = 1, FIELD(o.smp), .arg = "N", .def = "4",
	  .help = "CPUs, 1-288 (qemu's q35 machine)" },
	{ .name = "sockets", CUSTOM(opt_cpus), .cmds = 1, FIELD(o.sockets), .arg = "N",
	  .def = "2", .help = "sockets the CPUs are split into" },
	{ .name = "threads", CUSTOM(opt_cpus), .cmds = 1, FIELD(o.threads), .arg = "N",
	  .def = "1", .help = "SMT threads of each core, dividing a socket's CPUs" },
	{ .name = "nodes", CUSTOM(opt_nodes), .cmds = 1, FIELD(o.nodes), .arg = "N", .def = "2",
	  .help = "NUMA nodes, 1-8, each with an equal share of whole cores and of memory" },
	{ .name = "mem", CUSTOM(opt_mem), .cmds = 1, FIELD(o.mem_bytes), .arg = "SIZE",
	  .def = "2G", .help = "the guest's memory (with --mirror-host, 1G a node unless given)" },
	{ .name = "accel", .kind = ZF_OPT_WORD, .cmds = 1, FIELD(accel), .words = accels,
	  .arg = "A", .def = "auto", .help = "auto (kvm when /dev/kvm opens and the guest comes "
	  "up within 60 s, else tcg), tcg or kvm" },
	{ .name = "tcg", .kind = ZF_OPT_WORD, .cmds = 1, FIELD(tcg), .words = tcgs, .arg = "T",
	  .def = "multi", .help = "TCG's vCPUs: multi (a host thread each) or single (one host "
	  "thread runs them in turn, 100 ms each while they spin: no use for hand-offs)" },
	{ .name = "mirror-host", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(o.mirror),
	  .help = "the guest takes the host's sockets, cores, SMT threads and NUMA nodes (hwloc) "
	  "over the PUs --placement or --cpus chooses (default all); vCPU i's thread is pinned "
	  "to host PU i, each guest node's memory bound to its host node and preallocated, and "
	  "both read back into vm.json; under kvm, -cpu host with the host's PMU" },
	{ .name = "placement", .kind = ZF_OPT_STRING, .cmds = 1, FIELD(o.placement),
	  .check = placement_ok, .arg = "P", .help = "with --mirror-host: the host PUs "
	  "compact, scatter, node:N or cpus:LIST gives, all it can take" },
	{ .name = "cpus", .kind = ZF_OPT_STRING, .cmds = 1, FIELD(o.cpus), .check = cpus_ok,
	  .arg = "LIST", .help = "with --mirror-host: these host PUs (0-15,32-47)" },
	{ .name = "timeout", .kind = ZF_OPT_ULONG, .cmds = 1, FIELD(o.timeout_s), .min = 1,
	  .max = 86400, .arg = "SEC", .def = "900",
	  .help = "stop the guest when it has not powered off after SEC seconds" },
	{ .name = "boot-timeout", .kind = ZF_OPT_ULONG, .cmds = 1, FIELD(o.boot_timeout_s),
	  .max = 86400, .arg = "SEC", .def = "300", .help = "a guest whose kernel has not started "
	  "/init after SEC seconds is stopped and booted once more; 0: wait" },
	{ .name = "append", .kind = ZF_OPT_STRING, .cmds = 1, FIELD(o.append), .check = one_line,
	  .arg = "TEXT", .help = "more kernel command line" },
	{ .name = "out", .kind = ZF_OPT_STRING, .check = zf_out_check, .cmds = 1, FIELD(o.out),
	  .arg = "DIR",
	  .help = "where the guest's files, console.log and vm.json go, new or empty (default "
	  "results/<UTC time>-<host>)" },
	ZF_OPT_HELP_ENTRY(1),
};

/* options up to --, the guest's subcommand after it */
const struct zf_opt_set zf_vm_opts = {
	.opts = vm_table, .n = sizeof(vm_table) / sizeof(vm_table[0]), .cmd = "vm", .cmd_bit = 1,
	.operands = true, .usage = vm_usage,
};

const char *zf_vm_accel_name(enum zf_vm_accel a)
{
	return a == ZF_VM_TCG ? "tcg" : a == ZF_VM_KVM ? "kvm" : "auto";
}

static int check_mem(const struct zf_vm_opts *o);

static int check_topology(struct zf_vm_opts *o)
{
	unsigned long cores = o->smp / o->threads;
	char v[32], why[128];

	snprintf(why, sizeof(why), "does not divide --smp %lu evenly", o->smp);
	snprintf(v, sizeof(v), "%lu", o->sockets);
	if (o->smp % o->sockets)
		return zf_bad_value("--sockets", v, why);
	snprintf(v, sizeof(v), "%lu", o->nodes);
	if (o->smp % o->nodes)
		return zf_bad_value("--nodes", v, why);
	snprintf(why, sizeof(why), "does not divide the %lu CPUs of a socket evenly",
		 o->smp / o->sockets);
	snprintf(v, sizeof(v), "%lu", o->threads);
	if ((o->smp / o->sockets) % o->threads)
		return zf_bad_value("--threads", v, why);
	/* a node's CPUs are consecutive, as a core's threads are: whole cores keep them together */
	snprintf(why, sizeof(why), "does not divide the %lu cores of %lu threads evenly: a "
		 "core's threads would be on two nodes", cores, o->threads);
	snprintf(v, sizeof(v), "%lu", o->nodes);
	if (cores % o->nodes)
		return zf_bad_value("--nodes", v, why);
	return check_mem(o);
}

/* each node a whole number of 2 MiB, and room to boot in */
static int check_mem(const struct zf_vm_opts *o)
{
	char why[128];

	snprintf(why, sizeof(why), "not a whole number of 2 MiB for each of %lu nodes", o->nodes);
	if (o->mem_bytes % (o->nodes * ZF_VM_NODE_ALIGN))
		return zf_bad_value("--mem", o->mem_arg, why);
	snprintf(why, sizeof(why), "under 128 MiB for each of %lu nodes", o->nodes);
	if (o->mem_bytes / o->nodes < (128ULL << 20))
		return zf_bad_value("--mem", o->mem_arg, why);
	return 0;
}

/* --mirror-host and the options it needs or replaces: 0, or 2 (said) */
static int check_mirror(const struct zf_opt_set *set, const struct zf_vm_opts *o)
{
	static const char *const shape[] = { "smp", "sockets", "threads", "nodes" };
	char opt[32];
	size_t i;

	for (i = 0; o->mirror && i < sizeof(shape) / sizeof(shape[0]); i++) {
		snprintf(opt, sizeof(opt), "--%s", shape[i]);
		if (zf_opt_typed(set, shape[i]))
			return zf_bad_value(opt, zf_opt_typed(set, shape[i]), "--mirror-host "
					    "takes the guest's shape from the host's PUs");
	}
	if (!o->mirror && (o->placement || o->cpus))
		return zf_bad_value(o->cpus ? "--cpus" : "--placement",
				    o->cpus ? o->cpus : o->placement, "only with --mirror-host");
	if (o->placement && o->cpus)
		return zf_bad_value("--cpus", o->cpus, "--placement chooses the PUs already");
	if (o->mirror && o->tcg == ZF_VM_TCG_SINGLE)
		return zf_bad_value("--tcg", "single", "one host thread runs every vCPU: "
				    "--mirror-host has no vCPU thread to pin to a PU");
	return 0;
}

int zf_vm_parse(int argc, char **argv, struct zf_vm_opts *o)
{
	struct vm_parse p = { 0 };
	struct zf_opt_set set = zf_vm_opts;
	int err = zf_opt_parse(&set, argc, argv, &p);

	*o = p.o;
	if (err) {
		zf_opt_free(&set);
		return err == ZF_OPT_DONE ? 1 : err;
	}
	o->accel = !strcmp(p.accel, "tcg") ? ZF_VM_TCG : !strcmp(p.accel, "kvm") ? ZF_VM_KVM :
		   ZF_VM_AUTO;
	o->tcg = !strcmp(p.tcg, "single") ? ZF_VM_TCG_SINGLE : ZF_VM_TCG_MULTI;
	o->mem_typed = zf_opt_typed(&set, "mem") != NULL;
	err = check_mirror(&set, o);
	zf_opt_free(&set);
	if (err)
		return err;
	if (optind >= argc || strcmp(argv[optind - 1], "--")) {
		if (optind < argc)
			fprintf(stderr, "hzfbench: vm: %s: unexpected argument (the guest's "
				"subcommand goes after --)\n", argv[optind]);
		else
			fprintf(stderr, "hzfbench: vm: no subcommand to run (hzfbench vm "
				"[options] -- SUBCOMMAND ...)\n");
		return 2;
	}
	o->cmd = argv + optind;
	o->ncmd = argc - optind;
	if (!strcmp(o->cmd[0], "vm"))
		return zf_bad_value("vm", "vm", "a guest does not boot guests of its own");
	o->script = !strcmp(o->cmd[0], "run.sh");
	/* a mirror's shape is checked once the host's is known */
	return o->mirror ? 0 : check_topology(o);
}

int zf_vm_mirror_apply(struct zf_vm_opts *o, const struct zf_vm_mirror *m)
{
	o->smp = (unsigned long)m->ncpus;
	o->sockets = (unsigned long)m->sockets;
	o->threads = (unsigned long)m->threads;
	o->nodes = (unsigned long)m->nnodes;
	o->m = m;
	if (!o->mem_typed)
		o->mem_bytes = o->nodes * ZF_VM_MIRROR_NODE_MEM;
	return check_mem(o);
}

char *zf_vm_mirror_placement(const struct zf_vm_opts *o)
{
	char *p = NULL;

	if (o->cpus)
		return asprintf(&p, "cpus:%s", o->cpus) < 0 ? NULL : p;
	return o->placement ? strdup(o->placement) : NULL;
}

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

bool zf_vm_console_line(struct zf_vm_console *c, char *line)
{
	size_t n = strlen(line);
	const char *up;
	int status;

	while (n && (line[n - 1] == '\r' || line[n - 1] == '\n'))
		line[--n] = '\0';
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
