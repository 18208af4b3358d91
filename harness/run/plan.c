// SPDX-License-Identifier: GPL-2.0
/*
 * sweep --plan: how long a sweep will take, before it runs. Short probe runs
 * here (the real runner, a few thousand faults a pass, 1 task and the most
 * tasks this machine can place) say what a fault, a repetition's barriers, a
 * start and a stop cost; zf_plan_estimate() works each configuration's runs
 * out with the runner's own calibration; rounds, warm-up and the results
 * files' writing add up to the whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../bench/probe.h"
#include "../../bench/strategy.h"
#include "sweep.h"
#include "kcheck.h"
#include "model.h"
#include "perfctr.h"
#include "sysinfo.h"
#include "timing.h"
#include "workload.h"

/* a probe's pass: enough faults to time, few enough to stay short under emulation */
#define PROBE_FAULTS_EMULATED	4096UL
#define PROBE_FAULTS_KERNEL	512UL
#define PROBE_MIN_MS		10UL
/* a real huge zero read fault where this machine cannot show one (1.0-2.5 us on this project's KVM hosts) */
#define ASSUMED_KERNEL_FAULT_NS	2000.0
/* where the plan is for another machine: global's line moving between two of its PUs */
#define ASSUMED_HANDOFF_NS	100.0
/* the sweep's own set-up beside the busy-loop probe: the doctor's 100 ms sample and files */
#define SETUP_EXTRA_MS		150.0
/* writing the results files after a round: each file's fsync and rename, and formatting */
#define WRITE_FILE_MS		3.0
#define WRITE_NS_PER_BYTE	10.0
#define RESULTS_FILES		7

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct plan_state {
	struct zf_sweep *sw;
	struct zf_topo *topo;		/* what is planned for */
	struct zf_plan *plans;		/* the sweep's, on topo */
	struct zf_topo here;		/* this machine, where the probes run */
	bool here_open;
	struct zf_plan probe_plan[2];	/* 1 task and hi tasks, compact, here */
	int hi;
	double busy_iters_per_ns;
	bool kernel_here;		/* real faults can be probed here */
	bool kernel_like;		/* and they map the huge zero folio, as the target's would */
	char kernel_why[512];
	double inc_not_zero_ns;		/* one uncontended get (bench/probe.c) */
	struct zf_plan_probe *probes;	/* [strategy][fault][kind][lo, hi] */
	bool *probed;
	int events_counted;		/* of the sweep's events, those this machine counts */
	unsigned int nprobes;
	double probe_s;			/* the probe runs' time */
	double setup_s;			/* what the sweep's own set-up will take */
};

static size_t probe_index(const struct zf_sweep *sw, size_t s, size_t f, size_t k)
{
	return (s * sw->nfaults + f) * sw->nkinds + k;
}

/* this machine's topology, whatever HWLOC_SYNTHETIC says */
static int open_here(struct plan_state *ps, char *why, size_t len)
{
	if (ps->topo->thissystem)
		return 0;
	ps->here_open = !zf_topo_open_here(&ps->here, why, len);
	return !ps->here_open;
}

static struct zf_topo *here(struct plan_state *ps)
{
	return ps->here_open ? &ps->here : ps->topo;
}

/*
 * One probe run: configuration c at plan's tasks; emulated instead of real
 * faults where this machine cannot take them (a strategy that emulates none
 * stands in with the sweep's first)
 */
static int probe_one(struct plan_state *ps, size_t c, bool emulate, const struct zf_plan *plan,
		     struct zf_plan_probe *p, int *counted)
{
	struct zf_run_config cfg;
	struct zf_run_result res;
	unsigned long faults;
	uint64_t slowest = 0;
	double wall_pass, faults_done;
	int i, err;

