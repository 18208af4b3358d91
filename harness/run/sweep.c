// SPDX-License-Identifier: GPL-2.0
/*
 * Run a sweep into one results folder. Configurations go in the order
 * placement, task kind, task count, then strategy innermost.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/probe.h"
#include "doctorcmd.h"
#include "metrics.h"
#include "results.h"
#include "stats.h"
#include "show.h"
#include "interrupt.h"
#include "json.h"
#include "kallsyms.h"
#include "kcheck.h"
#include "sweep.h"
#include "sysinfo.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(const struct zf_run_config *cfg, size_t done, size_t total, double t0)
{
	double elapsed = now_s() - t0;
	long eta = done ? (long)(elapsed / done * (total - done) + 0.5) : -1;

	fprintf(stderr, "\r\033[K[%zu/%zu] %s %s %s x%d %s", done + 1, total,
		cfg->strategy->name, zf_fault_mode_name(cfg->fault), zf_task_kind_name(cfg->kind),
		cfg->plan->ntasks, cfg->plan->placement);
	if (eta >= 0)
		fprintf(stderr, "  ETA %ld:%02ld", eta / 60, eta % 60);
	fflush(stderr);
}

/* every plan is made before anything runs: a bad combination fails at once */
static int make_plans(struct zf_sweep *sw, struct zf_topo *topo, struct zf_plan *plans)
{
	size_t p, t, len;
	char *why;
	int err = 0;

	for (p = 0; p < sw->nplacements && !err; p++) {
		int capacity;

		/* room for the placement, which the error names: a cpus: list of any length */
		len = strlen(sw->placements[p]) + ZF_PLACEMENT_WHY_LEN;
		why = malloc(len);
		if (!why)
			return -ENOMEM;
		capacity = zf_placement_capacity(topo, sw->placements[p], why, len);
		if (capacity < 0) {
			fprintf(stderr, "hzfbench: --placement: %s: %s\n", sw->placements[p], why);
			err = -EINVAL;
		}
		for (t = 0; t < sw->ntasks && !err; t++) {
			if (zf_plan_make(topo, sw->placements[p], sw->tasks[t],
					 &plans[p * sw->ntasks + t], why, len)) {
				fprintf(stderr, "hzfbench: --tasks: %ld: %s\n", sw->tasks[t], why);
				err = -EINVAL;
			}
		}
		free(why);
	}
	return err;
}

