// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench model`: predictions for the configurations of a results folder
 * (measured and predicted side by side, DIR/model.csv for the charts), or
 * for a machine we do not have (--topology or HWLOC_SYNTHETIC, and
 * --handoff-ns per level), or seed 007's machine (--preset seed-007).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "buf.h"
#include "csv.h"
#include "model.h"
#include "opt.h"
#include "parse.h"
#include "rescols.h"
#include "stats.h"
#include "results.h"
#include "topo.h"

/*
 * Seed 007's machine: 2-socket Haswell-EP, 18 cores a socket, 2 threads a
 * core, `usemem -n 72 --readonly -j 0x200000 100G`. The hand-offs are a
 * published CAS ping-pong of that generation (docs/model.md cites it:
 * dual Xeon E5-2698 v3, one-way medians of SMT siblings, same socket,
 * across QPI). A fault's whole life (fault and teardown, nothing counted)
 * is the seed's own mmflag run: 303970 us for 100G / 2M = 51200 faults a
 * process; of it, the fault alone is taken as what one costs measured here
 * (a steady THP zero-page read fault, 1.7-2.5 us; docs/model.md), the rest is
 * teardown. 4.8 put the folio from the freed-page batch of the zap, up to
 * 510 pages a batch ((4096 - 16) / 8), one CPU's puts in a row.
 */
#define SEED007_TOPOLOGY "pack:2 [numa] core:18 pu:2"
#define SEED007_HANDOFF "core=10.3,node=57.3,machine=130.3"
#define SEED007_FAULTS 51200.0
#define SEED007_LIFE_NS (303970e3 / SEED007_FAULTS)
#define SEED007_FIXED_NS 2100.0
#define SEED007_GET_NS 10.0
#define SEED007_PUT_BATCH 510.0
#define SEED007_GAIN 1.64		/* mmflag over global throughput, +164% */
#define SEED007_SHARE 0.5403		/* cycles in get_huge_zero_page, base */
#define SEED007_BEFORE_US 707592.0	/* the runtime usemem reported, base */
#define SEED007_AFTER_US 303970.0	/* and with the per-mm flag */
/* the slack on the gets a move the model takes, before it is said to be outside */
#define DOMAIN_SLACK 1.25

struct model_opts {
	const char *from, *c2c, *handoff, *tasks, *placement, *kind, *fault, *xml, *out;
	const char *preset, *contention, *mm_atomics;
	double fixed_ns, get_ns;	/* <0: not given */
	double teardown_ns, put_batch;	/* <0: not given */
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
	double measured_sd, fixed_sd;		/* their repetitions' stddevs; NAN: none */
	double fixed_ns, get_ns;		/* the inputs it was predicted from */
	double handoff_ns;
	double retries;				/* the run's lost CAS a get; NAN: none */
	double teardown_ns, put_batch;		/* usemem's whole clock; Z < 0: unknown */
	struct zf_model_out out, with;		/* the bound; with the run's retries */
	bool mm_line;				/* a line of the mm every task writes (threads) */
	char outside[192];			/* why no ratio: outside the model, or not known */
	bool domain_unknown;			/* no contention data to tell in from outside */
	int done;
};

/*
 * c2c-contention.csv: per amount of work between two CPUs' locked operations
 * on one line, the operations per move of the line (the mean over the pairs)
 */
struct work_amount {
	double work_ns, per_move, ns_per_op;	/* ns_per_op: <0 where none */
	int moves, costs;			/* the rows each mean is over */
};

struct contention {
	int n;
	struct work_amount *w;			/* n of them, as many as the file has rows at most */
};

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

/* whether the model has a term for strategy name (its model kind) */
static bool is_modelled(const char *name)
{
	const struct zf_strategy *s = zf_strategy_find(name);

	return s && s->model != ZF_MODEL_NONE;
}

/* whether strategy name counts on one shared line, every fault */
static bool is_shared(const char *name)
{
	const struct zf_strategy *s = zf_strategy_find(name);

	return s && s->model == ZF_MODEL_SHARED;
}

/*
 * Row r is want's configuration but for strategy s and the task count; at
 * faults_per_pass too where fpp is not ZF_KEY_ANY (a 1-task row may have
 * passes of another length)
 */
static bool same_config(const struct zf_csv *c, size_t r, const struct model_row *want,
			const char *s, int tasks, uint64_t fpp)
{
	struct zf_config_key key = { .strategy = s, .fault = want->fault, .task_kind = want->kind,
		.tasks = (uint64_t)tasks, .placement = want->placement, .step = want->step,
		.faults_per_pass = fpp };
	struct zf_key_cols kc;
	const char *missing;

	zf_key_cols_find(c, &kc, &missing);	/* a column it lacks matches nothing asked of it */
	return zf_key_matches(c, &kc, r, &key);
}

