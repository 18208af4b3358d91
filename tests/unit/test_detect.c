// SPDX-License-Identifier: GPL-2.0
/*
 * detect's decisions on fabricated /proc/vmstat sequences and fabricated
 * pagemap/kpageflags evidence: --behaviour's verdicts and its "cannot
 * tell"s, the processes that map the huge zero folio in fabricated /proc
 * trees, --lifecycle's judgements.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../harness/doctor/detect.h"
#include "test.h"
#include "tree.h"

/* /proc/vmstat text: thp_zero_page_alloc, _failed, thp_fault_fallback, thp_fault_alloc, thp_split_pmd */
#define VM(zero, failed, fallback, thp, split)						\
	"nr_free_pages 5747381\nthp_fault_alloc " #thp "\nthp_fault_fallback " #fallback	\
	"\nthp_fault_fallback_charge 0\nthp_split_pmd " #split "\nthp_zero_page_alloc "	\
	#zero "\nthp_zero_page_alloc_failed " #failed "\n"
/* the common case: only thp_zero_page_alloc moves */
#define VMSTAT(n)	VM(n, 0, 0, 12, 3)

#define HUGE_ZERO_FLAGS	(1ULL << ZF_KPF_ZERO_PAGE | 1ULL << ZF_KPF_THP)
/* what a process that mapped the huge zero folio at pfn saw */
#define SEEN(pfn)	{ .pagemap = ZF_PM_PRESENT | (pfn), .kpageflags = HUGE_ZERO_FLAGS }

/* kpageflags of a freed folio's PFN: a free buddy page (KPF_BUDDY) */
#define FREED_FLAGS	(1ULL << 10)

/*
 * four /proc/vmstat texts, as the four steps would read them, the three
 * faults' views, and kpageflags at the second's PFN after the first exited
 * and caches were dropped
 */
static const char *decide_flags(const char *const vmstat[4], const struct zf_fault_seen seen[3],
				uint64_t exited_flags, char *why, size_t len)
{
	struct zf_detect_counts c;
	int i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < 4; i++)
		if (zf_thp_vmstat_parse(vmstat[i], &c.at[i], NULL))
			return "unreadable";
	memcpy(c.seen, seen, sizeof(c.seen));
	c.exited_flags = exited_flags;
	return zf_detect_decide(&c, why, len);
}

/* as a kernel shows it: the folio still there unless the third fault allocated it again */
static const char *decide(const char *const vmstat[4], const struct zf_fault_seen seen[3],
			  char *why, size_t len)
{
	struct zf_thp_vmstat before, after;
	bool third = !zf_thp_vmstat_parse(vmstat[2], &before, NULL) &&
		     !zf_thp_vmstat_parse(vmstat[3], &after, NULL) &&
		     after.zero_alloc > before.zero_alloc;

	return decide_flags(vmstat, seen, third ? FREED_FLAGS : HUGE_ZERO_FLAGS, why, len);
}

static const struct zf_fault_seen same[3] = { SEEN(0x3000), SEEN(0x3000), SEEN(0x3000) };

