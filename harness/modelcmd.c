// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench model`: predictions for the configurations of a results folder
 * (measured and predicted side by side, DIR/model.csv for the charts), or
 * for a machine we do not have (--topology or HWLOC_SYNTHETIC, and
 * --handoff-ns per level), or seed 007's machine (--preset seed-007).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "csv.h"
#include "model.h"
#include "parse.h"
#include "results.h"
#include "topo.h"

static const char *const modelled[] = { "global", "mmflag", "persistent" };
#define NMODELLED 3

/*
 * Seed 007's machine: 2-socket Haswell-EP, 18 cores a socket, 2 threads a
 * core, `usemem -n 72 --readonly -j 0x200000 100G`. The latencies are
 * assumptions (this project has never measured that machine): typical
 * one-way figures for a ring-bus Xeon and its QPI link. The fixed cost is
 * the seed's own mmflag run, where the count is nearly free: 303970 us for
 * 100G / 2M = 51200 faults a process.
 */
#define SEED007_TOPOLOGY "pack:2 [numa] core:18 pu:2"
#define SEED007_HANDOFF "core=15,node=50,machine=120"
#define SEED007_FIXED_NS (303970e3 / 51200)
#define SEED007_GET_NS 10.0
#define SEED007_GAIN 1.64		/* mmflag over global throughput, +164% */
#define SEED007_SHARE 0.5403		/* cycles in get_huge_zero_page, base */

struct model_opts {
	const char *from, *c2c, *handoff, *tasks, *placement, *kind, *fault, *xml, *out;
	const char *preset;
	double fixed_ns, get_ns;	/* <0: not given */
	unsigned long long step, size;
};

/* one configuration to predict: from a summary.csv row, or from the options */
struct model_row {
	char strategy[16], fault[16], kind[16];
	char *placement;			/* malloc()ed: a cpus: list has no length limit */
	int tasks;
	unsigned long long step;
	unsigned long faults_per_pass;
	double measured_ns, measured_get_ns;	/* NAN without a measurement */
	double fixed_ns, get_ns;		/* the inputs it was predicted from */
	double handoff_ns;
	double retries;				/* the run's lost CAS a get; NAN: none */
	struct zf_model_out out, with;		/* the bound; with the run's retries */
	int done;
};

static const char model_usage[] =
"usage: hzfbench model [options]\n"
"  Predicts global, mmflag and persistent ns/fault and faults/s against tasks\n"
"  from one-way cache-line hand-off latencies and a fault's fixed cost\n"
"  (docs/model.md). Writes model.csv (summary.csv's columns) and model.json.\n"
"  --from DIR          a results folder: predict each of its configurations,\n"
"                      print measured beside predicted, write DIR/model.csv;\n"
"                      the fixed cost and the get come from its 1-task rows\n"
"  --c2c FILE          hand-offs from a c2c.csv (default with --from: DIR/c2c.csv)\n"
"  --handoff-ns SPEC   hand-offs per level instead: core=NS,node=NS,package=NS,\n"
"                      machine=NS (a level not given takes the next outer one),\n"
"                      or one NS for all\n"
"  --fixed-ns NS       a fault's cost without any count (persistent's ns/fault)\n"
"  --get-ns NS         one get on a line already in the CPU's cache\n"
"  --tasks LIST        without --from: 1,2,4 or 1-8 or pow2 or all (default pow2)\n"
"  --placement P       without --from: compact, scatter, node:N, cpus:LIST\n"
"                      (default compact)\n"
"  --task-kind K       without --from: thread or process (default thread)\n"
"  --fault MODE        without --from: the fault column, emulated or kernel\n"
"                      (default emulated)\n"
"  --size BYTES, --step BYTES   without --from: faults per pass = size/step\n"
"                      (default 100G and 2M)\n"
"  --topology FILE     an hwloc XML topology (default with --from: DIR/topology.xml,\n"
"                      else this machine, or HWLOC_SYNTHETIC when set)\n"
"  --preset seed-007   seed 007's 2-socket Haswell-EP, 72 tasks, 2 MiB steps, and\n"
"                      the seed's reported gain and get share beside the prediction\n"
"  --out DIR           where model.csv goes: new or empty (default: DIR of --from,\n"
"                      else results/<UTC time>-<host>)\n";

