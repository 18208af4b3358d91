// SPDX-License-Identifier: GPL-2.0
/*
 * run's, sweep's and topo's options, each declared once in opt_table: its
 * value, default, bounds, subcommands and help. What one option implies for
 * another (--max-reps needs --reps auto, a life's size) is checked after.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../../bench/strategy.h"
#include "numa.h"
#include "json.h"
#include "parse.h"
#include "perfctr.h"
#include "runopts.h"
#include "thpset.h"

#define MAX_FAULTS_PER_PASS	(1UL << 26)

/* one line, naming the option and the value; exit status 2 (usage) */
#define bad zf_bad_value
#define parse_num_opt zf_parse_num_opt

static bool emulates(const struct zf_strategy *s)
{
	return s->fault_pass != NULL;
}

static int opt_inject(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;
	const char *eq = strchr(arg, '=');
	char strategy[32], names[160];

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(strategy))
		return bad(opt, arg, "not STRATEGY=NS");
	snprintf(strategy, sizeof(strategy), "%.*s", (int)(eq - arg), arg);
	o->sw.inject = zf_strategy_find(strategy);
	if (!o->sw.inject || !o->sw.inject->fault_pass)
		return bad(opt, arg, zf_strategy_not_one(names, sizeof(names), "an emulated strategy",
							 emulates));
	return parse_num_opt(opt, eq + 1, 1, 10000000, &o->sw.inject_ns);
}

/* --events LIST, or list[=PATTERN]: what this machine counts, printed; exit 0 */
static int opt_events(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;
	const char *why;
	char word[ZF_PERF_NAME_MAX];

	if (!strcmp(arg, "list") || !strncmp(arg, "list=", 5)) {
		zf_perf_print_list(stdout, arg[4] ? arg + 5 : NULL);
		return ZF_OPT_DONE;
	}
	return zf_perf_parse(arg, &o->sw.events, word, sizeof(word), &why) ? bad(opt, word, why) : 0;
}

static int opt_set_thp(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;

	if (!zf_thp_mode_valid(arg))
		return bad(opt, arg, "not a THP mode (madvise, always)");
	o->set_thp = arg;
	return 0;
}

static int opt_workload(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;

	if (!strcmp(arg, "usemem"))
		o->sw.workload = ZF_WORKLOAD_USEMEM;
	else if (!strcmp(arg, "lifecycle"))
		o->sw.workload = ZF_WORKLOAD_LIFECYCLE;
	else
		return bad(opt, arg, "not a workload (usemem, lifecycle, zeroout)");
	return 0;
}

static int opt_reps(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;

	o->sw.reps_auto = !strcmp(arg, "auto");
	return o->sw.reps_auto ? 0 : parse_num_opt(opt, arg, 1, 100000, &o->sw.reps);
}

static int opt_tag(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;
	const char *why;
	char shown[160];
	size_t i, k = 0;

	if (!zf_tag_check(arg, &why)) {
		o->sw.tag = arg;
		return 0;
	}
	/* a newline in the value would break the one-line error */
	for (i = 0; arg[i] && k + 5 < sizeof(shown); i++)
		k += snprintf(shown + k, sizeof(shown) - k,
			      (unsigned char)arg[i] < ' ' || arg[i] == 0x7f ? "\\x%02x" : "%c",
			      (unsigned char)arg[i]);
	shown[k] = '\0';
	return bad(opt, shown, why);
}

static int opt_sched(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;
	const char *why;

	return zf_sched_parse(arg, &o->sw.sched, &why) ? bad(opt, arg, why) : 0;
}

static int opt_counter_node(const char *opt, const char *arg, void *opts)
{
	struct zf_run_options *o = opts;
	unsigned long v;
	int err = parse_num_opt(opt, arg, 0, INT_MAX, &v);

	if (!err && (long)v > zf_numa_max_node()) {
		char reason[64];

		snprintf(reason, sizeof(reason), "no such NUMA node (this machine has 0-%d)",
			 zf_numa_max_node());
		err = bad(opt, arg, reason);
	}
	if (!err)
		o->sw.counter_node = v;
	return err;
}

/*
 * meta.json's "options": what each option came to once the lists are
 * expanded (pow2 as its task counts, strategies by name), as sweep runs it
 */
#define SWEEP(opts)	(&((const struct zf_run_options *)(opts))->sw)

/* fn(): an array of sw->n items, item the i-th */
#define META_LIST(fn, n, item)						\
static json_t *fn(const void *opts)					\
{									\
	const struct zf_sweep *sw = SWEEP(opts);			\
	json_t *a = json_array();					\
	size_t i;							\
									\
	for (i = 0; i < sw->n; i++)					\
		zf_json_push(&a, item);					\
	return a;							\
}

