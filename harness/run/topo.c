// SPDX-License-Identifier: GPL-2.0
/*
 * Placement on hwloc's view of the machine.
 *
 * compact: the first PU of every core, package by package, then the second
 *          PU of every core, and so on: SMT siblings last.
 * scatter: round-robin over NUMA nodes (over packages where there is one
 *          node), taking nodes of alternate packages in turn; within a
 *          node, in compact order.
 * node:N:  the PUs of NUMA node N, in compact order.
 * cpus:L:  the PUs of the list, lowest first (a set, as taskset takes it).
 * none:    no binding.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "parse.h"
#include "topo.h"

int zf_topo_open(struct zf_topo *topo, const char *xml_path, char *why, size_t len)
{
	const char *synthetic = getenv("HWLOC_SYNTHETIC");
	int err;

	memset(topo, 0, sizeof(*topo));
	if (hwloc_topology_init(&topo->t)) {
		snprintf(why, len, "hwloc_topology_init: %s", strerror(errno));
		return -errno;
	}
	/* a synthetic description with indexes= grows with the PUs: no fixed size */
	if (xml_path) {
		err = hwloc_topology_set_xml(topo->t, xml_path);
		err = asprintf(&topo->source, "xml: %s", xml_path) < 0 || err;
	} else if (synthetic && *synthetic) {
		err = hwloc_topology_set_synthetic(topo->t, synthetic);
		err = asprintf(&topo->source, "synthetic: %s", synthetic) < 0 || err;
	} else {
		topo->source = strdup("this system");
		err = !topo->source;
	}
	if (err || hwloc_topology_load(topo->t)) {
		const char *what = xml_path ? xml_path : synthetic && *synthetic ? synthetic : "hwloc";

		/* named where it fits, never cut: a synthetic description may be KiBs */
		if (snprintf(why, len, "%s: cannot be loaded", what) >= (int)len)
			snprintf(why, len, "%s of %zu bytes: cannot be loaded",
				 xml_path ? "an XML file name" : "HWLOC_SYNTHETIC", strlen(what));
		zf_topo_close(topo);
		return -EINVAL;
	}
	topo->thissystem = hwloc_topology_is_thissystem(topo->t);
	topo->packages = hwloc_get_nbobjs_by_type(topo->t, HWLOC_OBJ_PACKAGE);
	topo->numa_nodes = hwloc_get_nbobjs_by_type(topo->t, HWLOC_OBJ_NUMANODE);
	topo->cores = hwloc_get_nbobjs_by_type(topo->t, HWLOC_OBJ_CORE);
	topo->pus = hwloc_get_nbobjs_by_type(topo->t, HWLOC_OBJ_PU);
	return 0;
}

int zf_topo_open_here(struct zf_topo *topo, char *why, size_t len)
{
	const char *env = getenv("HWLOC_SYNTHETIC");
	char *saved = env ? strdup(env) : NULL;
	int err;

	if (env && !saved) {
		snprintf(why, len, "HWLOC_SYNTHETIC: out of memory");
		return -ENOMEM;
	}
	unsetenv("HWLOC_SYNTHETIC");
	err = zf_topo_open(topo, NULL, why, len);
	if (saved)
		setenv("HWLOC_SYNTHETIC", saved, 1);
	free(saved);
	return err;
}

void zf_topo_close(struct zf_topo *topo)
{
	if (topo->t)
		hwloc_topology_destroy(topo->t);
	topo->t = NULL;
	free(topo->source);
	topo->source = NULL;
}

int zf_topo_export_xml(struct zf_topo *topo, const char *path)
{
	return hwloc_topology_export_xml(topo->t, path, 0) ? -EIO : 0;
}

/* a PU's place in compact order: its rank among its core's PUs, then its core */
struct pu_rank {
	int os, rank, unit;
};

static int cmp_pu_rank(const void *a, const void *b)
{
	const struct pu_rank *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->unit - y->unit;
}

/*
 * The OS index of every PU in `within`, in compact order: the first PU of
 * each core (each PU where there are no cores) in logical order, then the
 * second, and so on. One pass over the PUs and a sort, since a walk of every
 * core's PUs for every rank takes seconds at 4,096 PUs. Returns how many, or
 * -ENOMEM.
 */
