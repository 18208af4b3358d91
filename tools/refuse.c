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
 *   refuse perf_event_open EACCES -- hzfbench run ...
 *   refuse sched_setaffinity EPERM -- hzfbench run ...
 *   refuse mmap:4294967296 ENOMEM -- hzfbench run --size 4G ...
 */
#include <errno.h>
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
	{ "mbind", SYS_mbind },
	{ "openat", SYS_openat },
};

static const struct { const char *name; int err; } errnos[] = {
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "ENOMEM", ENOMEM }, { "EINVAL", EINVAL },
	{ "ENOSPC", ENOSPC }, { "EROFS", EROFS },
};

static int usage(void)
{
	fprintf(stderr, "usage: refuse SYSCALL[:LEN] ERRNO -- COMMAND [ARGS...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long len = 0;
	long nr = -1;
	int err = 0;
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
	if (nr < 0 || !err)
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
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		perror("refuse: seccomp");
		return 1;
	}
	execvp(argv[4], argv + 4);
	perror(argv[4]);
	return 127;
}
