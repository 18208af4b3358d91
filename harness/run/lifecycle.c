// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench detect --lifecycle`: the huge zero folio's life, step by step.
 * A worker process (P) maps huge zero PMDs by read faults and takes them
 * away again in each way the kernel has: munmap, a write (COW), a forked
 * child's munmap, a split (MADV_DONTNEED of 4 KiB), mremap, exit. After a
 * step, the caches are dropped (the shrinker frees a folio nobody holds) and
 * a fresh process faults: whether that allocates the folio again
 * (thp_zero_page_alloc) says whether it was freed, and the strategy says
 * whether it should have been. Each step starts with P mapping none, so a
 * step that leaks is the one that fails.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"
#include "sysinfo.h"

/* --- the steps --- */

enum lc_expect_seen {
	SEEN_NOTHING,		/* an unmap: nothing to look at */
	SEEN_HUGE_ZERO,		/* the huge zero folio */
	SEEN_COW,		/* a page of its own, not a zero page */
	SEEN_SMALL_ZERO,	/* the 4 KiB zero page: the PMD split */
};

struct lc_op {
	char op;
	int slot;
	enum lc_expect_seen want;
};

struct lc_step {
	const char *name;
	const char *what;
	struct lc_op ops[3];	/* op 0 ends the list; 'x': P exits */
	enum zf_lc_check check;
	const char *blame;	/* what a leak or an early free here means */
};

static const struct lc_step steps[] = {
	{ "read", "P read-faults PMDs 0 and 1",
	  { { 'r', 0, SEEN_HUGE_ZERO }, { 'r', 1, SEEN_HUGE_ZERO } }, ZF_LC_HELD,
	  "freed while P's read faults map it" },
	{ "unmap", "P unmaps PMD 1 (munmap), PMD 0 still mapped",
	  { { 'u', 1, SEEN_NOTHING } }, ZF_LC_HELD,
	  "freed while PMD 0 maps it: munmap dropped more than its reference" },
	{ "cow", "P writes PMD 0, its last: COW replaces the huge zero PMD",
	  { { 'w', 0, SEEN_COW } }, ZF_LC_UNMAPPED,
	  "the write (COW) that replaced the last huge zero PMD" },
	{ "fork", "P read-faults PMD 2 and forks; the child unmaps its copy",
	  { { 'r', 2, SEEN_HUGE_ZERO }, { 'f', 2, SEEN_HUGE_ZERO } }, ZF_LC_HELD,
	  "fork's copy of the PMD, or the child's munmap of it" },
	{ "fork-2", "P unmaps PMD 2, the last",
	  { { 'u', 2, SEEN_NOTHING } }, ZF_LC_UNMAPPED,
	  "fork's copy of the PMD, or the munmaps after it" },
	{ "split", "P read-faults PMD 3 and drops 4 KiB of it (MADV_DONTNEED): it splits",
	  { { 'r', 3, SEEN_HUGE_ZERO }, { 's', 3, SEEN_SMALL_ZERO }, { 'u', 3, SEEN_NOTHING } },
	  ZF_LC_UNMAPPED, "the split of the last huge zero PMD" },
	{ "mremap", "P read-faults PMD 4 and moves it whole to a 2 MiB-aligned place",
	  { { 'r', 4, SEEN_HUGE_ZERO }, { 'm', 4, SEEN_HUGE_ZERO } }, ZF_LC_HELD,
	  "mremap's move of the PMD" },
	{ "mremap-2", "P unmaps the moved PMD, the last",
	  { { 'M', 4, SEEN_NOTHING } }, ZF_LC_UNMAPPED,
	  "mremap's move of the PMD, or the munmap at its new place" },
	{ "rest", "P read-faults PMDs 5 and 6",
	  { { 'r', 5, SEEN_HUGE_ZERO }, { 'r', 6, SEEN_HUGE_ZERO } }, ZF_LC_HELD,
	  "freed while P's read faults map it" },
	{ "exit", "P exits with PMDs 5 and 6 mapped (its exit unmaps the rest)",
	  { { 'x', 0, SEEN_NOTHING } }, ZF_LC_EXITED,
	  "P's exit, or a step before it that kept a reference" },
};

struct lc_run {
	const char *strategy;
	pid_t worker;
	int cmd_fd, reply_fd;
	uint64_t folio_pfn;	/* where the folio was last seen; 0: not yet */
	const char *note;	/* what the step's kernel did, where it has a choice */
	char why[512];
};