/* the row of the same configuration as want, of strategy s at 1 task; -1 if none */
static long one_task_row(const struct zf_csv *c, const struct model_row *want, const char *s)
{
	size_t r;

	for (r = 0; r < c->nrows; r++)
		if (same_config(c, r, want, s, 1, ZF_KEY_ANY))
			return (long)r;
	return -1;
}

/*
 * F and U of a measured configuration: the first uncounted strategy
 * (persistent) at 1 task, and the first shared counter's (global's) extra
 */
static int inputs_from(const struct zf_csv *c, struct model_row *m, const struct model_opts *o)
{
	long p = one_task_row(c, m, zf_strategy_name(zf_strategy_first_of(ZF_MODEL_UNCOUNTED)));
	long g = one_task_row(c, m, zf_strategy_name(zf_strategy_first_of(ZF_MODEL_SHARED)));
	double get_in_fault;

	m->fixed_ns = o->fixed_ns >= 0 ? o->fixed_ns : p >= 0 ? num_at(c, p, "ns_per_fault_median")
							    : NAN;
	/* the prediction's noise: its fixed cost's, measured (a given --fixed-ns has none) */
	m->fixed_sd = o->fixed_ns < 0 && p >= 0 ? num_at(c, p, "ns_per_fault_stddev") : 0;
	if (o->get_ns >= 0) {
		m->get_ns = o->get_ns;
	} else if (g >= 0) {
		/*
		 * real faults, and emulated ones with --fault-ns: get() timed
		 * inside the fault is nearer than a difference of two medians
		 */
		get_in_fault = num_at(c, g, "get_ns_in_fault_median");
		if (get_in_fault > 0)
			m->get_ns = get_in_fault;
		else
			m->get_ns = fmax(0, num_at(c, g, "ns_per_fault_median") - m->fixed_ns);
	} else {
		m->get_ns = NAN;
	}
	m->teardown_ns = o->teardown_ns >= 0 ? o->teardown_ns :
			 p >= 0 ? num_at(c, p, "teardown_ns_per_fault_median") : NAN;
	if (isnan(m->teardown_ns))
		m->teardown_ns = -1;
	return isnan(m->fixed_ns) || isnan(m->get_ns) ? -1 : 0;
}

/* counters.csv's lost CAS attempts per counted get of m's configuration; NAN if none */
static double retries_of(const struct zf_csv *c, const struct model_row *m)
{
	double gets, lost;
	size_t r;

	for (r = 0; r < c->nrows; r++) {
		if (!same_config(c, r, m, m->strategy, m->tasks, m->faults_per_pass))
			continue;
		gets = num_at(c, r, "ref_gets");
		lost = num_at(c, r, "cas_retries");
		return gets > 0 && lost >= 0 ? lost / gets : NAN;
	}
	return NAN;
}

/*
 * path's rows, each work amount's operations per move averaged over its
 * pairs; 0, or -1 with the error said (a missing file is not an error: n 0)
 */
static int contention_read(const char *path, bool must, struct contention *ct)
{
	struct zf_csv c;
	size_t line = 0, r;
	int w, o, t, k, err;

	ct->n = 0;
	err = zf_csv_read(path, &c, &line);
	if (err == -ENOENT && !must)
		return 0;
	if (err) {
		fprintf(stderr, "hzfbench: model: %s: %s\n", path,
			err == -EINVAL ? "not CSV" : strerror(-err));
		return -1;
	}
	ct->w = calloc(c.nrows ? c.nrows : 1, sizeof(*ct->w));
	if (!ct->w) {
		fprintf(stderr, "hzfbench: model: %s: out of memory\n", path);
		zf_csv_free(&c);
		return -1;
	}
	w = zf_csv_col(&c, "work_ns");
	o = zf_csv_col(&c, "ops_per_transfer");
	t = zf_csv_col(&c, "ns_per_op");
	for (r = 0; w >= 0 && o >= 0 && r < c.nrows; r++) {
		double work, per;

		if (zf_parse_ns(c.rows[r][w], &work) || zf_parse_ns(c.rows[r][o], &per) || per < 1) {
			fprintf(stderr, "hzfbench: model: %s: line %zu: %s, %s: not work in ns and "
				"operations per move (1 or more)\n", path, r + 2, c.rows[r][w],
				c.rows[r][o]);
			zf_csv_free(&c);
			free(ct->w);
			ct->w = NULL;
			return -1;
		}
		for (k = 0; k < ct->n && ct->w[k].work_ns != work; k++)
			;
		if (k == ct->n)
			ct->w[ct->n++].work_ns = work;
		ct->w[k].per_move += per;
		ct->w[k].moves++;
		if (t >= 0 && !zf_parse_ns(c.rows[r][t], &per) && per > 0) {
			ct->w[k].ns_per_op += per;
			ct->w[k].costs++;
		}
	}
	if (w < 0 || o < 0 || !ct->n) {
		fprintf(stderr, "hzfbench: model: %s: not a c2c-contention.csv (work_ns and "
			"ops_per_transfer columns, a row at least)\n", path);
		zf_csv_free(&c);
		free(ct->w);
		ct->w = NULL;
		return -1;
	}
	for (k = 0; k < ct->n; k++) {
		ct->w[k].per_move /= ct->w[k].moves;
		ct->w[k].ns_per_op = ct->w[k].costs ? ct->w[k].ns_per_op / ct->w[k].costs : -1;
	}
	zf_csv_free(&c);
	return 0;
}