	zf_sweep_config(ps->sw, ps->plans, c, ps->busy_iters_per_ns, &cfg);
	if (emulate) {
		cfg.fault = ZF_FAULT_EMULATED;
		if (!cfg.strategy->fault_pass)
			cfg.strategy = zf_strategy_find("persistent");
	}
	faults = cfg.fault == ZF_FAULT_KERNEL ? PROBE_FAULTS_KERNEL : PROBE_FAULTS_EMULATED;
	if (zf_workload_ops(cfg.workload)->sized_pass && cfg.faults_per_pass > faults)
		cfg.faults_per_pass = faults;
	cfg.plan = plan;
	cfg.reps = 1;
	cfg.warmup = 0;
	cfg.passes = 0;
	cfg.min_ms = ps->sw->min_ms < PROBE_MIN_MS ? ps->sw->min_ms : PROBE_MIN_MS;
	err = zf_run(&cfg, here(ps), &res);
	if (err) {
		fprintf(stderr, "hzfbench: --plan: the probe of %s %s %s x%d here: %s\n",
			cfg.strategy->name, zf_fault_mode_name(cfg.fault),
			zf_task_kind_name(cfg.kind), plan->ntasks, res.error);
		zf_run_result_free(&res);
		return err;
	}
	for (i = 0; i < res.ntasks; i++) {
		uint64_t t = res.samples[i].fault_ns + res.samples[i].teardown_ns;

		slowest = t > slowest ? t : slowest;
	}
	/*
	 * a pass's wall from calibration's first repetition (one pass) and the
	 * kept one (res.passes): what a repetition costs beyond its passes is
	 * the rest of the kept one's time, its verification in
	 */
	faults_done = (double)res.passes * cfg.faults_per_pass;
	wall_pass = (double)slowest / res.passes;
	if (res.passes > 1 && res.timing.one_pass_wall_ns &&
	    res.kernel[0].wall_ns > res.timing.one_pass_wall_ns)
		wall_pass = (double)(res.kernel[0].wall_ns - res.timing.one_pass_wall_ns) /
			    (res.passes - 1);
	*p = (struct zf_plan_probe){
		.tasks = plan->ntasks,
		.fault_ns = slowest / faults_done,
		.wall_fault_ns = wall_pass / cfg.faults_per_pass,
		.rep_extra_ns = res.timing.measure_ns > res.passes * wall_pass ?
				res.timing.measure_ns - res.passes * wall_pass : 0,
		.start_ns = res.timing.start_ns,
		.stop_ns = res.timing.stop_ns,
	};
	*counted = 0;
	for (i = 0; cfg.events && i < (int)cfg.events->n; i++)
		*counted += !res.perf_err[i];
	zf_run_result_free(&res);
	ps->nprobes++;
	return 0;
}

/* the probes of configuration c's strategy, fault and kind, once each */
static int probe_config(struct plan_state *ps, size_t c)
{
	struct zf_sweep *sw = ps->sw;
	size_t s = c % sw->nstrategies, k = c / sw->nstrategies / sw->ntasks % sw->nkinds;
	size_t f = c / sw->nstrategies / sw->ntasks / sw->nkinds % sw->nfaults;
	size_t i = probe_index(sw, s, f, k);
	struct zf_plan_probe *p = &ps->probes[2 * i];
	int err, counted;

	if (ps->probed[i])
		return 0;
	ps->probed[i] = true;
	if (sw->faults[f] == ZF_FAULT_KERNEL && !ps->kernel_here) {
		/* the emulated probe's start, stop and barriers; a fault as this project measured one */
		err = probe_one(ps, c, true, &ps->probe_plan[0], &p[0], &counted);
		p[0].fault_ns = ASSUMED_KERNEL_FAULT_NS;
		p[1] = p[0];
		return err;
	}
	err = probe_one(ps, c, false, &ps->probe_plan[0], &p[0], &counted);
	if (!err && ps->hi > 1)
		err = probe_one(ps, c, false, &ps->probe_plan[1], &p[1], &counted);
	else
		p[1] = p[0];
	if (!err && counted > ps->events_counted)
		ps->events_counted = counted;
	return err;
}

/*
 * A fault's cost at n tasks on a machine the probes did not run on: the
 * 1-task probe's, and for a strategy that counts on a shared line the queue
 * hzfbench model predicts (docs/model.md), paid at the fault and again at
 * the teardown's put; -1 on this machine (the probes are interpolated)
 */
static double fault_ns_elsewhere(const struct plan_state *ps, const struct zf_run_config *cfg,
				 const struct zf_plan_probe *one)
{
	struct zf_model_in in = {
		.fixed_ns = one->fault_ns, .get_ns = ps->inc_not_zero_ns,
		.faults_per_pass = cfg->faults_per_pass, .threads = cfg->kind == ZF_TASK_THREAD,
	};
	struct zf_model_out at1, atn;
	double base = one->fault_ns;

	if (ps->topo->thissystem)
		return -1;
	if (cfg->fault == ZF_FAULT_KERNEL && !ps->kernel_like)
		base = ASSUMED_KERNEL_FAULT_NS;
	if (zf_model_predict(&in, cfg->strategy->name, 1, ASSUMED_HANDOFF_NS, &at1) ||
	    zf_model_predict(&in, cfg->strategy->name, cfg->plan->ntasks, ASSUMED_HANDOFF_NS, &atn))
		return base;	/* not modelled: nothing shared to queue on */
	return base + (cfg->strategy->put ? 2 : 1) * (atn.ns_per_fault - at1.ns_per_fault);
}

