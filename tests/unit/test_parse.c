// SPDX-License-Identifier: GPL-2.0
/* Option values: sizes, bounded numbers, task and CPU lists, name lists. */
#include <stdlib.h>

#include "../../harness/cli/parse.h"
#include "test.h"

static unsigned long long size_of(const char *s)
{
	unsigned long long v = 0;
	const char *why;

	return zf_parse_size(s, &v, &why) ? ~0ULL : v;
}

TEST(sizes_take_binary_suffixes)
{
	EXPECT_EQ(size_of("4096"), 4096);
	EXPECT_EQ(size_of("4K"), 4096);
	EXPECT_EQ(size_of("4k"), 4096);
	EXPECT_EQ(size_of("2M"), 2 << 20);
	EXPECT_EQ(size_of("2MiB"), 2 << 20);
	EXPECT_EQ(size_of("2MB"), 2 << 20);
	EXPECT_EQ(size_of("100G"), 100ULL << 30);
	EXPECT_EQ(size_of("1T"), 1ULL << 40);
	EXPECT_EQ(size_of("0"), 0);
	/* usemem's spelling of the seed's step */
	EXPECT_EQ(size_of("0x200000"), 2 << 20);
	EXPECT_EQ(size_of("0XaB"), 0xab);
	EXPECT_EQ(size_of("0x1G"), 1ULL << 30);
}

TEST(bad_sizes_are_refused)
{
	static const char *const bad[] = {
		"", "K", "12Q", "-1", "1.5G", "2 M", "2MM", "0x", "0xg", "0x1Q", "99999999999999999999",
		"17179869184G", "16777216T", "M2", "0x10000000000000000",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned long long v;
		const char *why = NULL;

		EXPECT_TRUE(zf_parse_size(bad[i], &v, &why) != 0);
		EXPECT_TRUE(why != NULL);
	}
}

TEST(numbers_are_bounded)
{
	unsigned long v;
	const char *why;

	EXPECT_EQ(zf_parse_ulong("5", 1, 10, &v, &why), 0);
	EXPECT_EQ(v, 5);
	EXPECT_TRUE(zf_parse_ulong("0", 1, 10, &v, &why) != 0);
	EXPECT_STREQ(why, "too small");
	EXPECT_TRUE(zf_parse_ulong("11", 1, 10, &v, &why) != 0);
	EXPECT_STREQ(why, "too large");
	EXPECT_TRUE(zf_parse_ulong("-3", 0, 10, &v, &why) != 0);
	EXPECT_TRUE(zf_parse_ulong("3x", 0, 10, &v, &why) != 0);
	EXPECT_TRUE(zf_parse_ulong("", 0, 10, &v, &why) != 0);
	EXPECT_TRUE(zf_parse_ulong("184467440737095516160", 0, ~0UL, &v, &why) != 0);
}

/* the list as "a,b,c", or "error: why" */
static void list_of(const char *s, long ncpus, char *out, size_t len)
{
	const char *why;
	long *v;
	size_t n, i, used = 0;

	if (zf_parse_int_list(s, 1, 4096, ncpus, &v, &n, &why)) {
		snprintf(out, len, "error: %s", why);
		return;
	}
	out[0] = '\0';
	for (i = 0; i < n; i++)
		used += snprintf(out + used, len - used, "%s%ld", i ? "," : "", v[i]);
	free(v);
}

#define EXPECT_LIST(s, ncpus, want)				\
	do {							\
		char got[512];					\
		list_of(s, ncpus, got, sizeof(got));		\
		EXPECT_STREQ(got, want);			\
	} while (0)

TEST(task_lists)
{
	EXPECT_LIST("1,2,4", 8, "1,2,4");
	EXPECT_LIST("1-4", 8, "1,2,3,4");
	EXPECT_LIST("4,1,1,2-3", 8, "1,2,3,4");
	EXPECT_LIST("pow2", 6, "1,2,4,6");
	EXPECT_LIST("pow2", 8, "1,2,4,8");
	EXPECT_LIST("pow2", 1, "1");
	EXPECT_LIST("all", 3, "1,2,3");
	EXPECT_LIST("pow2,3", 4, "1,2,3,4");
}

TEST(bad_task_lists_are_refused)
{
	EXPECT_LIST("0", 8, "error: too small");
	EXPECT_LIST("5000", 8, "error: too large");
	EXPECT_LIST("3-1", 8, "error: range ends before it starts");
	EXPECT_LIST("1,,2", 8, "error: empty item in list");
	EXPECT_LIST("", 8, "error: empty");
	EXPECT_LIST("1-", 8, "error: not a number");
	EXPECT_LIST("two", 8, "error: not a number");
	EXPECT_LIST("pow2", 0, "error: not a number");
	EXPECT_LIST("1-99999999999999999999", 8, "error: too large");
}

TEST(name_lists_split_on_commas)
{
	const char *why;
	char *buf, **words;
	size_t n;

	ASSERT_EQ(zf_split_list("global,mmflag", &buf, &words, &n, &why), 0);
	EXPECT_EQ(n, 2);
	EXPECT_STREQ(words[0], "global");
	EXPECT_STREQ(words[1], "mmflag");
	free(words);
	free(buf);
	EXPECT_TRUE(zf_split_list("global,", &buf, &words, &n, &why) != 0);
	EXPECT_TRUE(zf_split_list(",", &buf, &words, &n, &why) != 0);
}
