// SPDX-License-Identifier: GPL-2.0
/* compare: two results folders, LKP style. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "parse.h"
#include "sweep.h"

#define bad zf_bad_value

static const char compare_usage[] =
"usage: hzfbench compare BASE_DIR NEW_DIR [options]\n"
"  Match the two folders' configurations by their key columns and hold each\n"
"  metric's repetitions against each other: median ± %stddev, %change, and\n"
"  the two-sided Mann-Whitney U p-value. Writes compare.csv and compare.json\n"
"  (into NEW_DIR, or --out). Exit status 1 when a configuration regressed:\n"
"  p < alpha and worse by more than the threshold; 0 otherwise; 2 on bad input.\n"
"  --metric LIST       ns_per_fault, faults_per_sec, teardown_ns_per_fault,\n"
"                      fairness_min_max, get_ns_in_fault (default: the first three)\n"
"  --threshold PCT     the change that counts as a regression (default 10)\n"
"  --alpha A           the significance level (default 0.05)\n"
"  --out DIR           where compare.csv and compare.json go (default NEW_DIR)\n"
"  --normalize S       compare each repetition over the same repetition of\n"
"                      strategy S in its configuration (a ratio: what a CI on\n"
"                      other machines can hold against a committed baseline)\n"
"  --ungated PATTERN   test and show the configurations whose key matches, but\n"
"                      never fail on them (verdict regressed-ungated): fields\n"
"                      in key order, strategy,fault,task_kind,tasks,..., '*'\n"
"                      for any, the rest any: global,*,*,2 (repeatable, 8 at most)\n"
"  --quiet             no table\n";

/* a decimal number in [min, max], all of arg */
static int parse_double_opt(const char *opt, const char *arg, double min, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || isnan(*out))
		return bad(opt, arg, "not a number");
	if (*out < min || *out > max) {
		char why[64];

		snprintf(why, sizeof(why), "out of range (%g to %g)", min, max);
		return bad(opt, arg, why);
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	char names[160];
	static const struct option opts[] = {
		{ "metric", required_argument, NULL, 'm' }, { "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' }, { "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
		{ "normalize", required_argument, NULL, 'n' },
		{ "ungated", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 },
	};
	const char *why;
	struct zf_compare_opts o = { .threshold_pct = 10, .alpha = 0.05,
				     .metrics = { "ns_per_fault", "faults_per_sec", "teardown_ns_per_fault" },
				     .nmetrics = 3 };
	char *list = NULL;
	int c, err = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1 && !err) {
		switch (c) {
		case 'm': list = optarg; break;
		case 't': err = parse_double_opt("--threshold", optarg, 0, 1e6, &o.threshold_pct); break;
		case 'a': err = parse_double_opt("--alpha", optarg, 1e-9, 1, &o.alpha); break;
		case 'o': o.out = optarg; break;
		case 'q': o.quiet = true; break;
		case 'n':
			if (!zf_strategy_find(optarg))
				return bad("--normalize", optarg,
					   zf_strategy_not_one(names, sizeof(names), "a strategy", NULL));
			o.normalize = optarg;
			break;
		case 'u':
			if (o.nungated == 8)
				return bad("--ungated", optarg, "8 patterns at most");
			if (zf_compare_pattern_check(optarg, &why))
				return bad("--ungated", optarg, why);
			o.ungated[o.nungated++] = optarg;
			break;
		case 'h': printf("%s", compare_usage); return 0;
		default:
			return zf_opt_unknown("compare", argv);
		}
	}
	if (err)
		return err;
	if (list) {
		char *copy = strdup(list), *w, *save = NULL;

		o.nmetrics = 0;
		for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			bool higher;

			if (!zf_compare_metric_known(w, &higher) || o.nmetrics == 8) {
				err = bad("--metric", w, o.nmetrics == 8 ? "too many metrics" :
					  "not a metric (ns_per_fault, faults_per_sec, teardown_ns_per_fault, fairness_min_max, get_ns_in_fault)");
				break;
			}
			o.metrics[o.nmetrics++] = list + (w - copy);
			list[w - copy + strlen(w)] = '\0';
		}
		free(copy);
		if (!err && !o.nmetrics)
			err = bad("--metric", list, "empty list");
		if (err)
			return err;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "hzfbench: compare: %s (hzfbench compare --help)\n",
			argc - optind < 2 ? "BASE_DIR and NEW_DIR are needed" : "two folders, no more");
		return 2;
	}
	o.base = argv[optind];
	o.new_dir = argv[optind + 1];
	return zf_compare(&o, stdout);
}
