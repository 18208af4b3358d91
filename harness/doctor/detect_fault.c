// SPDX-License-Identifier: GPL-2.0
/*
 * detect's faults and their evidence (see detect.h): the processes that
 * fault, what each saw in its pagemap and kpageflags, the THP counters of
 * /proc/vmstat and whether our own faults explain how they moved.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "detect.h"
#include "kcheck.h"
#include "sysinfo.h"

#define HUGE_SIZE	(2UL << 20)

int zf_thp_vmstat_parse(const char *text, struct zf_thp_vmstat *v, const char **missing)
{
	static const struct { const char *name; size_t off; } counters[] = {
		{ "thp_zero_page_alloc", offsetof(struct zf_thp_vmstat, zero_alloc) },
		{ "thp_zero_page_alloc_failed", offsetof(struct zf_thp_vmstat, zero_alloc_failed) },
		{ "thp_fault_fallback", offsetof(struct zf_thp_vmstat, fault_fallback) },
		{ "thp_fault_alloc", offsetof(struct zf_thp_vmstat, fault_alloc) },
	};
	size_t i;

	v->split_pmd = 0;
	v->has_split_pmd = !zf_vmstat_value(text, "thp_split_pmd", &v->split_pmd);
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		uint64_t *value = (uint64_t *)((char *)v + counters[i].off);

		if (zf_vmstat_value(text, counters[i].name, value)) {
			if (missing)
				*missing = counters[i].name;
			return -ENOENT;
		}
	}
	return 0;
}

int zf_thp_vmstat_read(struct zf_thp_vmstat *v, const char **missing)
{
	char text[32768];
	int err = zf_read_file("/proc/vmstat", text, sizeof(text));

	if (err) {
		if (missing)
			*missing = "/proc/vmstat";
		return err;
	}
	return zf_thp_vmstat_parse(text, v, missing);
}

int zf_thp_explained(const struct zf_thp_vmstat *before, const struct zf_thp_vmstat *after,
		     const struct zf_thp_own *own, char *why, size_t len)
{
	uint64_t zero = after->zero_alloc - before->zero_alloc;
	uint64_t failed = after->zero_alloc_failed - before->zero_alloc_failed;
	uint64_t fallback = after->fault_fallback - before->fault_fallback;
	uint64_t thp = after->fault_alloc - before->fault_alloc;
	uint64_t split = after->split_pmd - before->split_pmd;

	if (fallback)
		snprintf(why, len, "thp_fault_fallback +%" PRIu64 ": a huge-page fault fell back "
			 "to 4 KiB pages", fallback);
	else if (failed)
		snprintf(why, len, "thp_zero_page_alloc_failed +%" PRIu64 ": the huge zero folio "
			 "could not be allocated", failed);
	else if (zero > own->zero_allocs)
		snprintf(why, len, "thp_zero_page_alloc +%" PRIu64 ", more than our faults explain "
			 "(%" PRIu64 " at most): another process faulted meanwhile", zero,
			 own->zero_allocs);
	else if (thp != own->fault_allocs)
		snprintf(why, len, "thp_fault_alloc +%" PRIu64 " where our faults allocated %" PRIu64
			 ": another process took huge-page faults meanwhile", thp, own->fault_allocs);
	else if (after->has_split_pmd && split != own->splits)
		snprintf(why, len, "thp_split_pmd +%" PRIu64 " where we split %" PRIu64
			 ": another process's huge PMDs were split meanwhile", split, own->splits);
	else
		return 0;
	return -EAGAIN;
}

void zf_fault_look(const void *addr, struct zf_fault_seen *s)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t pfn;

	s->kpageflags = 0;
	if (fd < 0 || pread(fd, &s->pagemap, 8, (off_t)((uintptr_t)addr / page) * 8) != 8) {
		s->err = fd < 0 ? -errno : -EIO;
		s->err_step = ZF_SEEN_PAGEMAP;
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	pfn = s->pagemap & ZF_PM_PFN_MASK;
	if (!(s->pagemap & ZF_PM_PRESENT) || !pfn)
		return;
	s->err = zf_kpageflags_read("", pfn, &s->kpageflags);
	if (s->err)
		s->err_step = ZF_SEEN_KPAGEFLAGS;
}

void zf_seen_describe(const struct zf_fault_seen *s, char *buf, size_t len)
{
	uint64_t pfn = s->pagemap & ZF_PM_PFN_MASK;
	bool zero = s->kpageflags >> ZF_KPF_ZERO_PAGE & 1, thp = s->kpageflags >> ZF_KPF_THP & 1;

	if (!(s->pagemap & ZF_PM_PRESENT))
		snprintf(buf, len, "not present");
	else if (!pfn)
		snprintf(buf, len, "present, PFN hidden");
	else
		snprintf(buf, len, "PFN %#" PRIx64 ": %s", pfn,
			 zero && thp ? "zero page, THP (the huge zero folio)" :
			 zero ? "zero page, not THP (the 4 KiB zero page)" :
			 thp ? "THP, not zero page (a huge page of its own)" :
			 "neither zero page nor THP (a 4 KiB page of its own)");
}

int zf_seen_huge_zero(const struct zf_fault_seen *s, uint64_t *pfn, char *why, size_t len)
{
	static const char *const steps[] = {
		[ZF_SEEN_MAP] = "a 2 MiB MADV_HUGEPAGE region",
		[ZF_SEEN_PAGEMAP] = "/proc/self/pagemap",
		[ZF_SEEN_KPAGEFLAGS] = "/proc/kpageflags",
		[ZF_SEEN_OP] = "the step's system call",
	};
	char seen[128];

	if (s->err) {
		snprintf(why, len, "%s: %s", s->err_step > 0 && s->err_step <= ZF_SEEN_OP ?
			 steps[s->err_step] : "the faulting process", strerror(-s->err));
		return 0;
	}
	*pfn = s->pagemap & ZF_PM_PFN_MASK;
	if ((s->pagemap & ZF_PM_PRESENT) && *pfn && zf_kpageflags_huge_zero(s->kpageflags))
		return 1;
	zf_seen_describe(s, seen, sizeof(seen));
	snprintf(why, len, "pagemap shows no huge zero folio at the faulted address: %s%s", seen,
		 (s->pagemap & ZF_PM_PRESENT) && !*pfn ? " (reading PFNs takes CAP_SYS_ADMIN)" : "");
	return 0;
}

void zf_thp_pmd_note(char *why, size_t len)
{
	char path[512], text[64], mode[32];
	size_t used = strlen(why);

	snprintf(path, sizeof(path), "%s/hugepages-%lukB/enabled", zf_thp_dir(), HUGE_SIZE >> 10);
	/* where the fault's own evidence said it was no huge one */
	if (!strstr(why, "pagemap shows") || zf_read_file(path, text, sizeof(text)))
		return;	/* no per-size knob before 6.8 */
	zf_sysfs_choice(text, mode, sizeof(mode));
	if (!strcmp(mode, "never") && used < len)
		snprintf(why + used, len - used, " (%s is never: no fault maps a 2 MiB page, "
			 "whatever %s/enabled says)", path, zf_thp_dir());
}