/*
 * The model's domain, from --contention FILE (which must be there), else
 * the first c2c-contention.csv found in DIR of --from and beside --c2c FILE;
 * none found: ct->n 0, the domain not known. 0, or -1 with the error said
 */
static int contention_find(const struct model_opts *o, struct contention *ct)
{
	char path[PATH_MAX + 32];
	const char *slash;

	ct->n = 0;
	if (o->contention)
		return contention_read(o->contention, true, ct);
	if (o->from) {
		snprintf(path, sizeof(path), "%s/c2c-contention.csv", o->from);
		if (contention_read(path, false, ct))
			return -1;
		if (ct->n)
			return 0;
	}
	if (!o->c2c)
		return 0;
	slash = strrchr(o->c2c, '/');
	snprintf(path, sizeof(path), "%.*s%sc2c-contention.csv", slash ? (int)(slash - o->c2c) : 0,
		 o->c2c, slash ? "/" : "");
	return contention_read(path, false, ct);
}

/* the measured work amount nearest ns by ratio (1 ns added to both); -1 without any */
static int contention_at(const struct contention *ct, double ns)
{
	int k, best = -1;
	double d, best_d = 0;

	for (k = 0; k < ct->n; k++) {
		d = fabs(log((ct->w[k].work_ns + 1) / (ns + 1)));
		if (best < 0 || d < best_d)
			best = k, best_d = d;
	}
	return best;
}

/*
 * The model's domain. It takes a get to move the line once in a queue, and
 * (n-1) times in n with nobody waiting: for two CPUs, once a get or once in
 * two; and a move to hold the line for U and a hand-off. Two CPUs with W of
 * work between their locked operations (c2c --contention) say both: how
 * often the line really moved, and what an operation cost them. At the W
 * nearest F, where a CPU kept the line for more gets in a row than the
 * model's two-task figure allows, or the two CPUs' cost was more than
 * DOMAIN_SLACK away from the model's own for them (near the knee the
 * ping-pong's hand-off overstates the line's time under contention), the
 * prediction is outside the model: said instead of a ratio. Without
 * contention data the domain is not known, and said so, with no ratio.
 */
#define DOMAIN_UNKNOWN "domain not known (run c2c --contention)"
static void domain_check(struct model_row *m, const struct contention *ct)
{
	struct zf_model_in in = { .fixed_ns = m->fixed_ns, .get_ns = m->get_ns, .teardown_ns = -1 };
	/* the line in question: the count's, or a thread mm's that every strategy writes */
	const char *shared = zf_strategy_name(zf_strategy_first_of(ZF_MODEL_SHARED));
	const char *ops = is_shared(m->strategy) ? "gets" : "the mm line's adds";
	const char *op = is_shared(m->strategy) ? "get" : "add";
	struct zf_model_out two;
	double expect;
	int k;

	m->outside[0] = '\0';
	m->domain_unknown = false;
	if ((!is_shared(m->strategy) && !m->mm_line) || m->tasks < 2)
		return;
	if (!ct->n) {
		/* the ratio would read as a verdict on a model that may not hold here */
		m->domain_unknown = true;
		snprintf(m->outside, sizeof(m->outside), DOMAIN_UNKNOWN);
		return;
	}
	k = contention_at(ct, m->fixed_ns);
	if (k < 0)
		return;
	in.fixed_ns = ct->w[k].work_ns;
	zf_model_predict(&in, shared, 2, m->handoff_ns, &two);
	expect = two.line_ns > m->get_ns + m->handoff_ns / 2 + 1e-9 ? 1 : 2;	/* queued: D1 */
	if (ct->w[k].per_move > DOMAIN_SLACK * expect)
		snprintf(m->outside, sizeof(m->outside), "outside the model: with %.0f ns of work "
			 "between %s a CPU kept the line for %.1f of them (c2c-contention.csv at "
			 "%.0f ns), where the model moves it every %s%s", m->fixed_ns, ops,
			 ct->w[k].per_move, ct->w[k].work_ns, expect > 1 ? "second " : "", op);
	else if (ct->w[k].ns_per_op > 0 && (ct->w[k].ns_per_op * DOMAIN_SLACK < two.ns_per_fault ||
					  ct->w[k].ns_per_op > DOMAIN_SLACK * two.ns_per_fault))
		snprintf(m->outside, sizeof(m->outside), "outside the model: two CPUs with %.0f ns "
			 "of work between %s took %.0f ns a%s %s and its work "
			 "(c2c-contention.csv), where the model gives them %.0f", ct->w[k].work_ns, ops,
			 ct->w[k].ns_per_op, is_shared(m->strategy) ? "" : "n", op, two.ns_per_fault);
}

