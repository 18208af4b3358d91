// SPDX-License-Identifier: GPL-2.0
/* hzfbench vm: its options, the topology they ask for, and --mirror-host's part in them. */
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
