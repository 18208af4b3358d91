/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers for every value a user types: sizes, bounded integers, lists of
 * task counts and CPUs, lists of names. Each returns 0 or -EINVAL with a
 * short reason (a string constant) for the one-line error main prints.
 */
#ifndef HZF_PARSE_H
#define HZF_PARSE_H

#include <stddef.h>

/* 4096, 4K, 2M, 100G, 1T, 0x200000 (binary multiples; an optional trailing B or iB) */
int zf_parse_size(const char *s, unsigned long long *out, const char **why);
/* a decimal integer in [min, max] */
int zf_parse_ulong(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out, const char **why);

/*
 * A list of integers: items separated by commas, each N or A-B. With
 * `ncpus` > 0, the words `pow2` (1, 2, 4, ... and ncpus) and `all`
 * (1..ncpus) are taken too. The result is sorted with duplicates removed;
 * every value is in [min, max]. *out is malloc()ed.
 */
int zf_parse_int_list(const char *s, long min, long max, long ncpus,
		      long **out, size_t *n, const char **why);

/*
 * A list of ranges, "0-3,8" (a CPU list as taskset and sysfs write it):
 * fn(first, last, arg, why) for each item in order, N being N-N; a range that
 * ends before it starts, or fn's error, stops it. 0 or -errno with why.
 */
typedef int (*zf_range_fn)(unsigned long long first, unsigned long long last, void *arg,
			   const char **why);
int zf_parse_ranges(const char *s, zf_range_fn fn, void *arg, const char **why);

/* comma-separated words; *out is malloc()ed, the words point into *buf */
int zf_split_list(const char *s, char **buf, char ***out, size_t *n, const char **why);

/* the one-line error for a bad value, "hzfbench: OPT: VALUE: why"; returns 2 (usage) */
int zf_bad_value(const char *opt, const char *value, const char *why);
/* --out's check (zf_opt.check): a folder's name, not empty */
int zf_out_check(const char *value, const char **why);
/* an option's decimal integer in [min, max]; 0, or 2 with the error said */
int zf_parse_num_opt(const char *opt, const char *arg, unsigned long min, unsigned long max,
		     unsigned long *out);

/* a size option (zf_parse_size, at least 1 byte); 0, or 2 with the error said */
int zf_parse_size_opt(const char *opt, const char *arg, unsigned long long *out);
/* a latency or cost in ns: a decimal number in [0, 1e9] */
int zf_parse_ns(const char *s, double *out);
/* an option's zf_parse_ns(); 0, or 2 with the error said */
int zf_parse_ns_opt(const char *opt, const char *arg, double *out);
/*
 * After getopt_long() with opterr = 0 returned '?': "hzfbench: CMD: ARG:
 * needs a value" or "unknown option"; returns 2.
 */
int zf_opt_unknown(const char *cmd, char *const argv[]);
/* 0 when getopt left no operand, else "hzfbench: CMD: ARG: unexpected argument" and 2 */
int zf_opt_no_operands(const char *cmd, int argc, char *const argv[]);

/* a decimal number in [min, max], all of arg; 0, or 2 with the error said */
int zf_parse_double_opt(const char *opt, const char *arg, double min, double max, double *out);
/* a percentage option: a decimal number in (0, 100]; 0, or 2 with the error said */
int zf_parse_pct_opt(const char *opt, const char *arg, double *out);

/* a label (--tag): 1 to 128 bytes, no control characters; -EINVAL with why */
int zf_tag_check(const char *s, const char **why);

/* --sched: a scheduling policy for the tasks, and its real-time priority */
struct zf_sched {
	int policy;		/* SCHED_FIFO, SCHED_RR, SCHED_OTHER; -1: leave as inherited */
	int priority;		/* 1-99 for fifo and rr, 0 for other */
};
/* "fifo", "rr:50", "other"; -EINVAL with why */
int zf_sched_parse(const char *s, struct zf_sched *out, const char **why);
/* "fifo:1", "rr:50", "other", or "inherited" */
const char *zf_sched_name(const struct zf_sched *s, char *buf, size_t len);

#endif