/* rows and the placements of the first n */
static void rows_free(struct model_row *rows, size_t n)
{
	size_t i;

	for (i = 0; rows && i < n; i++)
		free(rows[i].placement);
	free(rows);
}

/*
 * whether dir's emulated faults counted the mm's page-table bytes: its
 * meta.json's --mm-atomics; a folder from before that option did not
 */
static bool mm_atomics_of(const char *dir)
{
	char *meta = zf_results_meta(dir), v[16] = "";
	bool on = meta && !zf_json_get(meta, "options.mm_atomics", v, sizeof(v)) &&
		  !strcmp(v, "on");

	free(meta);
	return on;
}

/* threads write one mm's page-table bytes: a kernel fault always, emulated under --mm-atomics */
static bool mm_line(const struct model_row *m, bool mm_atomics)
{
	return !strcmp(m->kind, "thread") && (!strcmp(m->fault, "kernel") || mm_atomics);
}

static int rows_from_summary(const char *dir, const struct model_opts *o,
			     const struct contention *ct, struct model_row **rows, size_t *nrows,
			     size_t *left_out)
{
	struct zf_csv counters = { 0 };
	bool have_counters;
	char path[PATH_MAX + 16];
	struct zf_csv c;
	size_t line = 0, r;
	int err;

	bool mm_atomics = mm_atomics_of(dir);

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
		m->mm_line = mm_line(m, mm_atomics);
		m->step = (unsigned long long)num_at(&c, r, "step");
		m->faults_per_pass = (unsigned long)num_at(&c, r, "faults_per_pass");
		m->measured_ns = num_at(&c, r, "ns_per_fault_median");
		m->measured_get_ns = num_at(&c, r, "get_ns_in_fault_median");
		m->measured_sd = num_at(&c, r, "ns_per_fault_stddev");
		m->retries = have_counters ? retries_of(&counters, m) : NAN;
		if (m->tasks < 1 || inputs_from(&c, m, o)) {
			(*left_out)++;
			continue;
		}
		/* a zap loop's puts have no work between them: c2c's batching at its least work */
		m->put_batch = o->put_batch >= 1 ? o->put_batch : ct->n ?
			       ct->w[contention_at(ct, 0)].per_move : 1;
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
	size_t nt, i, nmodelled = 0;
	const struct zf_strategy *const *s;

	for (s = zf_strategies; *s; s++)
		nmodelled += is_modelled((*s)->name);
	cap = zf_placement_capacity(topo, o->placement, why, sizeof(why));
	if (cap <= 0)
		return zf_bad_value("--placement", o->placement, cap < 0 ? why :
				    "the model needs pinned tasks: not none");
	if (zf_parse_int_list(o->tasks, 1, cap, cap, &tasks, &nt, &why_s))
		return zf_bad_value("--tasks", o->tasks, why_s);
	*rows = calloc(nmodelled ? nt * nmodelled : 1, sizeof(**rows));
	if (!*rows) {
		free(tasks);
		return 1;
	}
	*nrows = 0;
	for (s = zf_strategies; *s; s++)
		for (i = 0; i < nt && is_modelled((*s)->name); i++) {
			struct model_row *m = &(*rows)[(*nrows)++];

			snprintf(m->strategy, sizeof(m->strategy), "%s", (*s)->name);
			snprintf(m->fault, sizeof(m->fault), "%s", o->fault);
			snprintf(m->kind, sizeof(m->kind), "%s", o->kind);
			m->placement = strdup(o->placement);
			if (!m->placement) {
				free(tasks);
				return 1;
			}
			m->tasks = (int)tasks[i];
			m->mm_line = mm_line(m, strcmp(o->mm_atomics, "off"));
			m->step = o->step;
			m->faults_per_pass = (o->size / o->step) ? o->size / o->step : 1;
			m->measured_ns = m->measured_get_ns = m->retries = NAN;
			m->measured_sd = m->fixed_sd = NAN;
			m->fixed_ns = o->fixed_ns;
			m->get_ns = o->get_ns;
			m->teardown_ns = o->teardown_ns;
			m->put_batch = o->put_batch >= 1 ? o->put_batch : 1;
		}
	free(tasks);
	return 0;
}

/* the mean hand-off among the row's PUs; -1 (and why) when there is none */
static double row_handoff(struct zf_topo *topo, const struct model_row *m, const double *lv,
			  const struct zf_c2c *c2c, char *why, size_t len)
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
		      : zf_model_matrix_c2c(c2c, &plan, h, why, len))) {
		v = zf_model_handoff(h, m->tasks, m->tasks);
		if (v < 0)
			snprintf(why, len, "%.*s: no measured pair among the placement's PUs",
				 (int)(len > 64 ? len - 64 : 0), c2c->path);
	}
	free(h);
	zf_plan_free(&plan);
	return v;
}