static double num_at(const struct zf_csv *c, size_t r, const char *col)
{
	int i = zf_csv_col(c, col);
	char *end;
	double v;

	if (i < 0 || !*c->rows[r][i])
		return NAN;
	v = strtod(c->rows[r][i], &end);
	return *end ? NAN : v;
}

static const char *str_at(const struct zf_csv *c, size_t r, const char *col)
{
	int i = zf_csv_col(c, col);

	return i < 0 ? "" : c->rows[r][i];
}

static bool is_modelled(const char *s)
{
	int i;

	for (i = 0; i < NMODELLED; i++)
		if (!strcmp(s, modelled[i]))
			return true;
	return false;
}

/* row r is want's configuration but for strategy s and the task count */
static bool same_config(const struct zf_csv *c, size_t r, const struct model_row *want,
			const char *s, int tasks)
{
	return !strcmp(str_at(c, r, "strategy"), s) && num_at(c, r, "tasks") == tasks &&
	       !strcmp(str_at(c, r, "fault"), want->fault) &&
	       !strcmp(str_at(c, r, "task_kind"), want->kind) &&
	       !strcmp(str_at(c, r, "placement"), want->placement) &&
	       num_at(c, r, "step") == (double)want->step;
}

/* the row of the same configuration as want, of strategy s at 1 task; -1 if none */
static long one_task_row(const struct zf_csv *c, const struct model_row *want, const char *s)
{
	size_t r;

	for (r = 0; r < c->nrows; r++)
		if (same_config(c, r, want, s, 1))
			return (long)r;
	return -1;
}

/* F and U of a measured configuration: persistent at 1 task, and global's extra */
static int inputs_from(const struct zf_csv *c, struct model_row *m, const struct model_opts *o)
{
	long p = one_task_row(c, m, "persistent"), g = one_task_row(c, m, "global");
	double get_in_fault;

	m->fixed_ns = o->fixed_ns >= 0 ? o->fixed_ns : p >= 0 ? num_at(c, p, "ns_per_fault_median")
							    : NAN;
	if (o->get_ns >= 0) {
		m->get_ns = o->get_ns;
	} else if (g >= 0) {
		/* real faults: get() timed inside the fault is nearer than a difference */
		get_in_fault = num_at(c, g, "get_ns_in_fault_median");
		if (!strcmp(m->fault, "kernel") && get_in_fault > 0)
			m->get_ns = get_in_fault;
		else
			m->get_ns = fmax(0, num_at(c, g, "ns_per_fault_median") - m->fixed_ns);
	} else {
		m->get_ns = NAN;
	}
	return isnan(m->fixed_ns) || isnan(m->get_ns) ? -1 : 0;
}

/* counters.csv's lost CAS attempts per counted get of m's configuration; NAN if none */
static double retries_of(const struct zf_csv *c, const struct model_row *m)
{
	double gets, lost;
	size_t r;

	for (r = 0; r < c->nrows; r++) {
		if (!same_config(c, r, m, m->strategy, m->tasks) ||
		    num_at(c, r, "faults_per_pass") != (double)m->faults_per_pass)
			continue;
		gets = num_at(c, r, "ref_gets");
		lost = num_at(c, r, "cas_retries");
		return gets > 0 && lost >= 0 ? lost / gets : NAN;
	}
	return NAN;
}

/* rows and the placements of the first n */
static void rows_free(struct model_row *rows, size_t n)
{
	size_t i;

	for (i = 0; rows && i < n; i++)
		free(rows[i].placement);
	free(rows);
}

