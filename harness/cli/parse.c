// SPDX-License-Identifier: GPL-2.0
/* Parsers for user input: see parse.h. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static int parse_digits(const char **p, unsigned long long *out, const char **why)
{
	unsigned long long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s)) {
		*why = "not a number";
		return -EINVAL;
	}
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = *s - '0';

		if (v > (ULLONG_MAX - d) / 10) {
			*why = "too large";
			return -EINVAL;
		}
		v = v * 10 + d;
	}
	*p = s;
	*out = v;
	return 0;
}

/* 0x200000, as usemem's -j takes it */
static int parse_hex(const char **p, unsigned long long *out, const char **why)
{
	unsigned long long v = 0;
	const char *s = *p + 2;

	if (!isxdigit((unsigned char)*s)) {
		*why = "not a size (a number with an optional K, M, G or T)";
		return -EINVAL;
	}
	for (; isxdigit((unsigned char)*s); s++) {
		unsigned d = isdigit((unsigned char)*s) ? *s - '0' : (tolower(*s) - 'a' + 10);

		if (v > (ULLONG_MAX >> 4)) {
			*why = "too large";
			return -EINVAL;
		}
		v = v << 4 | d;
	}
	*p = s;
	*out = v;
	return 0;
}

int zf_parse_size(const char *s, unsigned long long *out, const char **why)
{
	unsigned long long v;
	unsigned shift = 0;
	const char *p = s;
	int err;

	if (!isdigit((unsigned char)*p)) {
		*why = "not a size (a number with an optional K, M, G or T)";
		return -EINVAL;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		err = parse_hex(&p, &v, why);
	else
		err = parse_digits(&p, &v, why);
	if (err)
		return -EINVAL;
	switch (*p) {
	case 'k': case 'K': shift = 10; p++; break;
	case 'm': case 'M': shift = 20; p++; break;
	case 'g': case 'G': shift = 30; p++; break;
	case 't': case 'T': shift = 40; p++; break;
	}
	if (shift && (!strcmp(p, "iB") || !strcmp(p, "B")))
		p += strlen(p);
	else if (!shift && !strcmp(p, "B"))
		p++;
	if (*p) {
		*why = "not a size (a number with an optional K, M, G or T)";
		return -EINVAL;
	}
	if (shift && v > (ULLONG_MAX >> shift)) {
		*why = "too large";
		return -EINVAL;
	}
	*out = v << shift;
	return 0;
}

int zf_parse_ulong(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out, const char **why)
{
	unsigned long long v;
	const char *p = s;

	if (parse_digits(&p, &v, why))
		return -EINVAL;
	if (*p) {
		*why = "not a number";
		return -EINVAL;
	}
	if (v < min || v > max) {
		*why = v < min ? "too small" : "too large";
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

struct long_vec {
	long *v;
	size_t n, cap;
};

static int vec_push(struct long_vec *vec, long x)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 16;
		long *v = realloc(vec->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = x;
	return 0;
}

/* one item of a list, N or A-B: its first and last values; -EINVAL with why */
static int parse_range(const char *item, unsigned long long *a, unsigned long long *b,
		       const char *what, const char **why)
{
	const char *p = item;

	if (parse_digits(&p, a, why))
		return -EINVAL;
	*b = *a;
	if (*p == '-') {
		p++;
		if (parse_digits(&p, b, why))
			return -EINVAL;
	}
	if (*p) {
		*why = what;
		return -EINVAL;
	}
	if (*b < *a) {
		*why = "range ends before it starts";
		return -EINVAL;
	}
	return 0;
}

/* one item of an int list: N, A-B, pow2 or all */
static int parse_item(const char *item, long min, long max, long ncpus,
		      struct long_vec *vec, const char **why)
{
	unsigned long long a, b;
	long x;

	if (ncpus > 0 && !strcmp(item, "all")) {
		a = 1;
		b = ncpus;
	} else if (ncpus > 0 && !strcmp(item, "pow2")) {
		for (x = 1; x < ncpus; x *= 2)
			if (x >= min && x <= max && vec_push(vec, x))
				return -ENOMEM;
		return ncpus >= min && ncpus <= max ? vec_push(vec, ncpus) : 0;
	} else if (parse_range(item, &a, &b, ncpus > 0 ? "not a number, range (A-B), pow2 or all" :
			       "not a number or range (A-B)", why)) {
		return -EINVAL;
	}
	if (a < (unsigned long long)min || b > (unsigned long long)max) {
		*why = a < (unsigned long long)min ? "too small" : "too large";
		return -EINVAL;
	}
	for (x = a; x <= (long)b; x++)
		if (vec_push(vec, x))
			return -ENOMEM;
	return 0;
}

int zf_parse_int_list(const char *s, long min, long max, long ncpus,
		      long **out, size_t *n, const char **why)
{
	struct long_vec vec = { 0 };
	char *buf, **items;
	size_t i, j, nitems;
	int err;

	err = zf_split_list(s, &buf, &items, &nitems, why);
	if (err)
		return err;
	for (i = 0; i < nitems && !err; i++)
		err = parse_item(items[i], min, max, ncpus, &vec, why);
	free(items);
	free(buf);
	if (!err && !vec.n) {
		*why = "empty";
		err = -EINVAL;
	}
	if (err) {
		if (err == -ENOMEM)
			*why = "out of memory";
		free(vec.v);
		return -EINVAL;
	}
	qsort(vec.v, vec.n, sizeof(long), cmp_long);
	for (i = j = 0; i < vec.n; i++)
		if (!j || vec.v[j - 1] != vec.v[i])
			vec.v[j++] = vec.v[i];
	*out = vec.v;
	*n = j;
	return 0;
}

int zf_parse_ranges(const char *s, zf_range_fn fn, void *arg, const char **why)
{
	unsigned long long a, b;
	char *buf, **items;
	size_t i, nitems;
	int err;

	if (zf_split_list(s, &buf, &items, &nitems, why))
		return -EINVAL;
	for (i = 0, err = 0; !err && i < nitems; i++) {
		err = parse_range(items[i], &a, &b, "not a number or range (A-B)", why);
		if (!err)
			err = fn(a, b, arg, why);
	}
	free(items);
	free(buf);
	return err;
}

int zf_split_list(const char *s, char **buf, char ***out, size_t *n, const char **why)
{
	size_t count = 1, i = 0;
	char *copy, *p, **words;

	if (!*s) {
		*why = "empty";
		return -EINVAL;
	}
	for (p = (char *)s; *p; p++)
		count += *p == ',';
	copy = strdup(s);
	words = calloc(count, sizeof(*words));
	if (!copy || !words) {
		free(copy);
		free(words);
		*why = "out of memory";
		return -EINVAL;
	}
	for (p = copy; ; p++) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (!*p) {
			free(copy);
			free(words);
			*why = "empty item in list";
			return -EINVAL;
		}
		words[i++] = p;
		if (!comma)
			break;
		p = comma;
	}
	*buf = copy;
	*out = words;
	*n = i;
	return 0;
}

int zf_bad_value(const char *opt, const char *value, const char *why)
{
	fprintf(stderr, "hzfbench: %s: %s: %s\n", opt, *value ? value : "\"\"", why);
	return 2;
}

int zf_out_check(const char *value, const char **why)
{
	*why = "empty folder name";
	return !*value;
}

int zf_parse_num_opt(const char *opt, const char *arg, unsigned long min, unsigned long max,
		     unsigned long *out)
{
	const char *why;

	return zf_parse_ulong(arg, min, max, out, &why) ? zf_bad_value(opt, arg, why) : 0;
}

int zf_parse_size_opt(const char *opt, const char *arg, unsigned long long *out)
{
	const char *why;

	if (zf_parse_size(arg, out, &why))
		return zf_bad_value(opt, arg, why);
	if (!*out)
		return zf_bad_value(opt, arg, "must be at least 1 byte");
	return 0;
}

int zf_parse_ns(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > 1e9)
		return -EINVAL;
	*out = v;
	return 0;
}

int zf_parse_ns_opt(const char *opt, const char *arg, double *out)
{
	if (zf_parse_ns(arg, out))
		return zf_bad_value(opt, arg, "not a number of ns in [0, 1e9]");
	return 0;
}

int zf_opt_unknown(const char *cmd, char *const argv[])
{
	fprintf(stderr, "hzfbench: %s: %s: %s\n", cmd, argv[optind - 1],
		optopt ? "needs a value" : "unknown option");
	return 2;
}

int zf_opt_no_operands(const char *cmd, int argc, char *const argv[])
{
	if (optind >= argc)
		return 0;
	fprintf(stderr, "hzfbench: %s: %s: unexpected argument\n", cmd, argv[optind]);
	return 2;
}

int zf_parse_double_opt(const char *opt, const char *arg, double min, double max, double *out)
{
	char why[64], *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || isnan(*out))
		return zf_bad_value(opt, arg, "not a number");
	if (*out < min || *out > max) {
		snprintf(why, sizeof(why), "out of range (%g to %g)", min, max);
		return zf_bad_value(opt, arg, why);
	}
	return 0;
}