/* is what P saw after op what it should be? The counters are checked by the caller */
static bool seen_as_wanted(struct lc_run *r, const struct lc_op *op, uint64_t allocs,
			   const struct zf_fault_seen *seen)
{
	bool zero = seen->kpageflags >> ZF_KPF_ZERO_PAGE & 1, thp = seen->kpageflags >> ZF_KPF_THP & 1;
	char msg[256], look[128];
	uint64_t pfn;

	zf_seen_describe(seen, look, sizeof(look));
	if (seen->err || op->want == SEEN_HUGE_ZERO) {
		if (!zf_seen_huge_zero(seen, &pfn, msg, sizeof(msg))) {
			snprintf(r->why, sizeof(r->why), "%s", msg);
			return false;
		}
		if (op->want != SEEN_HUGE_ZERO)
			return true;
		if (!allocs && r->folio_pfn && pfn != r->folio_pfn) {
			snprintf(r->why, sizeof(r->why), "P saw a huge zero folio at PFN %#" PRIx64
				 " where it was at %#" PRIx64 ", with no allocation counted", pfn,
				 r->folio_pfn);
			return false;
		}
		r->folio_pfn = pfn;
		return true;
	}
	if (op->want == SEEN_COW && (!(seen->pagemap & ZF_PM_PRESENT) || zero)) {
		snprintf(r->why, sizeof(r->why), "the written address is no page of its own: %s",
			 look);
		return false;
	}
	if (op->want == SEEN_SMALL_ZERO && (!(seen->pagemap & ZF_PM_PRESENT) || !zero || thp)) {
		snprintf(r->why, sizeof(r->why), "the split PMD's next 4 KiB is not the 4 KiB zero "
			 "page: %s", look);
		return false;
	}
	return true;
}

/* one op of P's; 0, or -1 with r->why (cannot tell) */
static int run_op(struct lc_run *r, const struct lc_op *op, uint64_t *allocs)
{
	struct zf_lc_cmd cmd = { .op = op->op, .slot = op->slot };
	struct zf_thp_vmstat before, after;
	struct zf_thp_own own = { 0 };
	struct zf_fault_seen seen;
	char msg[256];

	if (zf_thp_vmstat_read(&before, NULL)) {
		snprintf(r->why, sizeof(r->why), "/proc/vmstat: unreadable");
		return -1;
	}
	if (op->op == 'x') {
		close(r->cmd_fd);
		r->cmd_fd = -1;
		if (zf_reaped(r->worker)) {
			snprintf(r->why, sizeof(r->why), "P did not exit cleanly");
			return -1;
		}
		r->worker = -1;
		memset(&seen, 0, sizeof(seen));
	} else if (write(r->cmd_fd, &cmd, sizeof(cmd)) != sizeof(cmd) ||
		   read(r->reply_fd, &seen, sizeof(seen)) != sizeof(seen)) {
		snprintf(r->why, sizeof(r->why), "P stopped answering");
		return -1;
	}
	if (zf_thp_vmstat_read(&after, NULL)) {
		snprintf(r->why, sizeof(r->why), "/proc/vmstat: unreadable");
		return -1;
	}
	if (op->op == 'r')
		own.zero_allocs = 1;
	/* a write to a huge zero PMD: a THP in its place (7.x), or a split and 4 KiB (6.1) */
	if (op->op == 'w' && after.split_pmd - before.split_pmd == 1 &&
	    after.fault_alloc == before.fault_alloc) {
		own.splits = 1;
		r->note = ": it split the PMD, the written 4 KiB a page of its own";
	} else if (op->op == 'w') {
		own.fault_allocs = 1;
		r->note = ": a THP of its own in its place";
	}
	if (op->op == 's')
		own.splits = 1;
	if (op->op != 'x' && !seen_as_wanted(r, op, after.zero_alloc - before.zero_alloc, &seen))
		return -1;
	if (zf_thp_explained(&before, &after, &own, msg, sizeof(msg))) {
		snprintf(r->why, sizeof(r->why), "%s", msg);
		return -1;
	}
	*allocs += after.zero_alloc - before.zero_alloc;
	return 0;
}

/* caches dropped, a fresh fault elsewhere: the judgement, r->why saying why */
static enum zf_lc_judgement check(struct lc_run *r, enum zf_lc_check what)
{
	struct zf_thp_vmstat before, after;
	struct zf_fault_seen seen;
	enum zf_lc_judgement j;
	uint64_t pfn;
	int err = zf_drop_slab();

	if (!err)
		err = zf_thp_vmstat_read(&before, NULL);
	if (!err)
		err = zf_fault_elsewhere(&seen);
	if (!err)
		err = zf_thp_vmstat_read(&after, NULL);
	if (err) {
		snprintf(r->why, sizeof(r->why), "the fresh fault: %s", strerror(-err));
		return ZF_LC_CANNOT_TELL;
	}
	j = zf_lifecycle_judge(r->strategy, what, &before, &after, &seen, r->folio_pfn, r->why,
			       sizeof(r->why));
	if (j != ZF_LC_CANNOT_TELL && zf_seen_huge_zero(&seen, &pfn, NULL, 0))
		r->folio_pfn = pfn;
	return j;
}

