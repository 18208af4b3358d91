// SPDX-License-Identifier: GPL-2.0
/*
 * What a configuration needs of the machine at its peak, and the one-line
 * refusal of one the machine cannot hold: see resources.h.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../../bench/folio.h"
#include "resources.h"
#include "workload.h"

/*
 * A task's own in the kernel and in user space beside its workload's: its
 * kernel stack and task struct, a thread's touched stack, a process's page
 * tables and the pages it copies on write. Measured here with 512 idle
 * tasks (KernelStack, PageTables and the tasks' Pss, before and during):
 * 25 KiB a thread, 94 KiB a process; planned with room above.
 */
#define THREAD_TASK_BYTES	(64ULL << 10)
#define PROCESS_TASK_BYTES	(128ULL << 10)

void zf_res_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%" PRIu64 " bytes", bytes);
	else
		snprintf(buf, len, "%.*f %s", v < 10 ? 1 : 0, v, unit[u]);
}

void zf_res_count(uint64_t n, char *buf, size_t len)
{
	char digits[32];
	size_t nd, i, o = 0;

	if (n == ZF_RES_NONE) {
		snprintf(buf, len, "none");
		return;
	}
	nd = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, n);
	for (i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* the stack a thread gets by default: part of the one address space threads share */
static uint64_t thread_stack(void)
{
	pthread_attr_t a;
	size_t size = 8 << 20;

	if (!pthread_attr_init(&a)) {
		pthread_attr_getstacksize(&a, &size);
		pthread_attr_destroy(&a);
	}
	return size;
}

void zf_res_need_of(const struct zf_run_config *cfg, uint64_t own_fds, bool mapped,
		    uint64_t samples, struct zf_res_need *n)
{
	const struct zf_workload_ops *ops = zf_workload_ops(cfg->workload);
	struct zf_task_memory m = { 0 };
	uint64_t tasks = (uint64_t)cfg->plan->ntasks, task_fds;

	memset(n, 0, sizeof(*n));
	n->tasks = cfg->plan->ntasks;
	n->threads = cfg->kind == ZF_TASK_THREAD;
	n->events = (cfg->events ? (unsigned int)cfg->events->n : 0) + cfg->profile;
	n->own_fds = own_fds;
	task_fds = n->events + ZF_RES_TASK_EXTRA_FDS;
	/* a process task holds its own and what it inherits; threads, all in one */
	n->fds_process = own_fds + (n->threads ? tasks : 1) * task_fds;
	n->fds_system = own_fds + tasks * task_fds;
	n->new_tasks = tasks + (cfg->shrink_hz ? 1 : 0);
	if (ops->task_memory)
		ops->task_memory(cfg, mapped, &m);
	n->faults = cfg->faults_per_pass;
	n->step = cfg->step;
	n->page_tables = tasks * m.page_tables;
	n->slots = tasks * m.slots;
	n->region = tasks * m.region;
	/* at worst every task's first fault races an allocation, each touching a folio */
	n->folios = (tasks * ops->folios_per_task + 2) * ZF_FOLIO_SIZE;
	n->task_kernel = tasks * (n->threads ? THREAD_TASK_BYTES : PROCESS_TASK_BYTES);
	n->samples = samples + (uint64_t)cfg->reps * tasks * sizeof(struct zf_task_sample);
	n->peak = n->page_tables + n->slots + n->region + n->folios + n->task_kernel + n->samples;
	n->per_fault = tasks * m.per_fault;
	n->address_space = (n->threads ? tasks : 1) *
			   (m.address_space + (n->threads ? thread_stack() : 0));
}

const char *zf_res_option(enum zf_res_short s)
{
	return s == ZF_RES_MEMORY ? "--size" : "--tasks";
}

/* fds: the process's table against RLIMIT_NOFILE, the run's against the system's */
static enum zf_res_short check_fds(const struct zf_res_need *n, const struct zf_res_limits *l,
				   char *why, size_t len)
{
	char need[32], lim[32], own[32], tasks[32], max[32];

	zf_res_count(n->fds_process, need, sizeof(need));
	zf_res_count(n->own_fds, own, sizeof(own));
	zf_res_count((uint64_t)n->tasks, tasks, sizeof(tasks));
	if (n->fds_process > l->nofile_hard) {
		zf_res_count(l->nofile_hard, lim, sizeof(lim));
		if (n->threads)
			snprintf(why, len, "%s thread tasks need %s file descriptors at once in one "
				 "process (%u perf events and %d for /proc a task, and %s of "
				 "hzfbench's own), over RLIMIT_NOFILE's hard limit of %s: raise it "
				 "(ulimit -Hn %" PRIu64 ", as root), count fewer --events, or run "
				 "fewer --tasks", tasks, need, n->events, ZF_RES_TASK_EXTRA_FDS, own,
				 lim, n->fds_process);
		else
			snprintf(why, len, "each process task needs %s file descriptors (%u perf "
				 "events and %d for /proc, and the %s it inherits), over "
				 "RLIMIT_NOFILE's hard limit of %s: raise it (ulimit -Hn %" PRIu64
				 ", as root) or count fewer --events", need, n->events,
				 ZF_RES_TASK_EXTRA_FDS, own, lim, n->fds_process);
		return ZF_RES_FDS;
	}
	if (n->fds_process > l->nofile_soft)
		zf_res_raise_nofile();	/* main() did, unless the limit was lowered since */
	if (n->fds_system > l->files_free) {
		zf_res_count(n->fds_system, need, sizeof(need));
		zf_res_count(l->files_free, lim, sizeof(lim));
		zf_res_count(l->files_max, max, sizeof(max));
		snprintf(why, len, "%s tasks open %s files in all (%u perf events and %d for /proc "
			 "a task), over the %s the system's table has free (fs.file-max %s): raise "
			 "it (sysctl fs.file-max=%" PRIu64 "), count fewer --events, or run fewer "
			 "--tasks", tasks, need, n->events, ZF_RES_TASK_EXTRA_FDS, lim, max,
			 l->files_max + n->fds_system);
		return ZF_RES_FDS;
	}
	return ZF_RES_FITS;
}

/* one task limit: new tasks beside those there now, against limit */
static bool over(const struct zf_res_need *n, uint64_t now, uint64_t limit, const char *name,
		 const char *whose, const char *fix, char *why, size_t len)
{
	char tasks[32], there[32], lim[32];

	if (limit == ZF_RES_NONE || now + n->new_tasks <= limit)
		return false;
	zf_res_count(n->new_tasks, tasks, sizeof(tasks));
	zf_res_count(now, there, sizeof(there));
	zf_res_count(limit, lim, sizeof(lim));
	snprintf(why, len, "%s tasks, beside the %s %s runs now, are over %s's %s: %s%" PRIu64
		 ") or run fewer --tasks", tasks, there, whose, name, lim, fix, now + n->new_tasks);
	return true;
}

static enum zf_res_short check_tasks(const struct zf_res_need *n, const struct zf_res_limits *l,
				     char *why, size_t len)
{
	char tasks[32], lim[32], room[32];

	if (over(n, l->user_tasks, l->nproc, "RLIMIT_NPROC", "this user", "raise it (ulimit -u ",
		 why, len) ||
	    over(n, l->tasks_now, l->threads_max, "kernel.threads-max", "the machine",
		 "raise it (sysctl kernel.threads-max=", why, len) ||
	    /* a task a pid, and the kernel keeps the first 300 for its own at the wrap */
	    over(n, l->tasks_now + 300, l->pid_max, "kernel.pid_max", "the machine (and 300 "
		 "reserved)", "raise it (sysctl kernel.pid_max=", why, len))
		return ZF_RES_TASKS;
	if (l->pids_free != ZF_RES_NONE && n->new_tasks > l->pids_free) {
		zf_res_count(n->new_tasks, tasks, sizeof(tasks));
		zf_res_count(l->pids_free, room, sizeof(room));
		zf_res_count(l->pids_max, lim, sizeof(lim));
		snprintf(why, len, "%s tasks are over the %s more that the cgroup %s allows (its "
			 "pids.max is %s): raise its pids.max, run outside it, or run fewer --tasks",
			 tasks, room, l->pids_cgroup, lim);
		return ZF_RES_TASKS;
	}
	return ZF_RES_FITS;
}

/* the most a --size could be with room bytes for n: a whole step at least, or 0 */
static uint64_t size_within(const struct zf_res_need *n, uint64_t have, uint64_t per_fault,
			    uint64_t fixed, uint64_t step)
{
	if (!per_fault || !n->faults || have <= fixed)
		return 0;
	return (have - fixed) / per_fault * step;
}

void zf_res_parts(const struct zf_res_need *n, char *buf, size_t len)
{
	static const char *const names[] = { "page tables", "the tasks' slots",
		"real pages (no huge zero folio)", "the folio pool", "the tasks' own",
		"the samples kept" };
	const uint64_t bytes[] = { n->page_tables, n->slots, n->region, n->folios,
				   n->task_kernel, n->samples };
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(bytes) / sizeof(bytes[0]) && o < len; i++) {
		char b[32];

		if (!bytes[i])
			continue;
		zf_res_bytes(bytes[i], b, sizeof(b));
		o += snprintf(buf + o, len - o, "%s%s %s", o ? ", " : "", names[i], b);
	}
}