static int compact_order(struct zf_topo *topo, hwloc_const_cpuset_t within, int *out)
{
	int ncores = hwloc_get_nbobjs_by_type(topo->t, HWLOC_OBJ_CORE);
	int *taken = calloc(ncores > 0 ? ncores : 1, sizeof(*taken));
	struct pu_rank *pr = calloc(topo->pus > 0 ? topo->pus : 1, sizeof(*pr));
	hwloc_obj_t pu = NULL;
	int npr = 0, n = 0, i;

	if (!taken || !pr) {
		free(taken);
		free(pr);
		return -ENOMEM;
	}
	while ((pu = hwloc_get_next_obj_by_type(topo->t, HWLOC_OBJ_PU, pu)) && npr < topo->pus) {
		hwloc_obj_t core = ncores > 0 ?
			hwloc_get_ancestor_obj_by_type(topo->t, HWLOC_OBJ_CORE, pu) : NULL;

		if (ncores > 0 && (!core || (int)core->logical_index >= ncores))
			continue;	/* a PU of no core: never placed */
		pr[npr].os = pu->os_index;
		pr[npr].unit = core ? (int)core->logical_index : (int)pu->logical_index;
		pr[npr].rank = core ? taken[core->logical_index]++ : 0;
		npr++;
	}
	qsort(pr, npr, sizeof(*pr), cmp_pu_rank);
	for (i = 0; i < npr; i++)
		if (hwloc_bitmap_isset(within, pr[i].os))
			out[n++] = pr[i].os;
	free(taken);
	free(pr);
	return n;
}

static hwloc_obj_t pu_obj(struct zf_topo *topo, int os)
{
	return hwloc_get_pu_obj_by_os_index(topo->t, os);
}

static int node_of_pu(struct zf_topo *topo, int os)
{
	hwloc_obj_t node = NULL;

	while ((node = hwloc_get_next_obj_by_type(topo->t, HWLOC_OBJ_NUMANODE, node)))
		if (hwloc_bitmap_isset(node->cpuset, os))
			return node->os_index;
	return -1;
}

static int ancestor_index(struct zf_topo *topo, int os, hwloc_obj_type_t type)
{
	hwloc_obj_t obj = hwloc_get_ancestor_obj_by_type(topo->t, type, pu_obj(topo, os));

	return obj ? (int)obj->logical_index : -1;
}

struct group {
	hwloc_obj_t obj;
	int package, rank;	/* which package, and which group of it */
	int *pus, npus, next;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->package - y->package;
}

