// SPDX-License-Identifier: GPL-2.0
/*
 * --events beyond perf's generic names: raw codes with config1 and config2,
 * the PMU's own names through libpfm4 (where the build has it), the list of
 * what this machine counts, and one-line refusals that name the event.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../harness/run/perfctr.h"
#include "../../harness/run/pmu.h"
#include "test.h"

#define NO_PFM	"this build has no libpfm4 (Debian: libpfm4-dev, then rebuild)"

TEST(raw_events_take_config1_and_config2)
{
	struct zf_perf_list l;
	char bad[ZF_PERF_NAME_MAX];
	const char *why = NULL;

	ASSERT_EQ(zf_perf_parse("r01b7:config1=0x10003c0001,r1b7:config1=3f,r2e:config2=FF:config1=0X1",
				&l, bad, sizeof(bad), &why), 0);
	ASSERT_EQ(l.n, 3);
	EXPECT_EQ(l.ev[0].type, PERF_TYPE_RAW);
	EXPECT_EQ(l.ev[0].config, 0x1b7);
	EXPECT_EQ(l.ev[0].config1, 0x10003c0001);
	EXPECT_EQ(l.ev[0].config2, 0);
	EXPECT_EQ(l.ev[1].config, 0x1b7);	/* the same code, other responses: another event */
	EXPECT_EQ(l.ev[1].config1, 0x3f);
	EXPECT_EQ(l.ev[2].config, 0x2e);
	EXPECT_EQ(l.ev[2].config1, 1);
	EXPECT_EQ(l.ev[2].config2, 0xff);
	EXPECT_STREQ(l.ev[2].name, "r2e:config2=FF:config1=0X1");
	EXPECT_TRUE(!l.ev[0].exclude_user && !l.ev[0].exclude_kernel);
	/* one event by two spellings */
	EXPECT_TRUE(zf_perf_parse("r01b7:config1=3f,r1b7:config1=0x3f", &l, bad, sizeof(bad),
				  &why) != 0);
	EXPECT_STREQ(bad, "r1b7:config1=0x3f");
	EXPECT_STREQ(why, "given twice");
}

TEST(bad_raw_events_are_refused_naming_the_event)
{
	static const char *const words[] = {
		"r1:config1=", "r1:config1=0x", "r1:config3=1", "r1:config1=1:config1=2",
		"r1:config1=zz", "r1:", "r1:config1=12345678901234567", "r1:config1=1,",
	};
	struct zf_perf_list l;
	char bad[ZF_PERF_NAME_MAX], word[ZF_PERF_NAME_MAX];
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *why = NULL;

		snprintf(word, sizeof(word), "%.*s", (int)strcspn(words[i], ","), words[i]);
		EXPECT_TRUE(zf_perf_parse(words[i], &l, bad, sizeof(bad), &why) != 0);
		if (strchr(words[i], ',')) {	/* the empty item after it */
			EXPECT_STREQ(bad, "");
			continue;
		}
		EXPECT_STREQ(bad, word);
		ASSERT_TRUE(why != NULL);
		EXPECT_TRUE(!strncmp(why, "not a raw event: rNNNN[:config1=HEX]", 36));
	}
}

