// SPDX-License-Identifier: GPL-2.0
/*
 * hzfbench: what it costs many CPUs to share one page full of zeroes.
 * Subcommands and their options; everything else lives elsewhere.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/probe.h"
#include "../../bench/strategy.h"
#include "compat.h"
#include "c2c.h"
#include "model.h"
#include "compare.h"
#include "detect.h"
#include "doctorcmd.h"
#include "zeroout.h"
#include "history.h"
#include "numa.h"
#include "opt.h"
#include "parse.h"
#include "report.h"
#include "runopts.h"
#include "perfctr.h"
#include "show.h"
#include "sysinfo.h"
#include "thpset.h"
#include "kcheck.h"
#include "sweep.h"
#include "topo.h"
#include "vm.h"

#ifndef HZF_VERSION
#define HZF_VERSION "0.1"
#endif

/* tasks: one a PU, or 4096 where there are fewer PUs (placement none oversubscribes) */
#define MAX_TASKS		4096

/* one line, naming the option and the value; exit status 2 (usage) */
#define bad zf_bad_value

static unsigned long tasks_cap(long pus)
{
	return pus > MAX_TASKS ? (unsigned long)pus : MAX_TASKS;
}

/* a task count's error, naming the cap when it was passed */
static int bad_tasks(const char *opt, const char *value, const char *why, unsigned long cap)
{
	char reason[128];

	if (strcmp(why, "too large"))
		return bad(opt, value, why);
	snprintf(reason, sizeof(reason), "too large (at most %lu: one task a PU, or 4096 where there "
		 "are fewer PUs)", cap);
	return bad(opt, value, reason);
}

#define parse_num_opt zf_parse_num_opt

typedef int (*word_fn)(const char *word, size_t i, void *out);

/* each word of a comma list through fn; a bad one named with the option as typed */
static int each_word(const char *opt, const char *list, word_fn fn, void *out, size_t *n,
		     const char *what)
{
	const char *why;
	char *buf, **words;
	size_t i;
	int err = 0;

	if (zf_split_list(list, &buf, &words, n, &why))
		return bad(opt, list, why);
	for (i = 0; i < *n && !err; i++)
		if (fn(words[i], i, out))
			err = bad(opt, words[i], what);
	free(words);
	free(buf);
	return err;
}

static int one_strategy(const char *word, size_t i, void *out)
{
	const struct zf_strategy **strategies = out;

	strategies[i] = zf_strategy_find(word);
	return strategies[i] ? 0 : -EINVAL;
}

static int one_kind(const char *word, size_t i, void *out)
{
	return zf_task_kind_parse(word, &((enum zf_task_kind *)out)[i]);
}

static int one_fault(const char *word, size_t i, void *out)
{
	return zf_fault_mode_parse(word, &((enum zf_fault_mode *)out)[i]);
}

static int parse_faults(struct zf_run_options *o)
{
	const char *list = o->faults ? o->faults : "emulated";

	o->sw.faults = calloc(strlen(list) + 1, sizeof(*o->sw.faults));
	return each_word(RUN_OR_SWEEP(o, "--fault", "--faults"), list, one_fault, o->sw.faults,
			 &o->sw.nfaults, "not a fault mode (emulated, kernel)");
}

static bool sweep_has_kernel(const struct zf_sweep *sw)
{
	size_t i;

	for (i = 0; i < sw->nfaults; i++)
		if (sw->faults[i] == ZF_FAULT_KERNEL)
			return true;
	return false;
}

static int parse_strategies(struct zf_run_options *o, const char *def)
{
	char names[160];
	const char *list = o->strategies ? o->strategies : def;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers to the table */
	o->sw.strategies = calloc(strlen(list) + 1, sizeof(*o->sw.strategies));
	return each_word(RUN_OR_SWEEP(o, "--strategy", "--strategies"), list, one_strategy,
			 o->sw.strategies, &o->sw.nstrategies,
			 zf_strategy_not_one(names, sizeof(names), "a strategy", NULL));
}

/*
 * sweep's strategies when none are named, from the table: each that runs
 * emulated faults, and with real faults those that exist only on them
 * (global,mmflag,persistent,percpu and native)
 */
