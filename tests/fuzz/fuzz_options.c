// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: every parser of a value typed on the command line. The first
 * byte picks the parser, the rest is the value (cut at its first NUL, as
 * argv would be). A parser may refuse; it must never crash, overflow or leak,
 * and what it accepts must be consistent (sorted lists, bounds kept).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "model.h"
#include "parse.h"
#include "perfctr.h"
#include "topo.h"

#define MAX_VALUE	4096

static void one_list(const char *s, long min, long max, long ncpus)
{
	const char *why;
	size_t n, i;
	long *v;

	if (zf_parse_int_list(s, min, max, ncpus, &v, &n, &why))
		return;
	for (i = 0; i < n; i++)
		if (v[i] < min || v[i] > max || (i && v[i] <= v[i - 1]))
			abort();	/* accepted out of bounds, unsorted or repeated */
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[MAX_VALUE + 1], bad[64], *buf, **words;
	struct zf_perf_list events;
	struct zf_sched sched;
	unsigned long long bytes;
	double lv[ZF_LV_N], ns;
	unsigned long ul;
	const char *why;
	size_t n;

	if (!size || size > MAX_VALUE)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 12) {
	case 0:
		zf_parse_size(s, &bytes, &why);
		break;
	case 1:
		if (!zf_parse_ulong(s, 1, 100000, &ul, &why) && (ul < 1 || ul > 100000))
			abort();
		break;
	case 2:
		one_list(s, 1, 4096, 0);
		break;
	case 3:
		one_list(s, 1, 4096, 1 + data[0] / 10);	/* pow2 and all against a CPU count */
		break;
	case 4:
		if (!zf_split_list(s, &buf, &words, &n, &why)) {
			free(words);
			free(buf);
		}
		break;
	case 5:
		zf_placement_check(s, &why);
		break;
	case 6:
		memset(&events, 0, sizeof(events));
		zf_perf_parse(s, &events, bad, sizeof(bad), &why);
		if (events.n > ZF_PERF_MAX_EVENTS)
			abort();
		break;
	case 7:
		zf_parse_ns(s, &ns);
		break;
	case 8:
		zf_model_levels_parse(s, lv, &why);
		break;
	case 9:
		zf_compare_pattern_check(s, &why);
		break;
	case 10:
		sched.policy = -2;
		if (!zf_sched_parse(s, &sched, &why) &&
		    (sched.policy < 0 || sched.priority < 0 || sched.priority > 99))
			abort();
		break;
	case 11:
		if (!zf_tag_check(s, &why) && (!*s || strlen(s) > 128))
			abort();
		break;
	}
	return 0;
}
