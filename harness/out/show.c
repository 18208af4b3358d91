// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench show DIR`: summary.csv as a table, then for every task kind and
 * placement how each strategy's ns per fault grows from 1 task to the most
 * tasks run, and what `global` costs above `persistent` at 1 task next to a
 * bare inc_not_zero loop measured in the same session (meta.json probes).
 * A difference of two medians inside the noise (stats.h) is said to be,
 * never made a ratio.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/strategy.h"
#include "../analyze/stats.h"
#include "buf.h"
#include "cols.h"
#include "csv.h"
#include "json.h"
#include "results.h"
#include "show.h"
#include "sysinfo.h"
#include "table.h"

static const char *const shown[] = {
	"strategy", "fault", "task_kind", "tasks", "placement", "ns_per_fault_median",
	"ns_per_fault_min", "ns_per_fault_max", "ns_per_fault_stddev",
	"faults_per_sec_median", "teardown_ns_per_fault_median", "fairness_min_max",
};
static const char *const titles[] = {
	"strategy", "fault", "kind", "tasks", "placement", "ns/fault", "min", "max", "stddev",
	"faults/s", "teardown ns", "fairness",
};
#define NSHOWN (sizeof(shown) / sizeof(shown[0]))

struct cols {
	struct zf_key_cols key;
	int strategy, fault, kind, placement, tasks, ns, stddev, get, get_share, put_share, teardown;
};

/* the median ns per fault of rows a and b are apart: outside the noise (stats.h) */
static bool apart(const struct cols *c, char **a, char **b)
{
	return !zf_inside_noise(atof(a[c->ns]), atof(a[c->stddev]), atof(b[c->ns]),
				atof(b[c->stddev]));
}

/* like's configuration at tasks (ZF_KEY_ANY: any), of strategy (NULL: like's), any step */
static struct zf_config_key group_of(const struct cols *c, char **like, const char *strategy,
				     uint64_t tasks)
{
	return (struct zf_config_key){ .strategy = strategy ? strategy : like[c->strategy],
		.fault = like[c->fault], .task_kind = like[c->kind], .tasks = tasks,
		.placement = like[c->placement], .step = ZF_KEY_ANY, .faults_per_pass = ZF_KEY_ANY };
}

/* the row of `strategy` in like's group with `tasks` tasks; -1 if none */
static long find_row(const struct zf_csv *csv, const struct cols *c, const char *strategy,
		     char **like, long tasks)
{
	struct zf_config_key want = group_of(c, like, strategy, (uint64_t)tasks);
	size_t i;

	for (i = 0; i < csv->nrows; i++)
		if (zf_key_matches(csv, &c->key, i, &want))
			return (long)i;
	return -1;
}

static void contention(const struct zf_csv *csv, const struct cols *c, FILE *out)
{
	bool title = false;
	size_t i, j;

	for (i = 0; i < csv->nrows; i++) {
		char **one = csv->rows[i], **most = one;
		struct zf_config_key want = group_of(c, one, NULL, ZF_KEY_ANY);

		if (atol(one[c->tasks]) != 1)
			continue;
		for (j = 0; j < csv->nrows; j++) {
			char **o = csv->rows[j];

			if (zf_key_matches(csv, &c->key, j, &want) &&
			    atol(o[c->tasks]) > atol(most[c->tasks]))
				most = o;
		}
		if (most == one)
			continue;
		if (!title)
			fprintf(out, "\nns per fault, most tasks over 1 task (1.0 = no contention):\n");
		title = true;
		fprintf(out, "  %-11s %-8s %-8s %-10s %3s tasks: ", one[c->strategy], one[c->fault],
			one[c->kind], one[c->placement], most[c->tasks]);
		if (apart(c, most, one))
			fprintf(out, "%7.2fx", atof(most[c->ns]) / atof(one[c->ns]));
		else
			fprintf(out, "inside the noise");
		fprintf(out, "  (%.2f -> %.2f ns)\n", atof(one[c->ns]), atof(most[c->ns]));
	}
}