static int parse_sweep_strategies(struct zf_run_options *o)
{
	const struct zf_strategy *const *s;
	bool kernel = sweep_has_kernel(&o->sw);
	struct zf_buf def = { 0 };
	int err;

	for (s = zf_strategies; *s; s++)
		if ((*s)->fault_pass || (kernel && (*s)->kernel_fault_pass))
			zf_buf_printf(&def, "%s%s", def.len ? "," : "", (*s)->name);
	err = def.oom ? -ENOMEM : parse_strategies(o, def.text ? def.text : "");
	zf_buf_free(&def);
	return err;
}

static int parse_kinds(struct zf_run_options *o, const char *def)
{
	const char *list = o->task_kinds ? o->task_kinds : def;

	o->sw.kinds = calloc(strlen(list) + 1, sizeof(*o->sw.kinds));
	return each_word(RUN_OR_SWEEP(o, "--task-kind", "--task-kinds"), list, one_kind,
			 o->sw.kinds, &o->sw.nkinds, "not a task kind (thread, process)");
}

static int parse_placements(struct zf_run_options *o, const char *def, bool single)
{
	const char *list = o->placements ? o->placements : def, *why;
	char *buf, **words;
	size_t i, n;

	if (single) {
		/* run's --placement is one value: cpus:0,2 keeps its comma */
		buf = strdup(list);
		words = calloc(1, sizeof(*words));
		words[0] = buf;
		n = 1;
	} else if (zf_split_list(list, &buf, &words, &n, &why)) {
		return bad("--placements", list, why);
	}
	o->sw.placements = words;	/* freed with the other lists, also on error */
	o->sw.nplacements = n;
	for (i = 0; i < n; i++)
		if (zf_placement_check(words[i], &why))
			return bad("--placement", words[i], why);
	return 0;
}

static int parse_tasks(struct zf_run_options *o, struct zf_topo *topo, bool single)
{
	const char *list = o->tasks ? o->tasks : single ? "1" : "pow2", *why;
	unsigned long one, cap = tasks_cap(topo->pus);

	if (single) {
		if (zf_parse_ulong(list, 1, cap, &one, &why))
			return bad_tasks("--tasks", list, why, cap);
		o->sw.tasks = malloc(sizeof(long));
		if (!o->sw.tasks)
			return bad("--tasks", list, "out of memory");
		o->sw.tasks[0] = one;
		o->sw.ntasks = 1;
		return 0;
	}
	if (zf_parse_int_list(list, 1, cap, topo->pus, &o->sw.tasks, &o->sw.ntasks, &why))
		return bad_tasks("--tasks", list, why, cap);
	return 0;
}

