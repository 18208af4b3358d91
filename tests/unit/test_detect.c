// SPDX-License-Identifier: GPL-2.0
/* detect --behaviour's decision on fabricated /proc/vmstat sequences. */
#include <stdio.h>
#include <string.h>

#include "../../harness/detect.h"
#include "../../harness/kcheck.h"
#include "test.h"

/* four /proc/vmstat texts, as the four steps would read them */
static const char *decide(const char *const vmstat[4], char *why, size_t len)
{
	struct zf_detect_counts c = { 0 };
	uint64_t *steps[4] = { &c.start, &c.first, &c.second, &c.third };
	int i;

	for (i = 0; i < 4; i++)
		if (zf_vmstat_value(vmstat[i], "thp_zero_page_alloc", steps[i]))
			return "unreadable";
	return zf_detect_decide(&c, why, len);
}

#define VMSTAT(n)	"nr_free_pages 5747381\nthp_zero_page_alloc " #n "\nthp_zero_page_alloc_failed 0\n"

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
	char why[512];

	EXPECT_STREQ(decide(global, why, sizeof(why)), "global");
	EXPECT_STREQ(why, "thp_zero_page_alloc 0 at the start; +1 at the first fault, +1 at the "
		     "second (first still alive), +1 at the third (first exited)");
	EXPECT_STREQ(decide(global_held, why, sizeof(why)), "global");
	EXPECT_STREQ(decide(mmflag, why, sizeof(why)), "mmflag");
	EXPECT_TRUE(strstr(why, "+0 at the second (first still alive), +1 at the third") != NULL);
	EXPECT_STREQ(decide(persistent, why, sizeof(why)), "persistent");
	EXPECT_TRUE(strstr(why, "+0 at the first fault, +0 at the second") != NULL);
	EXPECT_STREQ(decide(torn, why, sizeof(why)), "unreadable");
}
