// SPDX-License-Identifier: GPL-2.0
/* usemem: the seed's command in usemem's own spelling, run as hzfbench run. */
#include <getopt.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "compat.h"
#include "opt.h"
#include "parse.h"
#include "sweep.h"

static const char usemem_usage[] =
"usage: hzfbench usemem [-n N | -t N] --readonly -j STEP SIZE [options]\n"
"  The seed's `usemem -n 72 --readonly -j 0x200000 100G`, spelled as usemem\n"
"  spells it, run as `hzfbench run --fault kernel` (real huge-page read faults),\n"
"  then printed in usemem's units (bytes / usecs = KB/s per task, usecs to\n"
"  free memory) next to ours. SIZE: bytes each task maps and reads (K/M/G/T,\n"
"  k/m/g/t).\n";

#define RUN_PASSED	10	/* run's options passed on, at most */
#define RUN_ARGS	(2 * RUN_PASSED + 20)

/* usemem's own options, and run's command line as it is built */
struct usemem_opts {
	const char *nproc, *nthread, *step;
	bool readonly, profile, quiet, strategy;
	// cppcheck-suppress unusedStructMember ; -O: taken, and ignored
	bool anonymous;
	char *run_argv[RUN_ARGS];
	int run_argc;
	char names[RUN_PASSED][24];	/* run's options as typed, "--placement" */
	int npassed;
};

/* -n, -t: this machine's tasks (usemem runs here) */
static int opt_count(const char *opt, const char *arg, void *opts)
{
	struct usemem_opts *o = opts;
	unsigned long cap = zf_tasks_cap(sysconf(_SC_NPROCESSORS_CONF)), v;
	const char *why;

	if (zf_parse_ulong(arg, 1, cap, &v, &why))
		return zf_bad_tasks(opt, arg, why, cap);
	*(!strcmp(opt, "-n") || !strcmp(opt, "--nproc") ? &o->nproc : &o->nthread) = arg;
	return 0;
}

/* one of run's options with its value, passed on to run as it is (run judges it) */
static int opt_run(const char *opt, const char *arg, void *opts)
{
	struct usemem_opts *o = opts;

	if (o->npassed == RUN_PASSED) {
		fprintf(stderr, "hzfbench: usemem: too many options\n");
		return 2;
	}
	o->strategy |= !strcmp(opt, "--strategy");
	snprintf(o->names[o->npassed], sizeof(o->names[0]), "%s", opt);
	o->run_argv[o->run_argc++] = o->names[o->npassed++];
	o->run_argv[o->run_argc++] = (char *)arg;
	return 0;
}

#define FIELD(f)	.off = offsetof(struct usemem_opts, f)
#define RUN(n, a)	{ .name = (n), .kind = ZF_OPT_CUSTOM, .parse = opt_run, .cmds = 1, \
			  .arg = (a), .help = "as for hzfbench run" }

static const struct zf_opt usemem_table[] = {
	{ .name = "nproc", .letter = 'n', .kind = ZF_OPT_CUSTOM, .parse = opt_count, .cmds = 1,
	  FIELD(nproc), .arg = "N", .help = "N processes, one mm each (default 1)" },
	{ .name = "thread", .letter = 't', .kind = ZF_OPT_CUSTOM, .parse = opt_count, .cmds = 1,
	  FIELD(nthread), .arg = "N", .help = "N threads of one process instead" },
	{ .name = "readonly", .letter = 'o', .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(readonly),
	  .help = "read only: the one access pattern measured (required)" },
	{ .name = "step", .letter = 'j', .kind = ZF_OPT_STRING, .cmds = 1, FIELD(step),
	  .arg = "STEP", .help = "one read every STEP bytes (0x200000, 2M, ...)" },
	{ .name = "anonymous", .letter = 'O', .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(anonymous),
	  .help = "taken and ignored: the region is anonymous anyway" },
	{ .name = "strategy", .kind = ZF_OPT_CUSTOM, .parse = opt_run, .cmds = 1, .arg = "S",
	  .help = "native (the running kernel alone, default), or an emulated strategy taken "
	  "beside each real fault",
	  .complete = ZF_COMPLETE_STRATEGY },
	RUN("placement", "P"), RUN("reps", "R"), RUN("warmup", "W"), RUN("min-ms", "MS"),
	RUN("set-thp", "MODE"), RUN("events", "LIST"), RUN("out", "DIR"),
	{ .name = "profile", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(profile),
	  .help = "as for hzfbench run" },
	{ .name = "quiet", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(quiet),
	  .help = "as for hzfbench run" },
	ZF_OPT_HELP_ENTRY(1),
};