/*
 * emulated: the first shared counter's own cost at 1 task (global's, over
 * persistent's) next to a bare inc_not_zero loop. Measurable in the stress
 * regime only (--fault-ns 0): under a real fault's busy work the few ns of a
 * get are below the fault's noise, so a folder of such a run says where it is.
 */
static void strategy_cost(const struct zf_csv *csv, const struct cols *c, const char *dir,
			  FILE *out)
{
	char probe[64], fault_ns[32], *meta = zf_results_meta(dir);
	int err = !meta || zf_json_get(meta, "probes.inc_not_zero_ns", probe, sizeof(probe));
	const char *shared = zf_strategy_name(zf_strategy_first_of(ZF_MODEL_SHARED));
	const char *none = zf_strategy_name(zf_strategy_first_of(ZF_MODEL_UNCOUNTED));
	bool stress = true;
	size_t i;

	/* a folder from before fault_ns was kept is taken at its word: stress */
	if (!err && !zf_json_get(meta, "options.fault_ns", fault_ns, sizeof(fault_ns)))
		stress = atof(fault_ns) == 0;
	free(meta);
	if (err || c->stddev < 0)
		return;
	for (i = 0; i < csv->nrows; i++) {
		char **g = csv->rows[i], **p;
		double diff, noise;
		long at;

		if (strcmp(g[c->strategy], shared) || strcmp(g[c->fault], "emulated") ||
		    atol(g[c->tasks]) != 1)
			continue;
		at = find_row(csv, c, none, g, 1);
		if (at < 0)
			continue;
		p = csv->rows[at];
		fprintf(out, "%s - %s at 1 task (%s, %s): ", shared, none, g[c->kind], g[c->placement]);
		if (!stress) {
			fprintf(out, "not measurable under %s ns of work a fault: see the "
				"--fault-ns 0 stress run\n", fault_ns);
			continue;
		}
		diff = atof(g[c->ns]) - atof(p[c->ns]);
		noise = zf_noise_of(atof(g[c->stddev]), atof(p[c->stddev]));
		fprintf(out, "%.2f ns ± %.2f; bare inc_not_zero loop: %.2f ns", diff, noise,
			atof(probe));
		if (!apart(c, g, p))
			fprintf(out, " (the difference is inside the noise)\n");
		else if (fabs(diff - atof(probe)) <= noise)
			fprintf(out, " (the same, within the noise)\n");	/* no ratio of that */
		else
			fprintf(out, " (%.2fx)\n", diff / atof(probe));
	}
}

/* the strategy that emulates nothing beside the kernel's fault (native): NULL if none */
static const struct zf_strategy *kernel_alone(void)
{
	const struct zf_strategy *const *s;

	for (s = zf_strategies; *s; s++)
		if (!(*s)->get)
			return *s;
	return NULL;
}

/*
 * kernel faults: what each strategy adds to the running kernel's own fault,
 * as get() timed inside the fault loop (a share of the fault, the way seed 007
 * quotes 54%), and the difference of medians against native next to the noise
 */
static void kernel_share(const struct zf_csv *csv, const struct cols *c, FILE *out)
{
	const char *native_name = zf_strategy_name(kernel_alone());
	bool title = false;
	size_t i;

	for (i = 0; i < csv->nrows; i++) {
		char **row = csv->rows[i], **native;
		double added, noise, ns = atof(row[c->ns]);
		long at;

		if (strcmp(row[c->fault], "kernel"))
			continue;
		if (!title)
			fprintf(out, "\nkernel faults: get() timed inside the real fault loop, as a share "
				"of the fault (%s times nothing: its figure is the method's zero);\n"
				"then the median over %s's, next to the noise (the two stddevs together):\n",
				native_name, native_name);
		title = true;
		fprintf(out, "  %-11s %-8s %-10s %3s tasks: ", row[c->strategy], row[c->kind],
			row[c->placement], row[c->tasks]);
		if (c->get >= 0 && *row[c->get])
			fprintf(out, "get %7.1f ns of %7.1f ns (%5.2f%%)", atof(row[c->get]), ns,
				100 * atof(row[c->get]) / ns);
		else
			fprintf(out, "get not timed%24s", "");
		at = strcmp(row[c->strategy], native_name) ?
		     find_row(csv, c, native_name, row, atol(row[c->tasks])) : -1;
		if (at >= 0) {
			native = csv->rows[at];
			added = ns - atof(native[c->ns]);
			noise = zf_noise_of(atof(row[c->stddev]), atof(native[c->stddev]));
			fprintf(out, "; over %s %+7.1f ns, noise %.1f ns%s", native_name, added, noise,
				apart(c, row, native) ? "" : " (inside it)");
		}
		fprintf(out, "\n");
	}
}