static int rows_from_summary(const char *dir, const struct model_opts *o, struct model_row **rows,
			     size_t *nrows, size_t *left_out)
{
	struct zf_csv counters = { 0 };
	bool have_counters;
	char path[PATH_MAX + 16];
	struct zf_csv c;
	size_t line = 0, r;
	int err;

	/* optional: without it there is no retry figure, only the bound */
	snprintf(path, sizeof(path), "%s/counters.csv", dir);
	have_counters = !zf_csv_read(path, &counters, &line);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	err = zf_csv_read(path, &c, &line);
	if (err) {
		fprintf(stderr, "hzfbench: --from: %s: %s\n", path,
			err == -EINVAL ? "not CSV" : strerror(-err));
		if (have_counters)
			zf_csv_free(&counters);
		return 2;
	}
	*rows = calloc(c.nrows ? c.nrows : 1, sizeof(**rows));
	if (!*rows) {
		zf_csv_free(&c);
		if (have_counters)
			zf_csv_free(&counters);
		return 1;
	}
	*nrows = *left_out = 0;
	for (r = 0; r < c.nrows; r++) {
		struct model_row *m = &(*rows)[*nrows];

		if (!is_modelled(str_at(&c, r, "strategy")))
			continue;
		snprintf(m->strategy, sizeof(m->strategy), "%s", str_at(&c, r, "strategy"));
		snprintf(m->fault, sizeof(m->fault), "%s", str_at(&c, r, "fault"));
		snprintf(m->kind, sizeof(m->kind), "%s", str_at(&c, r, "task_kind"));
		free(m->placement);	/* a row left out before left its own here */
		m->placement = strdup(str_at(&c, r, "placement"));
		if (!m->placement) {
			err = 1;
			break;
		}
		m->tasks = (int)num_at(&c, r, "tasks");
		m->step = (unsigned long long)num_at(&c, r, "step");
		m->faults_per_pass = (unsigned long)num_at(&c, r, "faults_per_pass");
		m->measured_ns = num_at(&c, r, "ns_per_fault_median");
		m->measured_get_ns = num_at(&c, r, "get_ns_in_fault_median");
		m->retries = have_counters ? retries_of(&counters, m) : NAN;
		if (m->tasks < 1 || inputs_from(&c, m, o)) {
			(*left_out)++;
			continue;
		}
		(*nrows)++;
	}
	if (*nrows < c.nrows) {		/* the slot past them: a row left out, or none */
		free((*rows)[*nrows].placement);
		(*rows)[*nrows].placement = NULL;
	}
	zf_csv_free(&c);
	if (have_counters)
		zf_csv_free(&counters);
	return err;
}

static int rows_from_options(const struct model_opts *o, struct zf_topo *topo,
			     struct model_row **rows, size_t *nrows)
{
	int cap;
	char why[256];
	const char *why_s;
	long *tasks;
	size_t nt, i;
	int s;

	cap = zf_placement_capacity(topo, o->placement, why, sizeof(why));
	if (cap <= 0)
		return zf_bad_value("--placement", o->placement, cap < 0 ? why :
				    "the model needs pinned tasks: not none");
	if (zf_parse_int_list(o->tasks, 1, cap, cap, &tasks, &nt, &why_s))
		return zf_bad_value("--tasks", o->tasks, why_s);
	*rows = calloc(nt * NMODELLED, sizeof(**rows));
	if (!*rows) {
		free(tasks);
		return 1;
	}
	*nrows = 0;
	for (s = 0; s < NMODELLED; s++)
		for (i = 0; i < nt; i++) {
			struct model_row *m = &(*rows)[(*nrows)++];

			snprintf(m->strategy, sizeof(m->strategy), "%s", modelled[s]);
			snprintf(m->fault, sizeof(m->fault), "%s", o->fault);
			snprintf(m->kind, sizeof(m->kind), "%s", o->kind);
			m->placement = strdup(o->placement);
			if (!m->placement) {
				free(tasks);
				return 1;
			}
			m->tasks = (int)tasks[i];
			m->step = o->step;
			m->faults_per_pass = (o->size / o->step) ? o->size / o->step : 1;
			m->measured_ns = m->measured_get_ns = m->retries = NAN;
			m->fixed_ns = o->fixed_ns;
			m->get_ns = o->get_ns;
		}
	free(tasks);
	return 0;
}