TEST(detect_decision_table)
{
	/* 3.8-4.8: the second fault allocates again, the first process still alive */
	static const char *const global[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(2), VMSTAT(3) };
	/* the same with a folio already there at the start */
	static const char *const global_held[4] = { VMSTAT(7), VMSTAT(7), VMSTAT(8), VMSTAT(9) };
	/* 4.9+: freed only once the first process exited */
	static const char *const mmflag[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(1), VMSTAT(2) };
	/* 6.18 with CONFIG_PERSISTENT_HUGE_ZERO_FOLIO: allocated at boot, never again */
	static const char *const persistent[4] = { VMSTAT(1), VMSTAT(1), VMSTAT(1), VMSTAT(1) };
	static const char *const torn[4] = { VMSTAT(1), "thp_fault_alloc 3\n", VMSTAT(1), VMSTAT(1) };
	/* a reallocated folio may come back at another PFN, or at the same */
	static const struct zf_fault_seen moved[3] = { SEEN(0x3000), SEEN(0x5e00), SEEN(0x3000) };
	char why[512];

	EXPECT_STREQ(decide(global, same, why, sizeof(why)), "global");
	EXPECT_STREQ(why, "thp_zero_page_alloc 0 at the start (caches dropped, no process mapping "
		     "it); +1 at the first fault, +1 at the second (first still alive), +1 at the "
		     "third (first exited)");
	EXPECT_STREQ(decide(global, moved, why, sizeof(why)), "global");
	EXPECT_STREQ(decide(global_held, same, why, sizeof(why)), "global");
	EXPECT_STREQ(decide(mmflag, same, why, sizeof(why)), "mmflag");
	EXPECT_TRUE(strstr(why, "+0 at the second (first still alive), +1 at the third") != NULL);
	EXPECT_STREQ(decide(persistent, same, why, sizeof(why)), "persistent");
	EXPECT_TRUE(strstr(why, "+0 at the first fault, +0 at the second") != NULL);
	EXPECT_TRUE(strstr(why, "(first exited); after the first exited and caches were dropped, "
			   "PFN 0x3000 still the huge zero folio (kpageflags), mapped there by the "
			   "third fault") != NULL);
	EXPECT_STREQ(decide(torn, same, why, sizeof(why)), "unreadable");
}

