// SPDX-License-Identifier: GPL-2.0
/*
 * What a sweep needs of the machine: every configuration's file
 * descriptors, tasks and memory (resources.h), the largest of each for
 * --plan, and the refusal of the first that cannot run here, before
 * anything runs or is written.
 */
#include <stdio.h>
#include <string.h>

#include "kcheck.h"
#include "results.h"
#include "sweep.h"
#include "sysinfo.h"

/*
 * What the results keep by a sweep's end: every kept repetition's figures
 * (their tasks' rows are streamed to the files as each run is added, not
 * kept), a configuration's own, and the rows being written
 */
static uint64_t samples_kept(const struct zf_sweep *sw, struct zf_plan *plans, size_t nconfigs)
{
	unsigned long rounds = sw->reps_auto ? sw->max_reps : sw->reps;
	uint64_t bytes = zf_results_run_bytes(0, 0);
	size_t c;

	for (c = 0; c < nconfigs; c++) {
		struct zf_run_config cfg;

		if (zf_sweep_config(sw, plans, c, 0, &cfg))
			bytes += sizeof(struct zf_config_result) +
				 (uint64_t)rounds * zf_results_rep_bytes(cfg.plan->ntasks);
	}
	return bytes;
}

/* whether real faults here would map the huge zero folio: planned as allocating where not */
static bool folio_mapped(const struct zf_sweep *sw, const struct zf_topo *topo)
{
	char why[512];
	size_t f;

	if (!topo->thissystem)
		return true;	/* another machine's: planned as a kernel that maps it */
	for (f = 0; f < sw->nfaults; f++)
		if (sw->faults[f] == ZF_FAULT_KERNEL)
			return zf_huge_zero_probe(why, sizeof(why)) != 0;
	return true;
}

int zf_sweep_needs(const struct zf_sweep *sw, const struct zf_topo *topo, struct zf_plan *plans,
		   struct zf_sweep_needs *out)
{
	size_t nconfigs = sw->nplacements * sw->ntasks * sw->nfaults * sw->nkinds * sw->nstrategies;
	struct zf_res_limits here;
	uint64_t own;
	bool mapped = folio_mapped(sw, topo), first = true;
	size_t c;

	memset(out, 0, sizeof(*out));
	zf_res_read(&here, topo->thissystem);
	/* open now, the events held open for the sweep (sweep.c's keeper), and the rest */
	own = here.fds_open + sw->events.n + ZF_RES_OWN_EXTRA_FDS;
	out->samples = samples_kept(sw, plans, nconfigs);
	out->refused = -1;
	for (c = 0; c < nconfigs; c++) {
		struct zf_run_config cfg;
		struct zf_res_need n;

		if (!zf_sweep_config(sw, plans, c, 0, &cfg))
			continue;
		zf_res_need_of(&cfg, own, mapped, out->samples, &n);
		if (first || n.fds_process > out->fds.fds_process) {
			out->fds = n;
			out->fds_at = c;
		}
		if (first || n.new_tasks > out->tasks.new_tasks) {
			out->tasks = n;
			out->tasks_at = c;
		}
		if (first || n.peak > out->memory.peak) {
			out->memory = n;
			out->memory_at = c;
		}
		first = false;
		if (topo->thissystem && out->refused < 0) {
			out->short_of = zf_res_check(&n, &here, out->why, sizeof(out->why));
			if (out->short_of != ZF_RES_FITS)
				out->refused = (long)c;
		}
	}
	out->limits = here;
	return out->refused >= 0 ? -1 : 0;
}

void zf_sweep_needs_refusal(const struct zf_sweep *sw, struct zf_plan *plans,
			    const struct zf_sweep_needs *nd)
{
	struct zf_run_config cfg;
	char value[32];

	zf_sweep_config(sw, plans, (size_t)nd->refused, 0, &cfg);
	if (nd->short_of == ZF_RES_MEMORY)
		zf_res_bytes(sw->size, value, sizeof(value));
	else
		snprintf(value, sizeof(value), "%d", cfg.plan->ntasks);
	fprintf(stderr, "hzfbench: %s: %s: %s %s %s x%d %s: %s\n", zf_res_option(nd->short_of),
		value, cfg.strategy->name, zf_fault_mode_name(cfg.fault), zf_task_kind_name(cfg.kind),
		cfg.plan->ntasks, cfg.plan->placement, nd->why);
}