/*
 * The hand-off an earlier row of rows[i]'s placement and task count was
 * given (every strategy, fault and kind of a sweep has the same PUs, and a
 * plan and mean of 1,024 PUs is a million cells); -1 where none was
 */
static double known_handoff(const struct model_row *rows, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (rows[k].done && rows[k].tasks == rows[i].tasks &&
		    !strcmp(rows[k].placement, rows[i].placement))
			return rows[k].handoff_ns;
	return -1;
}

/* model.csv's row: summary.csv's columns, the predicted figures in the measured ones' place */
static void write_csv_row(struct zf_buf *b, const struct model_row *m)
{
	struct zf_summary_row row;

	zf_cols_unmeasured(&zf_summary_table, &row);
	row.key = (struct zf_config_key){ .strategy = m->strategy, .fault = m->fault,
		.task_kind = m->kind, .tasks = (uint64_t)m->tasks, .placement = m->placement,
		.step = m->step, .faults_per_pass = m->faults_per_pass };
	row.reps = 0;
	row.ns_per_fault_median = m->out.ns_per_fault;
	/* the spread it inherits from its fixed cost's repetitions (report.c weighs it) */
	if (!isnan(m->fixed_sd) && m->fixed_sd > 0)
		row.ns_per_fault_stddev = m->fixed_sd;
	row.faults_per_sec_median = m->out.faults_per_sec;
	row.get_ns_in_fault_median = m->out.get_ns;
	row.get_share_of_fault = m->out.get_share;
	/* the last column, tag: why a prediction is outside the model (report.c shows it) */
	row.tag = m->outside[0] ? m->outside : NULL;
	zf_cols_row(b, &zf_summary_table, &row, true);
}

/* model.json's row of one configuration; NULL when it could not be made */
static json_t *json_row(const struct model_row *m)
{
	json_t *row = json_pack("{s:s, s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o}",
				"strategy", m->strategy, "fault", m->fault, "task_kind", m->kind,
				"tasks", m->tasks, "placement", zf_json_text(m->placement),
				"fixed_ns", zf_json_real(m->fixed_ns), "get_ns", zf_json_real(m->get_ns),
				"handoff_ns", zf_json_real(m->handoff_ns),
				"line_ns", zf_json_real(m->out.line_ns));
	bool life = !isnan(m->out.life_ns);

	/* null where there is no figure: zf_json_real() says so for NaN */
	if (row && json_object_update_new(row, json_pack("{s:o, s:o, s:o}",
			"retries_per_get", zf_json_real(m->retries),
			"ns_per_fault_with_retries",
			zf_json_real(isnan(m->retries) ? NAN : m->with.ns_per_fault),
			"teardown_ns", zf_json_real(life ? m->teardown_ns : NAN))))
		goto fail;
	if (row && life && json_object_update_new(row, json_pack("{s:o, s:o, s:o, s:o}",
			"put_batch", zf_json_real(m->put_batch), "life_ns", zf_json_real(m->out.life_ns),
			"put_ns", zf_json_real(m->out.put_ns),
			"life_get_share", zf_json_real(m->out.life_get_share))))
		goto fail;
	if (row && !life && json_object_set_new(row, "life_ns", json_null()))
		goto fail;
	if (row && json_object_set_new(row, "mm_line_ns",
				       zf_json_real(m->mm_line ? m->out.mm_ns : NAN)))
		goto fail;
	if (row && json_object_set_new(row, "domain",
				       zf_json_text(m->outside[0] ? m->outside : "in the model")))
		goto fail;
	return row;
fail:
	json_decref(row);
	return NULL;
}

static void write_json(struct zf_buf *b, const struct model_opts *o, const char *source,
		       const struct model_row *rows, size_t n)
{
	json_t *jrows = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		zf_json_push(&jrows, json_row(&rows[i]));
	zf_json_dump_lines(json_pack("{s:i, s:o, s:o, s:o, s:o}", "hzfbench_model", 1,
				     "preset", zf_json_text(o->preset ? o->preset : ""),
				     "handoff", zf_json_text(source),
				     "from", zf_json_text(o->from ? o->from : ""), "rows", jrows),
			   true, b);
}

/*
 * measured and predicted no further apart than the measurement's stddev and
 * that of the fixed cost it was predicted from: no ratio is made of that
 */
static bool in_noise(const struct model_row *m)
{
	return !isnan(m->measured_sd) && !isnan(m->fixed_sd) &&
	       zf_inside_noise(m->measured_ns, m->measured_sd, m->out.ns_per_fault, m->fixed_sd);
}