/*
 * --profile: the share of samples in get() and put(), as ns of a fault's
 * whole life (fault and teardown, which the samples cover), next to what the
 * other measures say: the life's ns over persistent's (which counts nothing),
 * and for real faults get() timed in place
 */
static void profile_share(const struct zf_csv *csv, const struct cols *c, FILE *out)
{
	const char *none = zf_strategy_name(zf_strategy_first_of(ZF_MODEL_UNCOUNTED));
	bool title = false;
	size_t i;

	if (c->get_share < 0 || c->put_share < 0 || c->teardown < 0)
		return;
	for (i = 0; i < csv->nrows; i++) {
		char **row = csv->rows[i], **base;
		long at;
		double life = atof(row[c->ns]) + atof(row[c->teardown]);
		double get = atof(row[c->get_share]), put = atof(row[c->put_share]);

		if (!*row[c->get_share])
			continue;
		if (!title)
			fprintf(out, "\nprofile (cpu-clock samples over fault and teardown): the share in "
				"get() and put(), as ns of a fault's life; held against the life's ns\n"
				"over %s's, and for real faults get() timed in place:\n", none);
		title = true;
		fprintf(out, "  %-11s %-8s %-8s %-10s %3s tasks: get %6.2f%% put %6.2f%% = %.1f + %.1f ns",
			row[c->strategy], row[c->fault], row[c->kind], row[c->placement],
			row[c->tasks], 100 * get, 100 * put, get * life, put * life);
		at = find_row(csv, c, none, row, atol(row[c->tasks]));
		base = at >= 0 && (size_t)at != i ? csv->rows[at] : NULL;
		if (base && *base[c->get_share])
			fprintf(out, "; over %s %+.1f ns", none,
				life - atof(base[c->ns]) - atof(base[c->teardown]));
		if (c->get >= 0 && *row[c->get])
			fprintf(out, "; get timed in place %.1f ns", atof(row[c->get]));
		fprintf(out, "\n");
	}
}

/*
 * kernel faults: samples.csv's verification of every repetition: a line for
 * each configuration where one failed, then the count of those that passed
 */
