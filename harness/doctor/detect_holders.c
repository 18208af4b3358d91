// SPDX-License-Identifier: GPL-2.0
/*
 * The processes that map the huge zero folio (see detect.h). A huge zero
 * PMD reads in /proc/PID/pagemap as a present entry whose PFN is the
 * folio's (pagemap_pmd_range_thp()), and /proc/kpageflags says which PFN
 * that is (KPF_ZERO_PAGE and KPF_THP: is_huge_zero_pfn()). smaps is no
 * help: it counts a huge zero PMD nowhere (vm_normal_page_pmd() has no page
 * for it), so a process whose pagemap cannot be read could hide a holder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"
#include "sysinfo.h"

#define HUGE_SIZE	(2UL << 20)

int zf_kpageflags_read(const char *root, uint64_t pfn, uint64_t *flags)
{
	char path[512];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/proc/kpageflags", root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, flags, 8, (off_t)pfn * 8) != 8)
		err = -EIO;
	close(fd);
	return err;
}

bool zf_kpageflags_huge_zero(uint64_t flags)
{
	return (flags >> ZF_KPF_ZERO_PAGE & 1) && (flags >> ZF_KPF_THP & 1);
}

/* what one process's scan found; the folio's PFN once known, to spare kpageflags */
struct holder_scan {
	const char *root;
	uint64_t folio_pfn;
	struct zf_holder *holders;
	int n, cap;
	struct zf_unreadable *unread;
};

static int add_holder(struct holder_scan *s, pid_t pid, uint64_t addr, uint64_t pfn)
{
	struct zf_holder *h;

	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 4;

		h = realloc(s->holders, (size_t)cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		s->holders = h;
		s->cap = cap;
	}
	h = &s->holders[s->n++];
	memset(h, 0, sizeof(*h));
	h->pid = pid;
	h->addr = addr;
	h->pfn = pfn;
	return 0;
}

/* is the pagemap entry at addr a huge zero PMD? 1, 0, or -errno */
static int entry_huge_zero(struct holder_scan *s, int pagemap, uint64_t addr, uint64_t *pfn)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t entry, flags;
	ssize_t n = pread(pagemap, &entry, 8, (off_t)(addr / (uint64_t)page) * 8);
	int err;

	if (n == 0)
		return 0;	/* past the end: a kernel thread's, or the mm gone */
	if (n != 8)
		return n < 0 ? -errno : -EIO;
	*pfn = entry & ZF_PM_PFN_MASK;
	if (!(entry & ZF_PM_PRESENT))
		return 0;
	if (!*pfn)
		return -EPERM;	/* PFNs hidden: it takes CAP_SYS_ADMIN */
	/* a huge PMD maps a 2 MiB-aligned folio from its first page */
	if (*pfn % (HUGE_SIZE / (uint64_t)page))
		return 0;
	if (s->folio_pfn && *pfn == s->folio_pfn)
		return 1;
	err = zf_kpageflags_read(s->root, *pfn, &flags);
	if (err)
		return err;
	if (!zf_kpageflags_huge_zero(flags))
		return 0;
	s->folio_pfn = *pfn;
	return 1;
}

/* one mapping's 2 MiB-aligned 2 MiBs in pid's pagemap: 1 at a huge zero PMD (*at), 0, -errno */
static int scan_mapping(struct holder_scan *s, int pagemap, uint64_t start, uint64_t end,
			uint64_t *at, uint64_t *pfn)
{
	uint64_t addr = (start + HUGE_SIZE - 1) & ~(uint64_t)(HUGE_SIZE - 1);
	int found = 0;

	for (; !found && addr + HUGE_SIZE <= end; addr += HUGE_SIZE) {
		found = entry_huge_zero(s, pagemap, addr, pfn);
		*at = addr;
	}
	return found;
}

static void read_comm(const char *root, struct zf_holder *h)
{
	char path[512];
	size_t n;

	snprintf(path, sizeof(path), "%s/proc/%d/comm", root, (int)h->pid);
	if (zf_read_file(path, h->comm, sizeof(h->comm)))
		snprintf(h->comm, sizeof(h->comm), "?");
	n = strcspn(h->comm, "\n");
	h->comm[n] = '\0';
}

/* pid's mappings (ROOT/proc/PID/maps) through its pagemap: 1 when it holds the folio, 0, -errno */
static int scan_process(struct holder_scan *s, pid_t pid, char *why, size_t len)
{
	char path[512], line[1024];
	const char *step = "maps";
	int pagemap = -1, found = 0, err = 0;
	uint64_t start, end, at = 0, pfn = 0;
	FILE *maps;

	snprintf(path, sizeof(path), "%s/proc/%d/maps", s->root, (int)pid);
	maps = fopen(path, "re");
	if (!maps) {
		err = -errno;
		goto out;
	}
	step = "pagemap";
	snprintf(path, sizeof(path), "%s/proc/%d/pagemap", s->root, (int)pid);
	pagemap = open(path, O_RDONLY | O_CLOEXEC);
	if (pagemap < 0)
		err = -errno;
	while (!found && !err && fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) != 2)
			continue;
		found = scan_mapping(s, pagemap, start, end, &at, &pfn);
		err = found < 0 ? found : 0;
	}
	if (found > 0)
		err = add_holder(s, pid, at, pfn);