/* the mean hand-off among the row's PUs; -1 (and why) when there is none */
static double row_handoff(struct zf_topo *topo, const struct model_row *m, const double *lv,
			  const char *c2c, char *why, size_t len)
{
	/* unpinned tasks are modelled as packed: the kernel's scheduler spreads them later */
	const char *placement = strcmp(m->placement, "none") ? m->placement : "compact";
	struct zf_plan plan;
	double *h, v = -1;

	if (m->tasks == 1)
		return 0;
	if (zf_plan_make(topo, placement, m->tasks, &plan, why, len))
		return -1;
	h = calloc((size_t)m->tasks * m->tasks, sizeof(*h));
	if (h && !(lv ? zf_model_matrix_levels(&plan, lv, h, why, len)
		      : zf_model_matrix_csv(c2c, &plan, h, why, len))) {
		v = zf_model_handoff(h, m->tasks, m->tasks);
		if (v < 0)
			snprintf(why, len, "%.*s: no measured pair among the placement's PUs",
				 (int)(len > 64 ? len - 64 : 0), c2c);
	}
	free(h);
	zf_plan_free(&plan);
	return v;
}

static void write_csv_row(struct zf_buf *b, const struct model_row *m, int ncols)
{
	int i;

	zf_buf_printf(b, "%s,%s,%s,%d,", m->strategy, m->fault, m->kind, m->tasks);
	zf_buf_csv(b, m->placement, 0);		/* cpus:0,2 has commas */
	zf_buf_printf(b, "%llu,%lu,0,%.3f,,,,%.0f,,,%.3f,%.5f", m->step, m->faults_per_pass,
		      m->out.ns_per_fault, m->out.faults_per_sec, m->out.get_ns, m->out.get_share);
	for (i = 17; i < ncols; i++)
		zf_buf_printf(b, ",");
	zf_buf_printf(b, "\n");
}

static void write_json(struct zf_buf *b, const struct model_opts *o, const char *source,
		       const struct model_row *rows, size_t n)
{
	size_t i;

	zf_buf_printf(b, "{\n  \"hzfbench_model\": 1,\n  \"preset\": ");
	zf_buf_json_str(b, o->preset ? o->preset : "");
	zf_buf_printf(b, ",\n  \"handoff\": ");
	zf_buf_json_str(b, source);
	zf_buf_printf(b, ",\n  \"from\": ");
	zf_buf_json_str(b, o->from ? o->from : "");
	zf_buf_printf(b, ",\n  \"rows\": [");
	for (i = 0; i < n; i++) {
		const struct model_row *m = &rows[i];

		zf_buf_printf(b, "%s\n    {\"strategy\": \"%s\", \"fault\": \"%s\", \"task_kind\": \"%s\", "
			      "\"tasks\": %d, \"placement\": ", i ? "," : "", m->strategy, m->fault,
			      m->kind, m->tasks);
		zf_buf_json_str(b, m->placement);
		zf_buf_printf(b, ", \"fixed_ns\": %.3f, \"get_ns\": %.3f, \"handoff_ns\": %.3f, "
			      "\"line_ns\": %.3f, \"retries_per_get\": ", m->fixed_ns, m->get_ns,
			      m->handoff_ns, m->out.line_ns);
		if (isnan(m->retries))
			zf_buf_printf(b, "null, \"ns_per_fault_with_retries\": null}");
		else
			zf_buf_printf(b, "%.4f, \"ns_per_fault_with_retries\": %.3f}", m->retries,
				      m->with.ns_per_fault);
	}
	zf_buf_printf(b, "\n  ]\n}\n");
}