static int open_topology(struct zf_run_options *o, struct zf_topo *topo, bool must_run)
{
	char why[512];

	if (zf_topo_open(topo, o->topology, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --topology: %s\n", why);
		return 2;
	}
	if (must_run && !topo->thissystem) {
		fprintf(stderr, "hzfbench: topology: %s: not this machine; plan with `hzfbench topo`, run on the real one\n",
			topo->source);
		zf_topo_close(topo);
		return 2;
	}
	return 0;
}

/*
 * run or sweep with argv; meta_argv is the command line meta.json records
 * (usemem's, when that is what was typed); dir, when set, gets the folder
 */
static int sweep_or_run_options(int argc, char **argv, bool single, int meta_argc,
				char **meta_argv, char *dir, size_t dir_len, struct zf_run_options *o)
{
	const char *cmd = single ? "run" : "sweep";
	struct zf_topo topo;
	int err;

	err = zf_run_options_parse(cmd, argc, argv, o);
	if (err == ZF_OPT_DONE)
		return 0;
	if (!err)
		err = parse_faults(o);
	if (!err)
		err = single ? parse_strategies(o, "global") : parse_sweep_strategies(o);
	if (!err)
		err = parse_kinds(o, single ? o->sw.workload == ZF_WORKLOAD_LIFECYCLE ? "process" : "thread"
				  : o->sw.workload == ZF_WORKLOAD_LIFECYCLE ? "process" : "thread,process");
	for (size_t k = 0; !err && o->sw.workload == ZF_WORKLOAD_LIFECYCLE && k < o->sw.nkinds; k++)
		if (o->sw.kinds[k] == ZF_TASK_THREAD)
			err = bad(single ? "--task-kind" : "--task-kinds", o->task_kinds,
				  "--workload lifecycle gives each life an mm of its own: process");
	if (!err)
		err = parse_placements(o, "compact", single);
	if (err)
		return err;
	if (single && o->sw.nstrategies != 1)
		return bad("--strategy", o->strategies, "run takes one value; use sweep for lists");
	if (single && o->sw.nkinds != 1)
		return bad("--task-kind", o->task_kinds, "run takes one value; use sweep for lists");
	if (single && o->sw.nfaults != 1)
		return bad("--fault", o->faults, "run takes one value; use sweep for lists");
	if (single && o->sw.faults[0] == ZF_FAULT_EMULATED && !o->sw.strategies[0]->fault_pass)
		return bad("--strategy", o->sw.strategies[0]->name,
			   "measures the running kernel alone: needs --fault kernel");
	if (o->set_thp && !sweep_has_kernel(&o->sw))
		return bad("--set-thp", o->set_thp, "only kernel faults use THP: add --fault kernel");
	err = open_topology(o, &topo, !o->sw.plan);	/* a plan may be for another machine */
	if (err)
		return err;
	err = parse_tasks(o, &topo, single);
	if (!err && o->set_thp && !o->sw.plan) {
		char why[PATH_MAX + 128];

		if (zf_thp_set(o->set_thp, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: --set-thp: %s: %s\n", o->set_thp, why);
			err = 1;
		}
	}
	if (!err) {
		o->sw.argc = meta_argc;
		o->sw.argv = meta_argv;
		o->sw.dir_out = dir;
		o->sw.dir_out_len = dir_len;
		err = zf_sweep_run(&o->sw, &topo);
	}
	zf_topo_close(&topo);
	return err;
}

static int sweep_or_run(int argc, char **argv, bool single, int meta_argc, char **meta_argv,
			char *dir, size_t dir_len)
{
	struct zf_run_options o = { 0 };
	int err = sweep_or_run_options(argc, argv, single, meta_argc, meta_argv, dir, dir_len, &o);

	zf_sweep_free(&o.sw);
	zf_opt_free(&o.opt);
	return err;
}

/* --workload zeroout has no faults and no mm: its own engine and options (zeroout.c) */
static bool wants_zeroout(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if ((!strcmp(argv[i], "--workload") && i + 1 < argc && !strcmp(argv[i + 1], "zeroout")) ||
		    !strcmp(argv[i], "--workload=zeroout"))
			return true;
	return false;
}

static int cmd_run(int argc, char **argv)
{
	if (wants_zeroout(argc, argv))
		return zf_zeroout_main(argc, argv);
	return sweep_or_run(argc, argv, true, argc, argv, NULL, 0);
}

static int cmd_sweep(int argc, char **argv)
{
	if (wants_zeroout(argc, argv))
		return zf_zeroout_main(argc, argv);
	return sweep_or_run(argc, argv, false, argc, argv, NULL, 0);
}

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
			unsigned long cap = tasks_cap(sysconf(_SC_NPROCESSORS_CONF));
			const char *why;

			if (zf_parse_ulong(optarg, 1, cap, &v, &why))
				return bad_tasks(c == 'n' ? "-n" : "-t", optarg, why, cap);
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
	err = sweep_or_run(run_argc, run_argv, true, argc, typed, dir, sizeof(dir));
	if (!err && dir[0] && zf_usemem_report(dir, size_v, step_v, stdout))
		err = 1;
	return err;
}

static int cmd_usemem(int argc, char **argv)
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
static int topo_plan(struct zf_topo *topo, const char *placement, unsigned long n)
{
	size_t len = strlen(placement) + ZF_PLACEMENT_WHY_LEN;	/* the error names it */
	char *reason = malloc(len);
	struct zf_plan plan;
	int err = 0;

	if (!reason)
		return bad("--placement", placement, "out of memory");
	if (!n) {
		int cap = zf_placement_capacity(topo, placement, reason, len);

		if (cap < 0)
			err = bad("--placement", placement, reason);
		n = cap > 0 ? cap : 1;
	}
	if (!err && zf_plan_make(topo, placement, n, &plan, reason, len)) {
		fprintf(stderr, "hzfbench: --tasks: %lu: %s\n", n, reason);
		err = 2;
	} else if (!err) {
		zf_plan_print(&plan, stdout);
		zf_plan_free(&plan);
	}
	free(reason);
	return err;
}

static int cmd_topo(int argc, char **argv)
{
	struct zf_run_options o = { 0 };
	struct zf_topo topo;
	const char *why;
	char zero_why[512];
	unsigned long n = 0;
	int err;

	err = zf_run_options_parse("topo", argc, argv, &o);
	zf_opt_free(&o.opt);
	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (o.tasks && zf_parse_ulong(o.tasks, 1, ULONG_MAX, &n, &why))
		return bad("--tasks", o.tasks, why);
	if (o.placements && zf_placement_check(o.placements, &why))
		return bad("--placement", o.placements, why);
	err = open_topology(&o, &topo, false);
	if (err)
		return err;
	if (n > tasks_cap(topo.pus)) {
		zf_topo_close(&topo);
		return bad_tasks("--tasks", o.tasks, "too large", tasks_cap(topo.pus));
	}
	if (o.summary) {
		printf("packages=%d numa_nodes=%d cores=%d pus=%d\n", topo.packages,
		       topo.numa_nodes, topo.cores, topo.pus);
		zf_topo_close(&topo);
		return 0;
	}
	zf_topo_print(&topo, stdout);
	if (topo.thissystem) {
		struct zf_sysinfo si;

		zf_sysinfo_read(&si);
		printf("kernel: %s; THP enabled=%s defrag=%s use_zero_page=%s; "
		       "PERSISTENT_HUGE_ZERO_FOLIO=%s; counts the huge zero folio as: %s\n",
		       si.kernel_release, si.thp_enabled[0] ? si.thp_enabled : "?",
		       si.thp_defrag[0] ? si.thp_defrag : "?",
		       si.thp_use_zero_page[0] ? si.thp_use_zero_page : "?",
		       si.persistent_huge_zero_folio, si.kernel_strategy);
		if (!zf_thp_usable(&si, zero_why, sizeof(zero_why))) {
			int mapped = zf_huge_zero_probe(zero_why, sizeof(zero_why));

			printf("huge zero folio: %s%s\n", mapped > 0 ? "mapped by read faults" :
			       mapped ? "unknown: " : "not mapped: ", mapped > 0 ? "" : zero_why);
		}
	}
	if (o.placements || o.tasks)
		err = topo_plan(&topo, o.placements ? o.placements : "compact", n);
	zf_topo_close(&topo);
	return err;
}

static int cmd_probe(int argc, char **argv)
{
	unsigned long fault_ns = 0;
	struct zf_probe p;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: hzfbench probe [--fault-ns NS]\n"
		       "  Measure the reference loops a run is read against: a bare\n"
		       "  atomic_inc_not_zero() CAS loop on one line, a pointer read, and\n"
		       "  the busy-work calibration (with --fault-ns, as a run of it\n"
		       "  calibrates: the iterations a call of NS takes). Medians of 7 rounds.\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--fault-ns")) {
		if (parse_num_opt("--fault-ns", argv[2], 0, 10000000, &fault_ns))
			return 2;
	} else if (argc > 1) {
		fprintf(stderr, "hzfbench: probe: %s: unexpected argument\n", argv[1]);
		return 2;
	}
	zf_probe_measure(&p, (double)fault_ns);
	printf("inc_not_zero_ns    %.3f\npointer_read_ns    %.3f\nbusy_unit          %s\n"
	       "busy_iters_per_ns  %.4f\n",
	       p.inc_not_zero_ns, p.pointer_read_ns, p.busy_unit, p.busy_iters_per_ns);
	if (fault_ns)
		printf("busy_ns            %.1f\nbusy_iters         %lu\nbusy_call_ns       %.2f\n",
		       p.busy_ns, p.busy_iters, p.busy_call_ns);
	return 0;
}

