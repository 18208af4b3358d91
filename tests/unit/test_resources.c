// SPDX-License-Identifier: GPL-2.0
/*
 * What a run needs of the machine and the limits it is held to
 * (harness/run/resources.h): the limits read from fabricated /proc and /sys
 * trees (cgroup v1 and v2, a file missing), a configuration's file
 * descriptors, tasks and memory worked out for threads and processes at
 * 1,024 tasks, each refusal's line: the need, the limit and the fix, and
 * perf_event_open out of file descriptors under a real RLIMIT_NOFILE.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../bench/folio.h"
#include "../../bench/strategy.h"
#include "../../harness/run/perfctr.h"
#include "../../harness/run/resources.h"
#include "test.h"
#include "tree.h"

static void put_proc(struct tree *t, const char *cgroup)
{
	put(t, "/proc/sys/fs/file-nr", "1000\t0\t5000\n");
	put(t, "/proc/sys/kernel/threads-max", "300\n");
	put(t, "/proc/sys/kernel/pid_max", "4000\n");
	put(t, "/proc/loadavg", "0.10 0.20 0.30 2/250 12345\n");
	put(t, "/proc/meminfo", "MemTotal:       2097152 kB\nMemFree:         524288 kB\n"
	    "MemAvailable:    1048576 kB\n");
	put(t, "/proc/self/cgroup", cgroup);
}

static void read_tree(struct tree *t, struct zf_res_limits *l)
{
	setenv("HZF_SYSROOT", t->root, 1);
	zf_res_read(l, false);
	unsetenv("HZF_SYSROOT");
}

TEST(resources_limits_of_a_cgroup_v1_tree)
{
	struct zf_res_limits l;
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put_proc(&t, "9:name=systemd:/\n8:pids:/a/b\n4:memory:/a\n1:cpu,cpuacct:/\n0::/\n");
	/* the tighter is the parent's: 5 free against the child's 60 */
	put(&t, "/sys/fs/cgroup/pids/a/b/pids.max", "100\n");
	put(&t, "/sys/fs/cgroup/pids/a/b/pids.current", "40\n");
	put(&t, "/sys/fs/cgroup/pids/a/pids.max", "50\n");
	put(&t, "/sys/fs/cgroup/pids/a/pids.current", "45\n");
	put(&t, "/sys/fs/cgroup/pids/pids.current", "300\n");	/* the root: no pids.max */
	/* 1 GiB, 768 MiB used of which 256 MiB inactive file pages: 512 MiB of room */
	put(&t, "/sys/fs/cgroup/memory/a/memory.limit_in_bytes", "1073741824\n");
	put(&t, "/sys/fs/cgroup/memory/a/memory.usage_in_bytes", "805306368\n");
	put(&t, "/sys/fs/cgroup/memory/a/memory.stat", "cache 300000000\ninactive_file 1\n"
	    "total_inactive_file 268435456\n");
	put(&t, "/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	read_tree(&t, &l);
	EXPECT_EQ(l.files_max, 5000);
	EXPECT_EQ(l.files_free, 4000);
	EXPECT_EQ(l.threads_max, 300);
	EXPECT_EQ(l.pid_max, 4000);
	EXPECT_EQ(l.tasks_now, 250);
	EXPECT_EQ(l.mem_available, 1048576ULL * 1024);
	EXPECT_EQ(l.pids_free, 5);
	EXPECT_EQ(l.pids_max, 50);
	EXPECT_STREQ(l.pids_cgroup, "/sys/fs/cgroup/pids/a");
	EXPECT_EQ(l.cgroup_mem_free, 512ULL << 20);
	EXPECT_EQ(l.cgroup_mem_max, 1ULL << 30);
	EXPECT_STREQ(l.mem_cgroup, "/sys/fs/cgroup/memory/a");
	/* this process's own, read live whatever the tree */
	EXPECT_TRUE(l.fds_open >= 3);
	EXPECT_TRUE(l.nofile_hard >= l.nofile_soft);
	tree_free(&t);
}

