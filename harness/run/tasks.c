// SPDX-License-Identifier: GPL-2.0
/*
 * The task side of a run: see tasks.h.
 *
 * Both kinds of task run task_main() on one control block in MAP_SHARED
 * memory. The coordinator (the calling thread) bumps a generation word to
 * start a repetition; tasks sleep on it with futex() so that a task that is
 * done never spins on a CPU another task is still timed on. Tasks then meet
 * at a spinning barrier so that their timed loops start together.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/usemem.h"
#include "kcheck.h"
#include "numa.h"
#include "sysinfo.h"
#include "tasks.h"
#include "../../bench/tick.h"

static void futex_wait(_Atomic uint32_t *word, uint32_t val, long timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

	syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * all tasks start the timed loop together; false when the run is aborted.
 * A waiter spins a while (a few milliseconds where tasks have CPUs of their
 * own: the start stays tight), then sleeps on arrived: with more tasks than
 * CPUs to run them (a TCG guest's 64 vCPUs on 2 host CPUs) spinners would
 * keep the last tasks from arriving at all. The sleep's compare on the
 * count, and the seq_cst pair of count and sleepers, lose no wake.
 */
#define START_SPINS 65536

static bool start_barrier(struct zf_ctl *ctl, int ntasks)
{
	uint32_t n = ntasks, v = atomic_fetch_add(&ctl->arrived, 1) + 1;
	unsigned long spins = 0;

	if (v == n) {
		if (atomic_load(&ctl->start_sleepers))
			futex_wake(&ctl->arrived);
		return true;
	}
	while ((v = atomic_load_explicit(&ctl->arrived, memory_order_acquire)) < n) {
		if (atomic_load_explicit(&ctl->abort, memory_order_relaxed))
			return false;
		if (++spins < START_SPINS) {
			cpu_relax();
			continue;
		}
		atomic_fetch_add(&ctl->start_sleepers, 1);
		futex_wait(&ctl->arrived, v, 100);	/* returns at once if one more arrived */
		atomic_fetch_sub(&ctl->start_sleepers, 1);
	}
	return true;
}

static int task_fail(struct zf_task_slot *slot, const char *why)
{
	snprintf(slot->error, sizeof(slot->error), "%s", why);
	slot->failed = 1;
	return -1;
}

