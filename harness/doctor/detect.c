// SPDX-License-Identifier: GPL-2.0
/* `hzfbench detect --behaviour`, and the command line of detect: see detect.h. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "detect.h"
#include "kcheck.h"
#include "opt.h"
#include "parse.h"
#include "sysinfo.h"

static const char detect_usage[] =
"usage: hzfbench detect --behaviour --allow-drop-caches [--holder]\n"
"       hzfbench detect --lifecycle --allow-drop-caches [--expect WHAT]\n"
"  Tell how the running kernel counts the huge zero folio from what it does.\n"
"  Every fault is checked in pagemap and kpageflags (root, and a kernel with\n"
"  CONFIG_PROC_PAGE_MONITOR), and the THP counters must move by what our own\n"
"  faults explain: run it on a quiet machine.\n";

struct detect_opts {
	bool behave, lifecycle, allow, holder;
	const char *expect;
};

static const char *const expects[] = { "behaviour", "config", "global", "mmflag", "persistent",
				       NULL };

#define FIELD(f)	.off = offsetof(struct detect_opts, f)

static const struct zf_opt detect_table[] = {
	{ .name = "behaviour", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(behave),
	  .help = "first every process's pagemap is read: one that maps the huge zero folio "
	  "makes it \"cannot tell: PID (COMM) maps the huge zero folio\". Caches are dropped "
	  "(the shrinker frees a folio nobody holds); a first process faults a huge zero page, "
	  "unmaps it and stays alive; caches are dropped; a second process faults: a new "
	  "allocation (/proc/vmstat thp_zero_page_alloc) means global. Then the first exits, "
	  "caches are dropped, a third faults: a new allocation means mmflag; persistent only "
	  "where no fault allocated and the folio outlived the drops at its PFN (kpageflags). "
	  "Prints the verdict (exit 0, also when it disagrees with the kernel's config, said in "
	  "a line), or \"cannot tell\" and why (exit 1)" },
	{ .name = "behavior", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(behave) },
	{ .name = "holder", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(holder),
	  .help = "with --behaviour: a check of its scan for holders on this kernel: first a "
	  "process of its own maps a huge zero page and holds it through the run, so "
	  "--behaviour must say \"cannot tell: PID (hzfbench) maps the huge zero folio\" "
	  "(exit 1); a verdict instead says the scan missed it" },
	{ .name = "lifecycle", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(lifecycle),
	  .help = "follow the folio through read faults, a write (COW), fork, a split, mremap, "
	  "munmap and exit, checking after each step, caches dropped, whether a fresh fault "
	  "allocates it again as the strategy says; one line a step; exit 0 when its life "
	  "matched, 1 on a leak or an early free (naming the step) or when it cannot tell" },
	{ .name = "allow-drop-caches", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(allow),
	  .help = "let it write 2 to /proc/sys/vm/drop_caches (frees every unused slab object "
	  "of the machine, again and again): required" },
	{ .name = "expect", .kind = ZF_OPT_WORD, .cmds = 1, FIELD(expect), .words = expects,
	  .arg = "WHAT", .help = "--lifecycle's strategy: behaviour (--behaviour's verdict), "
	  "config (the kernel's config), global, mmflag or persistent (default behaviour)" },
	{ .name = "help", .letter = 'h', .kind = ZF_OPT_HELP, .cmds = 1 },
};

const struct zf_opt_set zf_detect_opts = ZF_OPT_SET_OF(detect_table, "detect", detect_usage);

static const char *const fault_names[3] = { "first", "second", "third" };

/*
 * mmflag or persistent, from what the third step saw: the folio at pfn
 * after the first exited and caches were dropped, and whether the third
 * fault allocated it. The verdict and, for persistent, its evidence in
 * msg; NULL and why in msg when the two disagree or the folio outlived
 * what the kernel frees it after.
 */
