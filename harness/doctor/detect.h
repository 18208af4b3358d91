/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench detect`: how the running kernel counts the huge zero folio,
 * told from what it does rather than from its config.
 *
 * --behaviour: three processes fault one huge zero page each, with caches
 * dropped between them (the shrinker frees a folio nobody holds), and
 * /proc/vmstat's thp_zero_page_alloc says when a fault had to allocate it
 * again. --lifecycle (lifecycle.c): the folio's life through read faults,
 * COW, fork, split, mremap, munmap and exit, checked against a strategy.
 *
 * Every fault is checked: the faulting process reads its own pagemap and
 * the PFN's kpageflags (the huge zero folio is KPF_ZERO_PAGE and KPF_THP),
 * and the THP counters around it must move by what its own faults explain.
 * Anything else is "cannot tell", never a verdict.
 */
#ifndef HZF_DETECT_H
#define HZF_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* the /proc/vmstat counters detect watches, read at one moment */
struct zf_thp_vmstat {
	uint64_t zero_alloc;		/* thp_zero_page_alloc: the huge zero folio allocated */
	uint64_t zero_alloc_failed;	/* thp_zero_page_alloc_failed: that allocation failed */
	uint64_t fault_fallback;	/* thp_fault_fallback: a huge fault fell back to 4 KiB */
	uint64_t fault_alloc;		/* thp_fault_alloc: a huge fault got a THP of its own */
	uint64_t split_pmd;		/* thp_split_pmd: a huge PMD split into PTEs */
	bool has_split_pmd;		/* 4.5+: before, splits go uncounted here */
};

/*
 * the counters from /proc/vmstat text; -ENOENT when one is missing (its name
 * in *missing), but for thp_split_pmd, which kernels before 4.5 lack
 */
int zf_thp_vmstat_parse(const char *text, struct zf_thp_vmstat *v, const char **missing);
int zf_thp_vmstat_read(struct zf_thp_vmstat *v, const char **missing);

/*
 * What the counters may do between two reads: fault_alloc and split_pmd
 * move by exactly what our own faults did, the folio is allocated at most
 * zero_allocs times, nothing falls back or fails. 0, or -EAGAIN and why.
 */
struct zf_thp_own {
	uint64_t zero_allocs;	/* the most allocations of the folio our faults can cause */
	uint64_t fault_allocs;	/* THPs our writes allocated (COW of a huge zero PMD) */
	uint64_t splits;	/* huge PMDs we split */
};
int zf_thp_explained(const struct zf_thp_vmstat *before, const struct zf_thp_vmstat *after,
		     const struct zf_thp_own *own, char *why, size_t len);

/* what a process saw at one address of its own: pagemap and kpageflags */
struct zf_fault_seen {
	int err;		/* 0, or -errno: the region, the fault or the reading failed */
	int err_step;		/* which: ZF_SEEN_* */
	uint64_t pagemap;	/* /proc/self/pagemap's entry */
	uint64_t kpageflags;	/* /proc/kpageflags of its PFN; 0 when none */
};
enum { ZF_SEEN_MAP = 1, ZF_SEEN_PAGEMAP, ZF_SEEN_KPAGEFLAGS, ZF_SEEN_OP };

/* Documentation/admin-guide/mm/pagemap.rst */
#define ZF_PM_PRESENT		(1ULL << 63)
#define ZF_PM_PFN_MASK		((1ULL << 55) - 1)
#define ZF_KPF_THP		22
#define ZF_KPF_ZERO_PAGE	24

/* ROOT/proc/kpageflags at pfn into *flags (ROOT "" for this machine); 0 or -errno */
int zf_kpageflags_read(const char *root, uint64_t pfn, uint64_t *flags);
/* do kpageflags show the huge zero folio (KPF_ZERO_PAGE and KPF_THP)? */
bool zf_kpageflags_huge_zero(uint64_t flags);

/*
 * A process that maps the huge zero folio: a huge zero PMD in its
 * /proc/PID/pagemap (the PFN kpageflags shows as the folio), which keeps
 * it alive under every strategy and so would make detect see a kernel
 * that never frees it.
 */
struct zf_holder {
	pid_t pid;
	char comm[32];		/* /proc/PID/comm */
	uint64_t addr;		/* the first huge zero PMD found, and its PFN */
	uint64_t pfn;
};
/*
 * The processes whose maps or pagemap would not open to us (EACCES: a
 * sandbox's own, another namespace's): each could map the folio unseen.
 * How many, and the lowest-numbered of them, named.
 */
struct zf_unreadable {
	int n;
	pid_t first_pid;	/* the lowest of them */
	char first[192];	/* "1 (init): /proc/1/maps: Permission denied" */
};
/*
 * Every process under ROOT/proc that maps the huge zero folio, in
 * *holders (free() it): each 2 MiB-aligned 2 MiB that one of its mappings
 * (maps) holds whole, looked up in its pagemap. A process whose maps or
 * pagemap is closed to us (EACCES) is counted in *unread (smaps is no
 * help: it counts a huge zero PMD nowhere). The count, or -errno and why
 * for a process that could not be read otherwise or whose PFNs are hidden.
 */
int zf_huge_zero_holders(const char *root, struct zf_holder **holders,
			 struct zf_unreadable *unread, char *why, size_t len);
/* "812 (sh) maps the huge zero folio (PFN 0x3000 at 0x40000000)", several named */
void zf_holders_describe(const struct zf_holder *h, int n, char *buf, size_t len);
/*
 * detect's check: 0 when no process under ROOT that could be read maps the
 * folio (those that could not, in *unread); else the number that do, or
 * -errno, and why (zf_holders_describe's line)
 */
int zf_detect_holders_check(const char *root, struct zf_unreadable *unread, char *why,
			    size_t len);
/*
 * A verdict where some processes could not be read: an allocation the
 * steps counted shows that none held the folio then, so global and mmflag
 * stand (why gains a note); persistent rests on no allocation, which a
 * hidden holder would cause too: NULL, and why names the process.
 */
const char *zf_detect_unread_verdict(const char *verdict, const struct zf_unreadable *u,
				     char *why, size_t len);

/* read pagemap and kpageflags for addr in this process */
void zf_fault_look(const void *addr, struct zf_fault_seen *s);
/* a few words for what s shows ("PFN 0x1e00: zero page, THP") */
void zf_seen_describe(const struct zf_fault_seen *s, char *buf, size_t len);
/* 1 when s shows the huge zero folio (its PFN in *pfn); 0 and why when not */
int zf_seen_huge_zero(const struct zf_fault_seen *s, uint64_t *pfn, char *why, size_t len);

/* to a why that pagemap showed no huge fault, a note when THP's 2 MiB size is never (6.8+) */
void zf_thp_pmd_note(char *why, size_t len);
/* the slab shrinkers, the huge zero folio's among them: 2 > drop_caches */
int zf_drop_slab(void);
/* 2 MiB-aligned, MADV_HUGEPAGE: pmds huge pages of anonymous memory; NULL and errno */
char *zf_huge_region(size_t pmds, void **map, size_t *map_len);
/*
 * A process that read-faults one huge page of a new region, looks at it
 * (zf_fault_look), unmaps it and writes what it saw to report_fd; with
 * hold_fd >= 0 it then waits until that reads end of file (every copy of
 * hold_other closed) before it exits. The pid, or -errno.
 */
pid_t zf_faulter(int report_fd, int hold_fd, int hold_other);
/*
 * --holder: a process that read-faults one huge page and keeps it mapped
 * (what it saw in *seen) until *hold_fd is closed. The pid, or -errno.
 */
pid_t zf_holder_start(struct zf_fault_seen *seen, int *hold_fd);
/* 0 when pid exited 0 */
int zf_reaped(pid_t pid);
/* a fresh process's fault, start to end: its report in *seen; 0 or -errno */
int zf_fault_elsewhere(struct zf_fault_seen *seen);

/* --behaviour: the counters at each step and what each fault saw */
struct zf_detect_counts {
	/*
	 * at[0] no process mapping the folio, caches dropped; at[1] after the
	 * first process's fault (it unmapped, stays alive); at[2] caches
	 * dropped, then a second process's fault; at[3] the first exited,
	 * caches dropped, a third process's fault
	 */
	struct zf_thp_vmstat at[4];
	struct zf_fault_seen seen[3];
	/*
	 * between the last drop and the third fault: kpageflags at the PFN the
	 * second fault saw (the folio still there, or freed), or why not read
	 */
	uint64_t exited_flags;
	int exited_err;
};

/*
 * The decision: "global" when the second fault allocated (the folio was
 * freed while an mm that had used it lived: counted per mapping), else
 * "mmflag" when the third did (freed once that mm exited), else
 * "persistent" on its own evidence: no fault allocated, not even the
 * first after a drop with no process mapping it, and after the first
 * exited and caches were dropped its PFN was still the huge zero folio
 * and the third fault mapped it there. why says what each step saw. NULL
 * when it cannot tell (a fault not shown mapping the huge zero folio, a
 * fallback, a failed allocation, counters our faults do not explain, the
 * folio's PFN changing with no allocation, a folio the kernel frees that
 * outlived every mm of ours, kpageflags at odds with the counters): why
 * says why.
 */
const char *zf_detect_decide(const struct zf_detect_counts *c, char *why, size_t len);
/* does a verdict disagree with the config's strategy (known, and another)? */
bool zf_detect_disagrees(const char *verdict, const char *config_strategy);

/*
 * --behaviour's three processes, run (THP checked usable first): the
 * verdict and what each step saw in why, or NULL and why it cannot tell;
 * the counters and what each fault saw in *c
 */
const char *zf_detect_behaviour(struct zf_detect_counts *c, char *why, size_t len);

/* --lifecycle's checks: after caches are dropped, a fresh process faults */
enum zf_lc_check {
	ZF_LC_START,	/* none of ours alive: freed unless persistent */
	ZF_LC_HELD,	/* a huge zero PMD still maps it: never freed */
	ZF_LC_UNMAPPED,	/* none maps it, the mm that did lives: freed under global */
	ZF_LC_EXITED,	/* every mm that used it exited: freed unless persistent */
};
/* the allocations the fresh fault must cause under strategy: 1 or 0; -1 unknown strategy */
int zf_lifecycle_expect(const char *strategy, enum zf_lc_check check);
enum zf_lc_judgement { ZF_LC_OK, ZF_LC_LEAK, ZF_LC_EARLY_FREE, ZF_LC_CANNOT_TELL };
/*
 * One check: the counters around the fresh fault, what it saw, and the
 * folio's PFN as last seen (0: none yet). A fault that did not allocate
 * must see that PFN. why says what was seen and, unless ok, what is wrong.
 */
enum zf_lc_judgement zf_lifecycle_judge(const char *strategy, enum zf_lc_check check,
					const struct zf_thp_vmstat *before,
					const struct zf_thp_vmstat *after,
					const struct zf_fault_seen *seen, uint64_t folio_pfn,
					char *why, size_t len);
/*
 * --lifecycle's worker, P: a command is written to cmd_fd, a struct
 * zf_fault_seen comes back on reply_fd (what P, or its child, saw); P exits
 * when cmd_fd is closed. Slots 0-6 are 2 MiB huge pages of one region.
 */
struct zf_lc_cmd {
	char op;	/* r read, w write, u munmap, f fork (the child looks and
			 * unmaps), s split (MADV_DONTNEED of 4 KiB), m mremap to a
			 * 2 MiB-aligned place, M munmap the moved one */
	int slot;
};
pid_t zf_lc_worker_start(int *cmd_fd, int *reply_fd);
/* --lifecycle: expect "behaviour", "config" or a strategy's name; the exit status */
int zf_lifecycle_main(const char *expect);

int zf_detect_main(int argc, char **argv);

#endif