static const char compare_usage[] =
"usage: hzfbench compare BASE_DIR NEW_DIR [options]\n"
"  Match the two folders' configurations by their key columns and hold each\n"
"  metric's repetitions against each other: median ± %stddev, %change, and\n"
"  the two-sided Mann-Whitney U p-value. Writes compare.csv and compare.json\n"
"  (into NEW_DIR, or --out). Exit status 1 when a configuration regressed:\n"
"  p < alpha and worse by more than the threshold; 0 otherwise; 2 on bad input.\n"
"  --metric LIST       ns_per_fault, faults_per_sec, teardown_ns_per_fault,\n"
"                      fairness_min_max, get_ns_in_fault (default: the first three)\n"
"  --threshold PCT     the change that counts as a regression (default 10)\n"
"  --alpha A           the significance level (default 0.05)\n"
"  --out DIR           where compare.csv and compare.json go (default NEW_DIR)\n"
"  --normalize S       compare each repetition over the same repetition of\n"
"                      strategy S in its configuration (a ratio: what a CI on\n"
"                      other machines can hold against a committed baseline)\n"
"  --ungated PATTERN   test and show the configurations whose key matches, but\n"
"                      never fail on them (verdict regressed-ungated): fields\n"
"                      in key order, strategy,fault,task_kind,tasks,..., '*'\n"
"                      for any, the rest any: global,*,*,2 (repeatable, 8 at most)\n"
"  --quiet             no table\n";