static void print_table(const struct model_row *rows, size_t n, bool measured)
{
	size_t i;

	printf("%-10s %-8s %-7s %5s %10s %12s %9s %6s", "strategy", "fault", "kind", "tasks",
	       "handoff_ns", "pred_ns/flt", "pred_get", "share");
	if (measured)
		printf(" %12s %9s %9s", "meas_ns/flt", "meas/pred", "meas_get");
	printf("\n");
	for (i = 0; i < n; i++) {
		const struct model_row *m = &rows[i];

		if (!m->done)
			continue;
		printf("%-10s %-8s %-7s %5d %10.2f %12.3f %9.2f %5.1f%%", m->strategy, m->fault,
		       m->kind, m->tasks, m->handoff_ns, m->out.ns_per_fault, m->out.get_ns,
		       100 * m->out.get_share);
		if (measured) {
			printf(" %12.3f %8.2fx", m->measured_ns, m->measured_ns / m->out.ns_per_fault);
			if (!isnan(m->measured_get_ns))
				printf(" %9.2f", m->measured_get_ns);	/* timed in the real fault */
		}
		printf("\n");
	}
	/*
	 * What the prediction leaves out and the run counted: each lost CAS,
	 * another U; shown where that moves the prediction by 1% or more.
	 */
	for (i = 0; i < n; i++) {
		const struct model_row *m = &rows[i];

		if (!m->done || isnan(m->retries) ||
		    m->with.ns_per_fault < 1.01 * m->out.ns_per_fault)
			continue;
		printf("retries: %s %s %s %d tasks: %.2f lost CAS a get (counters.csv), another get "
		       "each: %.3f ns/fault predicted, %.3f measured (%.2fx)\n", m->strategy,
		       m->fault, m->kind, m->tasks, m->retries, m->with.ns_per_fault,
		       m->measured_ns, m->measured_ns / m->with.ns_per_fault);
	}
}

/* the seed's figures beside ours, for its 72 tasks */
static void print_seed007(const struct model_row *rows, size_t n)
{
	const struct zf_model_out *g = NULL, *mm = NULL;
	const struct model_row *gr = NULL;
	double gain, share, line, lost;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!rows[i].done || rows[i].tasks != 72)
			continue;
		if (!strcmp(rows[i].strategy, "global"))
			gr = &rows[i];
		if (!strcmp(rows[i].strategy, "mmflag"))
			mm = &rows[i].out;
	}
	if (!gr || !mm || gr->handoff_ns <= 0)
		return;
	g = &gr->out;
	gain = mm->faults_per_sec / g->faults_per_sec - 1;
	share = g->get_share;
	printf("seed-007: mmflag over global throughput: predicted %+.0f%%, seed reported %+.0f%% "
	       "(predicted gain %.2fx the seed's)\n", 100 * gain, 100 * SEED007_GAIN,
	       gain / SEED007_GAIN);
	printf("seed-007: share of time in get (global): predicted %.1f%%, seed reported %.1f%% "
	       "(%.1f points apart)\n", 100 * share, 100 * SEED007_SHARE,
	       100 * (SEED007_SHARE - share));
	/* the seed's base run was the line's queue: 72 gets per fault time */
	line = SEED007_FIXED_NS * (1 + SEED007_GAIN) / 72;
	printf("seed-007: the seed's figures imply %.0f ns of the counter's line per get (a base\n"
	       "          fault of %.0f ns over 72 tasks); the model gives it %.0f ns: %.1fx apart\n",
	       line, SEED007_FIXED_NS * (1 + SEED007_GAIN), g->line_ns, line / g->line_ns);
	/* what would make up the gap: lost CAS at U each, or each stolen again (a trip) */
	lost = line - g->line_ns;
	printf("seed-007: the %.0f ns a get the model lacks would be %.0f lost CAS at U (%.0f ns) each,\n"
	       "          or %.1f if each lost one also lost the line again (a hand-off, %.0f ns)\n",
	       lost, lost / gr->get_ns, gr->get_ns, lost / (gr->get_ns + gr->handoff_ns),
	       gr->get_ns + gr->handoff_ns);
	printf("seed-007: hand-offs are assumed (%s), not measured; the model is a lower bound\n"
	       "          for contention: docs/model.md says what it leaves out\n", SEED007_HANDOFF);
}

static int apply_preset(struct model_opts *o)
{
	if (strcmp(o->preset, "seed-007"))
		return zf_bad_value("--preset", o->preset, "the one preset is seed-007");
	if (o->from)
		return zf_bad_value("--preset", o->preset, "a what-if: not with --from");
	if (!o->xml && setenv("HWLOC_SYNTHETIC", SEED007_TOPOLOGY, 1))
		return 1;
	if (!o->handoff && !o->c2c)
		o->handoff = SEED007_HANDOFF;
	if (o->fixed_ns < 0)
		o->fixed_ns = SEED007_FIXED_NS;
	if (o->get_ns < 0)
		o->get_ns = SEED007_GET_NS;
	if (!o->tasks)
		o->tasks = "1,2,4,8,18,36,72";
	if (!o->kind)
		o->kind = "process";
	if (!o->fault)
		o->fault = "kernel";
	return 0;
}