static void kernel_checks(const char *dir, FILE *out)
{
	int fault, check, fallback, rss, anon, minflt;
	struct zf_key_cols key;
	const char *missing;
	char path[PATH_MAX + 16];
	struct zf_csv csv;
	unsigned long configs = 0, all_reps = 0, all_ok = 0;
	bool title = false;
	size_t i, k, line;

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	if (zf_csv_read(path, &csv, &line))
		return;
	zf_key_cols_find(&csv, &key, &missing);	/* step and faults per pass: any */
	fault = zf_csv_col(&csv, "fault");
	check = zf_csv_col(&csv, "kernel_check");
	fallback = zf_csv_col(&csv, "thp_fault_fallback");
	rss = zf_csv_col(&csv, "rss_growth_kb");
	anon = zf_csv_col(&csv, "anon_huge_kb");
	minflt = zf_csv_col(&csv, "minflt_per_fault");
	if (fault < 0 || check < 0 || fallback < 0 || rss < 0 || anon < 0 || minflt < 0 ||
	    key.col[0] < 0 || key.col[2] < 0 || key.col[3] < 0 || key.col[4] < 0)
		goto out;
	for (i = 0; i < csv.nrows; i++) {
		char **first = csv.rows[i];
		unsigned long reps = 0, ok = 0, fallbacks = 0, rss_max = 0, anon_max = 0, v;
		double flt_min = INFINITY, flt_max = 0;
		struct zf_config_key want;

		if (strcmp(first[fault], "kernel"))
			continue;
		zf_key_of_row(&csv, &key, i, &want);
		want.step = want.faults_per_pass = ZF_KEY_ANY;
		for (k = 0; k < i && !zf_key_matches(&csv, &key, k, &want); k++)
			;
		if (k < i)	/* not the configuration's first repetition */
			continue;
		for (k = i; k < csv.nrows; k++) {
			char **row = csv.rows[k];

			if (!zf_key_matches(&csv, &key, k, &want))
				continue;
			reps++;
			ok += !strcmp(row[check], "ok");
			fallbacks += strtoul(row[fallback], NULL, 10);
			v = strtoul(row[rss], NULL, 10);
			rss_max = v > rss_max ? v : rss_max;
			v = strtoul(row[anon], NULL, 10);
			anon_max = v > anon_max ? v : anon_max;
			flt_min = fmin(flt_min, atof(row[minflt]));
			flt_max = fmax(flt_max, atof(row[minflt]));
		}
		configs++;
		all_reps += reps;
		all_ok += ok;
		if (ok == reps)
			continue;	/* only what failed gets a line of its own */
		if (!title)
			fprintf(out, "\nkernel faults whose verification failed (samples.csv kernel_check):\n");
		title = true;
		fprintf(out, "  %-11s %-8s %-10s %3s tasks: %lu of %lu repetitions ok; %lu fallbacks, "
			"anonymous +%lu kB, AnonHugePages +%lu kB, %.2f-%.2f page faults a read\n",
			zf_key_field(&csv, &key, i, 0), zf_key_field(&csv, &key, i, 2),
			zf_key_field(&csv, &key, i, 4), zf_key_field(&csv, &key, i, 3), ok, reps, fallbacks,
			rss_max, anon_max, flt_min, flt_max);
	}
	if (configs)
		fprintf(out, "%skernel faults verified: %lu of %lu repetitions ok in %lu configurations "
			"(ok: no fallback, anonymous memory flat, one page fault a read)\n",
			title ? "" : "\n", all_ok, all_reps, configs);
out:
	zf_csv_free(&csv);
}

/*
 * The repetitions that did not run every task together, where, and how well
 * the medians are known: absent from folders made before these columns
 */
static void trust(const struct zf_csv *csv, const struct cols *c, FILE *out)
{
	int flagged = zf_csv_col(csv, "flagged_reps"), reps = zf_csv_col(csv, "reps");
	int ci = zf_csv_col(csv, "ci95_pct");
	unsigned long nflagged = 0, nreps = 0, known = 0;
	double lo = INFINITY, hi = 0;
	struct zf_buf where = { 0 };	/* every flagged configuration, however many */
	size_t i;

	if (flagged < 0 || reps < 0 || ci < 0)
		return;
	for (i = 0; i < csv->nrows; i++) {
		char **row = csv->rows[i];
		unsigned long f = strtoul(row[flagged], NULL, 10);

		nreps += strtoul(row[reps], NULL, 10);
		nflagged += f;
		if (f)
			zf_buf_printf(&where, "%s%s %s %s x%s %lu", where.len ? ", " : "",
				      row[c->strategy], row[c->fault], row[c->kind], row[c->tasks], f);
		if (row[ci][0]) {
			known++;
			lo = fmin(lo, atof(row[ci]));
			hi = fmax(hi, atof(row[ci]));
		}
	}
	fprintf(out, "\nrepetitions with every task running together: %lu of %lu", nreps - nflagged,
		nreps);
	if (nflagged)
		fprintf(out, "; flagged (overlap or CPU/wall below 0.9): %s",
			where.oom ? "(out of memory)" : where.text);
	fprintf(out, "\n");
	zf_buf_free(&where);
	if (known)
		fprintf(out, "median ns/fault known within ±%.1f%% to ±%.1f%% (95%%) in %lu of %zu "
			"configurations%s\n", lo, hi, known, csv->nrows,
			known < csv->nrows ? " (the rest had fewer than 6 repetitions)" : "");
}

