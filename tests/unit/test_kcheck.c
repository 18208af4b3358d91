// SPDX-License-Identifier: GPL-2.0
/* Kernel-mode verification on fabricated /proc and /sys text; the kernel's own strategy. */
#include <errno.h>

#include "../../harness/run/kcheck.h"
#include "../../harness/doctor/sysinfo.h"
#include "test.h"

static const char vmstat[] =
	"nr_free_pages 5747381\n"
	"thp_fault_alloc 12\n"
	"thp_fault_fallback 3\n"
	"thp_fault_fallback_charge 0\n"
	"thp_zero_page_alloc 1\n"
	"thp_zero_page_alloc_failed 0\n";

static const char smaps_rollup[] =
	"55d0c0a00000-7ffd2c3fe000 ---p 00000000 00:00 0                          [rollup]\n"
	"Rss:                9012 kB\n"
	"Pss:                 381 kB\n"
	"Pss_Anon:            412 kB\n"
	"Anonymous:          1512 kB\n"
	"AnonHugePages:      2048 kB\n";

TEST(vmstat_counters_are_read_by_exact_name)
{
	uint64_t v;

	EXPECT_EQ(zf_vmstat_value(vmstat, "thp_fault_fallback", &v), 0);
	EXPECT_EQ(v, 3);
	EXPECT_EQ(zf_vmstat_value(vmstat, "thp_zero_page_alloc", &v), 0);
	EXPECT_EQ(v, 1);
	EXPECT_EQ(zf_vmstat_value(vmstat, "thp_zero_page", &v), -ENOENT);
	EXPECT_EQ(zf_vmstat_value("", "thp_fault_fallback", &v), -ENOENT);
}

TEST(smaps_rollup_anonymous_not_rss_and_anon_huge)
{
	uint64_t anon, huge;

	EXPECT_EQ(zf_smaps_rollup(smaps_rollup, &anon, &huge), 0);
	EXPECT_EQ(anon, 1512);		/* Anonymous: not Rss (file pages), not Pss_Anon */
	EXPECT_EQ(huge, 2048);
	EXPECT_TRUE(zf_smaps_rollup("Rss: 3 kB\nAnonHugePages: 0 kB\n", &anon, &huge) != 0);
}

TEST(verdict_ok_when_every_read_mapped_the_zero_folio)
{
	struct zf_kernel_obs o = { .faults = 51200, .minflt = 51202, .rss_growth_kb = 132 };
	char buf[64];

	EXPECT_STREQ(zf_kernel_verdict(&o, buf, sizeof(buf)), "ok");
}

TEST(verdict_sees_fallback_rss_growth_and_missing_faults)
{
	struct zf_kernel_obs o = { .faults = 51200, .minflt = 51200 };
	char buf[64];

	o.thp_fault_fallback = 7;
	EXPECT_STREQ(zf_kernel_verdict(&o, buf, sizeof(buf)), "fallback");
	o.thp_fault_fallback = 0;
	o.rss_growth_kb = 4096;		/* real memory behind the reads */
	EXPECT_STREQ(zf_kernel_verdict(&o, buf, sizeof(buf)), "rss");
	o.rss_growth_kb = 0;
	o.anon_huge_kb = 2048;		/* a real THP, not the zero folio */
	EXPECT_STREQ(zf_kernel_verdict(&o, buf, sizeof(buf)), "rss");
	o.anon_huge_kb = 0;
	o.minflt = 100;			/* populated beforehand: the reads did not fault */
	EXPECT_STREQ(zf_kernel_verdict(&o, buf, sizeof(buf)), "faults");
	o.minflt = 2ULL * 51200;	/* two faults a read: not one huge fault each */
	o.thp_fault_fallback = 1;
	EXPECT_STREQ(zf_kernel_verdict(&o, buf, sizeof(buf)), "fallback+faults");
}

TEST(kernel_strategy_from_release_and_config)
{
	EXPECT_STREQ(zf_kernel_strategy("4.8.17", "unknown"), "global");
	EXPECT_STREQ(zf_kernel_strategy("4.9.0", "unknown"), "mmflag");
	EXPECT_STREQ(zf_kernel_strategy("6.1.0-27-amd64", "unknown"), "mmflag");
	EXPECT_STREQ(zf_kernel_strategy("6.18.44-fc-v1098", "n"), "mmflag");
	EXPECT_STREQ(zf_kernel_strategy("6.18.44-fc-v1098", "y"), "persistent");
	EXPECT_STREQ(zf_kernel_strategy("6.18.44-fc-v1098", "unknown"), "unknown");
	EXPECT_STREQ(zf_kernel_strategy("3.10.0", "n"), "global");
	EXPECT_STREQ(zf_kernel_strategy("garbage", "n"), "unknown");
}

TEST(thp_off_and_zero_page_off_are_refused_naming_the_file)
{
	struct zf_sysinfo si = { 0 };
	char why[512];

	snprintf(si.thp_enabled, sizeof(si.thp_enabled), "madvise");
	snprintf(si.thp_use_zero_page, sizeof(si.thp_use_zero_page), "1");
	EXPECT_EQ(zf_thp_usable(&si, why, sizeof(why)), 0);
	snprintf(si.thp_enabled, sizeof(si.thp_enabled), "never");
	EXPECT_TRUE(zf_thp_usable(&si, why, sizeof(why)) != 0);
	EXPECT_TRUE(strstr(why, "transparent_hugepage/enabled") != NULL);
	snprintf(si.thp_enabled, sizeof(si.thp_enabled), "always");
	snprintf(si.thp_use_zero_page, sizeof(si.thp_use_zero_page), "0");
	EXPECT_TRUE(zf_thp_usable(&si, why, sizeof(why)) != 0);
	EXPECT_TRUE(strstr(why, "use_zero_page") != NULL);
}

TEST(huge_zero_probe_decides_on_anon_huge_growth_and_names_the_boot_word)
{
	char why[512];

	EXPECT_EQ(zf_huge_zero_decide(0, 0, "quiet", why, sizeof(why)), 1);
	/* another thread's huge page is not this probe's */
	EXPECT_EQ(zf_huge_zero_decide(4096, 4096 + 2044, "", why, sizeof(why)), 1);
	ASSERT_EQ(zf_huge_zero_decide(0, 2048, "console=ttyS0 pvm_no_zero_page=1 quiet", why,
				      sizeof(why)), 0);
	EXPECT_STREQ(why, "a huge-page read fault allocated 2048 kB of real memory, not the huge "
		     "zero folio; the kernel command line has pvm_no_zero_page=1");
	/* a THP sysfs word is not a boot parameter that turns zero pages off */
	ASSERT_EQ(zf_huge_zero_decide(2048, 4096, "transparent_hugepage.use_zero_page=0", why,
				      sizeof(why)), 0);
	EXPECT_STREQ(why, "a huge-page read fault allocated 2048 kB of real memory, not the huge "
		     "zero folio");
}

TEST(huge_zero_probe_on_this_kernel_gives_an_answer)
{
	char why[512] = "";
	int mapped = zf_huge_zero_probe(why, sizeof(why));

	/* either answer is this kernel's; what matters is that it is one, with a reason */
	EXPECT_TRUE(mapped == 0 || mapped == 1);
	if (!mapped)
		EXPECT_TRUE(strstr(why, "real memory") != NULL);
}