static int parse_opts(int argc, char **argv, struct model_opts *o)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' }, { "c2c", required_argument, NULL, 'c' },
		{ "handoff-ns", required_argument, NULL, 'H' },
		{ "fixed-ns", required_argument, NULL, 'F' }, { "get-ns", required_argument, NULL, 'U' },
		{ "tasks", required_argument, NULL, 'n' }, { "placement", required_argument, NULL, 'p' },
		{ "task-kind", required_argument, NULL, 'k' }, { "fault", required_argument, NULL, 'm' },
		{ "size", required_argument, NULL, 's' }, { "step", required_argument, NULL, 'j' },
		{ "topology", required_argument, NULL, 't' }, { "preset", required_argument, NULL, 'P' },
		{ "out", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *why;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'f': o->from = optarg; break;
		case 'c': o->c2c = optarg; break;
		case 'H': {
			double lv[ZF_LV_N];

			if (zf_model_levels_parse(optarg, lv, &why))
				return zf_bad_value("--handoff-ns", optarg, why);
			o->handoff = optarg;
			break;
		}
		case 'F':
			if (zf_parse_ns_opt("--fixed-ns", optarg, &o->fixed_ns))
				return 2;
			break;
		case 'U':
			if (zf_parse_ns_opt("--get-ns", optarg, &o->get_ns))
				return 2;
			break;
		case 'n': o->tasks = optarg; break;
		case 'p':
			if (zf_placement_check(optarg, &why))
				return zf_bad_value("--placement", optarg, why);
			o->placement = optarg;
			break;
		case 'k':
			if (strcmp(optarg, "thread") && strcmp(optarg, "process"))
				return zf_bad_value("--task-kind", optarg, "not thread or process");
			o->kind = optarg;
			break;
		case 'm':
			if (strcmp(optarg, "emulated") && strcmp(optarg, "kernel"))
				return zf_bad_value("--fault", optarg, "not emulated or kernel");
			o->fault = optarg;
			break;
		case 's':
			if (zf_parse_size_opt("--size", optarg, &o->size))
				return 2;
			break;
		case 'j':
			if (zf_parse_size_opt("--step", optarg, &o->step))
				return 2;
			break;
		case 't': o->xml = optarg; break;
		case 'P': o->preset = optarg; break;
		case 'o': o->out = optarg; break;
		case 'h': printf("%s", model_usage); return -1;
		default:
			return zf_opt_unknown("model", argv);
		}
	}
	if (zf_opt_no_operands("model", argc, argv))
		return 2;
	if (o->handoff && o->c2c)
		return zf_bad_value("--handoff-ns", o->handoff, "give it or --c2c, not both");
	if (o->from && (o->tasks || o->placement || o->kind || o->fault))
		return zf_bad_value("--from", o->from,
				    "takes its configurations from the folder: no --tasks, "
				    "--placement, --task-kind or --fault");
	if (o->preset && apply_preset(o))
		return 2;
	if (!o->from && (o->fixed_ns < 0 || o->get_ns < 0)) {
		fprintf(stderr, "hzfbench: model: --fixed-ns and --get-ns are needed without --from\n");
		return 2;
	}
	return 0;
}