/* every doubt is "cannot tell" (NULL), never a verdict, and why names the fault */
TEST(detect_cannot_tell_counters)
{
	/* the second fault fell back to 4 KiB: no allocation, but no huge zero PMD either */
	static const char *const fallback[4] = { VMSTAT(0), VMSTAT(1), VM(1, 0, 1, 12, 3),
						 VM(2, 0, 1, 12, 3) };
	/* the third fault's allocation failed: persistent it is not */
	static const char *const failed[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(1),
					       VM(1, 1, 1, 12, 3) };
	static const char *const failed_alone[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(1),
						     VM(1, 1, 0, 12, 3) };
	/* another process faulted too: two allocations in one of our steps */
	static const char *const foreign_zero[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(3), VMSTAT(3) };
	/* another process took huge-page faults meanwhile (it may have mapped the folio) */
	static const char *const foreign_thp[4] = { VMSTAT(1), VM(1, 0, 0, 13, 3), VMSTAT(1),
						    VMSTAT(1) };
	/* someone's huge PMD split meanwhile */
	static const char *const foreign_split[4] = { VMSTAT(1), VMSTAT(1), VM(1, 0, 0, 12, 4),
						      VM(1, 0, 0, 12, 4) };
	char why[512];

	EXPECT_TRUE(decide(fallback, same, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the second fault: thp_fault_fallback +1: a huge-page fault fell back "
		     "to 4 KiB pages");
	EXPECT_TRUE(decide(failed, same, why, sizeof(why)) == NULL);
	EXPECT_TRUE(strstr(why, "the third fault: thp_fault_fallback +1") == why);
	EXPECT_TRUE(decide(failed_alone, same, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the third fault: thp_zero_page_alloc_failed +1: the huge zero folio "
		     "could not be allocated");
	EXPECT_TRUE(decide(foreign_zero, same, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the second fault: thp_zero_page_alloc +2, more than our faults explain "
		     "(1 at most): another process faulted meanwhile");
	EXPECT_TRUE(decide(foreign_thp, same, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the first fault: thp_fault_alloc +1 where our faults allocated 0: "
		     "another process took huge-page faults meanwhile");
	EXPECT_TRUE(decide(foreign_split, same, why, sizeof(why)) == NULL);
	EXPECT_TRUE(strstr(why, "the second fault: thp_split_pmd +1 where we split 0") == why);
}

TEST(detect_cannot_tell_pagemap)
{
	static const char *const persistent[4] = { VMSTAT(1), VMSTAT(1), VMSTAT(1), VMSTAT(1) };
	static const char *const global[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(2), VMSTAT(3) };
	/* THP never for the fault (thp_anon=2M:never, PR_SET_THP_DISABLE): the 4 KiB zero page */
	static const struct zf_fault_seen small[3] = {
		SEEN(0x3000), { .pagemap = ZF_PM_PRESENT | 0x1f0a, .kpageflags = 1ULL << ZF_KPF_ZERO_PAGE },
		SEEN(0x3000) };
	/* use_zero_page 0, pvm_no_zero_page=1: a huge page of its own */
	static const struct zf_fault_seen real[3] = {
		{ .pagemap = ZF_PM_PRESENT | 0x8400, .kpageflags = 1ULL << ZF_KPF_THP | 1 << 11 },
		SEEN(0x3000), SEEN(0x3000) };
	/* not root: pagemap hides the PFN */
	static const struct zf_fault_seen hidden[3] = {
		SEEN(0x3000), SEEN(0x3000), { .pagemap = ZF_PM_PRESENT } };
	/* no CONFIG_PROC_PAGE_MONITOR */
	static const struct zf_fault_seen nopagemap[3] = {
		{ .err = -ENOENT, .err_step = ZF_SEEN_PAGEMAP }, SEEN(0x3000), SEEN(0x3000) };
	/* another folio with no allocation counted between */
	static const struct zf_fault_seen moved[3] = { SEEN(0x3000), SEEN(0x3000), SEEN(0x5e00) };
	char why[512];

	EXPECT_TRUE(decide(persistent, small, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the second fault: pagemap shows no huge zero folio at the faulted "
		     "address: PFN 0x1f0a: zero page, not THP (the 4 KiB zero page)");
	EXPECT_TRUE(decide(persistent, real, why, sizeof(why)) == NULL);
	EXPECT_TRUE(strstr(why, "the first fault: pagemap shows no huge zero folio at the faulted "
			   "address: PFN 0x8400: THP, not zero page") == why);
	EXPECT_TRUE(decide(persistent, hidden, why, sizeof(why)) == NULL);
	EXPECT_TRUE(strstr(why, "present, PFN hidden (reading PFNs takes CAP_SYS_ADMIN)") != NULL);
	EXPECT_TRUE(decide(persistent, nopagemap, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the first fault: /proc/self/pagemap: No such file or directory");
	EXPECT_TRUE(decide(persistent, moved, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the third fault mapped a huge zero folio at PFN 0x5e00, the one before "
		     "at 0x3000, with no allocation counted between");
	/* the same PFNs where each was an allocation: fine */
	EXPECT_STREQ(decide(global, moved, why, sizeof(why)), "global");
}

/* persistent is said on its own evidence, not for want of an allocation */
TEST(detect_persistent_evidence)
{
	static const char *const none[4] = { VMSTAT(1), VMSTAT(1), VMSTAT(1), VMSTAT(1) };
	/* allocated at the first fault, then never freed: someone took it meanwhile */
	static const char *const first_only[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(1), VMSTAT(1) };
	static const char *const mmflag[4] = { VMSTAT(0), VMSTAT(1), VMSTAT(1), VMSTAT(2) };
	char why[512];

	EXPECT_STREQ(decide_flags(none, same, HUGE_ZERO_FLAGS, why, sizeof(why)), "persistent");
	EXPECT_TRUE(decide_flags(first_only, same, HUGE_ZERO_FLAGS, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "the first fault allocated the folio (the kernel frees it), yet it "
		     "outlived the first process's exit and a drop of caches: another process took "
		     "it meanwhile");
	/* no allocation, but the folio was gone after the drop: not kept, not persistent */
	EXPECT_TRUE(decide_flags(none, same, FREED_FLAGS, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "no fault allocated the folio, yet after the first exited and caches were "
		     "dropped kpageflags showed PFN 0x3000 no longer the huge zero folio");
	/* still there after the drop, yet the third fault allocated it */
	EXPECT_TRUE(decide_flags(mmflag, same, HUGE_ZERO_FLAGS, why, sizeof(why)) == NULL);
	EXPECT_TRUE(strstr(why, "kpageflags showed PFN 0x3000 still the huge zero folio, yet the "
			   "third fault allocated it") != NULL);
	EXPECT_STREQ(decide_flags(mmflag, same, FREED_FLAGS, why, sizeof(why)), "mmflag");
}

TEST(detect_persistent_kpageflags_unread)
{
	static const char *const none[4] = { VMSTAT(1), VMSTAT(1), VMSTAT(1), VMSTAT(1) };
	struct zf_detect_counts c;
	char why[512];
	int i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(zf_thp_vmstat_parse(none[i], &c.at[i], NULL), 0);
	memcpy(c.seen, same, sizeof(c.seen));
	c.exited_flags = HUGE_ZERO_FLAGS;
	c.exited_err = -EIO;
	EXPECT_TRUE(zf_detect_decide(&c, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "after the first exited: /proc/kpageflags: Input/output error");
}

/* --- the processes that map the huge zero folio, in fabricated /proc trees --- */

/* pid's process: comm, one mapping, and its pagemap entry at addr (0: none) */
static void process(struct tree *t, int pid, const char *comm, const char *maps, uint64_t addr,
		    uint64_t entry)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "/proc/%d/comm", pid);
	put(t, rel, comm);
	snprintf(rel, sizeof(rel), "/proc/%d/maps", pid);
	put(t, rel, maps);
	snprintf(rel, sizeof(rel), "/proc/%d/pagemap", pid);
	if (addr)
		put_at(t, rel, (long)(addr / 4096 * 8), &entry, sizeof(entry));
	else
		put(t, rel, "");
}

static void kpageflags(struct tree *t, uint64_t pfn, uint64_t flags)
{
	put_at(t, "/proc/kpageflags", (long)(pfn * 8), &flags, sizeof(flags));
}

#define MAPS(range)	range " rw-p 00000000 00:00 0 \n"

TEST(detect_holders_none)
{
	struct zf_holder *h = NULL;
	struct zf_unreadable u;
	struct tree t = { { 0 } };
	char why[512] = "";

	tree_make(&t);
	ASSERT_TRUE(t.root[0] != '\0');
	kpageflags(&t, 0x3000, HUGE_ZERO_FLAGS);
	kpageflags(&t, 0x8400, 1ULL << ZF_KPF_THP);
	/* a kernel thread: no mappings, an empty pagemap */
	process(&t, 2, "kthreadd\n", "", 0, 0);
	/* nothing present */
	process(&t, 100, "idle\n", MAPS("40000000-40400000"), 0x40200000, 0);
	/* a 4 KiB page of its own at the aligned address */
	process(&t, 101, "small\n", MAPS("40000000-40400000"), 0x40200000, ZF_PM_PRESENT | 0x8001);
	/* a THP of its own */
	process(&t, 102, "thp\n", MAPS("40000000-40400000"), 0x40200000, ZF_PM_PRESENT | 0x8400);
	/* the folio's PFN, but in a mapping no 2 MiB-aligned 2 MiB fits whole: no PMD there */
	process(&t, 103, "part\n", MAPS("40100000-40300000"), 0x40200000, ZF_PM_PRESENT | 0x3000);
	/* gone between readdir and its maps */
	put(&t, "/proc/104", NULL);
	put(&t, "/proc/self", NULL);
	EXPECT_EQ(zf_huge_zero_holders(t.root, &h, &u, why, sizeof(why)), 0);
	free(h);
	EXPECT_EQ(zf_detect_holders_check(t.root, &u, why, sizeof(why)), 0);
	tree_free(&t);
}

TEST(detect_holders_named)
{
	struct zf_holder *h = NULL;
	struct zf_unreadable u;
	struct tree t = { { 0 } };
	char why[512];

	tree_make(&t);
	ASSERT_TRUE(t.root[0] != '\0');
	kpageflags(&t, 0x3000, HUGE_ZERO_FLAGS);
	process(&t, 100, "idle\n", MAPS("40000000-40400000"), 0x40200000, 0);
	/* the second of its three PMDs maps the folio */
	process(&t, 812, "holder\n", MAPS("40000000-40200000") MAPS("40200000-40800000"),
		0x40400000, ZF_PM_PRESENT | 0x3000);
	EXPECT_EQ(zf_detect_holders_check(t.root, &u, why, sizeof(why)), 1);
	EXPECT_STREQ(why, "812 (holder) maps the huge zero folio (PFN 0x3000 at 0x40400000)");
	/* more of them: by pid, three named */
	process(&t, 90, "a\n", MAPS("40000000-40200000"), 0x40000000, ZF_PM_PRESENT | 0x3000);
	process(&t, 95, "b\n", MAPS("40000000-40200000"), 0x40000000, ZF_PM_PRESENT | 0x3000);
	process(&t, 901, "c\n", MAPS("40000000-40200000"), 0x40000000, ZF_PM_PRESENT | 0x3000);
	ASSERT_EQ(zf_huge_zero_holders(t.root, &h, &u, why, sizeof(why)), 4);
	EXPECT_EQ(h[0].pid, 90);
	EXPECT_EQ(h[3].pid, 901);
	EXPECT_STREQ(h[2].comm, "holder");
	free(h);
	EXPECT_EQ(zf_detect_holders_check(t.root, &u, why, sizeof(why)), 4);
	EXPECT_STREQ(why, "90 (a), 95 (b), 812 (holder) and 1 more map the huge zero folio "
		     "(PFN 0x3000 at 0x40000000 in the first)");
	drop(&t, "/proc/901/comm");
	drop(&t, "/proc/901/maps");
	drop(&t, "/proc/901/pagemap");
	drop(&t, "/proc/901");
	EXPECT_EQ(zf_detect_holders_check(t.root, &u, why, sizeof(why)), 3);
	EXPECT_STREQ(why, "90 (a), 95 (b) and 812 (holder) map the huge zero folio "
		     "(PFN 0x3000 at 0x40000000 in the first)");
	tree_free(&t);
}

/* a pagemap that cannot be read could hide a holder: cannot tell, naming it */
TEST(detect_holders_unreadable)
{
	struct zf_unreadable u;
	struct tree t = { { 0 } };
	char why[512];

	tree_make(&t);
	ASSERT_TRUE(t.root[0] != '\0');
	kpageflags(&t, 0x3000, HUGE_ZERO_FLAGS);
	/* PFNs hidden (no CAP_SYS_ADMIN) */
	process(&t, 300, "sh\n", MAPS("40000000-40200000"), 0x40000000, ZF_PM_PRESENT);
	EXPECT_EQ(zf_detect_holders_check(t.root, &u, why, sizeof(why)), -EPERM);
	EXPECT_STREQ(why, "a process that could hold the huge zero folio: 300: /proc/300/pagemap: "
		     "Operation not permitted (reading PFNs takes CAP_SYS_ADMIN)");
	drop(&t, "/proc/300/pagemap");
	put(&t, "/proc/300/pagemap", NULL);
	EXPECT_EQ(zf_detect_holders_check(t.root, &u, why, sizeof(why)), -EISDIR);
	EXPECT_STREQ(why, "a process that could hold the huge zero folio: 300: /proc/300/pagemap: "
		     "Is a directory");
	/* no /proc at all */
	EXPECT_EQ(zf_detect_holders_check("/nonexistent", &u, why, sizeof(why)), -ENOENT);
	EXPECT_STREQ(why, "a process that could hold the huge zero folio: /nonexistent/proc: "
		     "No such file or directory");
	tree_free(&t);
}

/*
 * A process whose maps is closed to us (EACCES, as a sandbox's init is to
 * root in it) is counted, not an error: read as nobody, since root reads
 * a fabricated file whatever its mode
 */
TEST(detect_holders_closed_counted)
{
	static const char *const dirs[] = { "", "/proc", "/proc/1", "/proc/7", "/proc/812" };
	struct zf_unreadable u = { 0 };
	struct tree t = { { 0 } };
	char path[128], why[512] = "";
	int fd[2], status, i, n = -1;
	pid_t pid;

	if (geteuid()) {
		SKIP("it reads the tree as nobody: it takes root");
	}
	tree_make(&t);
	ASSERT_TRUE(t.root[0] != '\0');
	kpageflags(&t, 0x3000, HUGE_ZERO_FLAGS);
	process(&t, 1, "init\n", MAPS("40000000-40200000"), 0x40000000, ZF_PM_PRESENT | 0x3000);
	process(&t, 7, "init2\n", MAPS("40000000-40200000"), 0x40000000, 0);
	process(&t, 812, "holder\n", MAPS("40000000-40200000"), 0x40000000,
		ZF_PM_PRESENT | 0x3000);
	for (i = 0; i < (int)(sizeof(dirs) / sizeof(dirs[0])); i++) {
		snprintf(path, sizeof(path), "%s%s", t.root, dirs[i]);
		ASSERT_EQ(chmod(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/proc/1/maps", t.root);
	ASSERT_EQ(chmod(path, 0), 0);
	snprintf(path, sizeof(path), "%s/proc/7/pagemap", t.root);
	ASSERT_EQ(chmod(path, 0), 0);
	ASSERT_EQ(pipe(fd), 0);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (!pid) {
		struct zf_holder *h = NULL;

		close(fd[0]);
		if (setgid(65534) || setuid(65534))
			_exit(3);
		n = zf_huge_zero_holders(t.root, &h, &u, why, sizeof(why));
		if (write(fd[1], &n, sizeof(n)) != sizeof(n) || write(fd[1], &u, sizeof(u)) !=
		    sizeof(u) || write(fd[1], why, sizeof(why)) != sizeof(why))
			_exit(4);
		_exit(n == 1 && h && h->pid == 812 ? 0 : 5);
	}
	close(fd[1]);
	EXPECT_EQ(read(fd[0], &n, sizeof(n)), (ssize_t)sizeof(n));
	EXPECT_EQ(read(fd[0], &u, sizeof(u)), (ssize_t)sizeof(u));
	EXPECT_EQ(read(fd[0], why, sizeof(why)), (ssize_t)sizeof(why));
	close(fd[0]);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	/* the holder that could be read is found; the two closed ones counted, the first named */
	EXPECT_EQ(n, 1);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(u.n, 2);
	EXPECT_STREQ(u.first, "1 (init): /proc/1/maps: Permission denied");
	tree_free(&t);
}

/* what a closed process leaves of a verdict: global and mmflag, noted; never persistent */
TEST(detect_unread_verdict)
{
	struct zf_unreadable none = { 0 }, one = { 1, 1, "1 (init): /proc/1/maps: Permission denied" };
	struct zf_unreadable two = { 2, 1, "1 (init): /proc/1/maps: Permission denied" };
	char why[512];

	snprintf(why, sizeof(why), "counts");
	EXPECT_STREQ(zf_detect_unread_verdict("persistent", &none, why, sizeof(why)),
		     "persistent");
	EXPECT_STREQ(why, "counts");
	EXPECT_TRUE(zf_detect_unread_verdict("persistent", &one, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "persistent's evidence is that no fault allocated the folio, which a "
		     "holder we cannot see would cause too: 1 (init): /proc/1/maps: Permission "
		     "denied");
	EXPECT_TRUE(zf_detect_unread_verdict("persistent", &two, why, sizeof(why)) == NULL);
	EXPECT_TRUE(strstr(why, "Permission denied (and more)") != NULL);
	snprintf(why, sizeof(why), "counts");
	EXPECT_STREQ(zf_detect_unread_verdict("mmflag", &two, why, sizeof(why)), "mmflag");
	EXPECT_STREQ(why, "counts; 2 processes could not be read (1 (init): /proc/1/maps: "
		     "Permission denied): a holder among them would have kept the folio alive, "
		     "yet a fault allocated it");
	snprintf(why, sizeof(why), "cannot");
	EXPECT_TRUE(zf_detect_unread_verdict(NULL, &one, why, sizeof(why)) == NULL);
	EXPECT_STREQ(why, "cannot");
}

TEST(detect_config_disagreement)
{
	/* the global patch's kernel: its release and config say mmflag */
	EXPECT_TRUE(zf_detect_disagrees("global", "mmflag"));
	EXPECT_TRUE(!zf_detect_disagrees("mmflag", "mmflag"));
	EXPECT_TRUE(!zf_detect_disagrees("persistent", "unknown"));
}

TEST(detect_vmstat_parse)
{
	struct zf_thp_vmstat v;
	const char *missing = NULL;

	ASSERT_EQ(zf_thp_vmstat_parse(VM(4, 5, 6, 7, 8), &v, &missing), 0);
	EXPECT_EQ(v.zero_alloc, 4);
	EXPECT_EQ(v.zero_alloc_failed, 5);
	EXPECT_EQ(v.fault_fallback, 6);
	EXPECT_EQ(v.fault_alloc, 7);
	EXPECT_EQ(v.split_pmd, 8);
	EXPECT_TRUE(v.has_split_pmd);
	/* before 4.5, no thp_split_pmd: splits are not checked */
	ASSERT_EQ(zf_thp_vmstat_parse("thp_fault_alloc 1\nthp_fault_fallback 0\n"
				      "thp_zero_page_alloc 1\nthp_zero_page_alloc_failed 0\n", &v,
				      &missing), 0);
	EXPECT_TRUE(!v.has_split_pmd);
	EXPECT_EQ(v.split_pmd, 0);
	/* a kernel without CONFIG_VM_EVENT_COUNTERS has none of them */
	EXPECT_EQ(zf_thp_vmstat_parse("nr_free_pages 5\n", &v, &missing), -ENOENT);
	EXPECT_STREQ(missing, "thp_zero_page_alloc");
}

/* --- --lifecycle --- */

static enum zf_lc_judgement judge(const char *strategy, enum zf_lc_check check, const char *before,
				  const char *after, struct zf_fault_seen seen, uint64_t pfn,
				  char *why, size_t len)
{
	struct zf_thp_vmstat b, a;

	if (zf_thp_vmstat_parse(before, &b, NULL) || zf_thp_vmstat_parse(after, &a, NULL))
		return -1;
	return zf_lifecycle_judge(strategy, check, &b, &a, &seen, pfn, why, len);
}

TEST(lifecycle_expectations)
{
	/* start, held, unmapped (the mm lives), exited: does a fresh fault allocate? */
	static const struct { const char *s; int want[4]; } table[] = {
		{ "global", { 1, 0, 1, 1 } },
		{ "mmflag", { 1, 0, 0, 1 } },
		{ "persistent", { 0, 0, 0, 0 } },
	};
	size_t i;
	int k;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		for (k = ZF_LC_START; k <= ZF_LC_EXITED; k++)
			EXPECT_EQ(zf_lifecycle_expect(table[i].s, k), table[i].want[k]);
	EXPECT_EQ(zf_lifecycle_expect("native", ZF_LC_HELD), -1);
}

TEST(lifecycle_judgements)
{
	struct zf_fault_seen at = SEEN(0x3000), elsewhere = SEEN(0x5e00);
	struct zf_fault_seen small = { .pagemap = ZF_PM_PRESENT | 0x1f0a,
				       .kpageflags = 1ULL << ZF_KPF_ZERO_PAGE };
	char why[512];

	/* the fixed global: the last PMD gone (COW), freed, allocated again at the fresh fault */
	EXPECT_EQ(judge("global", ZF_LC_UNMAPPED, VMSTAT(4), VMSTAT(5), elsewhere, 0x3000, why,
			sizeof(why)), ZF_LC_OK);
	EXPECT_STREQ(why, "thp_zero_page_alloc +1, want +1 (global: no PMD maps it: freed)");
	/* the leaky global: the write after the read kept a reference */
	EXPECT_EQ(judge("global", ZF_LC_UNMAPPED, VMSTAT(4), VMSTAT(4), at, 0x3000, why,
			sizeof(why)), ZF_LC_LEAK);
	EXPECT_STREQ(why, "thp_zero_page_alloc +0, want +1 (global: no PMD maps it: freed)");
	/* mmflag keeps it while the mm lives; freeing it then is early */
	EXPECT_EQ(judge("mmflag", ZF_LC_UNMAPPED, VMSTAT(4), VMSTAT(4), at, 0x3000, why,
			sizeof(why)), ZF_LC_OK);
	EXPECT_EQ(judge("mmflag", ZF_LC_UNMAPPED, VMSTAT(4), VMSTAT(5), at, 0x3000, why,
			sizeof(why)), ZF_LC_EARLY_FREE);
	/* freed while a PMD maps it, under any strategy */
	EXPECT_EQ(judge("global", ZF_LC_HELD, VMSTAT(4), VMSTAT(5), at, 0x3000, why, sizeof(why)),
		  ZF_LC_EARLY_FREE);
	EXPECT_EQ(judge("persistent", ZF_LC_EXITED, VMSTAT(1), VMSTAT(2), at, 0x3000, why,
			sizeof(why)), ZF_LC_EARLY_FREE);
	EXPECT_EQ(judge("mmflag", ZF_LC_EXITED, VMSTAT(1), VMSTAT(1), at, 0x3000, why,
			sizeof(why)), ZF_LC_LEAK);
	/* at the start, a folio that survived the drop is someone else's doing */
	EXPECT_EQ(judge("global", ZF_LC_START, VMSTAT(1), VMSTAT(1), at, 0, why, sizeof(why)),
		  ZF_LC_CANNOT_TELL);
	EXPECT_TRUE(strstr(why, "another process holds it") != NULL);
	EXPECT_EQ(judge("persistent", ZF_LC_START, VMSTAT(1), VMSTAT(1), at, 0, why, sizeof(why)),
		  ZF_LC_OK);
	/* doubts: a fallback, a foreign allocation, the 4 KiB zero page, another PFN */
	EXPECT_EQ(judge("global", ZF_LC_UNMAPPED, VMSTAT(4), VM(4, 0, 1, 12, 3), at, 0x3000, why,
			sizeof(why)), ZF_LC_CANNOT_TELL);
	EXPECT_STREQ(why, "the fresh fault: thp_fault_fallback +1: a huge-page fault fell back to "
		     "4 KiB pages");
	EXPECT_EQ(judge("global", ZF_LC_UNMAPPED, VMSTAT(4), VMSTAT(6), elsewhere, 0x3000, why,
			sizeof(why)), ZF_LC_CANNOT_TELL);
	EXPECT_EQ(judge("global", ZF_LC_HELD, VMSTAT(4), VMSTAT(4), small, 0x3000, why,
			sizeof(why)), ZF_LC_CANNOT_TELL);
	EXPECT_TRUE(strstr(why, "the 4 KiB zero page") != NULL);
	EXPECT_EQ(judge("global", ZF_LC_HELD, VMSTAT(4), VMSTAT(4), elsewhere, 0x3000, why,
			sizeof(why)), ZF_LC_CANNOT_TELL);
	EXPECT_STREQ(why, "the fresh fault mapped a huge zero folio at PFN 0x5e00 where the folio "
		     "was at 0x3000, with no allocation counted");
	EXPECT_EQ(judge("native", ZF_LC_HELD, VMSTAT(4), VMSTAT(4), at, 0x3000, why, sizeof(why)),
		  ZF_LC_CANNOT_TELL);
}