const struct zf_opt_set zf_usemem_opts =
	ZF_OPT_SET_WITH_OPERANDS(usemem_table, "usemem", usemem_usage);

/* typed: argv as it was typed, for meta.json (getopt reorders argv) */
static int usemem_run(int argc, char **argv, char **typed)
{
	struct usemem_opts o = { .run_argv = { "run" }, .run_argc = 1 };
	unsigned long long size_v, step_v;
	char dir[PATH_MAX];
	int err = zf_opt_parse_only(&zf_usemem_opts, argc, argv, &o);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (optind >= argc) {
		fprintf(stderr, "hzfbench: usemem: SIZE missing (hzfbench usemem --help)\n");
		return 2;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "hzfbench: usemem: %s: unexpected argument\n", argv[optind + 1]);
		return 2;
	}
	if (zf_parse_size_opt("SIZE", argv[optind], &size_v))
		return 2;
	if (!o.step) {
		fprintf(stderr, "hzfbench: usemem: -j missing: the step between reads (the seed's is -j 0x200000)\n");
		return 2;
	}
	if (zf_parse_size_opt("-j", o.step, &step_v))
		return 2;
	if (o.nproc && o.nthread) {
		fprintf(stderr, "hzfbench: usemem: -n %s -t %s: processes of threads are not measured; "
			"give one of them\n", o.nproc, o.nthread);
		return 2;
	}
	if (!o.readonly) {
		fprintf(stderr, "hzfbench: usemem: --readonly missing: writes allocate memory, "
			"only read faults map the huge zero folio\n");
		return 2;
	}
	if (o.profile)
		o.run_argv[o.run_argc++] = "--profile";
	if (o.quiet)
		o.run_argv[o.run_argc++] = "--quiet";
	o.run_argv[o.run_argc++] = "--fault";
	o.run_argv[o.run_argc++] = "kernel";
	if (!o.strategy) {
		o.run_argv[o.run_argc++] = "--strategy";
		o.run_argv[o.run_argc++] = "native";
	}
	o.run_argv[o.run_argc++] = "--tasks";
	o.run_argv[o.run_argc++] = (char *)(o.nthread ? o.nthread : o.nproc ? o.nproc : "1");
	o.run_argv[o.run_argc++] = "--task-kind";
	o.run_argv[o.run_argc++] = o.nthread ? "thread" : "process";
	o.run_argv[o.run_argc++] = "--size";
	o.run_argv[o.run_argc++] = argv[optind];
	o.run_argv[o.run_argc++] = "--step";
	o.run_argv[o.run_argc++] = (char *)o.step;
	o.run_argv[o.run_argc] = NULL;
	dir[0] = '\0';
	err = zf_sweep_or_run(o.run_argc, o.run_argv, true, argc, typed, dir, sizeof(dir));
	if (!err && dir[0] && zf_usemem_report(dir, size_v, step_v, stdout))
		err = 1;
	return err;
}

int cmd_usemem(int argc, char **argv)
{
	char **typed = calloc(argc + 1, sizeof(*typed));
	int err;

	if (!typed)
		return 1;
	memcpy(typed, argv, argc * sizeof(*typed));
	err = usemem_run(argc, argv, typed);
	free(typed);
	return err;
}

/* the plan of n tasks (0: as many as the placement has PUs), printed */