/* the bytes the results files hold after round r (0-based): rows of every round so far */
static double results_bytes(size_t nconfigs_real, double tasks_sum, int events, unsigned long r)
{
	double rounds = r + 1;

	return nconfigs_real * (rounds * (420 + 110) + 700) +
	       tasks_sum * rounds * (230 + 2.0 * events * 140);
}

static void print_header(const struct plan_state *ps, size_t nconfigs_real, unsigned long rounds)
{
	const struct zf_sweep *sw = ps->sw;

	printf("plan: %zu configurations x %lu rounds", nconfigs_real, rounds);
	if (sw->reps_auto)
		printf(" at most (--reps auto: 6 to %lu, until the median is within %g%%)",
		       sw->max_reps, sw->target_ci_pct);
	printf(" = %zu runs; each run starts its tasks, runs %lu warm-up and 1 kept "
	       "repetition of at least %lu ms and stops them; the first round also calibrates\n",
	       nconfigs_real * rounds, sw->warmup, sw->min_ms);
	printf("plan: costs probed here in %.1f s: %u short runs (%lu faults a pass, %lu of real "
	       "ones) of 1 task", ps->probe_s, ps->nprobes, PROBE_FAULTS_EMULATED,
	       PROBE_FAULTS_KERNEL);
	if (ps->hi > 1)
		printf(" and of %d, the most the plan has that this machine places", ps->hi);
	printf("\n");
	if (!ps->topo->thissystem)
		printf("plan: for %s, not this machine: a task's costs are this machine's at 1 "
		       "task, its start and stop extended linearly in the tasks, and global's line "
		       "taken to move in %.0f ns between any two PUs (hzfbench model's queue): a "
		       "rough guide\n", ps->topo->source, ASSUMED_HANDOFF_NS);
	if (!ps->kernel_like)
		printf("plan: a real fault taken as %.0f ns: %s\n", ASSUMED_KERNEL_FAULT_NS,
		       ps->kernel_why);
	printf("%-10s %-8s %-7s %5s %-10s %9s %9s %10s %10s %9s\n", "strategy", "fault", "kind",
	       "tasks", "placement", "passes", "rep_ms", "first_ms", "later_ms", "total_s");
}

static void print_total(const char *what, double runs_s, double setup_s, double write_s)
{
	double total = runs_s + setup_s + write_s;
	long t = (long)(total + 0.5);

	printf("plan: %s %ld:%02ld:%02ld (%.1f s: runs %.1f s, set-up %.1f s, writing the "
	       "results %.1f s)\n", what, t / 3600, t / 60 % 60, t % 60, total, runs_s, setup_s,
	       write_s);
}

static void plan_free(struct plan_state *ps)
{
	zf_plan_free(&ps->probe_plan[0]);
	zf_plan_free(&ps->probe_plan[1]);
	if (ps->here_open)
		zf_topo_close(&ps->here);
	free(ps->probes);
	free(ps->probed);
}

