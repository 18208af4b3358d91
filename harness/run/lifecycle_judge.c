// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench detect --lifecycle`'s judgement (see detect.h): what a fresh
 * fault after dropping caches must do at each kind of check under each
 * strategy, and whether what it did fits, on the counters and the fault's
 * own view alone, so that it is tested on fabricated ones.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "detect.h"

/* what a fresh fault after dropping caches must do: allocate (1) or not (0) */
static const struct {
	const char *strategy;
	unsigned char alloc[4];	/* by enum zf_lc_check */
	const char *reason[4];
} expect_table[] = {
	{ "global", { 1, 0, 1, 1 }, { "nothing maps it: freed", "a PMD maps it: kept",
				      "no PMD maps it: freed", "every mm exited: freed" } },
	{ "mmflag", { 1, 0, 0, 1 }, { "no mm that used it lives: freed", "a PMD maps it: kept",
				      "the mm that used it lives: kept", "every mm exited: freed" } },
	{ "persistent", { 0, 0, 0, 0 }, { "never freed", "never freed", "never freed",
					  "never freed" } },
};

static int expect_index(const char *strategy)
{
	int i;

	for (i = 0; i < (int)(sizeof(expect_table) / sizeof(expect_table[0])); i++)
		if (!strcmp(strategy, expect_table[i].strategy))
			return i;
	return -1;
}

int zf_lifecycle_expect(const char *strategy, enum zf_lc_check check)
{
	int i = expect_index(strategy);

	return i < 0 ? -1 : expect_table[i].alloc[check];
}

enum zf_lc_judgement zf_lifecycle_judge(const char *strategy, enum zf_lc_check check,
					const struct zf_thp_vmstat *before,
					const struct zf_thp_vmstat *after,
					const struct zf_fault_seen *seen, uint64_t folio_pfn,
					char *why, size_t len)
{
	static const struct zf_thp_own one_read = { .zero_allocs = 1 };
	int i = expect_index(strategy), want;
	uint64_t got, pfn = 0;
	char msg[256];

	if (i < 0) {
		snprintf(why, len, "%s: not a strategy", strategy);
		return ZF_LC_CANNOT_TELL;
	}
	want = expect_table[i].alloc[check];
	if (!zf_seen_huge_zero(seen, &pfn, msg, sizeof(msg)) ||
	    zf_thp_explained(before, after, &one_read, msg, sizeof(msg))) {
		snprintf(why, len, "the fresh fault: %s", msg);
		return ZF_LC_CANNOT_TELL;
	}
	got = after->zero_alloc - before->zero_alloc;
	if (!got && folio_pfn && pfn != folio_pfn) {
		snprintf(why, len, "the fresh fault mapped a huge zero folio at PFN %#" PRIx64
			 " where the folio was at %#" PRIx64 ", with no allocation counted",
			 pfn, folio_pfn);
		return ZF_LC_CANNOT_TELL;
	}
	snprintf(why, len, "thp_zero_page_alloc +%" PRIu64 ", want +%d (%s: %s)", got, want,
		 strategy, expect_table[i].reason[check]);
	if (got == (uint64_t)want)
		return ZF_LC_OK;
	if (check == ZF_LC_START && want) {
		snprintf(why, len, "thp_zero_page_alloc +%" PRIu64 ", want +%d: the folio outlived "
			 "a drop of caches with no process of ours alive: another process holds "
			 "it (or the kernel is not %s)", got, want, strategy);
		return ZF_LC_CANNOT_TELL;
	}
	return got ? ZF_LC_EARLY_FREE : ZF_LC_LEAK;
}