META_LIST(meta_strategies, nstrategies, zf_json_text(sw->strategies[i]->name))
META_LIST(meta_tasks, ntasks, json_integer(sw->tasks[i]))
META_LIST(meta_kinds, nkinds, json_string(zf_task_kind_name(sw->kinds[i])))
META_LIST(meta_placements, nplacements, zf_json_text(sw->placements[i]))
META_LIST(meta_faults, nfaults, json_string(zf_fault_mode_name(sw->faults[i])))
META_LIST(meta_events, events.n, zf_json_text(sw->events.ev[i].name))

static json_t *meta_workload(const void *opts)
{
	return json_string(zf_workload_name(SWEEP(opts)->workload));
}

static json_t *meta_reps(const void *opts)
{
	const struct zf_sweep *sw = SWEEP(opts);

	return sw->reps_auto ? json_string("auto") : json_integer((json_int_t)sw->reps);
}

/* --min-reps, --max-reps, --target-ci: kept where --reps auto uses them */
static json_t *meta_min_reps(const void *opts)
{
	const struct zf_sweep *sw = SWEEP(opts);

	return sw->reps_auto ? json_integer((json_int_t)sw->min_reps) : NULL;
}

static json_t *meta_max_reps(const void *opts)
{
	const struct zf_sweep *sw = SWEEP(opts);

	return sw->reps_auto ? json_integer((json_int_t)sw->max_reps) : NULL;
}

static json_t *meta_target_ci(const void *opts)
{
	const struct zf_sweep *sw = SWEEP(opts);

	return sw->reps_auto ? zf_json_real(sw->target_ci_pct) : NULL;
}

static json_t *meta_counter_node(const void *opts)
{
	return json_integer(SWEEP(opts)->counter_node);
}

static json_t *meta_inject(const void *opts)
{
	const struct zf_sweep *sw = SWEEP(opts);

	return sw->inject ? json_pack("{s:s, s:I}", "strategy", sw->inject->name,
				      "ns", (json_int_t)sw->inject_ns) : json_null();
}

static json_t *meta_sched(const void *opts)
{
	char name[32];

	return json_string(zf_sched_name(&SWEEP(opts)->sched, name, sizeof(name)));
}

static const char *const on_off[] = { "on", "off", NULL };

#define FIELD(f)	.off = offsetof(struct zf_run_options, f)
#define CUSTOM(fn)	.kind = ZF_OPT_CUSTOM, .parse = fn
#define META(key, fn)	.meta = (key), .meta_json = (fn)

