// SPDX-License-Identifier: GPL-2.0
/* The unit test runner: every TEST() in order, then one summary line. */
#include <stdlib.h>

#include "test.h"

static struct zf_test *first, **last = &first;

/* with arguments, only the tests whose names contain one of them */
static bool chosen(const struct zf_test *t, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strstr(t->name, argv[i]))
			return true;
	return argc < 2;
}

void zf_test_register(struct zf_test *t)
{
	*last = t;
	last = &t->next;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;
	struct zf_test *t;

	for (t = first; t; t = t->next) {
		if (!chosen(t, argc, argv))
			continue;
		t->fn(t);
		if (t->skipped) {
			printf("skip - %s: %s\n", t->name, t->skipped);
			skipped++;
		} else if (t->failed) {
			printf("FAIL - %s\n", t->name);
			failed++;
		} else {
			printf("ok   - %s\n", t->name);
			passed++;
		}
		fflush(stdout);
	}
	printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