static void print_table(const struct model_row *rows, size_t n, bool measured)
{
	size_t i;

	bool life = false;

	for (i = 0; i < n; i++)
		life |= rows[i].done && !isnan(rows[i].out.life_ns);
	printf("%-10s %-8s %-7s %5s %10s %12s %9s %6s", "strategy", "fault", "kind", "tasks",
	       "handoff_ns", "pred_ns/flt", "pred_get", "share");
	if (life)
		printf(" %12s %6s", "pred_life", "share");
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
		if (life && isnan(m->out.life_ns))
			printf(" %12s %6s", "-", "-");
		else if (life)
			printf(" %12.3f %5.1f%%", m->out.life_ns, 100 * m->out.life_get_share);
		if (measured) {
			/* outside the model a ratio would read as a verdict on it: none */
			if (m->outside[0])
				printf(" %12.3f %9s", m->measured_ns,
				       m->domain_unknown ? "unknown" : "outside");
			else if (in_noise(m))
				printf(" %12.3f %9s", m->measured_ns, "in noise");
			else
				printf(" %12.3f %8.2fx", m->measured_ns,
				       m->measured_ns / m->out.ns_per_fault);
			if (!isnan(m->measured_get_ns))
				printf(" %9.2f", m->measured_get_ns);	/* timed in the real fault */
		}
		printf("\n");
	}
	for (i = 0; i < n; i++)
		if (rows[i].done && rows[i].outside[0])
			printf("%s %s %s %d tasks: %s\n", rows[i].strategy, rows[i].fault,
			       rows[i].kind, rows[i].tasks, rows[i].outside);
	/*
	 * What the prediction leaves out and the run counted: each lost CAS,
	 * another U; shown where that moves the prediction by 1% or more.
	 */
	for (i = 0; i < n; i++) {
		const struct model_row *m = &rows[i];

		if (!m->done || isnan(m->retries) || m->outside[0] ||
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
	const struct model_row *g = NULL, *mm = NULL;
	double gain, before, after, ratio, seed_ratio = SEED007_BEFORE_US / SEED007_AFTER_US;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!rows[i].done || rows[i].tasks != 72)
			continue;
		if (!strcmp(rows[i].strategy, "global"))
			g = &rows[i];
		if (!strcmp(rows[i].strategy, "mmflag"))
			mm = &rows[i];
	}
	if (!g || !mm || g->handoff_ns <= 0)
		return;
	/* usemem's clock: every fault of a process and its teardown, 51200 of each */
	if (!isnan(g->out.life_ns) && !isnan(mm->out.life_ns)) {
		before = SEED007_FAULTS * g->out.life_ns / 1e3;
		after = SEED007_FAULTS * mm->out.life_ns / 1e3;
		ratio = before / after;
		printf("seed-007: usemem's runtime, global (base): predicted %.0f us, seed %.0f us "
		       "(%.2fx)\n", before, SEED007_BEFORE_US, before / SEED007_BEFORE_US);
		printf("seed-007: usemem's runtime, mmflag (the commit): predicted %.0f us, seed "
		       "%.0f us (%.2fx; F and Z come from it)\n", after, SEED007_AFTER_US,
		       after / SEED007_AFTER_US);
		printf("seed-007: runtime ratio: predicted %.2fx, seed %.2fx (%+.0f%%)\n", ratio,
		       seed_ratio, 100 * (ratio / seed_ratio - 1));
		printf("seed-007: share of the runtime in get (global): predicted %.1f%%, seed "
		       "%.1f%% (perf cycles in get_huge_zero_page) (%+.0f%%)\n",
		       100 * g->out.life_get_share, 100 * SEED007_SHARE,
		       100 * (g->out.life_get_share / SEED007_SHARE - 1));
		printf("seed-007: per fault: global %.0f ns (fault phase %.0f, of it %.0f in get; "
		       "teardown %.0f, of it %.0f in put, %.0f puts a move of the line), "
		       "mmflag %.0f ns\n", g->out.life_ns, g->out.ns_per_fault, g->out.get_ns,
		       g->out.life_ns - g->out.ns_per_fault, g->out.put_ns, g->put_batch,
		       mm->out.life_ns);
	}
	/* usemem's throughput times its faults alone: the fault phase */
	gain = mm->out.faults_per_sec / g->out.faults_per_sec - 1;
	printf("seed-007: the fault phase alone (usemem's throughput): mmflag over global "
	       "predicted %+.0f%%, seed %+.0f%%\n", 100 * gain, 100 * SEED007_GAIN);
	printf("seed-007: inputs: hand-offs %s ns (a published CAS ping-pong of a dual Xeon "
	       "E5-2698 v3: docs/model.md), F %.0f ns a fault and Z %.0f of teardown (the "
	       "seed's %.0f ns a fault's life, split by a fault's cost measured here), "
	       "U %.0f ns\n", SEED007_HANDOFF, g->fixed_ns, g->teardown_ns, SEED007_LIFE_NS,
	       g->get_ns);
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
	if (o->teardown_ns < 0)
		o->teardown_ns = SEED007_LIFE_NS - o->fixed_ns > 0 ? SEED007_LIFE_NS - o->fixed_ns : 0;
	if (o->put_batch < 1)
		o->put_batch = SEED007_PUT_BATCH;
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

