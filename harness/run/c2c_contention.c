// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench c2c --contention`: for a few pairs of PUs, spread over the levels
 * they share, and each amount of work between operations, two threads pinned
 * to the pair increment one line (bench/contend.h) and count how many
 * operations go by per move of the line: DIR/c2c-contention.csv.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/contend.h"
#include "../../bench/probe.h"
#include "../../bench/usemem.h"
#include "buf.h"
#include "c2c.h"
#include "parse.h"

#define BATCHES		7		/* measured, after one warm-up */
#define BATCH_NS	3000000.0	/* a batch lasts about this long ... */
#define OP_GUESS_NS	100.0		/* ... at the work plus this much an operation */
#define MIN_OPS		200UL
#define MIN_BOTH_PART	10		/* a batch counts if each side did 1/10 of its ops while both ran */
#define PAIR_PLAN_MS	0.3		/* --plan: a pair's two threads started and joined */
#define CALIBRATE_S	0.15		/* --plan: zf_busy_calibrate() */
#define CALIBRATE_AT_S	0.05		/* and zf_busy_calibrate_at() per work amount */

const char *const zf_c2c_contention_cols[] = {
	"pu_a", "pu_b", "level", "work_ns", "ns_per_op", "ops_per_transfer",
	"retries_per_op", "ops", NULL,
};

/* the level of tasks i and j, by model.c's rule (a 2-task plan of the two) */
static enum zf_level pair_level(const struct zf_plan *plan, int i, int j)
{
	int pu[2] = { plan->pu[i], plan->pu[j] }, core[2] = { plan->core[i], plan->core[j] };
	int package[2] = { plan->package[i], plan->package[j] };
	int node[2] = { plan->node[i], plan->node[j] };
	struct zf_plan two = { .ntasks = 2, .pu = pu, .core = core, .package = package,
			       .node = node };
	const double lv[ZF_LV_N] = { ZF_LV_CORE, ZF_LV_NODE, ZF_LV_PACKAGE, ZF_LV_MACHINE };
	double h[4];
	char why[8];

	zf_model_matrix_levels(&two, lv, h, why, sizeof(why));	/* every level given: no error */
	return (enum zf_level)h[1];
}

int zf_c2c_contention_pairs(const struct zf_plan *plan, unsigned long max,
			    struct zf_c2c_pair **pairs, size_t *n)
{
	unsigned long count[ZF_LV_N] = { 0 }, quota[ZF_LV_N] = { 0 }, seen[ZF_LV_N] = { 0 };
	unsigned long got[ZF_LV_N] = { 0 }, taken = 0, more = 1;
	size_t at[ZF_LV_N], k;
	int i, j, l;

