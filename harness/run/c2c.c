// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench c2c`: the core-to-core hand-off latency matrix, by ping-pong on
 * one cache line between two pinned threads, for every pair of the PUs a
 * placement gives (or a sample of them, to bound the time on big machines).
 * Writes DIR/c2c.csv (the matrix, one-way ns: half a round trip) and
 * DIR/c2c-pus.csv (each PU's core, package and NUMA node); with --contention
 * also DIR/c2c-contention.csv (c2c_contention.c).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../bench/pingpong.h"
#include "../../bench/probe.h"
#include "buf.h"
#include "c2c.h"
#include "opt.h"
#include "parse.h"
#include "results.h"
#include "topo.h"

#define BATCHES 7

struct side_arg {
	struct zf_topo *topo;
	struct zf_pingpong *pp;
	int pu, side, err;
	uint64_t ns[BATCHES + 1];	/* side 0: each batch, the first a warm-up */
	char why[160];
};

static void *side_main(void *p)
{
	struct side_arg *a = p;
	int b;

	if (zf_topo_bind_self(a->topo, a->pu, a->why, sizeof(a->why))) {
		a->err = 1;
		return NULL;
	}
	for (b = 0; b <= BATCHES; b++)
		a->ns[b] = zf_pingpong_side(a->pp, a->side);
	return NULL;
}

int zf_c2c_run_pair(void *(*side)(void *), void *a, void *b, char *why, size_t len)
{
	pthread_t ta, tb;

	if (pthread_create(&tb, NULL, side, b)) {
		snprintf(why, len, "cannot start a thread");
		return -1;
	}
	if (pthread_create(&ta, NULL, side, a)) {
		snprintf(why, len, "cannot start a thread");
		return -2;
	}
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	return 0;
}

/* one pair: the median over the batches of one hand-off, in ns; <0 on failure */
static double pair_ns(struct zf_topo *topo, int pu_a, int pu_b, enum zf_pp_method method,
		      unsigned long rounds, char *why, size_t len)
{
	struct zf_pingpong *pp = aligned_alloc(ZF_LINE, sizeof(*pp));
	struct side_arg a = { .topo = topo, .pu = pu_a, .side = 0 };
	struct side_arg b = { .topo = topo, .pu = pu_b, .side = 1 };
	double v[BATCHES];
	int i;

	if (!pp)
		return -1;
	memset(pp, 0, sizeof(*pp));
	pp->method = method;
	pp->rounds = rounds;
	a.pp = b.pp = pp;
	switch (zf_c2c_run_pair(side_main, &a, &b, why, len)) {
	case -1:
		free(pp);
		return -1;
	case -2:
		return -1;	/* b is left waiting on pp */
	}
	free(pp);
	if (a.err || b.err) {
		snprintf(why, len, "%s", a.err ? a.why : b.why);
		return -1;
	}
	for (i = 0; i < BATCHES; i++)	/* batch 0 warmed the line and the caches */
		v[i] = (double)a.ns[i + 1] / (2.0 * rounds);
	return zf_median(v, BATCHES);
}

/* --plan: a hand-off where this machine has one CPU; a pair's two threads started and joined */
#define C2C_PLAN_HANDOFF_NS	100.0
#define C2C_PLAN_PAIR_MS	0.3

/*
 * --plan: the pairs measured, each BATCHES + 1 batches of `rounds` round
 * trips at the hand-off of this machine's first two PUs (timed here at a
 * tenth of the rounds), and a pair's two threads started and joined
 */
static int c2c_plan(struct zf_topo *topo, enum zf_pp_method method, unsigned long rounds,
		    unsigned long pairs, unsigned long npairs, size_t contention_pairs,
		    const unsigned long *work_ns, size_t nwork)
{
	struct zf_topo here;
	struct zf_plan two;
	const char *env = getenv("HWLOC_SYNTHETIC");
	char *saved = env ? strdup(env) : NULL, why[256];
	double handoff_ns = C2C_PLAN_HANDOFF_NS, per_pair_s, total;
	bool measured = false;
	long t;

	unsetenv("HWLOC_SYNTHETIC");	/* the probe runs here, whatever is planned */
	if (!zf_topo_open(&here, NULL, why, sizeof(why))) {
		if (here.pus >= 2 && !zf_plan_make(&here, "compact", 2, &two, why, sizeof(why))) {
			double v = pair_ns(&here, two.pu[0], two.pu[1], method,
					   rounds / 10 > 10 ? rounds / 10 : 10, why, sizeof(why));

			if (v > 0) {
				handoff_ns = v;
				measured = true;
			}
			zf_plan_free(&two);
		}
		zf_topo_close(&here);
	}
	if (saved)
		setenv("HWLOC_SYNTHETIC", saved, 1);
	free(saved);
	per_pair_s = (BATCHES + 1) * rounds * 2.0 * handoff_ns / 1e9 + C2C_PLAN_PAIR_MS / 1e3;
	total = pairs * per_pair_s;
	printf("plan: %lu of %lu pairs%s, a hand-off %s %.0f ns\n", pairs, npairs,
	       topo->thissystem ? "" : " (another machine: this one's hand-off)",
	       measured ? "measured here at" : "taken as", handoff_ns);
	if (nwork) {
		double s = zf_c2c_contention_plan_s(contention_pairs, work_ns, nwork, handoff_ns);

		printf("plan: --contention: %zu pairs at %zu work amounts, %.1f s at most\n",
		       contention_pairs, nwork, s);
		total += s;
	}
	t = (long)(total + 0.5);
	printf("plan: estimated %ld:%02ld:%02ld (%.1f s)\n", t / 3600, t / 60 % 60, t % 60, total);
	return 0;
}

struct c2c_opts {
	const char *placement, *tasks, *pairs, *method, *work, *xml, *out;
	unsigned long ntasks, rounds, max_pairs, contention_max;
	bool contention, plan_only;
};

static int opt_placement(const char *opt, const char *arg, void *opts)
{
	struct c2c_opts *o = opts;
	const char *why;

	if (zf_placement_check(arg, &why) || !strcmp(arg, "none"))
		return zf_bad_value(opt, arg, !strcmp(arg, "none") ? "c2c pins both sides: not none"
				    : why);
	o->placement = arg;
	return 0;
}

static const char *const pairs_words[] = { "all", "neighbours", NULL };
static const char *const method_words[] = { "cas", "rw", NULL };

#define FIELD(f)	.cmds = 1, .off = offsetof(struct c2c_opts, f)

static const char c2c_usage[] =
"usage: hzfbench c2c [options]\n"
"  The core-to-core hand-off latency matrix: two threads pinned to a pair of\n"
"  PUs pass one cache line back and forth; a cell is the median over 7\n"
"  batches of one hand-off (half a round trip), in ns.\n";

static const struct zf_opt c2c_table[] = {
	{ .name = "placement", .kind = ZF_OPT_CUSTOM, .parse = opt_placement, FIELD(placement),
	  .arg = "P", .def = "compact", .help = "the PUs to measure, in this order (all of them)" },
	/* the placement's PUs say how many may be asked for */
	{ .name = "tasks", .kind = ZF_OPT_ULONG, FIELD(ntasks), .min = 2, .max = INT_MAX,
	  .arg = "N", .help = "only the first N PUs of the placement" },
	{ .name = "pairs", .kind = ZF_OPT_WORD, .words = pairs_words, FIELD(pairs),
	  .arg = "all|neighbours", .def = "all", .help = "every pair, or each PU with the next" },
	{ .name = "method", .kind = ZF_OPT_WORD, .words = method_words, FIELD(method),
	  .arg = "cas|rw", .def = "cas",
	  .help = "compare-and-swap, as get() does, or load and store" },
	{ .name = "rounds", .kind = ZF_OPT_ULONG, FIELD(rounds), .min = 10, .max = 100000000,
	  .arg = "N", .def = "20000", .help = "round trips per batch" },
	{ .name = "max-pairs", .kind = ZF_OPT_ULONG, FIELD(max_pairs), .min = 1, .max = 100000000,
	  .arg = "N", .def = "1000", .help = "measure at most N pairs, spread evenly (about 20 s "
	  "at 120 ns a hand-off; the rest left empty)" },
	{ .name = "topology", .kind = ZF_OPT_STRING, FIELD(xml), .arg = "FILE",
	  .help = "an hwloc XML topology (it must be this machine's)" },
	{ .name = "out", .kind = ZF_OPT_STRING, .check = zf_out_check, FIELD(out), .arg = "DIR",
	  .help = "results folder, new or empty (default results/<UTC time>-<host>)" },
	{ .name = "plan", .kind = ZF_OPT_FLAG, FIELD(plan_only), .help = "print the pairs and "
	  "the estimated wall time (one pair of this machine's timed briefly) and stop: nothing "
	  "written; with HWLOC_SYNTHETIC or --topology, for that machine" },
	{ .name = "contention", .kind = ZF_OPT_FLAG, FIELD(contention), .help = "after the "
	  "matrix, a few pairs contend for one line with work between operations: ns an "
	  "operation, operations per move of the line, lost CAS an operation, for each work "
	  "amount; DIR/c2c-contention.csv too" },
	{ .name = "work-ns", .kind = ZF_OPT_STRING, FIELD(work), .arg = "LIST",
	  .def = ZF_C2C_WORK_NS_DEFAULT, .help = "the work between two operations, ns" },
	{ .name = "contention-pairs", .kind = ZF_OPT_ULONG, FIELD(contention_max), .min = 1,
	  .max = 100000000, .arg = "N", .def = "4", .help = "at most N pairs, spread over the "
	  "levels they share: SMT siblings, one node, one package, across" },
	ZF_OPT_TAIL(1),
};

const struct zf_opt_set zf_c2c_opts = ZF_OPT_SET_OF(c2c_table, "c2c", c2c_usage);

/* 0, 2 (said) or ZF_OPT_DONE */
static int parse(int argc, char **argv, struct c2c_opts *o)
{
	struct zf_opt_set set = zf_c2c_opts;
	const char *work, *pairs;
	int err = zf_opt_parse(&set, argc, argv, o);

	o->tasks = zf_opt_typed(&set, "tasks");
	work = zf_opt_typed(&set, "work-ns");
	pairs = zf_opt_typed(&set, "contention-pairs");
	if (!err && !o->contention && (work || pairs))
		err = zf_bad_value(work ? "--work-ns" : "--contention-pairs", work ? work : pairs,
				   "needs --contention");
	zf_opt_free(&set);
	return err;
}

int zf_c2c_main(int argc, char **argv)
{
	struct c2c_opts o = { 0 };	/* the defaults are c2c_table's */
	unsigned long *work_ns = NULL;
	size_t nwork = 0, ncontention = 0;
	struct zf_c2c_pair *contention_pairs = NULL;
	enum zf_pp_method method;
	bool neighbours;
	struct zf_buf csv = { 0 }, pus = { 0 };
	char why[512], dir[PATH_MAX];
	struct zf_topo topo;
	struct zf_plan plan;
	double *m;
	int i, j, n, ret;
	unsigned long npairs, every, k = 0;

	ret = parse(argc, argv, &o);
	if (ret)
		return ret == ZF_OPT_DONE ? 0 : ret;
	neighbours = !strcmp(o.pairs, "neighbours");
	method = strcmp(o.method, "cas") ? ZF_PP_RW : ZF_PP_CAS;
	if (zf_topo_open(&topo, o.xml, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --topology: %s\n", why);
		return 2;
	}
	if (!topo.thissystem && !o.plan_only) {
		fprintf(stderr, "hzfbench: c2c: %s: not this machine; c2c measures the real one\n",
			topo.source);
		zf_topo_close(&topo);
		return 2;
	}
	n = zf_placement_capacity(&topo, o.placement, why, sizeof(why));
	if (n >= 2 && o.ntasks > (unsigned long)n)
		snprintf(why, sizeof(why), "more than the placement's %d PUs", n);
	if (n < 2 || o.ntasks > (unsigned long)n) {
		zf_topo_close(&topo);
		return n >= 2 ? zf_bad_value("--tasks", o.tasks, why) :
		       zf_bad_value("--placement", o.placement, n < 0 ? why : "needs two PUs at least");
	}
	if (o.ntasks)
		n = o.ntasks;
	if (zf_plan_make(&topo, o.placement, n, &plan, why, sizeof(why))) {
		zf_topo_close(&topo);
		return zf_bad_value("--placement", o.placement, why);
	}
	if (o.contention && (zf_c2c_work_parse(o.work,
					     &work_ns, &nwork) ||
			   zf_c2c_contention_pairs(&plan, o.contention_max, &contention_pairs,
						   &ncontention))) {
		ret = 2;	/* the pairs fail only when out of memory */
		goto done;
	}
	npairs = neighbours ? (unsigned long)n - 1 : (unsigned long)n * (n - 1) / 2;
	every = npairs > o.max_pairs ? (npairs + o.max_pairs - 1) / o.max_pairs : 1;
	if (o.plan_only) {
		ret = c2c_plan(&topo, method, o.rounds, (npairs + every - 1) / every, npairs,
			       ncontention, work_ns, nwork);
		goto done;
	}
	if (zf_results_dir(o.out, dir, sizeof(dir), why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --out: %s: %s\n", o.out ? o.out : dir, why);
		ret = 2;
		goto done;
	}
	m = calloc((size_t)n * n, sizeof(*m));
	if (!m) {
		ret = 1;
		goto done;
	}
	for (i = 0; i < n * n; i++)
		m[i] = -1;
	for (i = 0; i < n && !ret; i++)
		for (j = i + 1; j < n && !ret; j++) {
			double v;

			if (neighbours && j != i + 1)
				continue;
			if (k++ % every)
				continue;	/* sampled out: left empty, never guessed */
			v = pair_ns(&topo, plan.pu[i], plan.pu[j], method, o.rounds, why, sizeof(why));
			if (v < 0) {
				fprintf(stderr, "hzfbench: c2c: PUs %d and %d: %s\n", plan.pu[i],
					plan.pu[j], why);
				ret = 1;
			}
			m[i * n + j] = m[j * n + i] = v;
		}
	zf_buf_printf(&csv, "pu");
	for (j = 0; j < n; j++)
		zf_buf_printf(&csv, ",%d", plan.pu[j]);
	zf_buf_printf(&csv, "\n");
	for (i = 0; i < n; i++) {
		zf_buf_printf(&csv, "%d", plan.pu[i]);
		for (j = 0; j < n; j++)
			if (m[i * n + j] >= 0)
				zf_buf_printf(&csv, ",%.2f", m[i * n + j]);
			else
				zf_buf_printf(&csv, ",");
		zf_buf_printf(&csv, "\n");
	}
	zf_buf_printf(&pus, "pu,core,package,node\n");
	for (i = 0; i < n; i++)
		zf_buf_printf(&pus, "%d,%d,%d,%d\n", plan.pu[i], plan.core[i], plan.package[i],
			      plan.node[i]);
	free(m);
	if (!ret)
		ret = zf_buf_write(dir, "c2c.csv", &csv, "c2c") ||
		      zf_buf_write(dir, "c2c-pus.csv", &pus, "c2c");
	if (!ret) {
		fputs(csv.text, stdout);
		printf("c2c: %s/c2c.csv (%s, one-way ns, %lu of %lu pairs)\n", dir,
		       method == ZF_PP_CAS ? "cas" : "rw", (npairs + every - 1) / every, npairs);
	}
	if (!ret && o.contention)
		ret = zf_c2c_contention(&topo, &plan, contention_pairs, ncontention, work_ns,
					nwork, dir);
done:
	free(work_ns);
	free(contention_pairs);
	zf_buf_free(&csv);
	zf_buf_free(&pus);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
	return ret;
}
