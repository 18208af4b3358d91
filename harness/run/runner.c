// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: see runner.h. Sets up the shared state, calibrates, runs the
 * repetitions through the tasks (tasks.c) and checks the invariants.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../bench/usemem.h"
#include "cpustat.h"
#include "kcheck.h"
#include "numa.h"
#include "resources.h"
#include "tasks.h"
#include "../../bench/tick.h"

const char *zf_task_kind_name(enum zf_task_kind kind)
{
	return kind == ZF_TASK_THREAD ? "thread" : "process";
}

int zf_task_kind_parse(const char *s, enum zf_task_kind *kind)
{
	if (!strcmp(s, "thread"))
		*kind = ZF_TASK_THREAD;
	else if (!strcmp(s, "process"))
		*kind = ZF_TASK_PROCESS;
	else
		return -EINVAL;
	return 0;
}

/* every workload's table (workload.h), by its value */
static const struct zf_workload_ops *const workloads[] = {
	[ZF_WORKLOAD_USEMEM]	= &zf_workload_usemem,
	[ZF_WORKLOAD_LIFECYCLE]	= &zf_workload_lifecycle,
	[ZF_WORKLOAD_ZEROOUT]	= &zf_workload_zeroout,
};

const struct zf_workload_ops *zf_workload_ops(enum zf_workload w)
{
	return workloads[w];
}

const char *zf_workload_name(enum zf_workload w)
{
	return workloads[w]->name;
}

const char *zf_fault_mode_name(enum zf_fault_mode fault)
{
	return fault == ZF_FAULT_EMULATED ? "emulated" : "kernel";
}

int zf_fault_mode_parse(const char *s, enum zf_fault_mode *fault)
{
	if (!strcmp(s, "emulated"))
		*fault = ZF_FAULT_EMULATED;
	else if (!strcmp(s, "kernel"))
		*fault = ZF_FAULT_KERNEL;
	else
		return -EINVAL;
	return 0;
}

/* allocations, frees and time in allocating so far: every task's, the runner's, the shrinker's */
static void life_so_far(struct zf_runner *r, uint64_t *allocs, uint64_t *frees, uint64_t *ns)
{
	int i;

	*allocs = r->st.allocs;
	*frees = r->st.frees + atomic_load(&r->shrink_frees);
	*ns = r->st.alloc_ns;
	for (i = 0; i < r->cfg->plan->ntasks; i++) {
		*allocs += r->slots[i].st.allocs;
		*frees += r->slots[i].st.frees;
		*ns += r->slots[i].st.alloc_ns;
	}
}

/*
 * Steal and idle over the repetition, from /proc/stat before and after it:
 * each task's PU (every PU for an unbound one) and the plan's PUs together.
 * NAN where it cannot be told (a and b NULL: /proc/stat unreadable).
 */
static void cpu_shares(struct zf_runner *r, const struct zf_cpustat *a,
		       const struct zf_cpustat *b, struct zf_rep_kernel *kernel)
{
	const struct zf_plan *plan = r->cfg->plan;
	int i;

	kernel->steal_pct = kernel->idle_pct = NAN;
	for (i = 0; i < plan->ntasks; i++) {
		struct zf_task_sample *t = &r->slots[i].sample;
		int pu = plan->pu[i];

		t->steal_pct = t->idle_pct = NAN;
		if (a && b)
			zf_cpustat_share(a, b, pu >= 0 ? &pu : NULL, 1, &t->steal_pct, &t->idle_pct);
	}
	if (a && b && r->plan_pus)
		zf_cpustat_share(a, b, r->plan_unbound ? NULL : r->plan_pus, r->nplan_pus,
				 &kernel->steal_pct, &kernel->idle_pct);
}

/* one repetition of every task; the slowest task's whole time in *slowest_ns */
static int run_rep(struct zf_runner *r, unsigned long passes, uint64_t *slowest_ns,
		   struct zf_rep_kernel *kernel, struct zf_run_result *res)
{
	int i, n = r->cfg->plan->ntasks, err;
	struct zf_vmstat before, after;
	bool vmstat = r->cfg->fault == ZF_FAULT_KERNEL && !zf_vmstat_read(&before);
	uint64_t a0, f0, n0, a1, f1, n1, t0;
	struct zf_cpustat stat0 = { 0 }, stat1 = { 0 };
	int stat_err;