/* real faults need THP and the huge zero page; say which sysfs file otherwise */
static int kernel_faults_usable(const struct zf_sweep *sw)
{
	struct zf_sysinfo si;
	char why[512];
	size_t f;

	for (f = 0; f < sw->nfaults; f++) {
		if (sw->faults[f] != ZF_FAULT_KERNEL)
			continue;
		zf_sysinfo_read(&si);
		if (zf_thp_usable(&si, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: --fault kernel: %s\n", why);
			return -EINVAL;
		}
		/* measured all the same, and every repetition flagged (kernel_check) */
		if (!zf_huge_zero_probe(why, sizeof(why)))
			fprintf(stderr, "hzfbench: warning: --fault kernel: %s: its rows time real "
				"huge-page allocation, not the huge zero folio\n", why);
		return 0;
	}
	return 0;
}

/*
 * Events the user asked for by name, refused by the kernel's policy (EACCES,
 * EPERM: perf_event_paranoid, a seccomp filter, a container) rather than
 * missing from the machine: the run is refused before it starts, since what
 * was asked for could not be measured. An event the machine lacks (ENOENT)
 * is left empty and listed, as with the default set.
 */
static int events_refused(const struct zf_sweep *sw)
{
	struct zf_perf_task t;
	char hint[256];
	int err = 0;
	size_t i;

	if (!sw->events_given || !sw->events.n)
		return 0;
	zf_perf_open(&t, &sw->events);
	for (i = 0; i < sw->events.n && !err; i++)
		if (zf_perf_hint(t.err[i], hint, sizeof(hint))) {
			fprintf(stderr, "hzfbench: --events: %s: %s\n", sw->events.ev[i].name, hint);
			err = -t.err[i];
		}
	zf_perf_close(&t);
	return err;
}

bool zf_sweep_config(const struct zf_sweep *sw, struct zf_plan *plans, size_t c,
		     double busy_iters_per_ns, struct zf_run_config *cfg)
{
	size_t s = c % sw->nstrategies, t = c / sw->nstrategies % sw->ntasks;
	size_t k = c / sw->nstrategies / sw->ntasks % sw->nkinds;
	size_t f = c / sw->nstrategies / sw->ntasks / sw->nkinds % sw->nfaults;
	size_t p = c / sw->nstrategies / sw->ntasks / sw->nkinds / sw->nfaults;

	*cfg = (struct zf_run_config) {
		.strategy = sw->strategies[s],
		.kind = sw->kinds[k],
		.fault = sw->faults[f],
		.plan = &plans[p * sw->ntasks + t],
		.faults_per_pass = sw->size / sw->step,
		.step = sw->step,
		.fault_ns = sw->fault_ns + (sw->inject == sw->strategies[s] ? sw->inject_ns : 0),
		.mm_atomics = sw->mm_atomics,
		.busy_iters_per_ns = busy_iters_per_ns,
		.reps = 1,
		.warmup = sw->warmup,
		.min_ms = sw->min_ms,
		.counter_node = sw->counter_node,
		.events = &sw->events,
		.profile = sw->profile,
		.kallsyms = sw->kallsyms,
		.shrink_hz = sw->shrink_hz,
		.workload = sw->workload,
		/* a repetition is planned to last min_ms: ten of them and a minute is stuck */
		.watchdog_ms = sw->watchdog_s ? sw->watchdog_s * 1000 : 60000 + 10 * sw->min_ms,
		.sched_policy = sw->sched.policy,
		.sched_priority = sw->sched.priority,
	};
	return cfg->fault == ZF_FAULT_KERNEL ? cfg->strategy->kernel_fault_pass != NULL :
					       cfg->strategy->fault_pass != NULL;
}

/* once per sweep: the events this machine cannot count, and a hint for a refusal */
static bool warn_perf(const struct zf_results *r, bool warned, bool show_progress)
{
	char names[512] = "", hint[256];
	const char *why = NULL, *h = NULL;
	size_t i, len = 0;

	if (warned)
		return true;
	for (i = 0; r->events && i < r->events->n; i++) {
		if (!r->perf_err[i])
			continue;
		len += snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0, "%s%s",
				len ? ", " : "", r->events->ev[i].name);
		why = strerror(r->perf_err[i]);
		h = h ? h : zf_perf_hint(r->perf_err[i], hint, sizeof(hint));
	}
	if (!why)
		return false;
	fprintf(stderr, "%shzfbench: perf: %s: not countable here (%s): left empty, listed in "
		"meta.json unsupported_events\n", show_progress ? "\n" : "", names, why);
	if (h)
		fprintf(stderr, "hzfbench: perf: %s\n", h);
	return true;
}

static void *try_sched(void *arg)
{
	const struct zf_sched *sc = arg;
	struct sched_param sp = { .sched_priority = sc->priority };

	/* this thread alone, and it ends here: nothing to put back */
	return (void *)(long)(sched_setscheduler(0, sc->policy, &sp) ? errno : 0);
}

