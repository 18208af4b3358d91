// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's limits on a run, read from the kernel when asked: see
 * resources.h. Where a file cannot be read the limit is ZF_RES_NONE: a
 * limit hzfbench cannot see is one it cannot check, never one it invents.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "resources.h"
#include "sysinfo.h"

void zf_res_raise_nofile(void)
{
	struct rlimit r;

	if (!getrlimit(RLIMIT_NOFILE, &r) && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

/* path under $HZF_SYSROOT, read whole into buf; -errno */
static int read_root(const char *path, char *buf, size_t len)
{
	const char *root = getenv("HZF_SYSROOT");
	char full[1024];

	snprintf(full, sizeof(full), "%s%s", root ? root : "", path);
	return zf_read_file(full, buf, len);
}

/* the first number of a file, or NONE */
static uint64_t read_number(const char *path)
{
	unsigned long long v;
	char text[64];

	if (read_root(path, text, sizeof(text)) || sscanf(text, "%llu", &v) != 1)
		return ZF_RES_NONE;
	return v;
}

/* "name value" (or "name: value kB") of a text like /proc/meminfo; NONE */
static uint64_t keyed(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long v;

		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == ':' || p[n] == '\t') &&
		    sscanf(p + n + (p[n] == ':'), "%llu", &v) == 1)
			return v;
	}
	return ZF_RES_NONE;
}

static uint64_t rlimit_of(int resource, bool hard)
{
	struct rlimit r;

	if (getrlimit(resource, &r))
		return ZF_RES_NONE;
	if ((hard ? r.rlim_max : r.rlim_cur) == RLIM_INFINITY)
		return ZF_RES_NONE;
	return hard ? r.rlim_max : r.rlim_cur;
}

/* this process's open file descriptors, the folder's own left out */
static uint64_t fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	uint64_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n ? n - 1 : 0;
}

/* every task of this user: /proc/PID/status's Uid and Threads */
static uint64_t user_tasks(uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	uint64_t n = 0;

	if (!d)
		return ZF_RES_NONE;
	while ((e = readdir(d))) {
		char path[300], text[4096];
		unsigned long real, threads;
		const char *u, *t;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (zf_read_file(path, text, sizeof(text)))
			continue;	/* gone meanwhile */
		u = strstr(text, "\nUid:");
		t = strstr(text, "\nThreads:");
		if (u && t && sscanf(u + 5, "%lu", &real) == 1 && real == uid &&
		    sscanf(t + 9, "%lu", &threads) == 1)
			n += threads;
	}
	closedir(d);
	return n;
}

/*
 * The folder of controller's cgroup, and the length of its hierarchy's
 * mount point (where the walk up stops): a v1 hierarchy of its own, or the
 * v2 one, mounted at /sys/fs/cgroup or beside v1's at /sys/fs/cgroup/unified
 */
static size_t cgroup_dir(const char *controller, char *dir, size_t len)
{
	char text[4096], probe[64], v2[512] = "", *line, *save = NULL;
	const char *base;
	bool have_v2 = false;

	if (read_root("/proc/self/cgroup", text, sizeof(text)))
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *ctrls = strchr(line, ':'), *path = ctrls ? strchr(ctrls + 1, ':') : NULL;
		char *w, *wsave = NULL;

		if (!path)
			continue;
		*path++ = '\0';
		if (!strcmp(path, "/"))
			path = "";
		if (!*++ctrls) {	/* "0::/path" */
			snprintf(v2, sizeof(v2), "%s", path);
			have_v2 = true;
			continue;
		}
		for (w = strtok_r(ctrls, ",", &wsave); w; w = strtok_r(NULL, ",", &wsave))
			if (!strcmp(w, controller)) {
				snprintf(dir, len, "/sys/fs/cgroup/%s%s", controller, path);
				return strlen("/sys/fs/cgroup/") + strlen(controller);
			}
	}
	if (!have_v2)
		return 0;
	base = read_root("/sys/fs/cgroup/cgroup.controllers", probe, sizeof(probe)) ?
	       "/sys/fs/cgroup/unified" : "/sys/fs/cgroup";
	snprintf(dir, len, "%s%s", base, v2);
	return strlen(base);
}

/*
 * The tightest of dir and its ancestors up to the mount point (base
 * bytes): the least room (limit less what is used, less what can be
 * reclaimed where stat_key names it in memory.stat) of those that set a
 * limit; false when none does
 */
