// SPDX-License-Identifier: GPL-2.0
/* usemem: the seed's command in usemem's own spelling, run as hzfbench run. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "compat.h"
#include "parse.h"
#include "sweep.h"

#define bad zf_bad_value
#define parse_num_opt zf_parse_num_opt

static const char usemem_usage[] =
"usage: hzfbench usemem [-n N | -t N] --readonly -j STEP SIZE [options]\n"
"  The seed's `usemem -n 72 --readonly -j 0x200000 100G`, spelled as usemem\n"
"  spells it, run as `hzfbench run --fault kernel` (real huge-page read faults),\n"
"  then printed in usemem's units (bytes / usecs = KB/s per task, usecs to\n"
"  free memory) next to ours.\n"
"  -n, --nproc N       N processes, one mm each (default 1)\n"
"  -t, --thread N      N threads of one process instead\n"
"  -o, --readonly      read only: the one access pattern measured (required)\n"
"  -j, --step STEP     one read every STEP bytes (0x200000, 2M, ...)\n"
"  -O, --anonymous     taken and ignored: the region is anonymous anyway\n"
"  SIZE                bytes each task maps and reads (K/M/G/T, k/m/g/t)\n"
"  --strategy S        native (the running kernel alone, default), or an\n"
"                      emulated strategy taken beside each real fault\n"
"  --placement P, --reps R, --warmup W, --min-ms MS, --set-thp MODE, --events LIST,\n"
"  --out DIR,\n"
"  --quiet             as for `hzfbench run`\n"
"  -h, --help          this text\n";

/* usemem's options, then those of run's passed on to it as they are (RUN_OPTION) */
#define RUN_OPTION	1
static const struct option usemem_options[] = {
	{ "nproc", required_argument, NULL, 'n' },
	{ "thread", required_argument, NULL, 't' },
	{ "readonly", no_argument, NULL, 'o' },
	{ "step", required_argument, NULL, 'j' },
	{ "anonymous", no_argument, NULL, 'O' },
	{ "help", no_argument, NULL, 'h' },
	{ "strategy", required_argument, NULL, RUN_OPTION },
	{ "placement", required_argument, NULL, RUN_OPTION },
	{ "reps", required_argument, NULL, RUN_OPTION },
	{ "warmup", required_argument, NULL, RUN_OPTION },
	{ "min-ms", required_argument, NULL, RUN_OPTION },
	{ "set-thp", required_argument, NULL, RUN_OPTION },
	{ "events", required_argument, NULL, RUN_OPTION },
	{ "profile", no_argument, NULL, RUN_OPTION },
	{ "out", required_argument, NULL, RUN_OPTION },
	{ "quiet", no_argument, NULL, RUN_OPTION },
	{ NULL, 0, NULL, 0 },
};

/* typed: argv as it was typed, for meta.json (getopt reorders argv) */
static int usemem_run(int argc, char **argv, char **typed)
{
	const char *nproc = NULL, *nthread = NULL, *step = NULL;
	char *run_argv[40], dir[PATH_MAX], names[12][24];
	unsigned long long size_v, step_v;
	int run_argc = 0, npassed = 0, c, idx, err;
	bool readonly = false, strategy = false;
	unsigned long v;

	run_argv[run_argc++] = "run";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "n:t:oj:Oh", usemem_options, &idx)) != -1) {
		switch (c) {
		case 'n':
		case 't': {
			/* this machine's: usemem runs here */
			unsigned long cap = zf_tasks_cap(sysconf(_SC_NPROCESSORS_CONF));
			const char *why;

			if (zf_parse_ulong(optarg, 1, cap, &v, &why))
				return zf_bad_tasks(c == 'n' ? "-n" : "-t", optarg, why, cap);
			*(c == 'n' ? &nproc : &nthread) = optarg;
			break;
		}
		case 'o': readonly = true; break;
		case 'j': step = optarg; break;
		case 'O': break;
		case 'h':
			printf("%s", usemem_usage);
			return 0;
		case '?':
			if (optopt && strchr("ntj", optopt))
				fprintf(stderr, "hzfbench: usemem: -%c: needs a value\n", optopt);
			else
				fprintf(stderr, "hzfbench: usemem: %s: not taken here (usemem's -n, -t, "
					"--readonly, -j, -O, and run's options; see --help)\n",
					argv[optind - 1]);
			return 2;
		default:	/* one of run's, as it is */
			if (npassed == sizeof(names) / sizeof(names[0])) {
				fprintf(stderr, "hzfbench: usemem: too many options\n");
				return 2;
			}
			strategy |= !strcmp(usemem_options[idx].name, "strategy");
			snprintf(names[npassed], sizeof(names[0]), "--%s", usemem_options[idx].name);
			run_argv[run_argc++] = names[npassed++];
			if (usemem_options[idx].has_arg)
				run_argv[run_argc++] = optarg;
			break;
		}
	}
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
	if (!step) {
		fprintf(stderr, "hzfbench: usemem: -j missing: the step between reads (the seed's is -j 0x200000)\n");
		return 2;
	}
	if (zf_parse_size_opt("-j", step, &step_v))
		return 2;
	if (nproc && nthread) {
		fprintf(stderr, "hzfbench: usemem: -n %s -t %s: processes of threads are not measured; "
			"give one of them\n", nproc, nthread);
		return 2;
	}
	if (!readonly) {
		fprintf(stderr, "hzfbench: usemem: --readonly missing: writes allocate memory, "
			"only read faults map the huge zero folio\n");
		return 2;
	}
	run_argv[run_argc++] = "--fault";
	run_argv[run_argc++] = "kernel";
	if (!strategy) {
		run_argv[run_argc++] = "--strategy";
		run_argv[run_argc++] = "native";
	}
	run_argv[run_argc++] = "--tasks";
	run_argv[run_argc++] = (char *)(nthread ? nthread : nproc ? nproc : "1");
	run_argv[run_argc++] = "--task-kind";
	run_argv[run_argc++] = nthread ? "thread" : "process";
	run_argv[run_argc++] = "--size";
	run_argv[run_argc++] = argv[optind];
	run_argv[run_argc++] = "--step";
	run_argv[run_argc++] = (char *)step;
	run_argv[run_argc] = NULL;
	dir[0] = '\0';
	err = zf_sweep_or_run(run_argc, run_argv, true, argc, typed, dir, sizeof(dir));
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