/* run's, sweep's and topo's options, in the order --help lists them */
static const struct zf_opt opt_table[] = {
	{ .name = "strategy", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_RUN, FIELD(strategies),
	  .arg = "S", .def = "global", .help = "global, mmflag, persistent, percpu, or native "
	  "(the running kernel alone, with --fault kernel)",
	  META("strategies", meta_strategies),
	  .complete = ZF_COMPLETE_STRATEGY },
	{ .name = "strategies", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_SWEEP, FIELD(strategies),
	  .arg = "LIST", .help = "strategies (default global,mmflag,persistent,percpu, and "
	  "native for kernel faults)",
	  META("strategies", meta_strategies),
	  .complete = ZF_COMPLETE_STRATEGIES },
	{ .name = "tasks", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_RUN, FIELD(tasks), .arg = "N",
	  .def = "1", .help = "tasks",
	  META("tasks", meta_tasks) },
	{ .name = "tasks", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_SWEEP, FIELD(tasks), .arg = "LIST",
	  .def = "pow2", .help = "1,2,4 or 1-8 or pow2 (1,2,4,... and the CPU count) or all",
	  META("tasks", meta_tasks) },
	{ .name = "tasks", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_TOPO, FIELD(tasks), .arg = "N",
	  .help = "plan this many tasks (default: as many as the placement has PUs)" },
	{ .name = "task-kind", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_RUN, FIELD(task_kinds),
	  .arg = "K", .help = "thread (one shared mm) or process (one mm each) (default thread; "
	  "process with --workload lifecycle)",
	  META("task_kinds", meta_kinds) },
	{ .name = "task-kinds", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_SWEEP, FIELD(task_kinds),
	  .arg = "LIST", .help = "thread, process (default thread,process; process with "
	  "--workload lifecycle)",
	  META("task_kinds", meta_kinds) },
	{ .name = "placement", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_RUN, FIELD(placements),
	  .arg = "P", .def = "compact", .help = "compact, scatter, node:N, cpus:LIST or none",
	  META("placements", meta_placements) },
	{ .name = "placement", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_TOPO, FIELD(placements),
	  .arg = "P", .help = "compact, scatter, node:N, cpus:LIST or none: print the PUs it "
	  "gives each task (default with --tasks: compact)" },
	{ .name = "placements", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_SWEEP, FIELD(placements),
	  .arg = "LIST", .def = "compact", .help = "a placement with commas, cpus:0,2, needs "
	  "ranges instead: cpus:0-1",
	  META("placements", meta_placements) },
	{ .name = "fault", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_RUN, FIELD(faults), .arg = "MODE",
	  .def = "emulated", .help = "emulated (busy work stands for the fault) or kernel (real "
	  "huge-page read faults of a fresh MADV_HUGEPAGE region)",
	  META("faults", meta_faults) },
	{ .name = "faults", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_SWEEP, FIELD(faults), .arg = "LIST",
	  .def = "emulated", .help = "emulated, kernel (native runs on kernel only)",
	  META("faults", meta_faults) },
	{ .name = "quiet", .kind = ZF_OPT_FLAG, .cmds = ZF_CMD_RUN, FIELD(sw.quiet),
	  .help = "no table at the end" },
	{ .name = "quiet", .kind = ZF_OPT_FLAG, .cmds = ZF_CMD_SWEEP, FIELD(sw.quiet),
	  .help = "no progress on stderr and no table" },
	{ .name = "plan", .kind = ZF_OPT_FLAG, .cmds = ZF_CMD_MEASURE, FIELD(sw.plan),
	  .help = "print the configurations, their repetitions and the estimated wall time, "
	  "from a few short probe runs here, and stop: nothing measured, nothing written "
	  "(with HWLOC_SYNTHETIC or --topology: for that machine)" },
	{ .name = "size", .kind = ZF_OPT_SIZE, .cmds = ZF_CMD_MEASURE, FIELD(sw.size), .arg = "BYTES",
	  .def = "100G", .help = "region per task per pass, K/M/G/T suffixes",
	  .meta = "size" },
	{ .name = "step", .kind = ZF_OPT_SIZE, .cmds = ZF_CMD_MEASURE, FIELD(sw.step), .arg = "BYTES",
	  .def = "2M", .help = "one fault every step",
	  .meta = "step" },
	{ .name = "fault-ns", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE, FIELD(sw.fault_ns),
	  .max = 10000000, .arg = "NS", .def = "0",
	  .help = "busy work per fault for the rest of the fault path",
	  .meta = "fault_ns" },
	{ .name = "mm-atomics", .kind = ZF_OPT_WORD, .words = on_off, .cmds = ZF_CMD_MEASURE,
	  FIELD(mm_atomics), .arg = "on|off", .def = "on", .help = "emulated faults: each "
	  "fault adds its page table's bytes to the mm's count and each zap takes them off, "
	  "atomically, as the kernel does (a line every thread of one mm writes); off leaves "
	  "the strategy's count alone",
	  .meta = "mm_atomics" },
	{ .name = "shrink-hz", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE, FIELD(sw.shrink_hz),
	  .max = 100000, .arg = "HZ", .def = "0", .help = "memory pressure: the strategy's "
	  "shrinker counts and scans this often while the tasks run; 0: never (100 with "
	  "--workload lifecycle where not given)",
	  .meta = "shrink_hz" },
	{ .name = "workload", CUSTOM(opt_workload), .cmds = ZF_CMD_MEASURE, FIELD(sw.workload),
	  .arg = "W", .def = "usemem", .help = "usemem (each task one --size region a pass), "
	  "lifecycle (process tasks in waves of short lives: each a new mm, --faults-per-life "
	  "faults, teardown, exit), or zeroout (options of its own: hzfbench zeroout --help)",
	  META("workload", meta_workload) },
	{ .name = "faults-per-life", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE,
	  FIELD(faults_per_life), .min = 1, .max = MAX_FAULTS_PER_PASS, .arg = "N", .def = "64",
	  .help = "lifecycle: faults in each life" },
	{ .name = "reps", CUSTOM(opt_reps), .cmds = ZF_CMD_MEASURE, FIELD(sw.reps), .arg = "R|auto",
	  .def = "5", .help = "measured repetitions; auto: repeat until the 95% confidence "
	  "interval of the median ns/fault is within --target-ci, at least --min-reps and at "
	  "most --max-reps",
	  META("reps", meta_reps) },
	{ .name = "max-reps", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE, FIELD(sw.max_reps),
	  .min = 6, .max = 100000, .arg = "N", .def = "30",
	  .help = "--reps auto: at most this many",
	  META("max_reps", meta_max_reps) },
	{ .name = "target-ci", .kind = ZF_OPT_PCT, .cmds = ZF_CMD_MEASURE, FIELD(sw.target_ci_pct),
	  .arg = "PCT", .def = "2",
	  .help = "--reps auto: the interval's half-width, in percent of the median",
	  META("target_ci_pct", meta_target_ci) },
	{ .name = "min-reps", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE, FIELD(sw.min_reps),
	  .min = 6, .max = 100000, .arg = "N", .def = "6",
	  .help = "--reps auto: at least this many, however soon the interval is met",
	  META("min_reps", meta_min_reps) },
	{ .name = "warmup", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE, FIELD(sw.warmup),
	  .max = 100000, .arg = "W", .def = "1", .help = "repetitions run first and not kept",
	  .meta = "warmup" },
	{ .name = "min-ms", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE, FIELD(sw.min_ms),
	  .max = 3600000, .arg = "MS", .def = "200",
	  .help = "passes per repetition are chosen so it lasts this",
	  .meta = "min_ms" },
	{ .name = "watchdog", .kind = ZF_OPT_ULONG, .cmds = ZF_CMD_MEASURE, FIELD(sw.watchdog_s),
	  .min = 1, .max = 86400, .arg = "SEC", .help = "fail the run when no task ends a pass "
	  "for SEC seconds: a task stopped, stuck or starved (default 60 + 10 x --min-ms)" },
	{ .name = "counter-node", CUSTOM(opt_counter_node), .cmds = ZF_CMD_MEASURE,
	  FIELD(sw.counter_node), .arg = "N",
	  .help = "NUMA node of the global counter (default: first task's node)",
	  META("counter_node", meta_counter_node) },
	{ .name = "events", CUSTOM(opt_events), .cmds = ZF_CMD_MEASURE, FIELD(sw.events),
	  .arg = "LIST", .def = zf_perf_default_events, .help = "perf events each task counts "
	  "on itself: perf's generic names, rNNNN[:config1=HEX], the PMU's own names (with "
	  "libpfm4), or none; list[=PATTERN] prints what this machine counts",
	  META("events", meta_events) },
	{ .name = "profile", .kind = ZF_OPT_FLAG, .cmds = ZF_CMD_MEASURE, FIELD(sw.profile),
	  .help = "sample each task's cpu-clock at 1 kHz, get() and put() called out of line, "
	  "for the share of time in each",
	  .meta = "profile" },
	{ .name = "inject-ns", CUSTOM(opt_inject), .cmds = ZF_CMD_MEASURE, FIELD(sw.inject),
	  .arg = "S=NS", .help = "for testing compare: strategy S alone gets NS more busy work "
	  "per fault (recorded in meta.json options.inject)",
	  META("inject", meta_inject) },
	{ .name = "set-thp", CUSTOM(opt_set_thp), .cmds = ZF_CMD_MEASURE, FIELD(set_thp),
	  .arg = "MODE", .help = "kernel faults: write MODE (madvise or always) to THP's enabled "
	  "and 1 to use_zero_page for the run, and put back what was there at exit and on "
	  "Ctrl-C (default: write nothing)" },
	{ .name = "sched", CUSTOM(opt_sched), .cmds = ZF_CMD_MEASURE, FIELD(sw.sched),
	  .arg = "POLICY[:PRIO]", .help = "each task runs under fifo, rr (real time, priority "
	  "1-99, default 1; needs root or CAP_SYS_NICE) or other (default: the policy it "
	  "inherits, normally other)",
	  META("sched", meta_sched) },
	{ .name = "tag", CUSTOM(opt_tag), .cmds = ZF_CMD_MEASURE, FIELD(sw.tag), .arg = "TEXT",
	  .help = "a label kept in meta.json and summary.csv's tag column" },
	{ .name = "summary", .kind = ZF_OPT_FLAG, .cmds = ZF_CMD_TOPO, FIELD(summary),
	  .help = "one line: packages=N numa_nodes=N cores=N pus=N" },
	{ .name = "topology", .kind = ZF_OPT_STRING, .cmds = ZF_CMD_MEASURE | ZF_CMD_TOPO,
	  FIELD(topology), .arg = "FILE",
	  .help = "an hwloc XML topology (run needs this machine's own)" },
	{ .name = "out", .kind = ZF_OPT_STRING, .check = zf_out_check, .cmds = ZF_CMD_MEASURE,
	  FIELD(sw.out), .arg = "DIR",
	  .help = "results folder, new or empty (default results/<UTC time>-<host>)" },
	ZF_OPT_PRINT_DEFAULTS(ZF_CMD_MEASURE),
	ZF_OPT_HELP_ENTRY(ZF_CMD_MEASURE | ZF_CMD_TOPO),
};

