/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench model`: what the three strategies should cost at n tasks, from
 * a hand-off latency matrix (c2c.csv, or one latency per topology level) and
 * a per-fault fixed cost. The reasoning is in docs/model.md.
 */
#ifndef HZF_MODEL_H
#define HZF_MODEL_H

#include <stdbool.h>

#include "topo.h"

/* how close two PUs are: the innermost object they share */
enum zf_level { ZF_LV_CORE, ZF_LV_NODE, ZF_LV_PACKAGE, ZF_LV_MACHINE, ZF_LV_N };
extern const char *const zf_level_names[ZF_LV_N];

struct zf_model_in {
	double fixed_ns;		/* F: a fault's cost without any count */
	double get_ns;			/* U: one get on a line already in this CPU's cache */
	unsigned long faults_per_pass;	/* P: mmflag counts one get per mm per pass */
	bool threads;			/* one shared mm (threads) or one per task */
	double retries;			/* lost CAS attempts per get, each another U (0: none) */
	/*
	 * usemem's whole clock: Z, a fault's teardown without any count (<0:
	 * unknown, no life figures), and B, the puts a CPU makes in a row on
	 * the line at teardown for one move of it (4.8's freed-page batch:
	 * 510; one CPU's zap loop of the emulated strategies: as c2c measures
	 * with no work between operations). Below 1 is taken as 1.
	 */
	double teardown_ns;
	double put_batch;
	/*
	 * One more line every task writes, whatever the strategy: a thread
	 * mm's page-table bytes, an atomic add a fault and a sub a zap (real
	 * kernel faults, and emulated ones under --mm-atomics on). Its own
	 * cost on a cached line is taken to be U and to be in F already.
	 */
	bool mm_line;
};

struct zf_model_out {
	double ns_per_fault;		/* each task's time per fault */
	double faults_per_sec;		/* all tasks together */
	double get_ns;			/* of which the count (ns_per_fault - F) */
	double get_share;		/* get_ns / ns_per_fault */
	double line_ns;			/* D: the line's time per counted get (queued or not) */
	double mm_ns;			/* the mm line's part of ns_per_fault beyond F and the get */
	/* usemem's clock, fault and teardown: NAN without teardown_ns */
	double life_ns;			/* each task's fault and its teardown, per fault */
	double put_ns;			/* of which the count at teardown */
	double life_get_share;		/* get_ns / life_ns */
};

/* "core=10,node=40,package=80,machine=120", or one number for every level */
int zf_model_levels_parse(const char *spec, double lv[ZF_LV_N], const char **why);
/*
 * h (n x n) := the hand-off of each pair of the plan's PUs from the level
 * they share; a level not given takes the next outer one given.
 */
int zf_model_matrix_levels(const struct zf_plan *plan, const double lv[ZF_LV_N], double *h,
			   char *why, size_t len);
/* a c2c.csv matrix in memory (c2cmatrix.c), read once for every configuration */
struct zf_c2c_pu {
	int pu;			/* a PU the matrix labels */
	int at;			/* its row, and column less the pu column */
};

struct zf_c2c {
	char *path;		/* for what is said of it */
	int n;			/* its PUs: n x n cells */
	double *ns;		/* row by row, -1 where empty (the diagonal, pairs sampled out) */
	int npus;		/* the labels that are PU numbers, */
	struct zf_c2c_pu *pus;	/* sorted by PU */
};

/* path read and checked as a c2c.csv matrix into m; else -errno and why */
int zf_c2c_read(const char *path, struct zf_c2c *m, char *why, size_t len);
/* h (n x n) := the cells of the matrix for the plan's PUs, -1 where empty */
int zf_model_matrix_c2c(const struct zf_c2c *m, const struct zf_plan *plan, double *h,
			char *why, size_t len);
void zf_c2c_free(struct zf_c2c *m);
/* the mean hand-off over the ordered pairs among the first n of h's PUs; -1 if none */
double zf_model_handoff(const double *h, int stride, int n);
/*
 * one strategy at n tasks, as its model kind says (struct zf_strategy's
 * model); -1 for a name no strategy has, or a strategy of ZF_MODEL_NONE
 */
int zf_model_predict(const struct zf_model_in *in, const char *strategy, int n,
		     double handoff_ns, struct zf_model_out *out);

int zf_model_main(int argc, char **argv);

#endif