int zf_model_main(int argc, char **argv)
{
	struct model_opts o = { .fixed_ns = -1, .get_ns = -1, .step = 2ULL << 20,
				.size = 100ULL << 30 };
	char why[512], dir[PATH_MAX], c2c[PATH_MAX + 16], xml[PATH_MAX + 16], source[PATH_MAX + 64];
	struct model_row *rows = NULL;
	size_t nrows = 0, left_out = 0, i, done = 0;
	struct zf_buf csv = { 0 }, json = { 0 };
	double lv[ZF_LV_N], *lvp = NULL;
	struct zf_topo topo;
	int ret, ncols = 1;
	const char *p;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!o.tasks)
		o.tasks = "pow2";
	if (!o.placement)
		o.placement = "compact";
	if (!o.kind)
		o.kind = "thread";
	if (!o.fault)
		o.fault = "emulated";
	if (o.from && !o.xml) {
		snprintf(xml, sizeof(xml), "%s/topology.xml", o.from);
		if (!access(xml, R_OK))
			o.xml = xml;
	}
	if (o.handoff) {
		const char *w;

		zf_model_levels_parse(o.handoff, lv, &w);
		lvp = lv;
		snprintf(source, sizeof(source), "levels: %s", o.handoff);
	} else {
		if (o.c2c)
			snprintf(c2c, sizeof(c2c), "%s", o.c2c);
		else if (o.from)
			snprintf(c2c, sizeof(c2c), "%s/c2c.csv", o.from);
		if ((!o.c2c && !o.from) || access(c2c, R_OK)) {
			fprintf(stderr, "hzfbench: model: %s: give --c2c FILE (from hzfbench c2c) or "
				"--handoff-ns\n", o.c2c || o.from ? c2c : "no hand-off latencies");
			return 2;
		}
		if (zf_model_c2c_check(c2c, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: model: %s\n", why);
			return 2;
		}
		snprintf(source, sizeof(source), "c2c: %s", c2c);
	}
	if (zf_topo_open(&topo, o.xml, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --topology: %s\n", why);
		return 2;
	}
	ret = o.from ? rows_from_summary(o.from, &o, &rows, &nrows, &left_out)
		     : rows_from_options(&o, &topo, &rows, &nrows);
	if (ret)
		goto out;
	for (i = 0; i < nrows; i++) {
		struct model_row *m = &rows[i];
		struct zf_model_in in = { .fixed_ns = m->fixed_ns, .get_ns = m->get_ns,
			.faults_per_pass = m->faults_per_pass, .threads = !strcmp(m->kind, "thread") };

		m->handoff_ns = row_handoff(&topo, m, lvp, c2c, why, sizeof(why));
		if (m->handoff_ns < 0) {
			fprintf(stderr, "hzfbench: model: %s at %d tasks: %s\n", m->strategy, m->tasks,
				why);
			left_out++;
			continue;
		}
		zf_model_predict(&in, m->strategy, m->tasks, m->handoff_ns, &m->out);
		in.retries = isnan(m->retries) ? 0 : m->retries;
		zf_model_predict(&in, m->strategy, m->tasks, m->handoff_ns, &m->with);
		m->done = 1;
		done++;
	}
	if (!done) {
		fprintf(stderr, "hzfbench: model: nothing to predict%s\n", o.from ?
			": the folder has no global, mmflag or persistent row with a 1-task "
			"persistent and global row of its configuration (or give --fixed-ns and "
			"--get-ns)" : "");
		ret = 1;
		goto out;
	}
	if (o.out || !o.from) {
		if (zf_results_dir(o.out, dir, sizeof(dir), why, sizeof(why))) {
			fprintf(stderr, "hzfbench: --out: %s: %s\n", o.out ? o.out : dir, why);
			ret = 2;
			goto out;
		}
	} else {
		snprintf(dir, sizeof(dir), "%s", o.from);
	}
	for (p = ZF_SUMMARY_COLUMNS; *p; p++)
		ncols += *p == ',';
	zf_buf_printf(&csv, "%s\n", ZF_SUMMARY_COLUMNS);
	for (i = 0; i < nrows; i++)
		if (rows[i].done)
			write_csv_row(&csv, &rows[i], ncols);
	write_json(&json, &o, source, rows, nrows);
	print_table(rows, nrows, o.from != NULL);
	if (o.preset)
		print_seed007(rows, nrows);
	if (left_out)
		printf("model: %zu configuration%s left out (said above, or without 1-task "
		       "persistent and global rows)\n", left_out, left_out == 1 ? "" : "s");
	ret = zf_buf_write(dir, "model.csv", &csv, "model") ||
	      zf_buf_write(dir, "model.json", &json, "model");
	if (!ret)
		printf("model: %s/model.csv (hand-offs from %s)\n", dir, source);
out:
	zf_buf_free(&csv);
	zf_buf_free(&json);
	rows_free(rows, nrows);
	zf_topo_close(&topo);
	return ret;
}
