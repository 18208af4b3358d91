// SPDX-License-Identifier: GPL-2.0
/* compare: results folders against the first, LKP's tests in mmtests' columns. */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "opt.h"
#include "parse.h"
#include "sweep.h"
#include "table.h"

#define bad zf_bad_value

static const char compare_usage[] =
"usage: hzfbench compare BASE_DIR NEW_DIR [MORE_DIR ...] [options]\n"
"  Match each folder's configurations with the base's by their key columns and\n"
"  hold each metric's repetitions against the base's: median ± %stddev, %change,\n"
"  and the two-sided Mann-Whitney U p-value (Holm-adjusted over each folder's\n"
"  tests), one column a folder. Writes compare.csv and compare.json (into the\n"
"  last folder, or --out). Exit status 1 when a configuration of any folder\n"
"  regressed: p < alpha and worse by more than the threshold; 0 otherwise; 2 on\n"
"  bad input.\n";

static const char metric_names[] = "ns_per_fault, faults_per_sec, teardown_ns_per_fault, "
				   "fairness_min_max, get_ns_in_fault";

/* --metric LIST: names into o->metrics, each cut out of the list where it is */
static int opt_metric(const char *opt, const char *arg, void *opts)
{
	struct zf_compare_opts *o = opts;
	char *list = (char *)arg, *w, *save = NULL;
	char why[160];
	bool higher;

	o->nmetrics = 0;
	if (!*list || strspn(list, ",") == strlen(list))
		return bad(opt, arg, "empty list");
	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (o->nmetrics == 8)
			return bad(opt, w, "too many metrics");
		if (!zf_compare_metric_known(w, &higher)) {
			snprintf(why, sizeof(why), "not a metric (%s)", metric_names);
			return bad(opt, w, why);
		}
		o->metrics[o->nmetrics++] = w;
	}
	return 0;
}

static int opt_normalize(const char *opt, const char *arg, void *opts)
{
	struct zf_compare_opts *o = opts;
	char names[160];

	if (!zf_strategy_find(arg))
		return bad(opt, arg, zf_strategy_not_one(names, sizeof(names), "a strategy", NULL));
	o->normalize = arg;
	return 0;
}

static int opt_ungated(const char *opt, const char *arg, void *opts)
{
	struct zf_compare_opts *o = opts;
	const char *why;

	if (o->nungated == 8)
		return bad(opt, arg, "8 patterns at most");
	if (zf_compare_pattern_check(arg, &why))
		return bad(opt, arg, why);
	o->ungated[o->nungated++] = arg;
	return 0;
}

/* --label L1,L2,...: each a name --tag would take; counted against the folders later */
static int opt_label(const char *opt, const char *arg, void *opts)
{
	struct zf_compare_opts *o = opts;
	const char *p = arg, *q, *why;
	char one[160], dup[180];

	for (;;) {
		size_t len = strcspn(p, ",");

		snprintf(one, sizeof(one), "%.*s", (int)(len < 159 ? len : 159), p);
		if (len > 128 || zf_tag_check(one, &why))
			return bad(opt, arg, len > 128 ? "a name longer than 128 bytes" :
				   !len ? "an empty name" : why);
		if (!p[len])
			break;
		p += len + 1;
		/* two column groups of one name could not be told apart */
		for (q = p; ; q += strcspn(q, ",") + 1) {
			if (strcspn(q, ",") == len && !strncmp(q, one, len)) {
				snprintf(dup, sizeof(dup), "%s: given twice", one);
				return bad(opt, arg, dup);
			}
			if (!q[strcspn(q, ",")])
				break;
		}
	}
	o->labels = arg;
	return 0;
}

#define FIELD(f)	.off = offsetof(struct zf_compare_opts, f)
#define CUSTOM(fn)	.kind = ZF_OPT_CUSTOM, .parse = fn

static const struct zf_opt compare_table[] = {
	{ .name = "metric", CUSTOM(opt_metric), .cmds = 1, FIELD(metrics), .arg = "LIST",
	  .help = "ns_per_fault, faults_per_sec, teardown_ns_per_fault, fairness_min_max, "
	  "get_ns_in_fault (default: the first three)" },
	{ .name = "threshold", .kind = ZF_OPT_DOUBLE, .cmds = 1, FIELD(threshold_pct),
	  .dmin = 0, .dmax = 1e6, .arg = "PCT", .def = "10",
	  .help = "the change that counts as a regression" },
	{ .name = "alpha", .kind = ZF_OPT_DOUBLE, .cmds = 1, FIELD(alpha), .dmin = 1e-9, .dmax = 1,
	  .arg = "A", .def = "0.05", .help = "the significance level" },
	{ .name = "out", .kind = ZF_OPT_STRING, .check = zf_out_check, .cmds = 1, FIELD(out),
	  .arg = "DIR", .help = "where compare.csv and compare.json go (default the last folder)" },
	{ .name = "normalize", CUSTOM(opt_normalize), .cmds = 1, FIELD(normalize), .arg = "S",
	  .help = "compare each repetition over the same repetition of strategy S in its "
	  "configuration (a ratio: what a CI on other machines can hold against a committed "
	  "baseline)",
	  .complete = ZF_COMPLETE_STRATEGY },
	{ .name = "ungated", CUSTOM(opt_ungated), .cmds = 1, FIELD(ungated), .arg = "PATTERN",
	  .help = "test and show the configurations whose key matches, but never fail on them "
	  "(verdict regressed-ungated): fields in key order, strategy,fault,task_kind,tasks,..., "
	  "'*' for any, the rest any: global,*,*,2 (repeatable, 8 at most)" },
	{ .name = "label", CUSTOM(opt_label), .cmds = 1, FIELD(labels), .arg = "L1,L2,...",
	  .help = "a name for each folder's column, in order (default: its meta.json's tag, "
	  "else its kernel release; its path where two would be alike)" },
	{ .name = "format", .kind = ZF_OPT_WORD, .words = zf_format_names, .cmds = 1,
	  FIELD(format), .arg = "F", .def = "text",
	  .help = "the table as text, csv, markdown (a GitHub table) or html (a page); json: "
	  "compare.json's document" },
	{ .name = "quiet", .kind = ZF_OPT_FLAG, .cmds = 1, FIELD(quiet), .help = "no table" },
	{ .name = "help", .letter = 'h', .kind = ZF_OPT_HELP, .cmds = 1 },
};

const struct zf_opt_set zf_compare_opts =
	ZF_OPT_SET_WITH_OPERANDS(compare_table, "compare", compare_usage);

int cmd_compare(int argc, char **argv)
{
	struct zf_compare_opts o = { .metrics = { "ns_per_fault", "faults_per_sec",
						  "teardown_ns_per_fault" }, .nmetrics = 3 };
	int err = zf_opt_parse_only(&zf_compare_opts, argc, argv, &o);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (argc - optind < 2) {
		fprintf(stderr, "hzfbench: compare: BASE_DIR and NEW_DIR are needed "
			"(hzfbench compare --help)\n");
		return 2;
	}
	o.dirs = (const char *const *)&argv[optind];
	o.ndirs = argc - optind;
	o.base = argv[optind];
	o.new_dir = argv[argc - 1];
	return zf_compare(&o, stdout);
}