static int opt_handoff(const char *opt, const char *arg, void *opts)
{
	struct model_opts *o = opts;
	double lv[ZF_LV_N];
	const char *why;

	if (zf_model_levels_parse(arg, lv, &why))
		return zf_bad_value(opt, arg, why);
	o->handoff = arg;
	return 0;
}

static int opt_put_batch(const char *opt, const char *arg, void *opts)
{
	struct model_opts *o = opts;

	if (zf_parse_ns_opt(opt, arg, &o->put_batch))
		return 2;
	return o->put_batch < 1 ? zf_bad_value(opt, arg, "less than one put a move") : 0;
}

static const char *const task_kinds[] = { "thread", "process", NULL };
static const char *const fault_modes[] = { "emulated", "kernel", NULL };
static const char *const on_off[] = { "on", "off", NULL };

#define FIELD(f)	.cmds = 1, .off = offsetof(struct model_opts, f)
#define CUSTOM(fn)	.kind = ZF_OPT_CUSTOM, .parse = fn

static const char model_usage[] =
"usage: hzfbench model [options]\n"
"  Predicts global, mmflag and persistent ns/fault and faults/s against tasks\n"
"  from one-way cache-line hand-off latencies and a fault's fixed cost\n"
"  (docs/model.md). Writes model.csv (summary.csv's columns) and model.json.\n";

static const struct zf_opt model_table[] = {
	{ .name = "from", .kind = ZF_OPT_STRING, FIELD(from), .arg = "DIR",
	  .help = "a results folder: predict each of its configurations, print measured beside "
	  "predicted, write DIR/model.csv; the fixed cost and the get come from its 1-task rows" },
	{ .name = "c2c", .kind = ZF_OPT_STRING, FIELD(c2c), .arg = "FILE",
	  .help = "hand-offs from a c2c.csv (default with --from: DIR/c2c.csv)" },
	{ .name = "handoff-ns", CUSTOM(opt_handoff), FIELD(handoff), .arg = "SPEC",
	  .help = "hand-offs per level instead: core=NS,node=NS,package=NS,machine=NS (a level "
	  "not given takes the next outer one), or one NS for all" },
	{ .name = "fixed-ns", .kind = ZF_OPT_NS, FIELD(fixed_ns), .arg = "NS",
	  .help = "a fault's cost without any count (persistent's ns/fault)" },
	{ .name = "get-ns", .kind = ZF_OPT_NS, FIELD(get_ns), .arg = "NS",
	  .help = "one get on a line already in the CPU's cache" },
	{ .name = "tasks", .kind = ZF_OPT_STRING, FIELD(tasks), .arg = "LIST",
	  .help = "without --from: 1,2,4 or 1-8 or pow2 or all (default pow2)" },
	{ .name = "placement", .kind = ZF_OPT_STRING, .check = zf_placement_check,
	  FIELD(placement), .arg = "P",
	  .help = "without --from: compact, scatter, node:N, cpus:LIST (default compact)" },
	{ .name = "task-kind", .kind = ZF_OPT_WORD, .words = task_kinds, FIELD(kind), .arg = "K",
	  .help = "without --from: thread or process (default thread)" },
	{ .name = "fault", .kind = ZF_OPT_WORD, .words = fault_modes, FIELD(fault), .arg = "MODE",
	  .help = "without --from: the fault column, emulated or kernel (default emulated)" },
	{ .name = "size", .kind = ZF_OPT_SIZE, FIELD(size), .arg = "BYTES", .def = "100G",
	  .help = "without --from: faults per pass = size/step" },
	{ .name = "step", .kind = ZF_OPT_SIZE, FIELD(step), .arg = "BYTES", .def = "2M",
	  .help = "without --from: faults per pass = size/step" },
	{ .name = "topology", .kind = ZF_OPT_STRING, FIELD(xml), .arg = "FILE",
	  .help = "an hwloc XML topology (default with --from: DIR/topology.xml, else this "
	  "machine, or HWLOC_SYNTHETIC when set)" },
	{ .name = "mm-atomics", .kind = ZF_OPT_WORD, .words = on_off, FIELD(mm_atomics),
	  .arg = "on|off", .help = "without --from: emulated threads also write their mm's "
	  "page-table bytes, a line of its own, each fault and zap (run's --mm-atomics; "
	  "kernel faults always do; default on; with --from: the folder's)" },
	{ .name = "teardown-ns", .kind = ZF_OPT_NS, FIELD(teardown_ns), .arg = "NS",
	  .help = "a fault's teardown without any count: usemem's whole clock (default with "
	  "--from: persistent's 1-task teardown a fault)" },
	{ .name = "put-batch", CUSTOM(opt_put_batch), FIELD(put_batch), .arg = "N",
	  .help = "puts one CPU makes in a row per move of the line at teardown (default with "
	  "--from: c2c-contention.csv with no work between)" },
	{ .name = "contention", .kind = ZF_OPT_STRING, FIELD(contention), .arg = "FILE",
	  .help = "c2c-contention.csv: where the line moves once a get, the model's domain "
	  "(default: DIR/c2c-contention.csv of --from, else the one beside --c2c FILE; none: "
	  "the domain not known, no ratio where it decides)" },
	{ .name = "preset", .kind = ZF_OPT_STRING, FIELD(preset), .arg = "seed-007",
	  .help = "seed 007's 2-socket Haswell-EP, 72 tasks, 2 MiB steps, and the seed's "
	  "reported runtimes and get share beside the prediction" },
	{ .name = "out", .kind = ZF_OPT_STRING, .check = zf_out_check, FIELD(out), .arg = "DIR",
	  .help = "where model.csv goes: new or empty (default: DIR of --from, else "
	  "results/<UTC time>-<host>)" },
	ZF_OPT_TAIL(1),
};