TEST(resources_limits_of_a_cgroup_v2_tree_and_missing_files)
{
	struct zf_res_limits l;
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put(&t, "/proc/self/cgroup", "0::/user.slice/u\n");
	put(&t, "/sys/fs/cgroup/cgroup.controllers", "cpu memory pids\n");
	put(&t, "/sys/fs/cgroup/user.slice/u/pids.max", "max\n");
	put(&t, "/sys/fs/cgroup/user.slice/u/pids.current", "3\n");
	put(&t, "/sys/fs/cgroup/user.slice/pids.max", "33\n");
	put(&t, "/sys/fs/cgroup/user.slice/pids.current", "3\n");
	put(&t, "/sys/fs/cgroup/user.slice/u/memory.max", "max\n");
	read_tree(&t, &l);
	EXPECT_EQ(l.pids_free, 30);
	EXPECT_STREQ(l.pids_cgroup, "/sys/fs/cgroup/user.slice");
	/* what cannot be read is no limit, never a made-up one */
	EXPECT_TRUE(l.cgroup_mem_free == ZF_RES_NONE);
	EXPECT_TRUE(l.mem_available == ZF_RES_NONE);
	EXPECT_TRUE(l.threads_max == ZF_RES_NONE);
	EXPECT_TRUE(l.pid_max == ZF_RES_NONE);
	EXPECT_TRUE(l.files_free == ZF_RES_NONE);
	EXPECT_EQ(l.tasks_now, 0);
	tree_free(&t);
}

/* 1,024 tasks of kind with 8 events, a --size of 16G, kernel or emulated faults */
static void need_of(enum zf_task_kind kind, enum zf_fault_mode fault, bool mapped,
		    struct zf_perf_list *events, struct zf_res_need *n)
{
	struct zf_plan plan = { .placement = "none", .ntasks = 1024 };
	struct zf_run_config cfg = {
		.strategy = zf_strategy_find("global"), .kind = kind, .fault = fault,
		.plan = &plan, .faults_per_pass = 8192, .step = 2 << 20, .reps = 1,
		.events = events, .workload = ZF_WORKLOAD_USEMEM,
	};

	events->n = 8;
	zf_res_need_of(&cfg, 30, mapped, 1000, n);
}

TEST(resources_needs_at_1024_tasks)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct zf_perf_list events = { .n = 0 };
	struct zf_res_need n;

	need_of(ZF_TASK_THREAD, ZF_FAULT_KERNEL, true, &events, &n);
	/* one process holds every task's events and a /proc read each */
	EXPECT_EQ(n.fds_process, 30 + 1024 * 9);
	EXPECT_EQ(n.fds_system, 30 + 1024 * 9);
	EXPECT_EQ(n.new_tasks, 1024);
	/* a table a huge zero PMD, and a PMD table a GiB: 16 of them a task */
	EXPECT_EQ(n.page_tables, 1024 * (8192 * page + 16 * page));
	EXPECT_EQ(n.slots, 1024ULL * 8192 * sizeof(void *));
	EXPECT_EQ(n.region, 0);
	EXPECT_EQ(n.folios, (1024 + 2) * ZF_FOLIO_SIZE);
	EXPECT_EQ(n.samples, 1000 + 1024 * sizeof(struct zf_task_sample));
	EXPECT_EQ(n.peak, n.page_tables + n.slots + n.folios + n.task_kernel + n.samples);
	/* every region in one address space, with the threads' stacks */
	EXPECT_TRUE(n.address_space > 1024 * (16ULL << 30));

	need_of(ZF_TASK_PROCESS, ZF_FAULT_KERNEL, false, &events, &n);
	EXPECT_EQ(n.fds_process, 30 + 9);	/* each process its own, and what it inherits */
	EXPECT_EQ(n.fds_system, 30 + 1024 * 9);
	/* a kernel that maps no huge zero folio allocates a huge page a fault */
	EXPECT_EQ(n.region, 1024ULL * 8192 * ZF_FOLIO_SIZE);
	EXPECT_EQ(n.per_fault, 1024 * (sizeof(void *) + page + ZF_FOLIO_SIZE));
	EXPECT_EQ(n.address_space, (16ULL << 30) + ZF_FOLIO_SIZE);

	need_of(ZF_TASK_THREAD, ZF_FAULT_EMULATED, true, &events, &n);
	EXPECT_EQ(n.page_tables, 0);	/* no region: the slots alone */
	EXPECT_EQ(n.slots, 1024ULL * 8192 * sizeof(void *));
	EXPECT_EQ(n.per_fault, 1024 * sizeof(void *));
}