/* scatter's order: groups of alternate packages in turn */
static int scatter_order(struct zf_topo *topo, int *out)
{
	hwloc_obj_type_t type = topo->numa_nodes > 1 ? HWLOC_OBJ_NUMANODE :
				topo->packages > 1 ? HWLOC_OBJ_PACKAGE : HWLOC_OBJ_MACHINE;
	int ngroups = hwloc_get_nbobjs_by_type(topo->t, type);
	struct group *g;
	int i, n = 0, left;

	if (ngroups <= 0)
		return 0;
	g = calloc(ngroups, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (i = 0; i < ngroups; i++) {
		int j, first;

		g[i].obj = hwloc_get_obj_by_type(topo->t, type, i);
		g[i].pus = calloc(topo->pus, sizeof(int));
		if (!g[i].pus) {
			n = -ENOMEM;
			goto out;
		}
		g[i].npus = compact_order(topo, g[i].obj->cpuset, g[i].pus);
		if (g[i].npus < 0) {
			n = g[i].npus;
			goto out;
		}
		first = hwloc_bitmap_first(g[i].obj->cpuset);
		g[i].package = first >= 0 ? ancestor_index(topo, first, HWLOC_OBJ_PACKAGE) : 0;
		for (j = 0; j < i; j++)
			g[i].rank += g[j].package == g[i].package;
	}
	qsort(g, ngroups, sizeof(*g), cmp_group);
	for (left = 1; left; ) {
		left = 0;
		for (i = 0; i < ngroups; i++) {
			if (g[i].next < g[i].npus) {
				out[n++] = g[i].pus[g[i].next++];
				left = 1;
			}
		}
	}
out:
	for (i = 0; i < ngroups; i++)
		free(g[i].pus);
	free(g);
	return n;
}

/*
 * CPU numbers run to NR_CPUS, 8192 at most in any Linux configuration; a
 * cpus: list past this one is a typing error, not a machine
 */
#define CPU_NUMBER_MAX	(1 << 20)

static int set_cpus(unsigned long long first, unsigned long long last, void *set,
		    const char **why)
{
	if (last > CPU_NUMBER_MAX) {
		*why = "a CPU number past 1048576 (Linux numbers CPUs below 8192)";
		return -EINVAL;
	}
	return hwloc_bitmap_set_range(set, first, last) ? -ENOMEM : 0;
}

/*
 * A cpus: list, "0-3,8", as a set. Not hwloc_bitmap_list_sscanf(): it takes
 * "010" for 8, "3-" for every CPU from 3 on and skips what is not a number
 * ("1x2" is {2}), where a typing error must be refused.
 */
static hwloc_bitmap_t cpus_parse(const char *list, const char **why)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int err;

	if (!set) {
		*why = "out of memory";
		return NULL;
	}
	err = zf_parse_ranges(list, set_cpus, set, why);
	if (err == -ENOMEM)
		*why = "out of memory";
	if (err) {
		hwloc_bitmap_free(set);
		return NULL;
	}
	return set;
}

int zf_placement_check(const char *placement, const char **why)
{
	unsigned long node;
	hwloc_bitmap_t cpus;

	if (!strcmp(placement, "compact") || !strcmp(placement, "scatter") ||
	    !strcmp(placement, "none"))
		return 0;
	/* any node number: the machine says later whether it has it */
	if (!strncmp(placement, "node:", 5))
		return zf_parse_ulong(placement + 5, 0, INT_MAX, &node, why);
	if (!strncmp(placement, "cpus:", 5)) {
		cpus = cpus_parse(placement + 5, why);
		hwloc_bitmap_free(cpus);
		return cpus ? 0 : -EINVAL;
	}
	*why = "not a placement (compact, scatter, node:N, cpus:LIST, none)";
	return -EINVAL;
}

