// SPDX-License-Identifier: GPL-2.0
/* run, sweep and topo: one configuration, lists of them, and the plan of a placement. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "cmd.h"
#include "kcheck.h"
#include "opt.h"
#include "parse.h"
#include "runopts.h"
#include "sweep.h"
#include "sysinfo.h"
#include "thpset.h"
#include "topo.h"
#include "vm.h"
#include "zeroout.h"

/* tasks: one a PU, or 4096 where there are fewer PUs (placement none oversubscribes) */
#define MAX_TASKS		4096

/* one line, naming the option and the value; exit status 2 (usage) */
#define bad zf_bad_value

unsigned long zf_tasks_cap(long pus)
{
	return pus > MAX_TASKS ? (unsigned long)pus : MAX_TASKS;
}

/* a task count's error, naming the cap when it was passed */
int zf_bad_tasks(const char *opt, const char *value, const char *why, unsigned long cap)
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

/* whether the sweep has faults of mode */
static bool sweep_has_fault(const struct zf_sweep *sw, enum zf_fault_mode mode)
{
	size_t i;

	for (i = 0; i < sw->nfaults; i++)
		if (sw->faults[i] == mode)
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
	bool kernel = sweep_has_fault(&o->sw, ZF_FAULT_KERNEL);
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
	unsigned long one, cap = zf_tasks_cap(topo->pus);

	if (single) {
		if (zf_parse_ulong(list, 1, cap, &one, &why))
			return zf_bad_tasks("--tasks", list, why, cap);
		o->sw.tasks = malloc(sizeof(long));
		if (!o->sw.tasks)
			return bad("--tasks", list, "out of memory");
		o->sw.tasks[0] = one;
		o->sw.ntasks = 1;
		return 0;
	}
	if (zf_parse_int_list(list, 1, cap, topo->pus, &o->sw.tasks, &o->sw.ntasks, &why))
		return zf_bad_tasks("--tasks", list, why, cap);
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
	if (o->set_thp && !sweep_has_fault(&o->sw, ZF_FAULT_KERNEL))
		return bad("--set-thp", o->set_thp, "only kernel faults use THP: add --fault kernel");
	if (!o->sw.mm_atomics && !sweep_has_fault(&o->sw, ZF_FAULT_EMULATED))
		return bad("--mm-atomics", "off", RUN_OR_SWEEP(o,
			   "a kernel fault counts its mm itself: only emulated faults leave it out",
			   "a kernel fault counts its mm itself: add emulated to --faults"));
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
		o->sw.options = zf_opt_meta(&o->opt, o);
		err = zf_sweep_run(&o->sw, &topo);
	}
	zf_topo_close(&topo);
	return err;
}

int zf_sweep_or_run(int argc, char **argv, bool single, int meta_argc, char **meta_argv,
			char *dir, size_t dir_len)
{
	struct zf_run_options o = { 0 };
	int err = sweep_or_run_options(argc, argv, single, meta_argc, meta_argv, dir, dir_len, &o);

	zf_sweep_free(&o.sw);
	zf_opt_free(&o.opt);
	return err;
}

/*
 * --workload zeroout has no faults and no mm: options of its own (zeroout.c),
 * which run's table does not hold and would refuse wherever they stand, so
 * the whole command line goes to it; it runs through the same runner
 */
static bool wants_zeroout(const struct zf_opt_set *set, int argc, char **argv)
{
	const char *w = zf_opt_peek(set, argc, argv, "workload");

	return w && !strcmp(w, "zeroout");
}

int cmd_run(int argc, char **argv)
{
	if (wants_zeroout(&zf_run_opts, argc, argv))
		return zf_zeroout_main(argc, argv);
	return zf_sweep_or_run(argc, argv, true, argc, argv, NULL, 0);
}

int cmd_sweep(int argc, char **argv)
{
	if (wants_zeroout(&zf_sweep_opts, argc, argv))
		return zf_zeroout_main(argc, argv);
	return zf_sweep_or_run(argc, argv, false, argc, argv, NULL, 0);
}

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

int cmd_topo(int argc, char **argv)
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
	if (n > zf_tasks_cap(topo.pus)) {
		zf_topo_close(&topo);
		return zf_bad_tasks("--tasks", o.tasks, "too large", zf_tasks_cap(topo.pus));
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