static enum zf_res_short check_memory(const struct zf_res_need *n, const struct zf_res_limits *l,
				      char *why, size_t len)
{
	bool cgroup = l->cgroup_mem_free < l->mem_available;
	uint64_t have = cgroup ? l->cgroup_mem_free : l->mem_available;
	uint64_t sized = n->per_fault * n->faults, most;
	char peak[32], room[32], limit[32], fix[64] = "", what[200], at_most[32];

	if (have != ZF_RES_NONE && n->peak > have) {
		zf_res_bytes(n->peak, peak, sizeof(peak));
		zf_res_bytes(have, room, sizeof(room));
		zf_res_parts(n, what, sizeof(what));
		most = size_within(n, have, n->per_fault, n->peak - sized, n->step);
		zf_res_bytes(most, at_most, sizeof(at_most));
		snprintf(fix, sizeof(fix), most ? "a smaller --size (at most %s here)" :
			 "fewer --tasks", at_most);
		if (cgroup) {
			zf_res_bytes(l->cgroup_mem_max, limit, sizeof(limit));
			snprintf(why, len, "holds %s at its peak (%s), over the %s the memory cgroup "
				 "%s has room for (its limit %s): %s", peak, what, room, l->mem_cgroup,
				 limit, fix);
		} else {
			snprintf(why, len, "holds %s at its peak (%s), over this machine's "
				 "MemAvailable of %s: %s", peak, what, room, fix);
		}
		return ZF_RES_MEMORY;
	}
	if (l->address_space != ZF_RES_NONE && n->address_space > l->address_space) {
		zf_res_bytes(n->address_space, peak, sizeof(peak));
		zf_res_bytes(l->address_space, room, sizeof(room));
		snprintf(why, len, "%s maps %s at once in one address space, over the %s a process "
			 "has here (the CPU's user half, or RLIMIT_AS): a smaller --size%s",
			 n->threads ? "its thread tasks" : "a task", peak, room,
			 n->threads ? ", or --task-kind process" : "");
		return ZF_RES_MEMORY;
	}
	return ZF_RES_FITS;
}

enum zf_res_short zf_res_check(const struct zf_res_need *n, const struct zf_res_limits *l,
			       char *why, size_t len)
{
	enum zf_res_short s = check_fds(n, l, why, len);

	if (s == ZF_RES_FITS)
		s = check_tasks(n, l, why, len);
	if (s == ZF_RES_FITS)
		s = check_memory(n, l, why, len);
	return s;
}