int zf_parse_pct_opt(const char *opt, const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || isnan(*out) || !(*out > 0) || *out > 100)
		return zf_bad_value(opt, arg, "not a percentage in (0, 100]");
	return 0;
}

int zf_tag_check(const char *s, const char **why)
{
	size_t n = strlen(s), i;

	if (!n || n > 128) {
		*why = n ? "longer than 128 bytes" : "empty";
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < ' ' || s[i] == 0x7f) {
			*why = "holds a control character";
			return -EINVAL;
		}
	}
	return 0;
}

int zf_sched_parse(const char *s, struct zf_sched *out, const char **why)
{
	static const struct { const char *name; int policy; } policies[] = {
		{ "fifo", SCHED_FIFO }, { "rr", SCHED_RR }, { "other", SCHED_OTHER },
	};
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s), i;
	unsigned long prio = 1;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strlen(policies[i].name) == len && !strncmp(s, policies[i].name, len))
			break;
	if (i == sizeof(policies) / sizeof(policies[0])) {
		*why = "not a policy (fifo, rr, other; fifo:PRIO, rr:PRIO)";
		return -EINVAL;
	}
	out->policy = policies[i].policy;
	if (out->policy == SCHED_OTHER) {
		if (colon) {
			*why = "other takes no priority";
			return -EINVAL;
		}
		out->priority = 0;
		return 0;
	}
	if (colon && zf_parse_ulong(colon + 1, 1, 99, &prio, why)) {
		*why = "priority not in 1-99";
		return -EINVAL;
	}
	out->priority = (int)prio;
	return 0;
}

const char *zf_sched_name(const struct zf_sched *s, char *buf, size_t len)
{
	if (s->policy < 0)
		snprintf(buf, len, "inherited");
	else if (s->policy == SCHED_OTHER)
		snprintf(buf, len, "other");
	else
		snprintf(buf, len, "%s:%d", s->policy == SCHED_FIFO ? "fifo" : "rr", s->priority);
	return buf;
}