	life_so_far(r, &a0, &f0, &n0);
	stat_err = zf_cpustat_read("", &stat0);
	t0 = zf_now_ns();
	err = zf_tasks_rep(r, passes, res);
	if (!err)
		kernel->wall_ns = zf_now_ns() - t0;
	if (!err && !stat_err)
		stat_err = zf_cpustat_read("", &stat1);
	if (!err)
		cpu_shares(r, stat_err ? NULL : &stat0, stat_err ? NULL : &stat1, kernel);
	zf_cpustat_free(&stat0);
	zf_cpustat_free(&stat1);
	if (err)
		return err;
	life_so_far(r, &a1, &f1, &n1);
	kernel->allocs = a1 - a0;
	kernel->frees = f1 - f0;
	kernel->alloc_ns = n1 - n0;
	if (vmstat && !zf_vmstat_read(&after)) {
		kernel->thp_zero_page_alloc = after.thp_zero_page_alloc - before.thp_zero_page_alloc;
		kernel->thp_fault_fallback = after.thp_fault_fallback - before.thp_fault_fallback;
	}
	*slowest_ns = 0;
	for (i = 0; i < n; i++) {
		uint64_t t = r->slots[i].sample.fault_ns + r->slots[i].sample.teardown_ns;

		if (t > *slowest_ns)
			*slowest_ns = t;
	}
	/* threads share one mm: its last user leaves when the repetition ends */
	if (r->cfg->kind == ZF_TASK_THREAD) {
		zf_mm_exit(r->cfg->strategy, r->zs, r->mm[0], &r->st);
		zf_mm_init(r->mm[0]);
	}
	return 0;
}

/*
 * --shrink-hz: memory pressure, a thread calling the strategy's shrinker
 * (count, then scan if it says there is something) at a fixed rate while the
 * tasks run, as kswapd's shrink_slab() would; unpinned, like kswapd.
 */
struct shrinker {
	const struct zf_strategy *s;
	struct zf_shared *zs;
	_Atomic unsigned long *frees;	/* published as it goes, for each repetition's count */
	unsigned long hz;
	_Atomic int stop;
	struct zf_stats st;
	pthread_t th;
	bool running;
};

static void *shrinker_main(void *arg)
{
	struct shrinker *sh = arg;
	long period = (long)(1000000000UL / sh->hz);
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		next.tv_nsec += period;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (sh->s->shrink_count(sh->zs))
			sh->s->shrink_scan(sh->zs, &sh->st);
		atomic_store_explicit(sh->frees, sh->st.frees, memory_order_relaxed);
	}
	return NULL;
}

static int shrinker_start(struct shrinker *sh, const struct zf_run_config *cfg,
			  struct zf_runner *r)
{
	*sh = (struct shrinker){ .s = cfg->strategy, .zs = r->zs, .hz = cfg->shrink_hz,
				 .frees = &r->shrink_frees };
	/* no shrinker registered (persistent, native): nothing to call */
	if (!cfg->shrink_hz || !cfg->strategy->shrink_count)
		return 0;
	if (pthread_create(&sh->th, NULL, shrinker_main, sh))
		return -EAGAIN;
	sh->running = true;
	return 0;
}

/* its counts join the runner's, for the checks and counters.csv */
static void shrinker_stop(struct shrinker *sh, struct zf_stats *into)
{
	if (!sh->running)
		return;
	atomic_store(&sh->stop, 1);
	pthread_join(sh->th, NULL);
	sh->running = false;
	zf_stats_add(into, &sh->st);
	atomic_store(sh->frees, 0);	/* now in into */
}