static const char *after_exit(const struct zf_detect_counts *c, uint64_t pfn, char *msg,
			      size_t len)
{
	bool first = c->at[1].zero_alloc > c->at[0].zero_alloc;
	bool third = c->at[3].zero_alloc > c->at[2].zero_alloc;
	bool kept = !c->exited_err && zf_kpageflags_huge_zero(c->exited_flags);

	msg[0] = '\0';
	if (c->exited_err) {
		snprintf(msg, len, "after the first exited: /proc/kpageflags: %s",
			 strerror(-c->exited_err));
		return NULL;
	}
	if (third && kept) {
		snprintf(msg, len, "after the first exited and caches were dropped, kpageflags "
			 "showed PFN %#" PRIx64 " still the huge zero folio, yet the third fault "
			 "allocated it", pfn);
		return NULL;
	}
	if (third)
		return "mmflag";
	if (first) {
		snprintf(msg, len, "the first fault allocated the folio (the kernel frees it), yet it "
			 "outlived the first process's exit and a drop of caches: another process "
			 "took it meanwhile");
		return NULL;
	}
	if (!kept) {
		snprintf(msg, len, "no fault allocated the folio, yet after the first exited and "
			 "caches were dropped kpageflags showed PFN %#" PRIx64 " no longer the huge "
			 "zero folio", pfn);
		return NULL;
	}
	snprintf(msg, len, "; after the first exited and caches were dropped, PFN %#" PRIx64
		 " still the huge zero folio (kpageflags), mapped there by the third fault", pfn);
	return "persistent";
}

const char *zf_detect_decide(const struct zf_detect_counts *c, char *why, size_t len)
{
	/* each step is one fault of ours: it may allocate the folio once, no more */
	static const struct zf_thp_own one_read = { .zero_allocs = 1 };
	uint64_t pfn = 0, seen_pfn = 0, second_pfn = 0;
	const char *verdict = "global";
	char msg[384];
	int i;

	for (i = 0; i < 3; i++) {
		const struct zf_thp_vmstat *before = &c->at[i], *after = &c->at[i + 1];

		/* the fault's own evidence first: it says best what went wrong */
		if (!zf_seen_huge_zero(&c->seen[i], &seen_pfn, msg, sizeof(msg)) ||
		    zf_thp_explained(before, after, &one_read, msg, sizeof(msg))) {
			snprintf(why, len, "the %s fault: %s", fault_names[i], msg);
			return NULL;
		}
		/* the same folio unless it was allocated again (which may reuse the PFN) */
		if (pfn && seen_pfn != pfn && after->zero_alloc == before->zero_alloc) {
			snprintf(why, len, "the %s fault mapped a huge zero folio at PFN %#" PRIx64
				 ", the one before at %#" PRIx64 ", with no allocation counted "
				 "between", fault_names[i], seen_pfn, pfn);
			return NULL;
		}
		pfn = seen_pfn;
		if (i == 1)
			second_pfn = pfn;
	}
	msg[0] = '\0';
	if (c->at[2].zero_alloc == c->at[1].zero_alloc)
		verdict = after_exit(c, second_pfn, msg, sizeof(msg));
	if (!verdict) {
		snprintf(why, len, "%s", msg);
		return NULL;
	}
	snprintf(why, len, "thp_zero_page_alloc %" PRIu64 " at the start (caches dropped, no process "
		 "mapping it); +%" PRIu64 " at the first fault, +%" PRIu64 " at the second (first still alive), +%" PRIu64
		 " at the third (first exited)%s", c->at[0].zero_alloc,
		 c->at[1].zero_alloc - c->at[0].zero_alloc, c->at[2].zero_alloc - c->at[1].zero_alloc,
		 c->at[3].zero_alloc - c->at[2].zero_alloc, msg);
	return verdict;
}

