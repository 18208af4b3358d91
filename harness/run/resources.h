/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run needs of the machine, and whether the machine has it, told
 * before anything runs: file descriptors (every task's perf events, and
 * hzfbench's own), tasks (threads or processes, against RLIMIT_NPROC,
 * kernel.threads-max, kernel.pid_max and the cgroup's pids.max), memory
 * (the page table each huge zero PMD deposits, the folio pool, the tasks'
 * own, the samples kept; against MemAvailable and the memory cgroup's room)
 * and, for thread tasks, one address space holding every task's region.
 *
 * A run short of any of them would lose counters half-way (EMFILE), fail to
 * start its last tasks, or be killed by the OOM killer, and a part of it
 * could look like a measurement: it is refused in one line that names the
 * need, the limit and the fix. reslimits.c reads the limits, resneed.c
 * works out the needs and checks them.
 */
#ifndef HZF_RESOURCES_H
#define HZF_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner.h"

#define ZF_RES_NONE	UINT64_MAX	/* no limit, or none that can be read */

/* what this machine offers a run, read when asked (zf_res_read) */
struct zf_res_limits {
	uint64_t nofile_soft, nofile_hard;	/* RLIMIT_NOFILE */
	uint64_t fds_open;			/* this process's, now */
	uint64_t files_free;			/* the system's table: fs.file-max less file-nr's */
	uint64_t files_max;
	uint64_t nproc;				/* RLIMIT_NPROC; NONE where it does not bind (root) */
	uint64_t user_tasks;			/* this user's tasks now, threads counted */
	uint64_t threads_max, pid_max;		/* kernel.threads-max, kernel.pid_max */
	uint64_t tasks_now;			/* every task of the machine now */
	uint64_t pids_free, pids_max;		/* the tightest pids cgroup: its pids.max less pids.current */
	char pids_cgroup[256];			/* and its folder */
	uint64_t mem_available;			/* MemAvailable, bytes */
	uint64_t cgroup_mem_free, cgroup_mem_max;	/* the tightest memory cgroup's room, its limit */
	char mem_cgroup[256];
	uint64_t address_space;			/* a process's user address space: the CPU's, RLIMIT_AS */
};

/*
 * The limits now; user_tasks false: this user's tasks are not counted (a
 * walk of /proc, for RLIMIT_NPROC, which binds no root). $HZF_SYSROOT, where
 * set, is put before every /proc and /sys path (the tests' fabricated trees).
 */
void zf_res_read(struct zf_res_limits *l, bool user_tasks);
/* RLIMIT_NOFILE's soft limit raised to its hard limit: many tasks, many events */
void zf_res_raise_nofile(void);

/* file descriptors a thread task opens besides its events: a /proc file it reads */
#define ZF_RES_TASK_EXTRA_FDS	1
/* hzfbench's own beside those open when counted: streamed CSVs, a file being written, /proc */
#define ZF_RES_OWN_EXTRA_FDS	8

/* what one configuration needs at its peak, every task mid-pass */
struct zf_res_need {
	int tasks;
	bool threads;
	unsigned int events;		/* perf fds a task opens: its events and --profile's sampler */
	uint64_t own_fds;		/* hzfbench's own, beside its tasks' */
	uint64_t fds_process;		/* the most one process holds at once */
	uint64_t fds_system;		/* the run's in the system's table */
	uint64_t new_tasks;		/* threads or processes it starts */
	/* bytes held at once */
	uint64_t page_tables;		/* the kernel's: a 4 KiB table a huge zero PMD deposits */
	uint64_t slots;			/* the tasks' own page tables, a slot a fault */
	uint64_t region;		/* real pages, where the kernel does not map the folio */
	uint64_t folios;		/* the folio pool's pages the tasks' allocation race touches */
	uint64_t task_kernel;		/* each task's stacks and tables, as measured here */
	uint64_t samples;		/* the samples hzfbench keeps */
	uint64_t peak;			/* all of the above */
	uint64_t per_fault;		/* what one more fault a pass adds to peak (--size's fix) */
	uint64_t address_space;		/* thread tasks: every region in one process at once */
	unsigned long faults, step;	/* a task's in a pass, and --step */
};

/*
 * cfg's needs: own_fds hzfbench's own (open now, and what will be), mapped
 * whether the kernel maps the huge zero folio on read faults (else real
 * faults allocate), samples the bytes of samples kept beside this run's
 */
void zf_res_need_of(const struct zf_run_config *cfg, uint64_t own_fds, bool mapped,
		    uint64_t samples, struct zf_res_need *n);

enum zf_res_short { ZF_RES_FITS, ZF_RES_FDS, ZF_RES_TASKS, ZF_RES_MEMORY };

/*
 * ZF_RES_FITS, or what n is short of, with why: one clause naming the need,
 * the limit and the fix (an fds' or tasks' shortage is --tasks', a memory's
 * --size's). RLIMIT_NOFILE's soft limit is raised where the hard one holds
 * the need.
 */
enum zf_res_short zf_res_check(const struct zf_res_need *n, const struct zf_res_limits *l,
			       char *why, size_t len);
/* the option a shortage is said against: "--tasks", "--size" */
const char *zf_res_option(enum zf_res_short s);

/* "page tables 32 GiB, the folio pool 4.0 MiB, ...": the parts of n's peak */
void zf_res_parts(const struct zf_res_need *n, char *buf, size_t len);
/* 1.5 GiB, 12 MiB, 4 KiB: bytes for a line */
void zf_res_bytes(uint64_t bytes, char *buf, size_t len);
/* 12,345: a count for a line; NONE is "none" */
void zf_res_count(uint64_t n, char *buf, size_t len);

#endif