/* the invariants every run must leave true */
static int check_run(struct zf_runner *r, struct zf_run_result *res)
{
	const struct zf_strategy *s = r->cfg->strategy;
	char why[200];
	int i;

	res->total = r->st;
	for (i = 0; i < r->cfg->plan->ntasks; i++) {
		struct zf_task_slot *slot = &r->slots[i];

		zf_stats_add(&res->total, &slot->st);
		if (slot->read_sum) {
			snprintf(res->error, sizeof(res->error),
				 "invariant: task %d read a byte that is not zero: a folio was freed while mapped",
				 i);
			return -EPROTO;
		}
		if (slot->fallbacks) {
			snprintf(res->error, sizeof(res->error),
				 "invariant: task %d got no folio %lu times", i, slot->fallbacks);
			return -EPROTO;
		}
		res->cpu_seen[i] = slot->cpu_seen;
	}
	/* every fault an emulated strategy took was zapped (native takes none) */
	if (s->get && res->total.zaps != res->total.gets) {
		snprintf(res->error, sizeof(res->error), "invariant: %lu faults but %lu zaps",
			 res->total.gets, res->total.zaps);
		return -EPROTO;
	}
	if (res->total.mm_tables_left) {
		snprintf(res->error, sizeof(res->error),
			 "invariant: %lu mm exits found page-table bytes still counted",
			 res->total.mm_tables_left);
		return -EPROTO;
	}
	if (s->check && s->check(r->zs, &res->total, why, sizeof(why))) {
		snprintf(res->error, sizeof(res->error), "invariant: %s: %s", s->name, why);
		return -EPROTO;
	}
	return 0;
}

/* the node task i's mm was put on: threads share task 0's */
static int mm_plan_node(const struct zf_run_config *cfg, int i)
{
	return cfg->plan->node[cfg->kind == ZF_TASK_THREAD ? 0 : i];
}

/*
 * Every task where its plan put it: on its PU, a CPU of its node, its page
 * table and mm on that node, as the kernel tells at the repetition's start.
 * A difference fails the run, naming what went elsewhere.
 */
int zf_task_numa_check(const struct zf_run_config *cfg, int i, const struct zf_numa_seen *s,
		       char *buf, size_t len)
{
	const struct zf_plan *plan = cfg->plan;

	return zf_numa_check(plan->pu[i], plan->node[i], mm_plan_node(cfg, i), s, buf, len);
}

static int numa_verify(struct zf_runner *r, struct zf_run_result *res)
{
	const struct zf_plan *plan = r->cfg->plan;
	char what[64];
	int i;

	for (i = 0; i < plan->ntasks; i++) {
		const struct zf_numa_seen *s = &r->slots[i].sample.seen;

		if (!zf_task_numa_check(r->cfg, i, s, what, sizeof(what)))
			continue;
		snprintf(res->error, sizeof(res->error), "numa: task %d planned on PU %d (node %d), "
			 "seen on PU %d (node %d), its page table on node %d, its mm on node %d "
			 "(planned %d): %s", i, plan->pu[i], plan->node[i], s->cpu, s->cpu_node,
			 s->table_node, s->mm_node, mm_plan_node(r->cfg, i), what);
		return -EPROTO;
	}
	return 0;
}