const struct zf_opt_set zf_model_opts = ZF_OPT_SET_OF(model_table, "model", model_usage);

/* 0, 2 (said) or ZF_OPT_DONE */
static int parse_opts(int argc, char **argv, struct model_opts *o)
{
	int err = zf_opt_parse_only(&zf_model_opts, argc, argv, o);

	if (err)
		return err;
	if (o->handoff && o->c2c)
		return zf_bad_value("--handoff-ns", o->handoff, "give it or --c2c, not both");
	if (o->from && (o->tasks || o->placement || o->kind || o->fault || o->mm_atomics))
		return zf_bad_value("--from", o->from,
				    "takes its configurations from the folder: no --tasks, "
				    "--placement, --task-kind, --fault or --mm-atomics");
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
	/* -1: not given; --size and --step from model_table's defaults */
	struct model_opts o = { .fixed_ns = -1, .get_ns = -1, .teardown_ns = -1, .put_batch = -1 };
	struct contention ct = { 0 };
	char why[512], dir[PATH_MAX], c2c[PATH_MAX + 16], xml[PATH_MAX + 16], source[PATH_MAX + 64];
	struct model_row *rows = NULL;
	size_t nrows = 0, left_out = 0, i, done = 0;
	struct zf_buf csv = { 0 }, json = { 0 };
	double lv[ZF_LV_N], *lvp = NULL;
	struct zf_c2c matrix = { 0 };
	struct zf_topo topo;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret == ZF_OPT_DONE ? 0 : ret;
	/* the folder first: a torn or unfinished one is no measurement to predict */
	if (o.from && zf_results_complete(o.from, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: model: --from: %s\n", why);
		return 2;
	}
	if (!o.tasks)
		o.tasks = "pow2";
	if (!o.placement)
		o.placement = "compact";
	if (!o.kind)
		o.kind = "thread";
	if (!o.fault)
		o.fault = "emulated";
	if (!o.mm_atomics)
		o.mm_atomics = "on";
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
		if (zf_c2c_read(c2c, &matrix, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: model: %s\n", why);
			return 2;
		}
		snprintf(source, sizeof(source), "c2c: %s", c2c);
	}
	if (contention_find(&o, &ct)) {
		zf_c2c_free(&matrix);
		return 2;
	}
	if (zf_topo_open(&topo, o.xml, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --topology: %s\n", why);
		zf_c2c_free(&matrix);
		free(ct.w);
		return 2;
	}
	ret = o.from ? rows_from_summary(o.from, &o, &ct, &rows, &nrows, &left_out)
		     : rows_from_options(&o, &topo, &rows, &nrows);
	if (ret)
		goto out;
	for (i = 0; i < nrows; i++) {
		struct model_row *m = &rows[i];
		struct zf_model_in in = { .fixed_ns = m->fixed_ns, .get_ns = m->get_ns,
			.faults_per_pass = m->faults_per_pass, .threads = !strcmp(m->kind, "thread"),
			.teardown_ns = m->teardown_ns, .put_batch = m->put_batch,
			.mm_line = m->mm_line };

		m->handoff_ns = known_handoff(rows, i);
		if (m->handoff_ns < 0)
			m->handoff_ns = row_handoff(&topo, m, lvp, &matrix, why, sizeof(why));
		if (m->handoff_ns < 0) {
			fprintf(stderr, "hzfbench: model: %s at %d tasks: %s\n", m->strategy, m->tasks,
				why);
			left_out++;
			continue;
		}
		zf_model_predict(&in, m->strategy, m->tasks, m->handoff_ns, &m->out);
		in.retries = isnan(m->retries) ? 0 : m->retries;
		zf_model_predict(&in, m->strategy, m->tasks, m->handoff_ns, &m->with);
		domain_check(m, &ct);
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
	zf_cols_header(&csv, &zf_summary_table);
	for (i = 0; i < nrows; i++)
		if (rows[i].done)
			write_csv_row(&csv, &rows[i]);
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
	zf_c2c_free(&matrix);
	free(ct.w);
	return ret;
}