bool zf_detect_disagrees(const char *verdict, const char *config_strategy)
{
	return strcmp(config_strategy, "unknown") && strcmp(verdict, config_strategy);
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

/* caches dropped, one fault by a new process: what it saw, and the counters after */
static int drop_then_fault(struct zf_fault_seen *seen, struct zf_thp_vmstat *after)
{
	int err = zf_drop_slab();

	if (!err)
		err = zf_fault_elsewhere(seen);
	return err ? err : zf_thp_vmstat_read(after, NULL);
}

/* the first process: faults, reports, unmaps, and lives until hold is closed */
static pid_t first_faulter(struct zf_fault_seen *seen, int hold[2])
{
	int report[2];
	pid_t pid;

	if (pipe(report))
		return -errno;
	pid = zf_faulter(report[1], hold[0], hold[1]);
	close(report[1]);
	if (pid > 0 && read(report[0], seen, sizeof(*seen)) != sizeof(*seen)) {
		kill(pid, SIGKILL);
		zf_reaped(pid);
		pid = -EIO;
	}
	close(report[0]);
	return pid;
}

/*
 * the first exited: caches dropped, the folio looked up where the second
 * fault saw it, then the third fault
 */
static int after_first_exit(struct zf_detect_counts *c)
{
	uint64_t pfn = c->seen[1].pagemap & ZF_PM_PFN_MASK;
	int err = zf_drop_slab();

	if (err)
		return err;
	c->exited_err = zf_kpageflags_read("", pfn, &c->exited_flags);
	err = zf_fault_elsewhere(&c->seen[2]);
	return err ? err : zf_thp_vmstat_read(&c->at[3], NULL);
}

/*
 * no process we can read maps the folio (when one does, its count would
 * keep it alive): 0, or why not; those we cannot read are added to *unread
 */
static int nobody_holds(const char *when, struct zf_unreadable *unread, char *why, size_t len)
{
	struct zf_unreadable now;
	char msg[448];
	int n = zf_detect_holders_check("", &now, msg, sizeof(msg));

	if (now.n > unread->n)
		*unread = now;
	if (n)
		snprintf(why, len, "%s%s", when, msg);
	return n;
}

const char *zf_detect_behaviour(struct zf_detect_counts *c, char *why, size_t len)
{
	struct zf_unreadable unread = { 0 };
	const char *missing = NULL;
	struct zf_sysinfo si;
	int hold[2], err;
	pid_t first;

	memset(c, 0, sizeof(*c));
	zf_sysinfo_read(&si);
	if (zf_thp_usable(&si, why, len) || probe_elsewhere(why, len) <= 0 ||
	    nobody_holds("", &unread, why, len))
		return NULL;
	err = zf_drop_slab();
	if (err || zf_thp_vmstat_read(&c->at[0], &missing)) {
		if (err)
			snprintf(why, len, "/proc/sys/vm/drop_caches: %s", strerror(-err));
		else
			snprintf(why, len, "%s: not there (it takes CONFIG_TRANSPARENT_HUGEPAGE and "
				 "CONFIG_VM_EVENT_COUNTERS)", missing);
		return NULL;
	}
	if (pipe(hold)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return NULL;
	}
	first = first_faulter(&c->seen[0], hold);
	err = first < 0 ? (int)first : zf_thp_vmstat_read(&c->at[1], NULL);
	if (!err)
		err = drop_then_fault(&c->seen[1], &c->at[2]);
	close(hold[1]);	/* the first exits */
	close(hold[0]);
	if (first > 0 && zf_reaped(first) && !err)
		err = -ECHILD;
	if (!err)
		err = after_first_exit(c);
	if (err) {
		snprintf(why, len, "%s", err == -ECHILD ? "a faulting process failed" :
			 strerror(-err));
		return NULL;
	}
	/* one that began to map it during the steps held it through some of them */
	if (nobody_holds("after the steps: ", &unread, why, len))
		return NULL;
	return zf_detect_unread_verdict(zf_detect_decide(c, why, len), &unread, why, len);
}

/* --holder: the process whose mapping the scan must find; 0, or 1 and why not */
static int start_holder(pid_t *pid, int *hold_fd)
{
	struct zf_fault_seen seen;
	char why[256];
	uint64_t pfn;

	*pid = zf_holder_start(&seen, hold_fd);
	if (*pid < 0) {
		fprintf(stderr, "hzfbench: detect: --holder: its process: %s\n", strerror(-*pid));
		return 1;
	}
	if (!zf_seen_huge_zero(&seen, &pfn, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: detect: --holder: its process: %s\n", why);
		close(*hold_fd);
		zf_reaped(*pid);
		return 1;
	}
	fprintf(stderr, "hzfbench: detect: --holder: %d maps the huge zero folio (PFN %#" PRIx64
		")\n", (int)*pid, pfn);
	return 0;
}

static int behaviour(bool with_holder)
{
	struct zf_detect_counts c;
	struct zf_sysinfo si;
	const char *verdict;
	char why[512], seen[3][96];
	int i, hold_fd = -1;
	pid_t holder = 0;
	uint64_t pfn;

	if (with_holder && start_holder(&holder, &hold_fd))
		return 1;
	verdict = zf_detect_behaviour(&c, why, sizeof(why));
	if (holder > 0) {
		close(hold_fd);
		zf_reaped(holder);
	}
	if (!verdict) {
		zf_thp_pmd_note(why, sizeof(why));
		fprintf(stderr, "hzfbench: detect: cannot tell: %s\n", why);
		return 1;
	}
	zf_sysinfo_read(&si);
	for (i = 0; i < 3; i++) {
		zf_seen_huge_zero(&c.seen[i], &pfn, seen[i], sizeof(seen[i]));
		snprintf(seen[i], sizeof(seen[i]), "%#" PRIx64, pfn);
	}
	printf("%s\n  %s\n", verdict, why);
	printf("  each fault mapped the huge zero folio (pagemap, kpageflags: zero page, THP), "
	       "PFN %s, %s, %s; no fallback, no failed allocation, no other huge fault\n",
	       seen[0], seen[1], seen[2]);
	printf("  the kernel's config says: %s (CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=%s, %s)\n",
	       si.kernel_strategy, si.persistent_huge_zero_folio, si.kernel_release);
	if (zf_detect_disagrees(verdict, si.kernel_strategy))
		printf("  %s disagrees with the kernel's config (%s): the kernel counts otherwise "
		       "than its release and config say (a patch?)\n", verdict, si.kernel_strategy);
	return 0;
}

int zf_detect_main(int argc, char **argv)
{
	struct detect_opts o = { 0 };
	int err = zf_opt_parse_only(&zf_detect_opts, argc, argv, &o);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (!o.behave && !o.lifecycle) {
		fprintf(stderr, "hzfbench: detect: --behaviour or --lifecycle is needed (the ways "
			"it detects; hzfbench detect --help)\n");
		return 2;
	}
	if (o.behave && o.lifecycle) {
		fprintf(stderr, "hzfbench: detect: --behaviour and --lifecycle: one or the other\n");
		return 2;
	}
	if (o.holder && !o.behave) {
		fprintf(stderr, "hzfbench: detect: --holder: only --behaviour scans for holders\n");
		return 2;
	}
	if (o.expect && !o.lifecycle) {
		fprintf(stderr, "hzfbench: detect: --expect: %s: only --lifecycle expects a "
			"strategy\n", o.expect);
		return 2;
	}
	if (!o.allow) {
		fprintf(stderr, "hzfbench: detect: --allow-drop-caches is needed: telling the "
			"strategies apart takes the shrinker freeing an unused huge zero folio, "
			"which writing 2 to /proc/sys/vm/drop_caches does (for every unused slab "
			"object of the machine, again and again)\n");
		return 2;
	}
	return o.lifecycle ? zf_lifecycle_main(o.expect ? o.expect : "behaviour") : behaviour(o.holder);
}