static bool cgroup_room(char *dir, size_t base, const char *max_file, const char *cur_file,
			const char *stat_key, uint64_t *room, uint64_t *limit, char *at, size_t len)
{
	bool found = false;

	for (;;) {
		char path[700], text[4096];
		uint64_t max, cur, back = 0, r;

		snprintf(path, sizeof(path), "%s/%s", dir, max_file);
		max = read_number(path);
		/* v1's "no limit" is a page-rounded LONG_MAX; v2 says "max" */
		if (max != ZF_RES_NONE && max < (1ULL << 62)) {
			snprintf(path, sizeof(path), "%s/%s", dir, cur_file);
			cur = read_number(path);
			snprintf(path, sizeof(path), "%s/memory.stat", dir);
			if (stat_key && !read_root(path, text, sizeof(text)))
				back = keyed(text, stat_key);
			if (back == ZF_RES_NONE)
				back = 0;
			cur = cur == ZF_RES_NONE ? 0 : cur > back ? cur - back : 0;
			r = max > cur ? max - cur : 0;
			if (!found || r < *room) {
				*room = r;
				*limit = max;
				snprintf(at, len, "%s", dir);
			}
			found = true;
		}
		if (strlen(dir) <= base || !strrchr(dir, '/'))
			break;
		*strrchr(dir, '/') = '\0';
	}
	return found;
}

/* the tightest pids and memory cgroups this process is in: NONE where none sets a limit */
static void cgroups(struct zf_res_limits *l)
{
	char dir[600];
	size_t base;
	bool v1;

	base = cgroup_dir("pids", dir, sizeof(dir));
	if (base)
		cgroup_room(dir, base, "pids.max", "pids.current", NULL, &l->pids_free,
			    &l->pids_max, l->pids_cgroup, sizeof(l->pids_cgroup));
	base = cgroup_dir("memory", dir, sizeof(dir));
	if (!base)
		return;
	v1 = !strncmp(dir, "/sys/fs/cgroup/memory", 21);
	cgroup_room(dir, base, v1 ? "memory.limit_in_bytes" : "memory.max",
		    v1 ? "memory.usage_in_bytes" : "memory.current",
		    v1 ? "total_inactive_file" : "inactive_file", &l->cgroup_mem_free,
		    &l->cgroup_mem_max, l->mem_cgroup, sizeof(l->mem_cgroup));
}

/* a process's user address space: the CPU's own (4-level page tables), or RLIMIT_AS's */
static uint64_t address_space(void)
{
#if defined(__x86_64__)
	uint64_t cpu = 1ULL << 47;	/* mmap stays below 47 bits, 5-level paging too */
#elif defined(__aarch64__)
	uint64_t cpu = 1ULL << 48;
#else
	uint64_t cpu = ZF_RES_NONE;
#endif
	uint64_t as = rlimit_of(RLIMIT_AS, false);

	return as < cpu ? as : cpu;
}

void zf_res_read(struct zf_res_limits *l, bool count_user)
{
	char text[8192];
	unsigned long long alloc, unused, max, running, all;
	uint64_t kb;

	memset(l, 0, sizeof(*l));
	l->nofile_soft = rlimit_of(RLIMIT_NOFILE, false);
	l->nofile_hard = rlimit_of(RLIMIT_NOFILE, true);
	l->fds_open = fds_open();
	l->files_free = l->files_max = ZF_RES_NONE;
	if (!read_root("/proc/sys/fs/file-nr", text, sizeof(text)) &&
	    sscanf(text, "%llu %llu %llu", &alloc, &unused, &max) == 3) {
		l->files_max = max;
		l->files_free = max > alloc ? max - alloc : 0;
	}
	/* RLIMIT_NPROC binds no root (the kernel's CAP_SYS_RESOURCE and root user exemptions) */
	l->nproc = getuid() && geteuid() ? rlimit_of(RLIMIT_NPROC, false) : ZF_RES_NONE;
	l->user_tasks = count_user && l->nproc != ZF_RES_NONE ? user_tasks(getuid()) : 0;
	l->threads_max = read_number("/proc/sys/kernel/threads-max");
	l->pid_max = read_number("/proc/sys/kernel/pid_max");
	l->tasks_now = 0;
	if (!read_root("/proc/loadavg", text, sizeof(text)) &&
	    sscanf(text, "%*s %*s %*s %llu/%llu", &running, &all) == 2)
		l->tasks_now = all;
	l->pids_free = l->pids_max = ZF_RES_NONE;
	l->cgroup_mem_free = l->cgroup_mem_max = ZF_RES_NONE;
	cgroups(l);
	l->mem_available = ZF_RES_NONE;
	if (!read_root("/proc/meminfo", text, sizeof(text)) &&
	    (kb = keyed(text, "MemAvailable")) != ZF_RES_NONE)
		l->mem_available = kb * 1024;
	l->address_space = address_space();
}