/* a run of hzfbench vm's guest (meta.json virtualized): its times are the guest's */
static void guest_note(const char *dir, FILE *out)
{
	char accel[16];

	zf_results_virtualized(dir, accel, sizeof(accel));
	if (!accel[0])
		return;
	fprintf(out, "\nmeasured in a qemu guest under %s%s\n", accel, strcmp(accel, "tcg") ? "" :
		": emulated times, comparable only with other tcg runs");
}

static void headline(const struct zf_csv *csv, const char *dir, FILE *out)
{
	const char *missing;
	struct cols c = {
		.strategy = zf_csv_col(csv, "strategy"), .fault = zf_csv_col(csv, "fault"),
		.kind = zf_csv_col(csv, "task_kind"), .placement = zf_csv_col(csv, "placement"),
		.tasks = zf_csv_col(csv, "tasks"), .ns = zf_csv_col(csv, "ns_per_fault_median"),
		.stddev = zf_csv_col(csv, "ns_per_fault_stddev"),
		.get = zf_csv_col(csv, "get_ns_in_fault_median"),
		.get_share = zf_csv_col(csv, "get_share"),
		.put_share = zf_csv_col(csv, "put_share"),
		.teardown = zf_csv_col(csv, "teardown_ns_per_fault_median"),
	};

	if (c.fault < 0)
		return;
	zf_key_cols_find(csv, &c.key, &missing);	/* step and faults per pass: any */
	contention(csv, &c, out);
	strategy_cost(csv, &c, dir, out);
	kernel_share(csv, &c, out);
	profile_share(csv, &c, out);
	zf_show_profile(dir, out);
	kernel_checks(dir, out);
	trust(csv, &c, out);
	guest_note(dir, out);
}

/* summary.csv's shown columns as a table */
static int summary_table(const struct zf_csv *csv, const int *col, enum zf_format f,
			 const char *dir, FILE *out)
{
	struct zf_table t;
	size_t i, j;
	int err = zf_table_init(&t, NSHOWN);

	for (j = 0; !err && j < NSHOWN; j++)
		zf_table_column(&t, j, shown[j], titles[j], j >= 5);
	for (i = 0; !err && i < csv->nrows; i++) {
		zf_table_row(&t);
		for (j = 0; j < NSHOWN; j++)
			zf_table_set(&t, j, "%s", csv->rows[i][col[j]]);
	}
	err = err ? err : zf_table_print(&t, f, dir, out);
	if (err)
		fprintf(stderr, "hzfbench: show: %s: %s\n", dir, strerror(-err));
	zf_table_free(&t);
	return err;
}

int zf_show(const char *dir, FILE *out)
{
	return zf_show_as(dir, ZF_FORMAT_TEXT, out);
}

int zf_show_as(const char *dir, enum zf_format f, FILE *out)
{
	char path[PATH_MAX + 16], why[PATH_MAX + 128];
	int col[NSHOWN];
	struct zf_csv csv;
	size_t j;
	int err;

	if (zf_results_open(dir, &csv, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: show: %s\n", why);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	for (j = 0; j < NSHOWN; j++) {
		col[j] = zf_csv_col(&csv, shown[j]);
		if (col[j] < 0) {
			fprintf(stderr, "hzfbench: %s: no column %s\n", path, shown[j]);
			zf_csv_free(&csv);
			return -EINVAL;
		}
	}
	err = summary_table(&csv, col, f, dir, out);
	if (!err && f == ZF_FORMAT_TEXT)
		headline(&csv, dir, out);
	zf_csv_free(&csv);
	return err;
}
