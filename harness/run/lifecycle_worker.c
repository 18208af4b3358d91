// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench detect --lifecycle`'s worker, P (see detect.h): a process that
 * owns SLOTS huge pages of one MADV_HUGEPAGE region and does to them what
 * it is told, one command at a time, answering each with what it saw.
 */
#define _GNU_SOURCE	/* mremap */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "detect.h"

#define HUGE_SIZE	(2UL << 20)
#define SLOTS		7	/* P's PMDs, one region */

static void op_failed(struct zf_fault_seen *seen)
{
	seen->err = -errno;
	seen->err_step = ZF_SEEN_OP;
}

/* a child of P: its view of the copied PMD, then munmap; to P through a pipe */
static void fork_child_unmaps(char *at, struct zf_fault_seen *seen)
{
	int fd[2];
	pid_t pid;

	if (pipe(fd)) {
		op_failed(seen);
		return;
	}
	pid = fork();
	if (!pid) {
		close(fd[0]);
		zf_fault_look(at, seen);
		if (!seen->err && munmap(at, HUGE_SIZE))
			op_failed(seen);
		_exit(write(fd[1], seen, sizeof(*seen)) == sizeof(*seen) ? 0 : 1);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], seen, sizeof(*seen)) != sizeof(*seen) || zf_reaped(pid)) {
		seen->err = -ECHILD;
		seen->err_step = ZF_SEEN_OP;
	}
	close(fd[0]);
}

static void worker(int cmd_fd, int reply_fd)
{
	size_t map_len, target_len;
	void *map, *target_map;
	char *region = zf_huge_region(SLOTS, &map, &map_len);
	/* where mremap moves a PMD: 2 MiB-aligned, reserved, away from the region */
	char *target = zf_huge_region(1, &target_map, &target_len), *moved = NULL;
	int map_err = region && target ? 0 : errno ? -errno : -ENOMEM;
	struct zf_fault_seen seen;
	struct zf_lc_cmd cmd;

	while (read(cmd_fd, &cmd, sizeof(cmd)) == sizeof(cmd)) {
		char *at = region ? region + cmd.slot * HUGE_SIZE : NULL;

		memset(&seen, 0, sizeof(seen));
		if (!region || !target) {
			seen.err = map_err;
			seen.err_step = ZF_SEEN_MAP;
		} else if (cmd.op == 'r') {
			(void)*(volatile char *)at;
			zf_fault_look(at, &seen);
		} else if (cmd.op == 'w') {
			*(volatile char *)at = 1;
			zf_fault_look(at, &seen);
		} else if (cmd.op == 'u') {
			if (munmap(at, HUGE_SIZE))
				op_failed(&seen);
		} else if (cmd.op == 'f') {
			fork_child_unmaps(at, &seen);
		} else if (cmd.op == 's') {
			/* the PMD splits; the rest of it is 4 KiB zero pages */
			if (madvise(at, 4096, MADV_DONTNEED))
				op_failed(&seen);
			else
				zf_fault_look(at + 4096, &seen);
		} else if (cmd.op == 'm') {
			moved = mremap(at, HUGE_SIZE, HUGE_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED,
				       target);
			if (moved == MAP_FAILED)
				op_failed(&seen);
			else
				zf_fault_look(moved, &seen);
		} else if (cmd.op == 'M') {
			if (!moved || moved == MAP_FAILED || munmap(moved, HUGE_SIZE))
				op_failed(&seen);
		}
		if (write(reply_fd, &seen, sizeof(seen)) != sizeof(seen))
			_exit(5);
	}
	_exit(0);	/* the rest of its PMDs go with the exit */
}

pid_t zf_lc_worker_start(int *cmd_fd, int *reply_fd)
{
	int cmd[2], reply[2];
	pid_t pid;

	if (pipe(cmd))
		return -errno;
	if (pipe(reply)) {
		close(cmd[0]);
		close(cmd[1]);
		return -errno;
	}
	pid = fork();
	if (!pid) {
		close(cmd[1]);
		close(reply[0]);
		worker(cmd[0], reply[1]);
	}
	close(cmd[0]);
	close(reply[1]);
	*cmd_fd = cmd[1];
	*reply_fd = reply[0];
	return pid < 0 ? -errno : pid;
}