/* --sched refused (not root, no CAP_SYS_NICE, RT throttled to 0): said before anything runs */
static int sched_refused(const struct zf_sweep *sw)
{
	char name[32];
	pthread_t th;
	void *ret;

	if (sw->sched.policy < 0)
		return 0;
	if (pthread_create(&th, NULL, try_sched, (void *)&sw->sched) || pthread_join(th, &ret))
		return 0;	/* the tasks will say */
	if (!ret)
		return 0;
	fprintf(stderr, "hzfbench: --sched: %s: %s%s\n", zf_sched_name(&sw->sched, name, sizeof(name)),
		strerror((int)(long)ret), (long)ret == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
	return -(int)(long)ret;
}

/* what the doctor finds on the PUs the plans use, kept in meta.json */
static void doctor_snapshot(struct zf_results *r, struct zf_topo *topo, const struct zf_plan *plans,
			    size_t nplans)
{
	struct zf_doctor *d = NULL;

	if (topo->thissystem && !zf_doctor_snapshot(topo, plans, nplans, 100, &d))
		r->doctor = zf_doctor_json_obj(d);
	zf_doctor_free(d);
}

/* --reps auto: has configuration c's median converged to the target? */
static bool converged(const struct zf_sweep *sw, const struct zf_config_result *c)
{
	double *ns = calloc(c->reps ? c->reps : 1, sizeof(*ns));
	bool enough;
	unsigned int i;

	if (!ns)
		return false;
	for (i = 0; i < c->reps; i++)
		ns[i] = c->rep[i].m.ns_per_fault;
	enough = c->reps >= sw->min_reps && zf_reps_enough(ns, c->reps, sw->target_ci_pct);
	free(ns);
	return enough;
}

/* the repetitions that did not run every task together, said once at the end */
static void warn_flagged(const struct zf_results *r)
{
	unsigned int i, rep, flagged = 0, all = 0, overlap = 0, cpu_wall = 0;

	for (i = 0; i < r->nconfigs; i++) {
		const struct zf_config_result *c = &r->configs[i];

		for (rep = 0; rep < c->reps; rep++) {
			unsigned int flags = c->rep[rep].m.flags;

			all++;
			flagged += flags != 0;
			overlap += !!(flags & ZF_FLAG_OVERLAP);
			cpu_wall += !!(flags & ZF_FLAG_CPU_WALL);
		}
	}
	if (flagged)
		fprintf(stderr, "hzfbench: warning: %u of %u repetitions did not run every task "
			"together (%u with overlap below %.1f, %u with CPU/wall below %.1f): "
			"concurrency_check in samples.csv, flagged_reps in summary.csv\n",
			flagged, all, overlap, ZF_CONCURRENCY_MIN, cpu_wall, ZF_CONCURRENCY_MIN);
}

/* the run's record for timing.csv */
static int keep_run(struct zf_results *r, size_t c, size_t round, const struct zf_run_result *res,
		    char *why, size_t len)
{
	struct zf_run_record run = {
		.config = c, .round = round, .passes = res->passes,
		.tasks = res->ntasks, .timing = res->timing,
	};

	if (!zf_results_add_run(r, &run))
		return 0;
	snprintf(why, len, "timing.csv: out of memory");
	return -ENOMEM;
}

/*
 * Rounds: repetition r of every configuration before repetition r + 1 of
 * any (within one fault mode; emulated faults first), each a run of its own (start, warm-up, one repetition), so that a
 * machine that drifts over the sweep drifts under every configuration alike.
 * The first round calibrates each configuration's passes; later rounds reuse
 * them, so every repetition of a configuration does the same work.
 */
int zf_sweep_run(struct zf_sweep *sw, struct zf_topo *topo)
{
	size_t nplans = sw->nplacements * sw->ntasks;
	size_t nconfigs = nplans * sw->nfaults * sw->nkinds * sw->nstrategies, total = 0;
	struct zf_plan *plans = calloc(nplans, sizeof(*plans));
	struct zf_results r = { .topo = topo, .argc = sw->argc, .argv = sw->argv,
				.events = &sw->events, .profile = sw->profile, .tag = sw->tag };
	unsigned long rounds;
	bool show_progress = !sw->quiet && isatty(STDERR_FILENO);
	size_t c, f, rep, done = 0, i;
	int ret = 1, failed = 0, write_failed = 0;
	char why[512], verdict[64];
	unsigned int suspect;
	char *warned = NULL;
	bool perf_warned = false, keeping = false;
	struct zf_perf_task keeper;
	struct zf_kallsyms ks = { 0 };
	struct zf_sweep_needs needs;
	double t0, w0, setup0 = now_s();

	if (!plans)
		goto out;
	if (make_plans(sw, topo, plans)) {
		ret = 2;	/* a usage error, found before anything ran */
		goto out;
	}
	rounds = sw->reps_auto ? sw->max_reps : sw->reps;
	for (c = 0; c < nconfigs; c++) {
		struct zf_run_config cfg;

		total += zf_sweep_config(sw, plans, c, 0, &cfg) ? rounds : 0;
	}
	if (!total) {
		fprintf(stderr, "hzfbench: --strategies: native: measures real faults only (add --faults kernel)\n");
		ret = 2;
		goto out;
	}
	if (sw->plan) {	/* for this machine or another: nothing run, nothing written */
		ret = zf_sweep_plan(sw, topo, plans);
		goto out;
	}
	/* before the kernel's faults are probed: a refused --out costs nothing */
	if (zf_results_out_usable(sw->out, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --out: %s: %s\n", sw->out, why);
		ret = 2;
		goto out;
	}
	if (kernel_faults_usable(sw)) {
		ret = 1;
		goto out;
	}
	/* fds, tasks and memory: a configuration this machine cannot hold is bad input */
	if (zf_sweep_needs(sw, topo, plans, &needs)) {
		zf_sweep_needs_refusal(sw, plans, &needs);
		ret = 2;
		goto out;
	}
	if (events_refused(sw) || sched_refused(sw)) {
		ret = 1;
		goto out;
	}
	/*
	 * The events held open, unstarted, for the whole sweep: the kernel
	 * turns a static key on with a type's first event and off with its last
	 * (perf_swevent_enabled, perf_sched_events), and each turn rewrites
	 * kernel text and waits on every CPU (text_poke_bp: IPIs to all). Each
	 * run's tasks opening and closing the only ones would do that twice a
	 * run: at hundreds of CPUs a stall between runs, and in a 64-CPU qemu
	 * guest one that never ended (rcu stall in sw_perf_event_destroy).
	 */
	if (sw->events.n) {
		zf_perf_open(&keeper, &sw->events);
		keeping = true;
		if (zf_perf_failed(&keeper, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: --events: %s; nothing run\n", why);
			goto out;
		}
	}
	if (sw->profile && zf_kallsyms_profile(&ks))
		r.kallsyms = sw->kallsyms = &ks;	/* read once, before any task: shared by forks */
	warned = calloc(nconfigs, 1);
	if (!warned)
		goto out;
	if (zf_results_dir(sw->out, r.dir, sizeof(r.dir), why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --out: %s: %s\n", sw->out ? sw->out : r.dir, why);
		ret = 2;	/* bad input, as model's, c2c's and zeroout's --out are */
		goto out;
	}
	zf_probe_measure(&r.probe, (double)sw->fault_ns);
	doctor_snapshot(&r, topo, plans, nplans);
	r.options = json_incref(sw->options);
	if (zf_results_begin(&r, nconfigs, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: %s\n", why);
		goto out;
	}
	zf_interrupt_catch(r.dir, "meta.json");
	r.setup_ns = (uint64_t)((now_s() - setup0) * 1e9);
	t0 = now_s();
	/* the rounds of one fault mode, then the next: real faults disturb the machine */
	for (f = 0; f < sw->nfaults && !failed; f++)
	for (rep = 0; rep < rounds && !failed; rep++) {
		bool ran = false;

		for (c = 0; c < nconfigs && !failed; c++) {
			struct zf_run_config cfg;
			struct zf_run_result res;

			if (!zf_sweep_config(sw, plans, c, r.probe.busy_iters_per_ns, &cfg) ||
			    cfg.fault != sw->faults[f])
				continue;
			/* --reps auto: a configuration whose median has converged is done */
			if (sw->reps_auto && converged(sw, &r.configs[c])) {
				total--;
				continue;
			}
			ran = true;
			done++;
			cfg.passes = rep ? r.configs[c].passes : 0;
			if (show_progress)
				progress(&cfg, done - 1, total, t0);
			if (zf_run(&cfg, topo, &res)) {
				fprintf(stderr, "%shzfbench: %s %s %s x%d %s: %s\n",
					show_progress ? "\n" : "", cfg.strategy->name,
					zf_fault_mode_name(cfg.fault), zf_task_kind_name(cfg.kind),
					cfg.plan->ntasks, cfg.plan->placement, res.error);
				failed = 1;
			} else if (zf_results_add(&r, c, &cfg, &res, &suspect, verdict,
						  sizeof(verdict), why, sizeof(why)) ||
				   keep_run(&r, c, rep, &res, why, sizeof(why))) {
				fprintf(stderr, "\nhzfbench: %s\n", why);
				/* its rows are written as it is added: meta.json may not be either */
				failed = write_failed = 1;
			} else {
				if (res.numa_moved && !r.numa_moved_pages)
					fprintf(stderr, "%shzfbench: warning: numa: %s %s %s x%d %s: the kernel put "
						"%d pages bound to a node on another one; moved there before "
						"measuring (every later such page too: meta.json "
						"numa_moved_pages)\n", show_progress ? "\n" : "",
						cfg.strategy->name, zf_fault_mode_name(cfg.fault),
						zf_task_kind_name(cfg.kind), cfg.plan->ntasks,
						cfg.plan->placement, res.numa_moved);
				r.numa_moved_pages += res.numa_moved;
				perf_warned = warn_perf(&r, perf_warned, show_progress);
				if (suspect && !warned[c]++)
					fprintf(stderr, "%shzfbench: warning: %s kernel %s x%d %s: the faults did not all map the huge zero folio (%s); see kernel_check in samples.csv\n",
						show_progress ? "\n" : "", cfg.strategy->name,
						zf_task_kind_name(cfg.kind), cfg.plan->ntasks,
						cfg.plan->placement, verdict);
			}
			zf_run_result_free(&res);
		}
		if (!ran)
			break;	/* every configuration of this fault mode converged */
		w0 = now_s();
		if (!failed && zf_results_write(&r, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: %s\n", why);
			failed = write_failed = 1;
		}
		r.write_ns += (uint64_t)((now_s() - w0) * 1e9);
	}
	if (show_progress && !failed)
		fprintf(stderr, "\r\033[K");
	if (!failed)
		warn_flagged(&r);
	/*
	 * --fault-ns: the busy work calibrated once more at the end. A virtual
	 * machine's CPU can run tens of percent faster or slower from one
	 * second to the next; where the two calibrations differ, the work the
	 * run delivered did too, and the run says so rather than miss quietly.
	 */
	if (!failed && zf_probe_recheck(&r.probe) > ZF_BUSY_DRIFT)
		fprintf(stderr, "hzfbench: warning: --fault-ns %.0f: the busy work's speed moved "
			"%+.0f%% between the sweep's start and its end (%.3f and %.3f %s units a "
			"ns): the work each fault did moved with it (meta.json probes)\n",
			r.probe.busy_ns, 100 * (r.probe.busy_ipn_end / r.probe.busy_iters_per_ns - 1),
			r.probe.busy_iters_per_ns, r.probe.busy_ipn_end, r.probe.busy_unit);
	/* a full or read-only disk said so once already: meta.json cannot be written either */
	if (zf_results_end(&r, !failed, why, sizeof(why))) {
		if (!write_failed)
			fprintf(stderr, "hzfbench: %s\n", why);
		failed = 1;
	}
	if (!failed && !sw->quiet)
		zf_show(r.dir, stdout);
	printf("results: %s%s\n", r.dir, failed ? " (incomplete)" : "");
	if (sw->dir_out)
		snprintf(sw->dir_out, sw->dir_out_len, "%s", r.dir);
	ret = failed;
out:
	if (keeping)
		zf_perf_close(&keeper);
	for (i = 0; plans && i < nplans; i++)
		zf_plan_free(&plans[i]);
	free(plans);
	free(warned);
	zf_results_free(&r);
	sw->kallsyms = NULL;
	zf_kallsyms_free(&ks);
	return ret;
}

void zf_sweep_free(struct zf_sweep *sw)
{
	free(sw->strategies);
	free(sw->kinds);
	free(sw->faults);
	if (sw->placements)
		free(sw->placements[0]);	/* the one buffer every word points into */
	free(sw->placements);
	free(sw->tasks);
	sw->strategies = NULL;
	sw->kinds = NULL;
	sw->faults = NULL;
	sw->placements = NULL;
	sw->tasks = NULL;
	json_decref(sw->options);
	sw->options = NULL;
}