TEST(an_event_name_longer_than_any_is_refused_whole)
{
	struct zf_perf_list l;
	char bad[2 * ZF_PERF_NAME_MAX], name[ZF_PERF_NAME_MAX + 8];
	const char *why = NULL;

	memset(name, 'A', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	EXPECT_TRUE(zf_perf_parse(name, &l, bad, sizeof(bad), &why) != 0);
	EXPECT_STREQ(bad, name);
	EXPECT_STREQ(why, "not an event: longer than any event's name");
}

TEST(pmu_names_without_libpfm4_are_refused_saying_so)
{
	struct zf_perf_list l;
	char bad[ZF_PERF_NAME_MAX];
	const char *why = NULL;

	if (zf_pmu_built())
		SKIP("this build has libpfm4: the refusal without it is for a build without");
	EXPECT_TRUE(zf_perf_parse("cycles,MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", &l, bad, sizeof(bad),
				  &why) != 0);
	EXPECT_STREQ(bad, "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM");
	ASSERT_TRUE(why != NULL);
	EXPECT_TRUE(strstr(why, "this build has no libpfm4") != NULL);
}

/* libpfm4's own table of perf's generic events: present wherever it runs, a VM too */
TEST(libpfm4_encodes_perf_generic_events_by_its_names)
{
	struct zf_perf_list l;
	char bad[ZF_PERF_NAME_MAX];
	const char *why = NULL;

	if (!zf_pmu_built())
		SKIP(NO_PFM);
	ASSERT_EQ(zf_perf_parse("PERF_COUNT_SW_TASK_CLOCK,perf::PAGE-FAULTS:u", &l, bad,
				sizeof(bad), &why), 0);
	EXPECT_EQ(l.ev[0].type, PERF_TYPE_SOFTWARE);
	EXPECT_EQ(l.ev[0].config, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_TRUE(!l.ev[0].exclude_user && !l.ev[0].exclude_kernel);	/* both, as ours */
	EXPECT_EQ(l.ev[1].config, PERF_COUNT_SW_PAGE_FAULTS);
	EXPECT_TRUE(!l.ev[1].exclude_user && l.ev[1].exclude_kernel);	/* :u, user only */
	EXPECT_STREQ(l.ev[1].name, "perf::PAGE-FAULTS:u");
	/* libpfm4's name for one of ours: the same event */
	EXPECT_TRUE(zf_perf_parse("task-clock,perf::TASK-CLOCK", &l, bad, sizeof(bad), &why) != 0);
	EXPECT_STREQ(why, "given twice");
}

TEST(an_event_no_detected_pmu_has_fails_naming_it)
{
	struct zf_perf_list l;
	char bad[ZF_PERF_NAME_MAX];
	const char *why = NULL;

	if (!zf_pmu_built())
		SKIP(NO_PFM);
	EXPECT_TRUE(zf_perf_parse("task-clock,NO_SUCH_EVENT:XYZ", &l, bad, sizeof(bad), &why) != 0);
	EXPECT_STREQ(bad, "NO_SUCH_EVENT:XYZ");
	ASSERT_TRUE(why != NULL);
	EXPECT_TRUE(strstr(why, "nor an event of a PMU libpfm4 detected on this CPU") != NULL);
}

/* what --events list prints, with its pattern */
static char *listed(const char *pattern)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	zf_perf_print_list(f, pattern);
	fclose(f);
	return text;
}

/*
 * The line the list should give name, what perf_event_open says of it here,
 * opened alone (a refusal's line goes on to name perf_event_paranoid)
 */
static void expected_line(const char *name, const char *kind, char *line, size_t len)
{
	struct zf_perf_list one = { .n = 1 };
	struct zf_perf_task t;
	char hint[256];

	zf_perf_lookup(name, &one.ev[0], NULL);
	zf_perf_open(&t, &one);
	snprintf(line, len, "\n  %-24s %-9s %s%s", name, kind,
		 !t.err[0] ? "counts" : zf_perf_hint(t.err[0], hint, sizeof(hint)) ? "refused: " :
		 "unsupported: ", t.err[0] ? strerror(t.err[0]) : "");
	zf_perf_close(&t);
}

TEST(the_list_says_what_each_generic_name_does_here)
{
	char *all = listed(NULL), *clocks = listed("CLOCK"), line[128];

	ASSERT_TRUE(all && clocks);
	expected_line("task-clock", "software", line, sizeof(line));
	EXPECT_TRUE(strstr(all, line) != NULL);
	expected_line("cycles", "hardware", line, sizeof(line));
	EXPECT_TRUE(strstr(all, line) != NULL);
	EXPECT_TRUE(strstr(all, "raw codes: rNNNN[:config1=HEX][:config2=HEX]") != NULL);
	EXPECT_TRUE(strstr(all, zf_pmu_built() ? "libpfm4: PMUs detected on this CPU: " :
			   "libpfm4: not in this build") != NULL);
	EXPECT_TRUE(strstr(clocks, "  task-clock ") && strstr(clocks, "  cpu-clock "));
	EXPECT_TRUE(!strstr(clocks, "  cycles "));
	free(all);
	free(clocks);
}

/*
 * A CPU's own events where this one has none: libpfm4 takes Icelake's tables
 * when LIBPFM_FORCE_PMU says so, for tests, and encodes as on that CPU
 */
TEST(a_cpus_own_events_encode_with_config1)
{
	struct zf_perf_list l;
	char bad[ZF_PERF_NAME_MAX], *hitm;
	const char *why = NULL;

	if (!zf_pmu_built())
		SKIP(NO_PFM);
#ifndef __x86_64__
	SKIP("Intel's tables are in x86-64's libpfm4 only");
#endif
	zf_pmu_done();
	setenv("LIBPFM_FORCE_PMU", "icl", 1);
	EXPECT_EQ(zf_perf_parse("OCR:DEMAND_DATA_RD_L3_HIT_SNOOP_HITM,MEM_LOAD_L3_HIT_RETIRED:"
				"XSNP_HITM,icl::INST_RETIRED:ANY_P:u", &l, bad, sizeof(bad), &why), 0);
	EXPECT_EQ(l.ev[0].type, PERF_TYPE_RAW);
	EXPECT_EQ(l.ev[0].config, 0x1b7);		/* OFFCORE_RESPONSE_0 */
	EXPECT_EQ(l.ev[0].config1, 0x10003c0001);	/* demand data reads, L3 hit, HITM */
	EXPECT_EQ(l.ev[1].config, 0x4d2);
	EXPECT_EQ(l.ev[1].config1, 0);
	EXPECT_EQ(l.ev[2].config, 0xc0);
	EXPECT_TRUE(!l.ev[2].exclude_user && l.ev[2].exclude_kernel);
	EXPECT_TRUE(zf_perf_parse("INST_RETIRED:NO_SUCH_MASK", &l, bad, sizeof(bad), &why) != 0);
	EXPECT_STREQ(bad, "INST_RETIRED:NO_SUCH_MASK");
	EXPECT_STREQ(why, "libpfm4: not a unit mask or modifier of this event");
	hitm = listed("hitm");
	EXPECT_TRUE(hitm && strstr(hitm, "\n  icl::MEM_LOAD_L3_HIT_RETIRED :XSNP_HITM\n"));
	EXPECT_TRUE(hitm && !strstr(hitm, "INST_RETIRED"));
	free(hitm);
	unsetenv("LIBPFM_FORCE_PMU");
	zf_pmu_done();
}