/* the counter, the mm(s), the control block and the task slots */
static int setup(struct zf_runner *r, struct zf_run_result *res)
{
	const struct zf_run_config *cfg = r->cfg;
	int i, n = cfg->plan->ntasks, counter_node = cfg->counter_node, moved = 0, folios;

	if (counter_node < 0)
		counter_node = cfg->plan->node[0];
	r->shm_len = sizeof(struct zf_ctl) + n * sizeof(struct zf_task_slot);
	r->ctl = zf_numa_alloc(r->shm_len, -1, true);
	r->zs = zf_numa_alloc_placed(sizeof(*r->zs), counter_node, true, &moved);
	res->numa_moved += moved;
	r->nmm = cfg->kind == ZF_TASK_THREAD ? 1 : n;
	r->mm = calloc(r->nmm, sizeof(*r->mm));	/* NOLINT(bugprone-sizeof-expression): pointers */
	if (!r->ctl || !r->zs || !r->mm) {
		snprintf(res->error, sizeof(res->error), "shared state on node %d: %s",
			 counter_node, strerror(errno));
		return -ENOMEM;
	}
	r->slots = (struct zf_task_slot *)(r->ctl + 1);
	r->cpu_node = zf_numa_cpu_nodes(&r->ncpu_node);
	r->plan_unbound = zf_plans_pus(cfg->plan, 1, &r->plan_pus, &r->nplan_pus) > 0;
	for (i = 0; i < r->nmm; i++) {
		r->mm[i] = zf_numa_alloc_placed(sizeof(struct zf_mm), mm_plan_node(cfg, i), true,
						&moved);
		res->numa_moved += moved;
		if (!r->mm[i]) {
			snprintf(res->error, sizeof(res->error), "mm of task %d on node %d: %s",
				 i, cfg->plan->node[i], strerror(errno));
			return -ENOMEM;
		}
		zf_mm_init(r->mm[i]);
	}
	for (i = 0; i < n; i++)
		res->mm_node[i] = zf_numa_node_of(r->mm[i < r->nmm ? i : 0]);
	res->counter_node = zf_numa_node_of(r->zs);
	if (counter_node >= 0 && res->counter_node >= 0 && res->counter_node != counter_node) {
		snprintf(res->error, sizeof(res->error), "numa: the global counter's page is on node "
			 "%d, not on node %d%s", res->counter_node, counter_node,
			 cfg->counter_node >= 0 ? " (--counter-node)" : " (the first task's)");
		return -EPROTO;
	}
	/* every task may race its workload's allocations, and one folio is installed */
	folios = n * r->ops->folios_per_task + 2;
	if (zf_shared_init(r->zs, folios)) {
		snprintf(res->error, sizeof(res->error), "folio pool of %d: %s", folios,
			 strerror(errno));
		return -ENOMEM;
	}
	if (cfg->strategy->init && cfg->strategy->init(r->zs, &r->st)) {
		snprintf(res->error, sizeof(res->error), "%s: init failed", cfg->strategy->name);
		return -ENOMEM;
	}
	return 0;
}

static void teardown(struct zf_runner *r)
{
	int i;

	if (r->stuck && r->threads)
		return;	/* a silent thread may still use it all; the process ends soon */
	if (r->zs) {
		zf_shared_fini(r->zs);
		zf_numa_free(r->zs, sizeof(*r->zs));
	}
	for (i = 0; r->mm && i < r->nmm; i++)
		zf_numa_free(r->mm[i], sizeof(struct zf_mm));
	free(r->mm);
	free(r->cpu_node);
	free(r->plan_pus);
	zf_numa_free(r->ctl, r->shm_len);
}

/*
 * This run's file descriptors, tasks and memory against the machine as it
 * is now (a sweep checked every configuration before it began; what ran
 * since, here or beside it, may have taken some): a run short of any is
 * not started, rather than lose its counters or last tasks half-way
 */
static int run_fits(const struct zf_run_config *cfg, struct zf_run_result *res)
{
	struct zf_res_limits l;
	struct zf_res_need n;
	enum zf_res_short s;

	zf_res_read(&l, false);
	zf_res_need_of(cfg, l.fds_open + ZF_RES_OWN_EXTRA_FDS, true, 0, &n);
	s = zf_res_check(&n, &l, res->error, sizeof(res->error));
	if (s == ZF_RES_FITS)
		return 0;
	return s == ZF_RES_FDS ? -EMFILE : s == ZF_RES_TASKS ? -EAGAIN : -ENOMEM;
}

unsigned long zf_next_passes(unsigned long passes, uint64_t took_ns, unsigned long min_ms)
{
	double want = ceil(min_ms * 1e6 * 1.1 / (took_ns ? took_ns : 1) * passes);

	if (want > passes * 1000.0)
		want = passes * 1000.0;
	return want > passes ? (unsigned long)want : passes + 1;
}

