// SPDX-License-Identifier: GPL-2.0
/* `hzfbench detect --behaviour`: see detect.h. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "detect.h"
#include "kcheck.h"
#include "parse.h"
#include "sysinfo.h"

static const char detect_usage[] =
"usage: hzfbench detect --behaviour --allow-drop-caches\n"
"  Tell how the running kernel counts the huge zero folio from what it does:\n"
"  a first process faults a huge zero page, unmaps it and stays alive; caches\n"
"  are dropped (the shrinker frees a folio nobody holds); a second process\n"
"  faults: a new allocation (/proc/vmstat thp_zero_page_alloc) means global.\n"
"  Then the first exits, caches are dropped, a third faults: a new allocation\n"
"  means mmflag, none persistent. Another process on the machine holding the\n"
"  folio meanwhile makes mmflag look persistent: run it on a quiet machine.\n"
"  --allow-drop-caches  let it write 2 to /proc/sys/vm/drop_caches (frees every\n"
"                       unused slab object of the machine, twice): required\n";

const char *zf_detect_decide(const struct zf_detect_counts *c, char *why, size_t len)
{
	const char *verdict = c->second > c->first ? "global" :
			      c->third > c->second ? "mmflag" : "persistent";

	snprintf(why, len, "thp_zero_page_alloc %llu at the start; +%llu at the first fault, "
		 "+%llu at the second (first still alive), +%llu at the third (first exited)",
		 (unsigned long long)c->start, (unsigned long long)(c->first - c->start),
		 (unsigned long long)(c->second - c->first),
		 (unsigned long long)(c->third - c->second));
	return verdict;
}

static int zero_allocs(uint64_t *v)
{
	struct zf_vmstat vm;
	int err = zf_vmstat_read(&vm);

	if (!err)
		*v = vm.thp_zero_page_alloc;
	return err;
}

/* one huge-page read fault in a fresh madvised region, then munmap */
static void fault_once(void)
{
	const size_t huge = 2UL << 20;
	char *map = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), *region;

	if (map == MAP_FAILED)
		_exit(3);
	region = map + (huge - (uintptr_t)map % huge) % huge;
	if (madvise(region, huge, MADV_HUGEPAGE))
		_exit(4);
	(void)*(volatile char *)region;
	munmap(map, 2 * huge);
}

/*
 * A process that faults once; with hold, it then waits until told to exit:
 * hold_fd reads end of file once every copy of the pipe's other end,
 * hold_other, is closed, its own copy first.
 */
static pid_t faulter(int ready_fd, int hold_fd, int hold_other)
{
	pid_t pid = fork();
	char c = 0;

	if (pid)
		return pid;
	if (hold_other >= 0)
		close(hold_other);
	fault_once();
	if (ready_fd >= 0 && write(ready_fd, &c, 1) != 1)
		_exit(5);
	if (hold_fd >= 0 && read(hold_fd, &c, 1) < 0)
		_exit(6);
	_exit(0);
}

static int reaped(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status) ?
	       0 : -ECHILD;
}

/* the slab shrinkers, the huge zero folio's among them */
static int drop_slab(void)
{
	FILE *f = fopen("/proc/sys/vm/drop_caches", "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs("2\n", f) == EOF)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * zf_huge_zero_probe() in a child: a fault of this process's own would tie
 * the folio to its mm under mmflag, and the third fault would find it held
 */
static int probe_elsewhere(char *why, size_t len)
{
	int fd[2], status, mapped = -EIO;
	ssize_t n;
	pid_t pid;

	snprintf(why, len, "the probe's process failed");
	if (pipe(fd))
		return -errno;
	pid = fork();
	if (!pid) {
		char text[512];
		int r = zf_huge_zero_probe(text, sizeof(text));

		close(fd[0]);
		if (write(fd[1], text, strlen(text) + 1) < 0)
			_exit(3);
		_exit(r > 0 ? 0 : r == 0 ? 1 : 2);
	}
	close(fd[1]);
	n = pid > 0 ? read(fd[0], why, len - 1) : -1;
	if (n > 0)
		why[n] = '\0';
	close(fd[0]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		mapped = WEXITSTATUS(status) == 0 ? 1 : WEXITSTATUS(status) == 1 ? 0 : -EIO;
	return mapped;
}

/* caches dropped, one fault by a new process, and the allocations so far */
static int drop_then_fault(uint64_t *allocs)
{
	int err = drop_slab();
	pid_t pid;

	if (err)
		return err;
	pid = faulter(-1, -1, -1);
	err = pid < 0 ? -errno : reaped(pid);
	return err ? err : zero_allocs(allocs);
}

static int behaviour(void)
{
	struct zf_detect_counts c = { 0 };
	int ready[2], hold[2], err;
	char why[512], x;
	struct zf_sysinfo si;
	pid_t first;

	zf_sysinfo_read(&si);
	if (zf_thp_usable(&si, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: detect: cannot tell: %s\n", why);
		return 1;
	}
	if (probe_elsewhere(why, sizeof(why)) <= 0) {
		fprintf(stderr, "hzfbench: detect: cannot tell: %s\n", why);
		return 1;
	}
	if (pipe(ready) || pipe(hold)) {
		fprintf(stderr, "hzfbench: detect: pipe: %s\n", strerror(errno));
		return 1;
	}
	err = zero_allocs(&c.start);
	first = err ? -1 : faulter(ready[1], hold[0], hold[1]);
	if (first < 0 || read(ready[0], &x, 1) != 1 || zero_allocs(&c.first)) {
		fprintf(stderr, "hzfbench: detect: the first process: %s\n",
			err ? "/proc/vmstat has no thp_zero_page_alloc" : "did not fault");
		if (first > 0)
			kill(first, SIGKILL);
		return 1;
	}
	err = drop_then_fault(&c.second);
	close(hold[1]);	/* the first exits */
	if (reaped(first) && !err)
		err = -ECHILD;
	if (!err)
		err = drop_then_fault(&c.third);
	if (err) {
		fprintf(stderr, "hzfbench: detect: %s\n", err == -ECHILD ? "a faulting process failed" :
			strerror(-err));
		return 1;
	}
	printf("%s\n", zf_detect_decide(&c, why, sizeof(why)));
	printf("  %s\n  the kernel's config says: %s (CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=%s, %s)\n",
	       why, si.kernel_strategy, si.persistent_huge_zero_folio, si.kernel_release);
	return 0;
}

int zf_detect_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "behaviour", no_argument, NULL, 'b' }, { "behavior", no_argument, NULL, 'b' },
		{ "allow-drop-caches", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	bool behave = false, allow = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': behave = true; break;
		case 'a': allow = true; break;
		case 'h': printf("%s", detect_usage); return 0;
		default: return zf_opt_unknown("detect", argv);
		}
	}
	if (zf_opt_no_operands("detect", argc, argv))
		return 2;
	if (!behave) {
		fprintf(stderr, "hzfbench: detect: --behaviour is needed (the one way it detects; "
			"hzfbench detect --help)\n");
		return 2;
	}
	if (!allow) {
		fprintf(stderr, "hzfbench: detect: --allow-drop-caches is needed: telling the "
			"strategies apart takes the shrinker freeing an unused huge zero folio, "
			"which writing 2 to /proc/sys/vm/drop_caches does (for every unused slab "
			"object of the machine, twice)\n");
		return 2;
	}
	return behaviour();
}