static int plan_probes(struct plan_state *ps, size_t nconfigs)
{
	struct zf_sweep *sw = ps->sw;
	struct zf_sysinfo si;
	struct zf_probe probe;
	struct zf_perf_task keeper;
	char why[512];
	long most = 1;
	size_t c, i;
	double t0 = now_s();
	int err;

	zf_probe_measure(&probe, (double)sw->fault_ns);	/* as the sweep does first */
	ps->busy_iters_per_ns = probe.busy_iters_per_ns;
	ps->inc_not_zero_ns = probe.inc_not_zero_ns;
	ps->setup_s = now_s() - t0 + SETUP_EXTRA_MS / 1e3;
	if (open_here(ps, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --plan: this machine's topology: %s\n", why);
		return 1;
	}
	for (i = 0; i < sw->ntasks; i++)
		most = sw->tasks[i] > most ? sw->tasks[i] : most;
	ps->hi = most < here(ps)->pus ? (int)most : here(ps)->pus;
	if (zf_plan_make(here(ps), "compact", 1, &ps->probe_plan[0], why, sizeof(why)) ||
	    (ps->hi > 1 &&
	     zf_plan_make(here(ps), "compact", ps->hi, &ps->probe_plan[1], why, sizeof(why)))) {
		fprintf(stderr, "hzfbench: --plan: a compact plan here: %s\n", why);
		return 1;
	}
	zf_sysinfo_read(&si);
	ps->kernel_here = !zf_thp_usable(&si, ps->kernel_why, sizeof(ps->kernel_why));
	/* another machine's real faults: like this one's only where this one maps the folio */
	ps->kernel_like = ps->kernel_here &&
			  (ps->topo->thissystem ||
			   zf_huge_zero_probe(ps->kernel_why, sizeof(ps->kernel_why)) == 1);
	i = sw->nstrategies * sw->nfaults * sw->nkinds;
	ps->probes = calloc(2 * i, sizeof(*ps->probes));
	ps->probed = calloc(i, sizeof(*ps->probed));
	if (!ps->probes || !ps->probed)
		return 1;
	/* the sweep's events held open across the probes, as the sweep holds them (sweep.c) */
	if (sw->events.n)
		zf_perf_open(&keeper, &sw->events);
	for (c = 0, err = 0; c < nconfigs && !err; c++) {
		struct zf_run_config cfg;

		if (zf_sweep_config(sw, ps->plans, c, 0, &cfg))
			err = probe_config(ps, c);
	}
	if (sw->events.n)
		zf_perf_close(&keeper);
	ps->probe_s = now_s() - t0;
	return err ? 1 : 0;
}

int zf_sweep_plan(struct zf_sweep *sw, struct zf_topo *topo, struct zf_plan *plans)
{
	struct plan_state ps = { .sw = sw, .topo = topo, .plans = plans };
	size_t nconfigs = sw->nplacements * sw->ntasks * sw->nfaults * sw->nkinds * sw->nstrategies;
	size_t c, nreal = 0;
	unsigned long rounds = sw->reps_auto ? sw->max_reps : sw->reps;
	/* --reps auto stops at --min-reps at the soonest, and never before 6 */
	unsigned long least = sw->min_reps > 6 ? sw->min_reps : 6;
	unsigned long rounds_least = sw->reps_auto ? (least < rounds ? least : rounds) : rounds;
	double runs_s = 0, runs_least_s = 0, tasks_sum = 0, write_s = 0, write_least_s = 0;
	struct zf_sweep_needs needs;
	unsigned long r;
	int ret = 1;

	if (plan_probes(&ps, nconfigs))
		goto out;
	for (c = 0; c < nconfigs; c++) {
		struct zf_run_config cfg;

		if (!zf_sweep_config(sw, plans, c, 0, &cfg))
			continue;
		nreal++;
		tasks_sum += cfg.plan->ntasks;
	}
	print_header(&ps, nreal, rounds);
	for (c = 0; c < nconfigs; c++) {
		size_t s = c % sw->nstrategies, k = c / sw->nstrategies / sw->ntasks % sw->nkinds;
		size_t f = c / sw->nstrategies / sw->ntasks / sw->nkinds % sw->nfaults;
		const struct zf_plan_probe *p = &ps.probes[2 * probe_index(sw, s, f, k)];
		struct zf_plan_estimate e;
		struct zf_run_config cfg;
		double total_ms;

		if (!zf_sweep_config(sw, plans, c, 0, &cfg))
			continue;
		zf_plan_estimate(&p[0], &p[1], cfg.plan->ntasks, fault_ns_elsewhere(&ps, &cfg, &p[0]),
				 cfg.faults_per_pass, cfg.min_ms, cfg.warmup,
				 zf_workload_ops(cfg.workload)->calibrate_by_wall, &e);
		total_ms = e.first_ms + (rounds - 1) * e.later_ms;
		runs_s += total_ms / 1e3;
		runs_least_s += (e.first_ms + (rounds_least - 1) * e.later_ms) / 1e3;
		printf("%-10s %-8s %-7s %5d %-10s %9lu %9.1f %10.1f %10.1f %9.1f\n",
		       cfg.strategy->name, zf_fault_mode_name(cfg.fault), zf_task_kind_name(cfg.kind),
		       cfg.plan->ntasks, cfg.plan->placement, e.passes, e.rep_ms, e.first_ms,
		       e.later_ms, total_ms / 1e3);
	}
	for (r = 0; r < rounds; r++) {
		double w = (RESULTS_FILES * WRITE_FILE_MS * 1e6 +
			    results_bytes(nreal, tasks_sum, ps.events_counted, r) *
			    WRITE_NS_PER_BYTE) / 1e9;

		write_s += w;
		write_least_s += r < rounds_least ? w : 0;
	}
	if (sw->reps_auto)
		print_total("at least", runs_least_s, ps.setup_s, write_least_s);
	print_total(sw->reps_auto ? "at most" : "estimated", runs_s, ps.setup_s, write_s);
	/* beside the time, what the largest configurations hold, and whether this machine can */
	ret = zf_sweep_needs(sw, topo, plans, &needs) ? 2 : 0;
	zf_sweep_needs_print(sw, topo, plans, &needs, stdout);
	fflush(stdout);
	if (ret)
		zf_sweep_needs_refusal(sw, plans, &needs);
out:
	plan_free(&ps);
	return ret;
}