/* limits nothing is short of */
static void roomy(struct zf_res_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->nofile_soft = l->nofile_hard = 1 << 20;
	l->files_free = l->files_max = 1 << 22;
	l->nproc = l->threads_max = l->pid_max = l->pids_free = l->pids_max = ZF_RES_NONE;
	l->tasks_now = 200;
	l->mem_available = 1ULL << 40;
	l->cgroup_mem_free = l->cgroup_mem_max = l->address_space = ZF_RES_NONE;
}

TEST(resources_refusals_name_the_need_the_limit_and_the_fix)
{
	struct zf_perf_list events = { .n = 0 };
	struct zf_res_limits l;
	struct zf_res_need n;
	char why[640];

	need_of(ZF_TASK_THREAD, ZF_FAULT_KERNEL, true, &events, &n);
	roomy(&l);
	EXPECT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_FITS);

	l.nofile_hard = l.nofile_soft = 4096;
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_FDS);
	EXPECT_TRUE(strstr(why, "1,024 thread tasks need 9,246 file descriptors") != NULL);
	EXPECT_TRUE(strstr(why, "RLIMIT_NOFILE's hard limit of 4,096") != NULL);
	EXPECT_TRUE(strstr(why, "ulimit -Hn 9246") != NULL);
	EXPECT_TRUE(strstr(why, "fewer --events") != NULL);
	EXPECT_STREQ(zf_res_option(ZF_RES_FDS), "--tasks");
	need_of(ZF_TASK_PROCESS, ZF_FAULT_KERNEL, true, &events, &n);
	EXPECT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_FITS);	/* 39 a process */
	l.files_free = 5000;
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_FDS);
	EXPECT_TRUE(strstr(why, "fs.file-max") != NULL);

	roomy(&l);
	l.threads_max = 1000;
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_TASKS);
	EXPECT_TRUE(strstr(why, "1,024 tasks, beside the 200 the machine runs now, are over "
			   "kernel.threads-max's 1,000") != NULL);
	EXPECT_TRUE(strstr(why, "sysctl kernel.threads-max=1224") != NULL);
	roomy(&l);
	l.pid_max = 1400;	/* 200 running and 300 reserved */
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_TASKS);
	EXPECT_TRUE(strstr(why, "kernel.pid_max") != NULL);
	l.pid_max = 1524;
	EXPECT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_FITS);
	roomy(&l);
	l.nproc = 1100;
	l.user_tasks = 100;
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_TASKS);
	EXPECT_TRUE(strstr(why, "RLIMIT_NPROC's 1,100: raise it (ulimit -u 1124)") != NULL);
	roomy(&l);
	l.pids_free = 10;
	l.pids_max = 33;
	snprintf(l.pids_cgroup, sizeof(l.pids_cgroup), "/sys/fs/cgroup/user.slice");
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_TASKS);
	EXPECT_TRUE(strstr(why, "the 10 more that the cgroup /sys/fs/cgroup/user.slice allows") !=
		    NULL);

	/* 8192 faults x 1,024 tasks: 32 GiB of page tables and more */
	roomy(&l);
	l.mem_available = 16ULL << 30;
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_MEMORY);
	EXPECT_TRUE(strstr(why, "over this machine's MemAvailable of 16 GiB") != NULL);
	EXPECT_TRUE(strstr(why, "page tables 32 GiB") != NULL);
	EXPECT_TRUE(strstr(why, "a smaller --size (at most") != NULL);
	EXPECT_STREQ(zf_res_option(ZF_RES_MEMORY), "--size");
	l.mem_available = 1ULL << 30;	/* the folio pool alone is 2 GiB: no --size fits */
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_MEMORY);
	EXPECT_TRUE(strstr(why, ": fewer --tasks") != NULL);
	roomy(&l);
	l.cgroup_mem_free = 1ULL << 30;
	l.cgroup_mem_max = 4ULL << 30;
	snprintf(l.mem_cgroup, sizeof(l.mem_cgroup), "/sys/fs/cgroup/memory/a");
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_MEMORY);
	EXPECT_TRUE(strstr(why, "the memory cgroup /sys/fs/cgroup/memory/a has room for") != NULL);

	need_of(ZF_TASK_THREAD, ZF_FAULT_KERNEL, true, &events, &n);
	roomy(&l);
	l.address_space = 1ULL << 44;	/* 16 TiB: 1,024 regions of 16 GiB do not fit */
	ASSERT_EQ(zf_res_check(&n, &l, why, sizeof(why)), ZF_RES_MEMORY);
	EXPECT_TRUE(strstr(why, "or --task-kind process") != NULL);
}