int zf_run(const struct zf_run_config *cfg, struct zf_topo *topo, struct zf_run_result *res)
{
	struct zf_runner r = { .cfg = cfg, .ops = zf_workload_ops(cfg->workload), .topo = topo };
	int n = cfg->plan->ntasks, err;
	unsigned long passes = cfg->passes ? cfg->passes : 1;
	struct zf_rep_kernel unkept;
	struct shrinker sh = { 0 };
	struct zf_run_timing *tm = &res->timing;
	uint64_t took = 0, t0, t1;
	unsigned int i, t;

	memset(res, 0, sizeof(*res));
	res->ntasks = n;
	res->samples = calloc((size_t)cfg->reps * n, sizeof(*res->samples));
	res->mm_node = calloc(n, sizeof(int));
	res->cpu_seen = calloc(n, sizeof(int));
	res->kernel = calloc(cfg->reps, sizeof(*res->kernel));
	if (!res->samples || !res->mm_node || !res->cpu_seen || !res->kernel) {
		snprintf(res->error, sizeof(res->error), "out of memory");
		return -ENOMEM;
	}
	t0 = zf_now_ns();
	err = run_fits(cfg, res);
	if (!err)
		err = setup(&r, res);
	if (err)
		goto out;
	err = zf_tasks_start(&r, res);
	if (!err)
		err = zf_tasks_ready(&r, res);
	/* an event is counted only where every task could count it */
	for (t = 0; !err && t < (unsigned int)n; t++)
		for (i = 0; i < ZF_PERF_MAX_EVENTS; i++)
			if (!res->perf_err[i])
				res->perf_err[i] = r.slots[t].perf_err[i];
	for (t = 0; !err && t < (unsigned int)n && !res->profile_err; t++)
		res->profile_err = r.slots[t].profile_err;
	for (t = 0; !err && t < (unsigned int)n; t++)
		res->numa_moved += r.slots[t].numa_moved;
	if (!err && shrinker_start(&sh, cfg, &r)) {
		snprintf(res->error, sizeof(res->error), "the shrinker thread could not start");
		err = -EAGAIN;
	}
	t1 = zf_now_ns();
	tm->start_ns = t1 - t0;
	/*
	 * calibration: grow the passes until a repetition lasts min_ms: its
	 * slowest task's timed work, and in a lifecycle its wall, waves in (a
	 * wave lasts its slowest life; the first repetition, of one life, has none)
	 */
	while (!err && !cfg->passes) {
		err = run_rep(&r, passes, &took, &unkept, res);
		if (!tm->calibrate_reps++) {
			tm->one_pass_took_ns = took;
			tm->one_pass_wall_ns = unkept.wall_ns;
		}
		if (!err && r.ops->calibrate_by_wall && unkept.wall_ns > took)
			took = unkept.wall_ns;
		if (err || took >= cfg->min_ms * 1000000ULL)
			break;
		passes = zf_next_passes(passes, took, cfg->min_ms);
	}
	t0 = zf_now_ns();
	tm->calibrate_ns = t0 - t1;
	for (i = 0; !err && i < cfg->warmup; i++)
		err = run_rep(&r, passes, &took, &unkept, res);
	t1 = zf_now_ns();
	tm->warmup_ns = t1 - t0;
	for (i = 0; !err && i < cfg->reps; i++) {
		err = run_rep(&r, passes, &took, &res->kernel[i], res);
		if (!err)
			err = numa_verify(&r, res);
		for (t = 0; !err && t < (unsigned int)n; t++)
			res->samples[(size_t)i * n + t] = r.slots[t].sample;
		res->reps = i + 1;
	}
	t0 = zf_now_ns();
	tm->measure_ns = t0 - t1;
	res->passes = passes;
	shrinker_stop(&sh, &r.st);
	if (err)
		zf_tasks_stop(&r, res, true);
	else if (zf_tasks_stop(&r, res, false))
		err = -ECHILD;
	if (!err)
		err = check_run(&r, res);
out:
	teardown(&r);
	tm->stop_ns = zf_now_ns() - t0;
	return err;
}

void zf_run_result_free(struct zf_run_result *res)
{
	free(res->samples);
	free(res->mm_node);
	free(res->cpu_seen);
	free(res->kernel);
	res->kernel = NULL;
	res->samples = NULL;
	res->mm_node = NULL;
	res->cpu_seen = NULL;
}