/* the strategy to hold the kernel to, and a line saying where it came from */
static const char *choose(const char *expect, char *from, size_t len)
{
	struct zf_detect_counts c;
	struct zf_sysinfo si;
	const char *verdict;
	char why[512];

	zf_sysinfo_read(&si);
	if (!strcmp(expect, "config")) {
		static const char *const names[] = { "global", "mmflag", "persistent" };
		size_t i;

		for (i = 0; i < 3 && strcmp(names[i], si.kernel_strategy); i++)
			;
		if (i == 3) {
			snprintf(from, len, "the kernel's config does not say how it counts "
				 "(CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=%s, %s): --expect a strategy",
				 si.persistent_huge_zero_folio, si.kernel_release);
			return NULL;
		}
		snprintf(from, len, "the kernel's config (CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=%s, %s)",
			 si.persistent_huge_zero_folio, si.kernel_release);
		return names[i];
	}
	if (strcmp(expect, "behaviour")) {
		snprintf(from, len, "--expect %s; the kernel's config says %s", expect,
			 si.kernel_strategy);
		return expect;
	}
	verdict = zf_detect_behaviour(&c, why, sizeof(why));
	if (!verdict) {
		snprintf(from, len, "detect --behaviour: %s", why);
		return NULL;
	}
	snprintf(from, len, "detect --behaviour's verdict (%s); the kernel's config says %s%s",
		 why, si.kernel_strategy, zf_detect_disagrees(verdict, si.kernel_strategy) ?
		 ": they disagree" : "");
	return verdict;
}

/* one line on stderr: why it stopped at step */
static void say_stopped(const char *step, enum zf_lc_judgement j, const char *why,
			const char *suspect)
{
	if (j == ZF_LC_CANNOT_TELL) {
		char text[768];

		snprintf(text, sizeof(text), "%s", why);
		zf_thp_pmd_note(text, sizeof(text));
		fprintf(stderr, "hzfbench: detect: cannot tell: %s: %s\n", step, text);
		return;
	}
	fprintf(stderr, "hzfbench: detect: lifecycle: %s: %s: %s%s%s\n", step,
		j == ZF_LC_LEAK ? "a leak (the folio was not freed where it should have been)" :
		"an early free (the folio was freed where it should have been kept)", why,
		suspect ? "; suspect: " : "", suspect ? suspect : "");
}

int zf_lifecycle_main(const char *expect)
{
	static const char *const judged[] = { "ok", "LEAK", "EARLY FREE", "cannot tell" };
	struct lc_run r = { .cmd_fd = -1, .reply_fd = -1, .worker = -1 };
	struct zf_sysinfo si;
	enum zf_lc_judgement j;
	char from[768];
	size_t i, k;
	int status = 1;

	zf_sysinfo_read(&si);
	if (zf_thp_usable(&si, r.why, sizeof(r.why))) {
		fprintf(stderr, "hzfbench: detect: cannot tell: %s\n", r.why);
		return 1;
	}
	r.strategy = choose(expect, from, sizeof(from));
	if (!r.strategy) {
		zf_thp_pmd_note(from, sizeof(from));
		fprintf(stderr, "hzfbench: detect: cannot tell: %s\n", from);
		return 1;
	}
	printf("lifecycle: expecting %s, from %s\n", r.strategy, from);
	/* a fresh fault after a drop, none of ours alive: the folio is freed or persistent */
	j = check(&r, ZF_LC_START);
	printf("  %-8s none of ours alive; drop caches, a fresh fault: %s%s%s\n", "start",
	       j == ZF_LC_CANNOT_TELL ? "" : r.why, j == ZF_LC_CANNOT_TELL ? "" : ": ", judged[j]);
	if (j != ZF_LC_OK)
		goto said;
	r.worker = zf_lc_worker_start(&r.cmd_fd, &r.reply_fd);
	if (r.worker < 0) {
		snprintf(r.why, sizeof(r.why), "P: %s", strerror((int)-r.worker));
		j = ZF_LC_CANNOT_TELL;
		goto said;
	}
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const struct lc_step *s = &steps[i];
		uint64_t allocs = 0, pfn;

		r.note = NULL;
		for (k = 0; k < 3 && s->ops[k].op; k++)
			if (run_op(&r, &s->ops[k], &allocs)) {
				printf("  %-8s %s: cannot tell\n", s->name, s->what);
				j = ZF_LC_CANNOT_TELL;
				goto stop;
			}
		pfn = r.folio_pfn;
		j = check(&r, s->check);
		printf("  %-8s %s%s (P: thp_zero_page_alloc +%" PRIu64 ", huge zero PFN %#" PRIx64
		       "); drop caches, a fresh fault: %s%s%s\n", s->name, s->what,
		       r.note ? r.note : "", allocs, pfn, j == ZF_LC_CANNOT_TELL ? "" : r.why,
		       j == ZF_LC_CANNOT_TELL ? "" : ": ", judged[j]);
		if (j != ZF_LC_OK)
			goto stop;
	}
	printf("lifecycle: %s: the folio's life matched, %zu steps\n", r.strategy, i);
	status = 0;
	goto out;
stop:
	say_stopped(steps[i].name, j, r.why, steps[i].blame);
	goto out;
said:
	say_stopped("start", j, r.why, NULL);
out:
	if (r.cmd_fd >= 0)
		close(r.cmd_fd);
	if (r.reply_fd >= 0)
		close(r.reply_fd);
	if (r.worker > 0) {
		kill(r.worker, SIGKILL);
		zf_reaped(r.worker);
	}
	return status;
}