/* what the scheduler did to this task: CPU time, involuntary switches, migrations */
struct sched_mark {
	uint64_t wall_ns, cpu_ns, nivcsw;
	int64_t migrations;	/* -1: /proc/thread-self/sched cannot be read */
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * At the start (end false) the slow reads come first and the clocks last,
 * at the end the clocks first: the span holds the work and nothing else
 * but the clock reads themselves.
 */
static void sched_mark(struct sched_mark *m, bool end)
{
	struct rusage ru;
	char text[4096];
	uint64_t v;

	if (end) {
		m->wall_ns = zf_now_ns();
		m->cpu_ns = thread_cpu_ns();
	}
	m->migrations = !zf_read_file("/proc/thread-self/sched", text, sizeof(text)) &&
			!zf_proc_sched_value(text, "se.nr_migrations", &v) ? (int64_t)v : -1;
	getrusage(RUSAGE_THREAD, &ru);
	m->nivcsw = ru.ru_nivcsw;
	if (!end) {
		m->cpu_ns = thread_cpu_ns();
		m->wall_ns = zf_now_ns();
	}
}

void zf_task_perf_mark(struct zf_task_perf *tp, struct zf_task_sample *sample, int phase)
{
	struct zf_perf_value now[ZF_PERF_MAX_EVENTS];
	size_t i;

	if (!tp->pt.list || !tp->pt.list->n || zf_perf_read(&tp->pt, now))
		return;
	for (i = 0; i < tp->pt.list->n; i++) {
		if (phase >= 0) {
			sample->perf[phase][i].count += now[i].count - tp->last[i].count;
			sample->perf[phase][i].enabled_ns += now[i].enabled_ns - tp->last[i].enabled_ns;
			sample->perf[phase][i].running_ns += now[i].running_ns - tp->last[i].running_ns;
		}
		tp->last[i] = now[i];
	}
}

/*
 * lifecycle: wait for every task to end its life, then all start the next.
 * A waiter spins a while (a wave on an idle machine turns in microseconds),
 * then sleeps on wave_gen: with more tasks than free CPUs (SMT siblings, an
 * overcommitted guest, the shrinker) a spinning waiter would take the CPU
 * from the task the wave waits for, and each wave would last a time slice.
 */
#define WAVE_SPINS 8192

static void wave_barrier(struct zf_ctl *ctl, int ntasks)
{
	uint32_t gen = atomic_load_explicit(&ctl->wave_gen, memory_order_acquire);
	unsigned long spins = 0;

	if (atomic_fetch_add_explicit(&ctl->wave_arrived, 1, memory_order_acq_rel) + 1 ==
	    (uint32_t)ntasks) {
		atomic_store_explicit(&ctl->wave_arrived, 0, memory_order_relaxed);
		/* seq_cst with the sleepers' count: a sleeper sees the new gen or is woken */
		atomic_store(&ctl->wave_gen, gen + 1);
		if (atomic_load(&ctl->wave_sleepers))
			futex_wake(&ctl->wave_gen);
		return;
	}
	while (atomic_load_explicit(&ctl->wave_gen, memory_order_acquire) == gen &&
	       !atomic_load_explicit(&ctl->abort, memory_order_relaxed)) {
		if (++spins < WAVE_SPINS) {
			cpu_relax();
			continue;
		}
		atomic_fetch_add(&ctl->wave_sleepers, 1);
		futex_wait(&ctl->wave_gen, gen, 100);	/* returns at once if gen moved */
		atomic_fetch_sub(&ctl->wave_sleepers, 1);
	}
}

void zf_task_wave(struct zf_task *t)
{
	wave_barrier(t->r->ctl, t->r->cfg->plan->ntasks);
}

/* where this task runs, and where its own memory and mm are, read back from the kernel */
static void numa_seen(const struct zf_task *t, struct zf_numa_seen *seen)
{
	const struct zf_runner *r = t->r;
	void *pages[2] = { t->table, t->pass.mm };
	int nodes[2];

	seen->cpu = sched_getcpu();
	seen->cpu_node = seen->cpu >= 0 && seen->cpu < r->ncpu_node ? r->cpu_node[seen->cpu] : -1;
	zf_numa_pages_nodes(pages, 2, nodes);
	seen->table_busy = nodes[0] == ZF_NUMA_BUSY;
	seen->mm_busy = nodes[1] == ZF_NUMA_BUSY;
	seen->table_node = nodes[0] >= 0 ? nodes[0] : -1;
	seen->mm_node = nodes[1] >= 0 ? nodes[1] : -1;
}

/* one repetition: ctl->passes passes of the workload; -errno (with why) on failure */
static int task_timed_rep(struct zf_task *t, char *why, size_t len)
{
	struct zf_runner *r = t->r;
	const struct zf_workload_ops *ops = r->ops;
	struct zf_task_perf *tp = &t->tp;
	struct zf_task_sample sample = { 0 };
	unsigned long i, passes = r->ctl->passes;
	struct sched_mark m0, m1;
	int err = 0;

	t->sample = &sample;
	if (ops->rep_start)
		ops->rep_start(t);
	zf_perf_start(&tp->pt);
	if (tp->sampling)
		zf_sampler_enable(&tp->smp, true);
	numa_seen(t, &sample.seen);
	sched_mark(&m0, false);
	for (i = 0; i < passes && !err; i++) {
		if (i && ops->between_passes)
			ops->between_passes(t);
		err = ops->pass(t, i + 1 == passes, why, len);
		if (tp->sampling)	/* drained as it goes: the ring holds some thousands */
			zf_sampler_drain(&tp->smp, &sample.prof);
		atomic_fetch_add_explicit(&t->slot->beat, 1, memory_order_relaxed);
	}
	if (ops->rep_end)
		ops->rep_end(t);
	sched_mark(&m1, true);
	sample.policy = sched_getscheduler(0);
	sample.span_start_ns = m0.wall_ns;
	sample.span_end_ns = m1.wall_ns;
	sample.span_cpu_ns = m1.cpu_ns - m0.cpu_ns;
	sample.nivcsw = m1.nivcsw - m0.nivcsw;
	sample.migrations = m0.migrations >= 0 && m1.migrations >= 0 ?
			    m1.migrations - m0.migrations : -1;
	if (tp->sampling) {
		zf_sampler_enable(&tp->smp, false);
		zf_sampler_drain(&tp->smp, &sample.prof);
	}
	sample.faults = passes * r->cfg->faults_per_pass;
	t->slot->sample = sample;
	t->sample = NULL;
	return err;
}

static int task_main(struct zf_runner *r, int id)
{
	const struct zf_run_config *cfg = r->cfg;
	struct zf_task_slot *slot = &r->slots[id];
	struct zf_task t = {
		.r = r,
		.id = id,
		.slot = slot,
		.pass = {
			.zs = r->zs,
			.mm = r->mm[cfg->kind == ZF_TASK_THREAD ? 0 : id],
			.st = &slot->st,
		},
	};
	struct zf_task_perf *tp = &t.tp;
	bool made = false;
	uint32_t seen = 0;
	char why[sizeof(slot->error)];
	int err = 0;

	if (cfg->plan->pu[id] >= 0 &&
	    zf_topo_bind_self(r->topo, cfg->plan->pu[id], why, sizeof(why)))
		err = task_fail(slot, why);
	if (!err) {	/* bound: its memory on its node */
		made = !r->ops->task_init(&t, why, sizeof(why));
		if (!made)
			err = task_fail(slot, why);
	}
	if (!err && cfg->sched_policy >= 0) {	/* --sched: this task alone, ending with it */
		struct sched_param sp = { .sched_priority = cfg->sched_priority };

		if (sched_setscheduler(0, cfg->sched_policy, &sp)) {
			snprintf(why, sizeof(why), "--sched: sched_setscheduler: %s", strerror(errno));
			err = task_fail(slot, why);
		}
	}
	if (!err) {	/* on itself, bound: every count is this task's, on its PU */
		zf_perf_open(&tp->pt, cfg->events);
		memcpy(slot->perf_err, tp->pt.err, sizeof(slot->perf_err));
		/* out of fds or memory: the run would lose what the machine can count */
		if (zf_perf_failed(&tp->pt, why, sizeof(why)))
			err = task_fail(slot, why);
	}
	if (!err && cfg->profile) {
		slot->profile_err = -zf_sampler_open(&tp->smp, ZF_PROFILE_PERIOD_NS, __start_hzf_get,
						     __stop_hzf_get, __start_hzf_put, __stop_hzf_put,
						     cfg->kallsyms);
		tp->sampling = !slot->profile_err;
		if (zf_perf_tool_failure(slot->profile_err)) {
			zf_perf_failure("--profile's cpu-clock sampler", slot->profile_err, why,
					sizeof(why));
			err = task_fail(slot, why);
		}
	}
	atomic_fetch_add(&r->ctl->ready, 1);
	futex_wake(&r->ctl->ready);

	for (;;) {
		uint32_t gen = atomic_load_explicit(&r->ctl->gen, memory_order_acquire);

		if (gen == seen) {
			futex_wait(&r->ctl->gen, seen, 100);
			continue;
		}
		seen = gen;
		if (r->ctl->cmd == CMD_QUIT || atomic_load(&r->ctl->abort))
			break;
		if (!err && start_barrier(r->ctl, cfg->plan->ntasks) &&
		    task_timed_rep(&t, why, sizeof(why)))
			err = task_fail(slot, why);
		atomic_fetch_add_explicit(&r->ctl->done, 1, memory_order_release);
		futex_wake(&r->ctl->done);
	}
	slot->read_sum = t.pass.read_sum;
	slot->fallbacks = t.pass.fallbacks;
	slot->cpu_seen = sched_getcpu();
	zf_perf_close(&tp->pt);
	if (tp->sampling)
		zf_sampler_close(&tp->smp);
	if (made && r->ops->task_fini)
		r->ops->task_fini(&t);
	atomic_fetch_add(&r->ctl->ended, 1);
	futex_wake(&r->ctl->ended);
	return err;
}

static void *thread_main(void *arg)
{
	struct zf_runner *r = ((void **)arg)[0];
	int id = (int)(long)((void **)arg)[1];

	free(arg);
	task_main(r, id);
	return NULL;
}

/*
 * Reap children that have ended; a death, or an exit before the end (ending
 * false) or with a failure status, is an error described in res->error.
 * With block, wait for every child. Returns the first error; *left counts
 * the children still there (left NULL: stop at the first error).
 */
static int reap_children(struct zf_runner *r, struct zf_run_result *res, bool ending, bool block,
			 int *left)
{
	int i, status, err = 0;

	for (i = 0; r->pids && i < r->cfg->plan->ntasks; i++) {
		pid_t pid = r->pids[i];

		if (pid <= 0)
			continue;
		if (waitpid(pid, &status, block ? 0 : WNOHANG) != pid) {
			if (left)
				(*left)++;
			continue;
		}
		r->pids[i] = 0;
		if (err)
			continue;
		if (WIFSIGNALED(status)) {
			snprintf(res->error, sizeof(res->error),
				 "task %d (pid %d) was killed by signal %d (%s)", i, pid,
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
			err = -ECHILD;
		} else if (!ending || WEXITSTATUS(status)) {
			snprintf(res->error, sizeof(res->error),
				 "task %d (pid %d) exited %s with status %d", i, pid,
				 ending ? "" : "early", WEXITSTATUS(status));
			err = -ECHILD;
		}
		if (err && !left)
			return err;
	}
	return err;
}

static int check_children(struct zf_runner *r, struct zf_run_result *res)
{
	return reap_children(r, res, false, false, NULL);
}

/* every task's passes so far: moves while any task gets on */
static unsigned long beats(struct zf_runner *r)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < r->cfg->plan->ntasks; i++)
		sum += atomic_load_explicit(&r->slots[i].beat, memory_order_relaxed);
	return sum;
}