static const char run_usage[] =
"usage: hzfbench run [options]\n"
"  One configuration: --tasks tasks of one --task-kind, placed by --placement,\n"
"  each taking a read fault every --step of a --size region, against --strategy.\n";

static const char sweep_usage[] =
"usage: hzfbench sweep [options]\n"
"  Every configuration of the lists below, into one results folder.\n";

static const char topo_usage[] =
"usage: hzfbench topo [--placement P --tasks N] [--topology FILE.xml] [--summary]\n"
"  Print the machine (or HWLOC_SYNTHETIC's, or FILE's) and the PUs a placement\n"
"  gives each task, without running anything.\n";

#define RUN_SET(name, bit, text) { .opts = opt_table, \
	.n = sizeof(opt_table) / sizeof(opt_table[0]), .cmd = (name), .cmd_bit = (bit), .usage = (text) }

const struct zf_opt_set zf_run_opts = RUN_SET("run", ZF_CMD_RUN, run_usage);
const struct zf_opt_set zf_sweep_opts = RUN_SET("sweep", ZF_CMD_SWEEP, sweep_usage);
const struct zf_opt_set zf_topo_opts = RUN_SET("topo", ZF_CMD_TOPO, topo_usage);

int zf_run_options_parse(const char *cmd, int argc, char **argv, struct zf_run_options *o)
{
	const char *size, *step, *fpl;
	int err;

	o->opt = !strcmp(cmd, "run") ? zf_run_opts : !strcmp(cmd, "sweep") ? zf_sweep_opts :
		 zf_topo_opts;
	o->sw.sched.policy = -1;	/* neither has a default to type: "as they are" */
	o->sw.counter_node = -1;
	err = zf_opt_parse(&o->opt, argc, argv, o);
	if (err || o->opt.cmd_bit == ZF_CMD_TOPO)
		return err;
	o->sw.events_given = zf_opt_typed(&o->opt, "events");
	o->sw.mm_atomics = !strcmp(o->mm_atomics, "on");
	if (zf_opt_typed(&o->opt, "max-reps") && !o->sw.reps_auto)
		return bad("--max-reps", zf_opt_typed(&o->opt, "max-reps"), "needs --reps auto");
	if (zf_opt_typed(&o->opt, "min-reps") && !o->sw.reps_auto)
		return bad("--min-reps", zf_opt_typed(&o->opt, "min-reps"), "needs --reps auto");
	if (o->sw.reps_auto && o->sw.min_reps > o->sw.max_reps)
		return bad("--min-reps", zf_opt_shown(&o->opt, "min-reps"), "more than --max-reps");
	if (zf_opt_typed(&o->opt, "target-ci") && !o->sw.reps_auto)
		return bad("--target-ci", zf_opt_typed(&o->opt, "target-ci"), "needs --reps auto");
	fpl = zf_opt_shown(&o->opt, "faults-per-life");
	if (zf_opt_typed(&o->opt, "faults-per-life") && o->sw.workload != ZF_WORKLOAD_LIFECYCLE)
		return bad("--faults-per-life", fpl, "needs --workload lifecycle");
	size = zf_opt_shown(&o->opt, "size");
	step = zf_opt_shown(&o->opt, "step");
	if (o->sw.workload == ZF_WORKLOAD_LIFECYCLE) {
		/* a life is faults-per-life steps: the region follows from them */
		if (zf_opt_typed(&o->opt, "size"))
			return bad("--size", size,
				   "--workload lifecycle sizes each life by --faults-per-life");
		if (o->faults_per_life > ~0ULL / o->sw.step)
			return bad("--faults-per-life", fpl, "too many for --step");
		o->sw.size = o->faults_per_life * o->sw.step;
		if (!zf_opt_typed(&o->opt, "shrink-hz"))
			o->sw.shrink_hz = 100;	/* memory pressure is what a life cycle is about */
	}
	if (o->sw.step > o->sw.size)
		return bad("--size", size, "smaller than --step");
	if (o->sw.size / o->sw.step > MAX_FAULTS_PER_PASS) {
		char reason[96];

		snprintf(reason, sizeof(reason), "%llu faults per pass, more than %lu",
			 o->sw.size / o->sw.step, MAX_FAULTS_PER_PASS);
		return bad("--step", step, reason);
	}
	return 0;
}

