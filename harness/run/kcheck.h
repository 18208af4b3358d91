/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Did the real faults of a kernel-mode run map the huge zero folio? What
 * /proc/vmstat, /proc/self/smaps_rollup and getrusage() say, and the verdict
 * drawn from them. The parsers take text so they can be tested on
 * fabricated files.
 */
#ifndef HZF_KCHECK_H
#define HZF_KCHECK_H

#include <stddef.h>
#include <stdint.h>

/* the value of one counter in /proc/vmstat text; -ENOENT when absent */
int zf_vmstat_value(const char *text, const char *name, uint64_t *value);
/* a number from /proc/PID/sched text ("se.nr_migrations   :   3"); -ENOENT when absent */
int zf_proc_sched_value(const char *text, const char *name, uint64_t *value);
/*
 * Anonymous and AnonHugePages (kB) from /proc/PID/smaps_rollup text: the
 * anonymous memory a read fault could have been given, not Rss, which also
 * counts the program's file pages as they are paged in
 */
int zf_smaps_rollup(const char *text, uint64_t *anon_kb, uint64_t *anon_huge_kb);

/* system-wide THP counters, read before and after a repetition */
struct zf_vmstat {
	uint64_t thp_zero_page_alloc;
	uint64_t thp_fault_fallback;
};
int zf_vmstat_read(struct zf_vmstat *v);

/* what one repetition of a kernel-mode run showed */
struct zf_kernel_obs {
	uint64_t faults;		/* reads done, all tasks */
	uint64_t minflt;		/* page faults taken in the fault phases, all tasks */
	uint64_t thp_fault_fallback;	/* delta: huge faults that fell back to 4 KiB */
	uint64_t rss_growth_kb;		/* most any task's Anonymous grew while its region was mapped */
	uint64_t anon_huge_kb;		/* most AnonHugePages grew while mapped */
};

/*
 * "ok", or what went wrong joined by '+': "fallback" (the kernel fell back
 * to 4 KiB pages), "rss" (real memory was allocated: RSS grew by a huge page
 * or AnonHugePages appeared), "faults" (not one page fault per read).
 */
const char *zf_kernel_verdict(const struct zf_kernel_obs *o, char *buf, size_t len);

/*
 * Does a huge-page read fault on this kernel map the huge zero folio? One
 * 2 MiB-aligned region, madvised, read once: 1 when AnonHugePages did not
 * grow (the zero folio), 0 when the kernel put real memory there (why says
 * so, naming any zero_page word on the kernel command line), -errno when it
 * could not be told. THP must be usable (zf_thp_usable) for it to mean much.
 */
int zf_huge_zero_probe(char *why, size_t len);
/* its decision, on AnonHugePages before and after and /proc/cmdline's text */
int zf_huge_zero_decide(uint64_t anon_huge_before_kb, uint64_t anon_huge_after_kb,
			const char *cmdline, char *why, size_t len);

/* RSS growth at or above this is real memory, not noise */
#define ZF_RSS_GROWTH_LIMIT_KB	2048

#endif