TEST(resources_figures_for_a_line)
{
	char buf[32];

	zf_res_bytes(512, buf, sizeof(buf));
	EXPECT_STREQ(buf, "512 bytes");
	zf_res_bytes(1536ULL << 20, buf, sizeof(buf));
	EXPECT_STREQ(buf, "1.5 GiB");
	zf_res_bytes(32ULL << 30, buf, sizeof(buf));
	EXPECT_STREQ(buf, "32 GiB");
	zf_res_count(9246, buf, sizeof(buf));
	EXPECT_STREQ(buf, "9,246");
	zf_res_count(1234567, buf, sizeof(buf));
	EXPECT_STREQ(buf, "1,234,567");
	zf_res_count(999, buf, sizeof(buf));
	EXPECT_STREQ(buf, "999");
	zf_res_count(ZF_RES_NONE, buf, sizeof(buf));
	EXPECT_STREQ(buf, "none");
}

/* the software events every kernel counts: the fds they take are real ones */
static void soft_events(struct zf_perf_list *list)
{
	static const char *const names[] = { "task-clock", "cpu-clock", "page-faults",
					      "context-switches" };
	size_t i;

	list->n = 0;
	for (i = 0; i < 4; i++)
		if (!zf_perf_lookup(names[i], &list->ev[list->n], NULL))
			list->n++;
}

/*
 * Out of file descriptors under a real RLIMIT_NOFILE (in a child, its hard
 * limit lowered for good): perf_event_open's EMFILE is hzfbench's failure,
 * named, never an event the machine cannot count; and a run that needs more
 * than the hard limit is not started
 */
TEST(resources_out_of_fds_is_the_runs_failure)
{
	struct zf_perf_list list;
	int status;
	pid_t pid;

	soft_events(&list);
	ASSERT_EQ(list.n, 4);
	EXPECT_TRUE(zf_perf_tool_failure(EMFILE) && zf_perf_tool_failure(ENFILE) &&
		    zf_perf_tool_failure(ENOMEM));
	EXPECT_TRUE(!zf_perf_tool_failure(ENOENT) && !zf_perf_tool_failure(EOPNOTSUPP) &&
		    !zf_perf_tool_failure(EINVAL) && !zf_perf_tool_failure(EACCES));
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (!pid) {
		struct zf_res_limits l;
		struct zf_perf_task t;
		struct rlimit low;
		char why[256];
		int err, fd, last[2] = { -1, -1 };

		zf_res_read(&l, false);
		low.rlim_cur = low.rlim_max = l.fds_open + 16;
		if (setrlimit(RLIMIT_NOFILE, &low))
			_exit(10);
		/* every fd taken, then two given back: room for two of the four events */
		while ((fd = dup(0)) >= 0)
			last[0] = last[1], last[1] = fd;
		close(last[0]);
		close(last[1]);
		zf_perf_open(&t, &list);
		err = zf_perf_failed(&t, why, sizeof(why));
		zf_perf_close(&t);
		if (err != EMFILE || !strstr(why, "Too many open files") ||
		    !strstr(why, "hzfbench's failure, not an event this machine cannot count"))
			_exit(11);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0);
}

/* zf_run itself checks the machine now: 2 tasks of 4 events under a hard limit of 16 */
TEST(resources_a_run_short_of_fds_is_not_started)
{
	struct zf_perf_list list;
	struct zf_topo topo;
	struct zf_plan plan;
	char why[256];
	int status;
	pid_t pid;

	soft_events(&list);
	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(zf_topo_open(&topo, NULL, why, sizeof(why)), 0);
	ASSERT_EQ(zf_plan_make(&topo, "none", 2, &plan, why, sizeof(why)), 0);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (!pid) {
		struct zf_run_config cfg = {
			.strategy = zf_strategy_find("persistent"), .kind = ZF_TASK_THREAD,
			.plan = &plan, .faults_per_pass = 64, .step = 2 << 20, .reps = 1,
			.min_ms = 1, .counter_node = -1, .events = &list,
			.busy_iters_per_ns = 1,
		};
		struct rlimit low = { 16, 16 };
		struct zf_run_result res;
		int err;

		if (setrlimit(RLIMIT_NOFILE, &low))
			_exit(10);
		err = zf_run(&cfg, &topo, &res);
		if (err != -EMFILE || !strstr(res.error, "2 thread tasks need") ||
		    !strstr(res.error, "RLIMIT_NOFILE's hard limit of 16"))
			_exit(11);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
}