out:
	if (pagemap >= 0)
		close(pagemap);
	if (maps)
		fclose(maps);
	if (err == -ENOENT || err == -ESRCH)
		return 0;	/* it exited meanwhile */
	if (err == -EACCES) {	/* closed to us: it could hide a holder, counted */
		if (!s->unread->n++ || pid < s->unread->first_pid) {
			struct zf_holder h = { .pid = pid };

			s->unread->first_pid = pid;
			read_comm(s->root, &h);
			snprintf(s->unread->first, sizeof(s->unread->first), "%d (%s): /proc/%d/%s: "
				 "%s", (int)pid, h.comm, (int)pid, step, strerror(EACCES));
		}
		return 0;
	}
	if (err)
		snprintf(why, len, "%d: /proc/%d/%s: %s%s", (int)pid, (int)pid, step, strerror(-err),
			 err == -EPERM ? " (reading PFNs takes CAP_SYS_ADMIN)" : "");
	return err ? err : found > 0;
}

static int by_pid(const void *a, const void *b)
{
	const struct zf_holder *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

int zf_huge_zero_holders(const char *root, struct zf_holder **holders,
			 struct zf_unreadable *unread, char *why, size_t len)
{
	struct holder_scan s = { .root = root, .unread = unread };
	char path[512];
	struct dirent *d;
	int i, err = 0;
	DIR *proc;

	*holders = NULL;
	memset(unread, 0, sizeof(*unread));
	snprintf(path, sizeof(path), "%s/proc", root);
	proc = opendir(path);
	if (!proc) {
		err = -errno;
		snprintf(why, len, "%s: %s", path, strerror(-err));
		return err;
	}
	while (!err && (d = readdir(proc))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		err = scan_process(&s, (pid_t)pid, why, len);
		err = err < 0 ? err : 0;
	}
	closedir(proc);
	if (err) {
		free(s.holders);
		return err;
	}
	if (s.n)
		qsort(s.holders, (size_t)s.n, sizeof(*s.holders), by_pid);
	for (i = 0; i < s.n; i++)
		read_comm(root, &s.holders[i]);
	*holders = s.holders;
	return s.n;
}

void zf_holders_describe(const struct zf_holder *h, int n, char *buf, size_t len)
{
	size_t used = 0;
	int i, named = n < 4 ? n : 3;

	buf[0] = '\0';
	if (n <= 0)
		return;
	for (i = 0; i < named && used < len; i++) {
		snprintf(buf + used, len - used, "%s%d (%s)", !i ? "" : i == n - 1 ? " and " : ", ",
			 (int)h[i].pid, h[i].comm);
		used = strlen(buf);
	}
	if (n > named && used < len)
		snprintf(buf + used, len - used, " and %d more", n - named);
	used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, " map%s the huge zero folio (PFN %#" PRIx64 " at %#"
			 PRIx64 "%s)", n == 1 ? "s" : "", h[0].pfn, h[0].addr,
			 n == 1 ? "" : " in the first");
}

int zf_detect_holders_check(const char *root, struct zf_unreadable *unread, char *why,
			    size_t len)
{
	struct zf_holder *h;
	char seen[384];
	int n = zf_huge_zero_holders(root, &h, unread, seen, sizeof(seen));

	if (n < 0) {
		snprintf(why, len, "a process that could hold the huge zero folio: %s", seen);
		return n;
	}
	if (n && h)
		zf_holders_describe(h, n, why, len);
	free(h);
	return n;
}

const char *zf_detect_unread_verdict(const char *verdict, const struct zf_unreadable *u,
				     char *why, size_t len)
{
	size_t used = strlen(why);

	if (!verdict || !u->n)
		return verdict;
	if (!strcmp(verdict, "persistent")) {
		snprintf(why, len, "persistent's evidence is that no fault allocated the folio, "
			 "which a holder we cannot see would cause too: %s%s", u->first,
			 u->n > 1 ? " (and more)" : "");
		return NULL;
	}
	if (used < len)
		snprintf(why + used, len - used, "; %d process%s could not be read (%s): %s would "
			 "have kept the folio alive, yet a fault allocated it", u->n,
			 u->n == 1 ? "" : "es", u->first,
			 u->n == 1 ? "had it held the folio, it" : "a holder among them");
	return verdict;
}