	for (i = 0; i < plan->ntasks; i++)
		for (j = i + 1; j < plan->ntasks; j++)
			count[pair_level(plan, i, j)]++;
	while (taken < max && more)	/* one of each level in turn */
		for (l = 0, more = 0; l < ZF_LV_N && taken < max; l++)
			if (quota[l] < count[l]) {
				quota[l]++;
				taken++;
				more = 1;
			}
	*pairs = calloc(taken ? taken : 1, sizeof(**pairs));
	if (!*pairs)
		return -ENOMEM;
	for (l = 0, k = 0; l < ZF_LV_N; k += quota[l], l++)
		at[l] = k;	/* level l's pairs go at [at[l], at[l] + quota[l]) */
	/* each level's k-th pair of its quota is its (k * count / quota)-th: spread evenly */
	for (i = 0; i < plan->ntasks; i++)
		for (j = i + 1; j < plan->ntasks; j++) {
			l = pair_level(plan, i, j);
			if (got[l] < quota[l] && seen[l] == got[l] * count[l] / quota[l]) {
				(*pairs)[at[l] + got[l]] = (struct zf_c2c_pair){ i, j, l };
				got[l]++;
			}
			seen[l]++;
		}
	*n = taken;
	return 0;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

int zf_c2c_work_parse(const char *arg, unsigned long **work_ns, size_t *n)
{
	char *buf, **items;
	const char *why;
	unsigned long *v;
	size_t i, nitems;
	int ret = 0;

	if (zf_split_list(arg, &buf, &items, &nitems, &why))
		return zf_bad_value("--work-ns", arg, why);
	v = calloc(nitems ? nitems : 1, sizeof(*v));
	if (!v) {
		ret = zf_bad_value("--work-ns", arg, "out of memory");
		goto out;
	}
	for (i = 0; i < nitems && !ret; i++)
		if (zf_parse_ulong(items[i], 0, ZF_C2C_WORK_NS_MAX, &v[i], &why))
			ret = zf_bad_value("--work-ns", items[i], why);
	qsort(v, nitems, sizeof(*v), cmp_ulong);
	for (i = 1; i < nitems && !ret; i++)
		if (v[i] == v[i - 1])
			ret = zf_bad_value("--work-ns", items[i], "given twice");
	if (!ret && !nitems)
		ret = zf_bad_value("--work-ns", arg, "empty");
	if (ret) {
		free(v);
	} else {
		*work_ns = v;
		*n = nitems;
	}
out:
	free(items);
	free(buf);
	return ret;
}

unsigned long zf_c2c_contention_ops(unsigned long work_ns)
{
	unsigned long ops = (unsigned long)(BATCH_NS / (work_ns + OP_GUESS_NS));

	return ops > MIN_OPS ? ops : MIN_OPS;
}

double zf_c2c_contention_plan_s(size_t npairs, const unsigned long *work_ns, size_t nwork,
				double handoff_ns)
{
	double s = 0;
	size_t w;

	/* each op taken as its work and one hand-off: no batching, the slowest case */
	for (w = 0; w < nwork; w++)
		s += (BATCHES + 1) * 2.0 * zf_c2c_contention_ops(work_ns[w]) *
		     (work_ns[w] + handoff_ns) / 2e9 + PAIR_PLAN_MS / 1e3;
	return npairs && nwork ? npairs * s + CALIBRATE_S + nwork * CALIBRATE_AT_S : 0;
}

struct side_arg {
	struct zf_topo *topo;
	struct zf_contend *c;
	int pu, side, err;
	struct zf_contend_count count[BATCHES + 1];	/* the first a warm-up */
	char why[160];
};

static void *side_main(void *p)
{
	struct side_arg *a = p;
	int b;

	if (zf_topo_bind_self(a->topo, a->pu, a->why, sizeof(a->why))) {
		/* the other side waits at batch 0's start: arrive at every barrier, and leave */
		a->err = 1;
		atomic_fetch_add_explicit(&a->c->arrived, 2UL * (BATCHES + 1), memory_order_acq_rel);
		return NULL;
	}
	for (b = 0; b <= BATCHES; b++)
		zf_contend_batch(a->c, a->side, b, &a->count[b]);
	return NULL;
}

struct cell {
	double ns_per_op, ops_per_transfer, retries_per_op;	/* -1: not measured */
	unsigned long ops;					/* one batch, both sides */
	int valid;						/* batches with both running */
};

/* one pair at one work amount: each figure the median over the batches; -1 on failure */
static int measure(struct zf_topo *topo, int pu_a, int pu_b, unsigned long work_ns,
		   double iters_per_ns, struct cell *cell, char *why, size_t len)
{
	struct zf_contend *c = aligned_alloc(ZF_LINE, sizeof(*c));
	struct side_arg a = { .topo = topo, .pu = pu_a, .side = 0 };
	struct side_arg b = { .topo = topo, .pu = pu_b, .side = 1 };
	double ns[BATCHES], opt[BATCHES], retries[BATCHES];
	unsigned long ops = zf_c2c_contention_ops(work_ns);
	int i, valid = 0;

	if (!c) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->work_iters = (unsigned long)(work_ns * iters_per_ns + 0.5);
	a.c = b.c = c;
	switch (zf_c2c_run_pair(side_main, &a, &b, why, len)) {
	case -1:
		free(c);
		return -1;
	case -2:
		return -1;	/* b is left waiting on c */
	}
	free(c);
	if (a.err || b.err) {
		snprintf(why, len, "%s", a.err ? a.why : b.why);
		return -1;
	}
	for (i = 0; i < BATCHES; i++) {	/* batch 0 warmed the line, the caches and the clocks */
		const struct zf_contend_count *x = &a.count[i + 1], *y = &b.count[i + 1];
		unsigned long both = x->ops + y->ops, moved = x->transfers + y->transfers;

		/* the line's own count says how many increments took: each side's ops, no more */
		if (x->done != ops || y->done != ops || x->line_ops != 2 * ops ||
		    x->ops > ops || y->ops > ops || moved > both || !both) {
			snprintf(why, len, "batch %d: %lu and %lu increments of %lu each, the line "
				 "counted %lu; %lu while both ran, %lu moves", i + 1, x->done,
				 y->done, ops, x->line_ops, both, moved);
			return -1;
		}
		/*
		 * Each figure over the ops done while both ran. A batch in which a
		 * side did less than a tenth of its ops before the other ended (its
		 * thread was not running: another task had the CPU) measured no
		 * contention, and is left out.
		 */
		if (x->ops < ops / MIN_BOTH_PART || y->ops < ops / MIN_BOTH_PART)
			continue;
		ns[valid] = ((double)x->ns / x->ops + (double)y->ns / y->ops) / 2;
		opt[valid] = moved ? (double)both / moved : INFINITY;
		retries[valid++] = (double)(x->retries + y->retries) / both;
	}
	cell->valid = valid;
	cell->ns_per_op = valid ? zf_median(ns, valid) : -1;
	cell->ops_per_transfer = valid ? zf_median(opt, valid) : -1;
	if (isinf(cell->ops_per_transfer))
		cell->ops_per_transfer = -1;	/* the line never moved: left empty */
	cell->retries_per_op = valid ? zf_median(retries, valid) : -1;
	cell->ops = 2 * ops;
	return 0;
}

/* a figure with 3 decimals, or nothing where it was not measured */
static void fig(char *buf, size_t len, double v)
{
	if (v >= 0)
		snprintf(buf, len, "%.3f", v);
	else
		buf[0] = 0;
}

int zf_c2c_contention(struct zf_topo *topo, const struct zf_plan *plan,
		      const struct zf_c2c_pair *pairs, size_t npairs,
		      const unsigned long *work_ns, size_t nwork, const char *dir)
{
	struct zf_buf csv = { 0 };
	double iters_per_ns = zf_busy_calibrate(), *ipn = calloc(nwork, sizeof(*ipn));
	char why[256];
	size_t p, w;
	int i, ret = 0;

	if (!ipn)
		return 1;
	/* each amount of work calibrated as --fault-ns is: calls of that many ns */
	for (w = 0; w < nwork; w++) {
		unsigned long iters;
		double call_ns;

		ipn[w] = work_ns[w] ? zf_busy_calibrate_at((double)work_ns[w], iters_per_ns, &iters,
							   &call_ns)
				    : iters_per_ns;
	}

	for (i = 0; zf_c2c_contention_cols[i]; i++)
		zf_buf_printf(&csv, "%s%s", i ? "," : "", zf_c2c_contention_cols[i]);
	zf_buf_printf(&csv, "\n");
	printf("c2c --contention: %zu pairs, work between operations in ns, busy work %.3f "
	       "%s units a ns\n", npairs, iters_per_ns, zf_busy_setup());
	printf("%6s %6s %-8s %8s %10s %16s %14s %8s\n", "pu_a", "pu_b", "level", "work_ns",
	       "ns_per_op", "ops_per_transfer", "retries_per_op", "ops");
	for (p = 0; p < npairs && !ret; p++)
		for (w = 0; w < nwork && !ret; w++) {
			int pu_a = plan->pu[pairs[p].i], pu_b = plan->pu[pairs[p].j];
			char ns[32], opt[32], retries[32];
			struct cell cell;

			if (measure(topo, pu_a, pu_b, work_ns[w], ipn[w], &cell, why,
				    sizeof(why))) {
				fprintf(stderr, "hzfbench: c2c --contention: PUs %d and %d: %s\n",
					pu_a, pu_b, why);
				ret = 1;
				break;
			}
			fig(ns, sizeof(ns), cell.ns_per_op);
			fig(opt, sizeof(opt), cell.ops_per_transfer);
			fig(retries, sizeof(retries), cell.retries_per_op);
			zf_buf_printf(&csv, "%d,%d,%s,%lu,%s,%s,%s,%lu\n", pu_a, pu_b,
				      zf_level_names[pairs[p].level], work_ns[w], ns, opt, retries,
				      cell.ops);
			printf("%6d %6d %-8s %8lu %10s %16s %14s %8lu", pu_a, pu_b,
			       zf_level_names[pairs[p].level], work_ns[w], ns, opt, retries, cell.ops);
			if (cell.valid < BATCHES)
				printf("  (%d of %d batches: in the others one thread hardly ran)",
				       cell.valid, BATCHES);
			printf("\n");
		}
	if (!ret)
		ret = zf_buf_write(dir, ZF_C2C_CONTENTION_CSV, &csv, "c2c");
	if (!ret)
		printf("c2c: %s/%s (ops_per_transfer: operations per move of the line; "
		       "1 is the model's one move a get)\n", dir, ZF_C2C_CONTENTION_CSV);
	zf_buf_free(&csv);
	free(ipn);
	return ret;
}