/* a decimal number in [min, max], all of arg */
static int parse_double_opt(const char *opt, const char *arg, double min, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || isnan(*out))
		return bad(opt, arg, "not a number");
	if (*out < min || *out > max) {
		char why[64];

		snprintf(why, sizeof(why), "out of range (%g to %g)", min, max);
		return bad(opt, arg, why);
	}
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	char names[160];
	static const struct option opts[] = {
		{ "metric", required_argument, NULL, 'm' }, { "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' }, { "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
		{ "normalize", required_argument, NULL, 'n' },
		{ "ungated", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 },
	};
	const char *why;
	struct zf_compare_opts o = { .threshold_pct = 10, .alpha = 0.05,
				     .metrics = { "ns_per_fault", "faults_per_sec", "teardown_ns_per_fault" },
				     .nmetrics = 3 };
	char *list = NULL;
	int c, err = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1 && !err) {
		switch (c) {
		case 'm': list = optarg; break;
		case 't': err = parse_double_opt("--threshold", optarg, 0, 1e6, &o.threshold_pct); break;
		case 'a': err = parse_double_opt("--alpha", optarg, 1e-9, 1, &o.alpha); break;
		case 'o': o.out = optarg; break;
		case 'q': o.quiet = true; break;
		case 'n':
			if (!zf_strategy_find(optarg))
				return bad("--normalize", optarg,
					   zf_strategy_not_one(names, sizeof(names), "a strategy", NULL));
			o.normalize = optarg;
			break;
		case 'u':
			if (o.nungated == 8)
				return bad("--ungated", optarg, "8 patterns at most");
			if (zf_compare_pattern_check(optarg, &why))
				return bad("--ungated", optarg, why);
			o.ungated[o.nungated++] = optarg;
			break;
		case 'h': printf("%s", compare_usage); return 0;
		default:
			return zf_opt_unknown("compare", argv);
		}
	}
	if (err)
		return err;
	if (list) {
		char *copy = strdup(list), *w, *save = NULL;

		o.nmetrics = 0;
		for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			bool higher;

			if (!zf_compare_metric_known(w, &higher) || o.nmetrics == 8) {
				err = bad("--metric", w, o.nmetrics == 8 ? "too many metrics" :
					  "not a metric (ns_per_fault, faults_per_sec, teardown_ns_per_fault, fairness_min_max, get_ns_in_fault)");
				break;
			}
			o.metrics[o.nmetrics++] = list + (w - copy);
			list[w - copy + strlen(w)] = '\0';
		}
		free(copy);
		if (!err && !o.nmetrics)
			err = bad("--metric", list, "empty list");
		if (err)
			return err;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "hzfbench: compare: %s (hzfbench compare --help)\n",
			argc - optind < 2 ? "BASE_DIR and NEW_DIR are needed" : "two folders, no more");
		return 2;
	}
	o.base = argv[optind];
	o.new_dir = argv[optind + 1];
	return zf_compare(&o, stdout);
}

static const char history_usage[] =
"usage: hzfbench history FILE DIR\n"
"  Append every configuration of the complete results folder DIR (its\n"
"  summary.csv medians, with its end time, git revision, host and kernel) to\n"
"  the CI history FILE, made with a header when new. Appenders take an\n"
"  exclusive lock on FILE, so that runs at once never interleave rows.\n";

/* `SUBCOMMAND -h|--help` alone: print usage */
static bool asked_help(int argc, char **argv, const char *usage)
{
	if (argc != 2 || (strcmp(argv[1], "-h") && strcmp(argv[1], "--help")))
		return false;
	printf("%s", usage);
	return true;
}