/* the first task that reported a failure, or -1 */
static int first_failed(struct zf_runner *r)
{
	int i;

	for (i = 0; i < r->cfg->plan->ntasks; i++)
		if (r->slots[i].failed)
			return i;
	return -1;
}

/*
 * wait until *word reaches n; fails when a child dies, or when no task has
 * moved it, nor ended a pass, for the watchdog's time (a task stopped,
 * stuck or starved). A long repetition is not silence: its passes beat.
 */
static int wait_count(struct zf_runner *r, _Atomic uint32_t *word, uint32_t n, const char *at,
		      struct zf_run_result *res)
{
	uint64_t watchdog_ns = r->cfg->watchdog_ms * 1000000ULL, moved = zf_now_ns();
	unsigned long beat, seen_beat = beats(r);
	uint32_t v, seen = 0;

	while ((v = atomic_load_explicit(word, memory_order_acquire)) < n) {
		int err = check_children(r, res);

		if (err)
			return err;
		beat = beats(r);
		if (v != seen || beat != seen_beat) {
			seen = v;
			seen_beat = beat;
			moved = zf_now_ns();
		} else if (watchdog_ns && zf_now_ns() - moved > watchdog_ns) {
			int f = first_failed(r);
			size_t len = snprintf(res->error, sizeof(res->error),
					      "watchdog: %u of %u tasks silent for %g s%s (stopped, "
					      "stuck or starved; --watchdog SEC)", n - v, n,
					      r->cfg->watchdog_ms / 1000.0, at);

			/* one that arrived may have arrived failing: what it said first */
			if (f >= 0 && len < sizeof(res->error))
				snprintf(res->error + len, sizeof(res->error) - len, "; task %d: %.120s",
					 f, r->slots[f].error);
			r->stuck = true;
			return -ETIMEDOUT;
		}
		futex_wait(word, v, 20);
	}
	return 0;
}