/* the PUs of a cpus: list, lowest first; -EINVAL for one the machine cannot use */
static int cpus_order(struct zf_topo *topo, const char *list, int *out, char *why, size_t len)
{
	hwloc_bitmap_t cpus, unusable;
	const char *reason;
	int cpu, n = 0;

	cpus = cpus_parse(list, &reason);
	if (!cpus) {
		snprintf(why, len, "%s", reason);
		return -EINVAL;
	}
	unusable = hwloc_bitmap_alloc();
	if (!unusable) {
		hwloc_bitmap_free(cpus);
		return -ENOMEM;
	}
	/* a CPU that is no PU here, or one this process may not run on */
	hwloc_bitmap_and(unusable, hwloc_topology_get_allowed_cpuset(topo->t),
			 hwloc_topology_get_topology_cpuset(topo->t));
	hwloc_bitmap_andnot(unusable, cpus, unusable);
	cpu = hwloc_bitmap_first(unusable);
	if (cpu >= 0) {
		snprintf(why, len, "no usable CPU %d on this machine", cpu);
		n = -EINVAL;
	} else {
		hwloc_bitmap_foreach_begin(cpu, cpus)
			if (n < topo->pus)
				out[n++] = cpu;
		hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_free(cpus);
	hwloc_bitmap_free(unusable);
	return n;
}

/* the full PU order of a placement; returns its length or -errno */
static int placement_order(struct zf_topo *topo, const char *placement, int **order,
			   char *why, size_t len)
{
	const char *reason;
	int n = 0, *out;

	*order = out = calloc(topo->pus + 1, sizeof(int));
	if (!out)
		return -ENOMEM;
	if (zf_placement_check(placement, &reason)) {
		snprintf(why, len, "%s", reason);
		return -EINVAL;
	}
	if (!strcmp(placement, "compact")) {
		n = compact_order(topo, hwloc_topology_get_allowed_cpuset(topo->t), out);
	} else if (!strcmp(placement, "scatter")) {
		n = scatter_order(topo, out);
	} else if (!strncmp(placement, "node:", 5)) {
		unsigned long node_os = strtoul(placement + 5, NULL, 10);
		hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(topo->t, node_os);

		if (!node) {
			snprintf(why, len, "no NUMA node %lu on this machine (%d nodes)",
				 node_os, topo->numa_nodes);
			return -EINVAL;
		}
		n = compact_order(topo, node->cpuset, out);
	} else if (!strncmp(placement, "cpus:", 5)) {
		n = cpus_order(topo, placement + 5, out, why, len);
		if (n == -EINVAL)
			return n;
	}
	if (n < 0)
		snprintf(why, len, "out of memory");
	return n;
}

int zf_placement_capacity(struct zf_topo *topo, const char *placement, char *why, size_t len)
{
	int *order, n;

	if (!strcmp(placement, "none"))
		return 0;
	n = placement_order(topo, placement, &order, why, len);
	free(order);
	return n;
}

int zf_plan_make(struct zf_topo *topo, const char *placement, int ntasks,
		 struct zf_plan *plan, char *why, size_t len)
{
	bool none = !strcmp(placement, "none");
	int i, n, *order = NULL;

	memset(plan, 0, sizeof(*plan));
	if (ntasks < 1) {
		snprintf(why, len, "at least one task is needed");
		return -EINVAL;
	}
	if (!none) {
		n = placement_order(topo, placement, &order, why, len);
		if (n < 0)
			goto fail;
		/* a cpus: list too long for why is left out, never cut */
		if (n < ntasks) {
			if (snprintf(why, len, "placement %s has %d PU%s for %d tasks", placement, n,
				     n == 1 ? "" : "s", ntasks) >= (int)len)
				snprintf(why, len, "the placement has %d PU%s for %d tasks", n,
					 n == 1 ? "" : "s", ntasks);
			n = -EINVAL;
			goto fail;
		}
	}
	plan->placement = strdup(placement);
	plan->ntasks = ntasks;
	plan->pu = calloc(ntasks, sizeof(int));
	plan->core = calloc(ntasks, sizeof(int));
	plan->package = calloc(ntasks, sizeof(int));
	plan->node = calloc(ntasks, sizeof(int));
	if (!plan->placement || !plan->pu || !plan->core || !plan->package || !plan->node) {
		snprintf(why, len, "out of memory");
		n = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < ntasks; i++) {
		hwloc_obj_t pu = none ? NULL : pu_obj(topo, order[i]);
		hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(topo->t, HWLOC_OBJ_CORE, pu) : NULL;
		hwloc_obj_t pkg = pu ? hwloc_get_ancestor_obj_by_type(topo->t, HWLOC_OBJ_PACKAGE, pu) :
				  NULL;

		plan->pu[i] = none ? -1 : order[i];
		plan->core[i] = core ? (int)core->logical_index : -1;
		plan->package[i] = pkg ? (int)pkg->logical_index : -1;
		plan->node[i] = none ? -1 : node_of_pu(topo, order[i]);
	}
	free(order);
	return 0;
fail:
	free(order);
	zf_plan_free(plan);
	return n < 0 ? n : -EINVAL;
}

int zf_plans_pus(const struct zf_plan *plans, size_t nplans, int **pus, int *n)
{
	hwloc_bitmap_t seen = hwloc_bitmap_alloc();
	size_t p, total = 0;
	bool unbound = false;
	int *list, t;

	for (p = 0; p < nplans; p++)
		total += plans[p].ntasks;
	list = malloc((total ? total : 1) * sizeof(*list));
	*pus = list;
	*n = 0;
	if (!list || !seen) {
		hwloc_bitmap_free(seen);
		return -ENOMEM;
	}
	for (p = 0; p < nplans; p++) {
		for (t = 0; t < plans[p].ntasks; t++) {
			int pu = plans[p].pu[t];

			unbound = unbound || pu < 0;
			if (pu < 0 || hwloc_bitmap_isset(seen, pu))
				continue;
			hwloc_bitmap_set(seen, pu);
			list[(*n)++] = pu;
		}
	}
	hwloc_bitmap_free(seen);
	return unbound;
}

void zf_plan_free(struct zf_plan *plan)
{
	free(plan->placement);
	free(plan->pu);
	free(plan->core);
	free(plan->package);
	free(plan->node);
	memset(plan, 0, sizeof(*plan));
}

char *zf_plan_pu_list(const struct zf_plan *plan)
{
	struct zf_buf b = { 0 };
	int i;

	zf_buf_printf(&b, "%s", plan->ntasks && plan->pu[0] < 0 ? "none" : "");
	for (i = 0; i < plan->ntasks && plan->pu[i] >= 0; i++)
		zf_buf_printf(&b, "%s%d", i ? "," : "", plan->pu[i]);
	if (b.oom)
		zf_buf_free(&b);
	return b.text;
}

int zf_topo_bind_self(struct zf_topo *topo, int pu, char *why, size_t len)
{
	hwloc_obj_t obj = pu_obj(topo, pu);
	hwloc_bitmap_t got;
	int err = 0;

	if (!obj) {
		snprintf(why, len, "bind to PU %d: no such PU", pu);
		return -EINVAL;
	}
	if (hwloc_set_cpubind(topo->t, obj->cpuset, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT)) {
		err = -errno;
		snprintf(why, len, "bind to PU %d: %s", pu, strerror(errno));
		return err;
	}
	got = hwloc_bitmap_alloc();
	if (!got)
		return -ENOMEM;
	if (hwloc_get_cpubind(topo->t, got, HWLOC_CPUBIND_THREAD) ||
	    !hwloc_bitmap_isequal(got, obj->cpuset)) {
		snprintf(why, len, "bind to PU %d: the binding did not take", pu);
		err = -EIO;
	}
	hwloc_bitmap_free(got);
	return err;
}

void zf_topo_print(struct zf_topo *topo, FILE *out)
{
	hwloc_obj_t node = NULL, pkg = NULL;
	char *list;

	fprintf(out, "machine: %d package%s, %d NUMA node%s, %d cores, %d PUs (%s)\n",
		topo->packages, topo->packages == 1 ? "" : "s", topo->numa_nodes,
		topo->numa_nodes == 1 ? "" : "s", topo->cores, topo->pus, topo->source);
	while ((pkg = hwloc_get_next_obj_by_type(topo->t, HWLOC_OBJ_PACKAGE, pkg))) {
		list = NULL;
		hwloc_bitmap_list_asprintf(&list, pkg->cpuset);
		fprintf(out, "  package %u: %d cores, PUs %s\n", pkg->logical_index,
			hwloc_get_nbobjs_inside_cpuset_by_type(topo->t, pkg->cpuset,
							       HWLOC_OBJ_CORE), list ? list : "?");
		free(list);
	}
	while ((node = hwloc_get_next_obj_by_type(topo->t, HWLOC_OBJ_NUMANODE, node))) {
		list = NULL;
		hwloc_bitmap_list_asprintf(&list, node->cpuset);
		fprintf(out, "  NUMA node %u: PUs %s, %llu MiB\n", node->os_index, list ? list : "?",
			(unsigned long long)(node->attr->numanode.local_memory >> 20));
		free(list);
	}
}

void zf_plan_print(const struct zf_plan *plan, FILE *out)
{
	char *list = zf_plan_pu_list(plan);
	int i;

	fprintf(out, "placement %s, %d task%s: PUs %s\n", plan->placement, plan->ntasks,
		plan->ntasks == 1 ? "" : "s", list ? list : "? (out of memory)");
	free(list);
	fprintf(out, "  %-6s %-6s %-6s %-8s %s\n", "task", "pu", "core", "package", "node");
	for (i = 0; i < plan->ntasks; i++)
		fprintf(out, "  %-6d %-6d %-6d %-8d %d\n", i, plan->pu[i], plan->core[i],
			plan->package[i], plan->node[i]);
}
