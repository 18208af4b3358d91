/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine as hwloc sees it (or a synthetic / XML machine we do not have),
 * placement policies that turn it into one PU per task, and binding.
 */
#ifndef HZF_TOPO_H
#define HZF_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <hwloc.h>

struct zf_topo {
	hwloc_topology_t t;
	bool thissystem;	/* false for HWLOC_SYNTHETIC or an XML file */
	char *source;		/* "this system", "synthetic: ...", "xml: FILE" (malloc()ed) */
	int packages, numa_nodes, cores, pus;
};

/* xml_path NULL: this machine, or HWLOC_SYNTHETIC when it is set */
int zf_topo_open(struct zf_topo *topo, const char *xml_path, char *why, size_t len);
/* this machine, whatever HWLOC_SYNTHETIC says: where a plan's probes run */
int zf_topo_open_here(struct zf_topo *topo, char *why, size_t len);
void zf_topo_close(struct zf_topo *topo);
int zf_topo_export_xml(struct zf_topo *topo, const char *path);

/* One PU per task, in order; -1 everywhere for `none`. */
struct zf_plan {
	char *placement;	/* as given (malloc()ed: a cpus: list has no length limit) */
	int ntasks;
	int *pu;		/* PU OS index */
	int *core;		/* core logical index */
	int *package;		/* package logical index */
	int *node;		/* NUMA node OS index */
};

/* a placement name is valid (before the topology is known) */
int zf_placement_check(const char *placement, const char **why);
/* how many PUs the placement can use; 0 for `none` (any number of tasks) */
int zf_placement_capacity(struct zf_topo *topo, const char *placement,
			  char *why, size_t len);
/*
 * ntasks tasks' PUs; -errno with why (which names the placement where it
 * fits in len: ZF_PLACEMENT_WHY_LEN more than the placement's length does)
 */
int zf_plan_make(struct zf_topo *topo, const char *placement, int ntasks,
		 struct zf_plan *plan, char *why, size_t len);
#define ZF_PLACEMENT_WHY_LEN	256
void zf_plan_free(struct zf_plan *plan);
/*
 * The distinct PUs the plans bind their tasks to, in first-use order,
 * malloc()ed into *pus (*n of them): 1 when a task is unbound (it may run on
 * any PU), 0 when every task is bound; -ENOMEM
 */
int zf_plans_pus(const struct zf_plan *plans, size_t nplans, int **pus, int *n);
/* "0,2,4,6" in task order (or "none"), whole, malloc()ed; NULL when out of memory */
char *zf_plan_pu_list(const struct zf_plan *plan);

/* bind the calling thread to one PU and check that it took */
int zf_topo_bind_self(struct zf_topo *topo, int pu, char *why, size_t len);

void zf_topo_print(struct zf_topo *topo, FILE *out);
void zf_plan_print(const struct zf_plan *plan, FILE *out);

#endif