static int cmd_history(int argc, char **argv)
{
	if (asked_help(argc, argv, history_usage))
		return 0;
	if (argc != 3) {
		fprintf(stderr, "hzfbench: history: FILE and DIR are needed (hzfbench history --help)\n");
		return 2;
	}
	return zf_history_append(argv[1], argv[2]);
}

static const char report_usage[] =
"usage: hzfbench report DIR\n"
"  Render every chart of plots/ into DIR/plots (PNG, SVG, PDF; a chart whose\n"
"  data the folder lacks says why and is left out) and write DIR/report.html:\n"
"  machine and kernel, a headline, summary.csv's key table, every chart inline.\n"
"  The charts need gnuplot (Debian: gnuplot-nox); without it, one line says they\n"
"  are skipped and report.html holds the tables. HZF_PLOTS names the scripts' folder.\n";

static int cmd_report(int argc, char **argv)
{
	if (asked_help(argc, argv, report_usage))
		return 0;
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "hzfbench: report: %s\n", argc < 2 ? "DIR missing (hzfbench report --help)" :
			argc > 2 ? "one results folder at a time" : "not a folder name (hzfbench report --help)");
		return 2;
	}
	return zf_report(argv[1]);
}

static int cmd_show(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: hzfbench show DIR\n"
		       "  Print DIR/summary.csv as a table, with the contention ratios.\n");
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "hzfbench: show: needs one results folder\n");
		return 2;
	}
	return zf_show(argv[1], stdout) ? 1 : 0;
}

static int cmd_strategies(int argc, char **argv)
{
	const struct zf_strategy *const *s;

	if (argc > 1 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h")) {
		fprintf(stderr, "hzfbench: strategies: %s: unexpected argument\n", argv[1]);
		return 2;
	}
	for (s = zf_strategies; *s; s++)
		printf("%-11s %s\n", (*s)->name, (*s)->summary);
	return 0;
}

struct subcommand {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
};

static const struct subcommand subcommands[] = {
	{ "run",	"one configuration into a results folder",		cmd_run },
	{ "sweep",	"every configuration of lists into one results folder",	cmd_sweep },
	{ "topo",	"the machine and the PUs a placement gives, nothing run", cmd_topo },
	{ "show",	"a results folder's summary as a table",		cmd_show },
	{ "report",	"a results folder's charts and report.html (gnuplot)",	cmd_report },
	{ "compare",	"two results folders, LKP style; exit 1 on a regression", cmd_compare },
	{ "history",	"append a results folder to a CI history file",		cmd_history },
	{ "c2c",	"core-to-core hand-off latency matrix by cache-line ping-pong", zf_c2c_main },
	{ "model",	"predicted cost against tasks from hand-off latencies",	zf_model_main },
	{ "zeroout",	"mm-less users zeroing storage from the zero page or the huge zero folio",
			zf_zeroout_main },
	{ "usemem",	"usemem's spelling of the seed's command, usemem's units too", cmd_usemem },
	{ "doctor",	"what on this machine can skew a timing, and the fixes",	zf_doctor_main },
	{ "detect",	"how the running kernel counts the huge zero folio, from what it does",
			zf_detect_main },
	{ "vm",		"a subcommand inside a qemu guest of the topology and kernel asked for",
		zf_vm_main },
	{ "probe",	"reference loops: bare inc_not_zero, pointer read",	cmd_probe },
	{ "strategies",	"the strategies and what each models",			cmd_strategies },
	{ NULL, NULL, NULL },
};

static void usage(FILE *out)
{
	const struct subcommand *c;

	fprintf(out, "usage: hzfbench <subcommand> [options]   (hzfbench <subcommand> --help)\n");
	for (c = subcommands; c->name; c++)
		fprintf(out, "  %-11s %s\n", c->name, c->summary);
	fprintf(out, "  --version   print the version\n");
}

int main(int argc, char **argv)
{
	const struct subcommand *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		if (argc > 2) {
			fprintf(stderr, "hzfbench: --version: %s: unexpected argument\n", argv[2]);
			return 2;
		}
		printf("hzfbench %s\n", HZF_VERSION);
		return 0;
	}
	for (c = subcommands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "hzfbench: %s: not a subcommand (hzfbench --help)\n", argv[1]);
	return 2;
}
