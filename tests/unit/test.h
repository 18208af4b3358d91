/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small test harness in the manner of kselftest_harness.h: TEST(name)
 * registers a function; ASSERT_* stops the test, EXPECT_* records and goes
 * on; SKIP(why) says why a test could not run here.
 */
#ifndef HZF_TEST_H
#define HZF_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct zf_test {
	const char *name;
	void (*fn)(struct zf_test *t);
	int failed;
	const char *skipped;
	struct zf_test *next;
};

void zf_test_register(struct zf_test *t);

#define TEST(name)							\
	static void test_##name(struct zf_test *_t);			\
	static struct zf_test _test_##name = { #name, test_##name, 0, NULL, NULL }; \
	__attribute__((constructor)) static void _register_##name(void)	\
	{								\
		zf_test_register(&_test_##name);			\
	}								\
	static void test_##name(struct zf_test *_t)

#define _CHECK(cond, fatal, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "  %s:%d: %s: " fmt "\n", __FILE__,	\
				__LINE__, #cond, ##__VA_ARGS__);		\
			_t->failed = 1;					\
			if (fatal)					\
				return;					\
		}							\
	} while (0)

#define ASSERT_TRUE(c)		_CHECK((c), 1, "%s", "")
#define EXPECT_TRUE(c)		_CHECK((c), 0, "%s", "")
#define ASSERT_EQ(a, b)		_CHECK((long long)(a) == (long long)(b), 1, "%lld != %lld", \
				       (long long)(a), (long long)(b))
#define EXPECT_EQ(a, b)		_CHECK((long long)(a) == (long long)(b), 0, "%lld != %lld", \
				       (long long)(a), (long long)(b))
#define ASSERT_STREQ(a, b)	_CHECK(!strcmp((a), (b)), 1, "\"%s\" != \"%s\"", (a), (b))
#define EXPECT_STREQ(a, b)	_CHECK(!strcmp((a), (b)), 0, "\"%s\" != \"%s\"", (a), (b))
#define SKIP(why)		do { _t->skipped = (why); return; } while (0)

#endif