static void broadcast(struct zf_runner *r, int cmd, unsigned long passes)
{
	r->ctl->cmd = cmd;
	r->ctl->passes = passes;
	atomic_store(&r->ctl->arrived, 0);
	atomic_store(&r->ctl->done, 0);
	atomic_fetch_add_explicit(&r->ctl->gen, 1, memory_order_release);
	futex_wake(&r->ctl->gen);
}

/* the first failure a task reported, into res->error */
static int task_errors(struct zf_runner *r, struct zf_run_result *res)
{
	int i = first_failed(r);

	if (i < 0)
		return 0;
	snprintf(res->error, sizeof(res->error), "task %d: %s", i, r->slots[i].error);
	return -EIO;
}

int zf_tasks_rep(struct zf_runner *r, unsigned long passes, struct zf_run_result *res)
{
	int err;

	broadcast(r, CMD_RUN, passes);
	err = wait_count(r, &r->ctl->done, r->cfg->plan->ntasks, "", res);
	return err ? err : task_errors(r, res);
}

int zf_tasks_ready(struct zf_runner *r, struct zf_run_result *res)
{
	int err = wait_count(r, &r->ctl->ready, r->cfg->plan->ntasks, "", res);

	return err ? err : task_errors(r, res);
}

int zf_tasks_start(struct zf_runner *r, struct zf_run_result *res)
{
	int i, n = r->cfg->plan->ntasks;

	if (r->cfg->kind == ZF_TASK_THREAD) {
		r->threads = calloc(n, sizeof(*r->threads));
		if (!r->threads)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			void **arg = malloc(2 * sizeof(void *));
			int err;

			if (!arg)
				return -ENOMEM;
			arg[0] = r;
			arg[1] = (void *)(long)i;
			err = pthread_create(&r->threads[i], NULL, thread_main, arg);
			if (err) {
				free(arg);
				snprintf(res->error, sizeof(res->error), "task %d: pthread_create: %s",
					 i, strerror(err));
				return -err;
			}
		}
		return 0;
	}
	r->pids = calloc(n, sizeof(*r->pids));
	if (!r->pids)
		return -ENOMEM;
	fflush(NULL);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			snprintf(res->error, sizeof(res->error), "task %d: fork: %s", i,
				 strerror(errno));
			return -errno;
		}
		if (!pid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			_exit(task_main(r, i) ? 1 : 0);
		}
		r->pids[i] = pid;
	}
	return 0;
}