int zf_drop_slab(void)
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

char *zf_huge_region(size_t pmds, void **map, size_t *map_len)
{
	char *base, *region;

	*map_len = (pmds + 1) * HUGE_SIZE;
	base = mmap(NULL, *map_len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	region = base + (HUGE_SIZE - (uintptr_t)base % HUGE_SIZE) % HUGE_SIZE;
	if (madvise(region, pmds * HUGE_SIZE, MADV_HUGEPAGE)) {
		int err = errno;

		munmap(base, *map_len);
		errno = err;
		return NULL;
	}
	*map = base;
	return region;
}

/* one huge-page read fault in a fresh region, looked at, then munmap unless kept */
static void fault_once(struct zf_fault_seen *s, bool keep)
{
	size_t map_len;
	void *map;
	char *region = zf_huge_region(1, &map, &map_len);

	memset(s, 0, sizeof(*s));
	if (!region) {
		s->err = -errno;
		s->err_step = ZF_SEEN_MAP;
		return;
	}
	(void)*(volatile char *)region;
	zf_fault_look(region, s);
	if (!keep)
		munmap(map, map_len);
}

static pid_t faulter(int report_fd, int hold_fd, int hold_other, bool keep)
{
	struct zf_fault_seen seen;
	pid_t pid = fork();
	char c;

	if (pid)
		return pid < 0 ? -errno : pid;
	if (hold_other >= 0)
		close(hold_other);
	fault_once(&seen, keep);
	if (report_fd >= 0 && write(report_fd, &seen, sizeof(seen)) != sizeof(seen))
		_exit(5);
	if (hold_fd >= 0 && read(hold_fd, &c, 1) < 0)
		_exit(6);
	_exit(0);
}

pid_t zf_faulter(int report_fd, int hold_fd, int hold_other)
{
	return faulter(report_fd, hold_fd, hold_other, false);
}

pid_t zf_holder_start(struct zf_fault_seen *seen, int *hold_fd)
{
	int report[2], hold[2];
	pid_t pid;

	if (pipe(report))
		return -errno;
	if (pipe(hold)) {
		pid = -errno;
		close(report[0]);
		close(report[1]);
		return pid;
	}
	pid = faulter(report[1], hold[0], hold[1], true);
	close(report[1]);
	close(hold[0]);
	if (pid > 0 && read(report[0], seen, sizeof(*seen)) != sizeof(*seen)) {
		close(hold[1]);
		zf_reaped(pid);
		pid = -EIO;
	}
	close(report[0]);
	if (pid > 0)
		*hold_fd = hold[1];
	else
		close(hold[1]);
	return pid;
}

int zf_reaped(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status) ?
	       0 : -ECHILD;
}

int zf_fault_elsewhere(struct zf_fault_seen *seen)
{
	int fd[2], err;
	pid_t pid;

	if (pipe(fd))
		return -errno;
	pid = zf_faulter(fd[1], -1, -1);
	close(fd[1]);
	err = pid < 0 ? (int)pid : read(fd[0], seen, sizeof(*seen)) == sizeof(*seen) ? 0 : -EIO;
	close(fd[0]);
	if (pid > 0 && zf_reaped(pid) && !err)
		err = -ECHILD;
	return err;
}