/* "global kernel thread x64 scatter": configuration c */
static void label(const struct zf_sweep *sw, struct zf_plan *plans, size_t c, char *buf,
		  size_t len)
{
	struct zf_run_config cfg;

	zf_sweep_config(sw, plans, c, 0, &cfg);
	snprintf(buf, len, "%s %s %s x%d %s", cfg.strategy->name, zf_fault_mode_name(cfg.fault),
		 zf_task_kind_name(cfg.kind), cfg.plan->ntasks, cfg.plan->placement);
}

/* this machine's limits, the ones a sweep is checked against */
static void print_limits(const struct zf_res_limits *l, FILE *out)
{
	char a[32], b[32], c[32], d[32], e[32];

	zf_res_bytes(l->mem_available, a, sizeof(a));
	zf_res_count(l->nofile_soft, b, sizeof(b));
	zf_res_count(l->nofile_hard, c, sizeof(c));
	fprintf(out, "plan: this machine: MemAvailable %s, RLIMIT_NOFILE %s (hard %s)",
		l->mem_available == ZF_RES_NONE ? "unknown" : a, b, c);
	zf_res_count(l->nproc, a, sizeof(a));
	zf_res_count(l->threads_max, b, sizeof(b));
	zf_res_count(l->pid_max, c, sizeof(c));
	zf_res_count(l->tasks_now, d, sizeof(d));
	fprintf(out, ", RLIMIT_NPROC %s%s, kernel.threads-max %s, kernel.pid_max %s, %s tasks "
		"running", a, l->nproc == ZF_RES_NONE ? " (binds no root)" : "", b, c, d);
	if (l->pids_max != ZF_RES_NONE) {
		zf_res_count(l->pids_max, a, sizeof(a));
		zf_res_count(l->pids_free, b, sizeof(b));
		fprintf(out, ", the cgroup %s's pids.max %s (%s free)", l->pids_cgroup, a, b);
	}
	if (l->cgroup_mem_max != ZF_RES_NONE) {
		zf_res_bytes(l->cgroup_mem_max, a, sizeof(a));
		zf_res_bytes(l->cgroup_mem_free, e, sizeof(e));
		fprintf(out, ", the memory cgroup %s's limit %s (%s free)", l->mem_cgroup, a, e);
	}
}

void zf_sweep_needs_print(const struct zf_sweep *sw, const struct zf_topo *topo,
			  struct zf_plan *plans, const struct zf_sweep_needs *nd, FILE *out)
{
	char what[80], bytes[32], parts[240], n1[32], n2[32], n3[32];
	const struct zf_res_need *m = &nd->memory, *f = &nd->fds;

	label(sw, plans, nd->memory_at, what, sizeof(what));
	zf_res_bytes(m->peak, bytes, sizeof(bytes));
	zf_res_parts(m, parts, sizeof(parts));
	fprintf(out, "plan: memory at the peak: %s, by %s (%s)\n", bytes, what, parts);
	label(sw, plans, nd->fds_at, what, sizeof(what));
	zf_res_count(f->fds_process, n1, sizeof(n1));
	zf_res_count(f->own_fds, n2, sizeof(n2));
	zf_res_count(f->fds_system, n3, sizeof(n3));
	fprintf(out, "plan: file descriptors: %s at once in one process, by %s (%u perf events "
		"and %d for /proc a task, and %s of hzfbench's own); %s in the system's table\n",
		n1, what, f->events, ZF_RES_TASK_EXTRA_FDS, n2, n3);
	label(sw, plans, nd->tasks_at, what, sizeof(what));
	zf_res_count(nd->tasks.new_tasks, n1, sizeof(n1));
	fprintf(out, "plan: tasks: %s started at once, by %s\n", n1, what);
	if (!topo->thissystem) {
		fprintf(out, "plan: for %s, not this machine: there, MemAvailable must hold the "
			"memory, RLIMIT_NOFILE's hard limit (ulimit -Hn) the file descriptors, and "
			"kernel.threads-max, kernel.pid_max and RLIMIT_NPROC (ulimit -u, a user's) "
			"the tasks\n", topo->source);
		return;
	}
	print_limits(&nd->limits, out);
	if (nd->refused < 0) {
		fprintf(out, ": every configuration fits\n");
		return;
	}
	label(sw, plans, (size_t)nd->refused, what, sizeof(what));
	fprintf(out, ": %s does not fit (below)\n", what);
}
