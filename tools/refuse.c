// SPDX-License-Identifier: GPL-2.0
/*
 * refuse: run a command with the kernel refusing one system call, for the
 * fault-injection tests (tests/faults.sh). A seccomp filter makes SYSCALL
 * fail with ERRNO, in the command and every task it forks or clones; with
 * :LEN, only calls whose second argument (mmap's length) is exactly LEN, so
 * that the rest of the process (a sanitizer's shadow, malloc) maps as usual.
 * It is the real kernel saying no, not a stub: hzfbench sees what it would
 * see under a locked-down perf_event_paranoid, a cpuset that refuses the
 * binding, or an address space that cannot hold the region.
 *
 * With "stall" in place of ERRNO the call never returns: the filter hands
 * it to a listener (SECCOMP_RET_USER_NOTIF) that a forked keeper holds and
 * never answers, so the task sleeps in the kernel until it is killed, a
 * task stuck as a hung NFS read or a frozen cgroup would leave it. The
 * keeper goes when the command does.
 *
 *   refuse perf_event_open EACCES -- hzfbench run ...
 *   refuse perf_event_open EMFILE -- hzfbench run ...
 *   refuse sched_setaffinity EPERM -- hzfbench run ...
 *   refuse mmap:4294967296 ENOMEM -- hzfbench run --size 4G ...
 *   refuse munmap:8388608 stall -- hzfbench sweep --faults kernel --size 8M ...
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct { const char *name; long nr; } calls[] = {
	{ "perf_event_open", SYS_perf_event_open },
	{ "sched_setaffinity", SYS_sched_setaffinity },
	{ "mmap", SYS_mmap },
	{ "munmap", SYS_munmap },
	{ "mbind", SYS_mbind },
	{ "openat", SYS_openat },
};

static const struct { const char *name; int err; } errnos[] = {
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "ENOMEM", ENOMEM }, { "EINVAL", EINVAL },
	{ "ENOSPC", ENOSPC }, { "EROFS", EROFS }, { "EMFILE", EMFILE }, { "ENFILE", ENFILE },
};

static int usage(void)
{
	fprintf(stderr, "usage: refuse SYSCALL[:LEN] ERRNO|stall -- COMMAND [ARGS...]\n");
	return 2;
}

/*
 * the listener's keeper: holds the fd open, answers nothing, and leaves
 * when its parent (the command, after exec) is gone
 */
static void keep(int listener)
{
	pid_t parent = getppid();
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {	/* off the command's pipes: a caller reading them ends with it */
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	(void)listener;
	while (getppid() == parent)
		sleep(1);
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned long long len = 0;
	long nr = -1;
	int err = 0, stall, fd;
	size_t i;
	char *colon;

	if (argc < 5 || strcmp(argv[3], "--"))
		return usage();
	colon = strchr(argv[1], ':');
	if (colon) {
		*colon = '\0';
		len = strtoull(colon + 1, NULL, 0);
	}
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(argv[1], calls[i].name))
			nr = calls[i].nr;
	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(argv[2], errnos[i].name))
			err = errnos[i].err;
	stall = !strcmp(argv[2], "stall");
	if (nr < 0 || (!err && !stall))
		return usage();

	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)nr, 0, 7),
		/* without LEN every call is refused: straight to the refusal */
		BPF_STMT(BPF_JMP | BPF_JA, colon ? 0 : 5),
		/* the second argument's high word, then its low word, against LEN */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)(len >> 32), 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)len, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, stall ? SECCOMP_RET_USER_NOTIF :
			 SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    (fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			  stall ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &prog)) < 0) {
		perror("refuse: seccomp");
		return 1;
	}
	if (stall) {	/* the listener is close-on-exec: the keeper's copy holds it */
		pid_t pid = fork();

		if (pid < 0) {
			perror("refuse: fork");
			return 1;
		}
		if (!pid)
			keep(fd);
	}
	execvp(argv[4], argv + 4);
	perror(argv[4]);
	return 127;
}