/*
 * A silent thread, once it runs again, must not touch the runner it was
 * given: zf_run's frame and its caller's configuration are gone by then.
 * It is sent this signal, whose handler never returns: the thread parks
 * there (in user space at once, or on its way back from the kernel) until
 * the process ends.
 */
#define SIG_PARK	(SIGRTMIN + 3)

static void park(int sig)
{
	sigset_t wait_mask;

	(void)sig;
	sigfillset(&wait_mask);
	sigdelset(&wait_mask, SIGKILL);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGINT);
	for (;;)
		sigsuspend(&wait_mask);
}

static void park_threads(struct zf_runner *r, int n)
{
	struct sigaction sa = { .sa_handler = park };
	int i;

	sigfillset(&sa.sa_mask);
	sigaction(SIG_PARK, &sa, NULL);
	for (i = 0; i < n; i++)
		if (r->threads[i])
			pthread_kill(r->threads[i], SIG_PARK);
}

/*
 * Every child reaped as it exits. One still there when the watchdog's time
 * has passed with none exiting is silent (stopped, stuck in the kernel) and
 * fails the run, as it would mid-run: a blocking wait would hang for good.
 */
static int reap_all(struct zf_runner *r, struct zf_run_result *res)
{
	uint64_t watchdog_ns = r->cfg->watchdog_ms * 1000000ULL, moved = zf_now_ns();
	int n = r->cfg->plan->ntasks, last = n + 1, left, i, e, err = 0;

	for (;;) {
		left = 0;
		e = reap_children(r, res, true, false, &left);
		if (!err)
			err = e;
		if (!left)
			return err;
		if (left != last) {
			last = left;
			moved = zf_now_ns();
		} else if (watchdog_ns && zf_now_ns() - moved > watchdog_ns) {
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
	for (i = 0; i < n; i++)
		if (r->pids[i] > 0)
			kill(r->pids[i], SIGKILL);
	e = left;	/* the silent, whose deaths are ours, not their failure */
	reap_children(r, res, true, true, &left);
	if (!err)
		snprintf(res->error, sizeof(res->error),
			 "watchdog: %d of %d tasks silent for %g s at their exit (stopped, stuck "
			 "or starved; --watchdog SEC)", e, n, r->cfg->watchdog_ms / 1000.0);
	return -ETIMEDOUT;
}

int zf_tasks_stop(struct zf_runner *r, struct zf_run_result *res, bool failed)
{
	int i, n = r->cfg->plan->ntasks, err = 0;
	char kept[sizeof(res->error)];

	if (failed)
		atomic_store(&r->ctl->abort, 1);
	if (r->threads && r->stuck) {
		park_threads(r, n);	/* a silent thread may never return: not joined */
		return -ETIMEDOUT;
	}
	broadcast(r, CMD_QUIT, 0);
	/* after a failure, its first message is the one kept */
	memcpy(kept, res->error, sizeof(kept));
	if (r->threads) {
		/* out of task_main within the watchdog's time, or parked, not joined */
		err = wait_count(r, &r->ctl->ended, n, " at their exit", res);
		if (err) {
			park_threads(r, n);
		} else {
			for (i = 0; i < n; i++)
				if (r->threads[i])
					pthread_join(r->threads[i], NULL);
			free(r->threads);
		}
	}
	if (r->pids) {
		if (failed) {
			for (i = 0; i < n; i++)
				if (r->pids[i] > 0)
					kill(r->pids[i], SIGKILL);
		}
		err = reap_all(r, res);
		free(r->pids);
	}
	if (failed)
		memcpy(res->error, kept, sizeof(kept));
	return err;
}
