// SPDX-License-Identifier: GPL-2.0
/* Two results folders held against each other: see compare.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/probe.h"
#include "buf.h"
#include "cols.h"
#include "compare.h"
#include "csv.h"
#include "json.h"
#include "results.h"
#include "stats.h"

static const struct {
	const char *name;
	bool higher_better;
} metrics[] = {
	{ "ns_per_fault", false }, { "faults_per_sec", true }, { "teardown_ns_per_fault", false },
	{ "fairness_min_max", true }, { "get_ns_in_fault", false },
};

bool zf_compare_metric_known(const char *name, bool *higher)
{
	size_t i;

	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (!strcmp(metrics[i].name, name)) {
			*higher = metrics[i].higher_better;
			return true;
		}
	return false;
}

/* one configuration's key, as "strategy,fault,...": malloc()ed, whole (a cpus: list is long) */
static char *key_of(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t row)
{
	struct zf_buf key = { 0 };
	char *text;
	int i;

	for (i = 0; i < ZF_KEY_NCOLS; i++)
		zf_buf_printf(&key, "%s%s", i ? "," : "", zf_key_field(csv, kc, row, i));
	if (key.oom)
		zf_buf_free(&key);
	/* to its size: a zf_buf starts at 4 KiB, and there is one key a row */
	text = key.text ? realloc(key.text, key.len + 1) : NULL;
	return text ? text : key.text;
}

int zf_compare_pattern_check(const char *pattern, const char **why)
{
	size_t fields = 1;
	const char *p;

	for (p = pattern; *p; p++)
		fields += *p == ',';
	if (fields > ZF_KEY_NCOLS) {
		*why = "more fields than the key has (strategy,fault,task_kind,tasks,placement,step,faults_per_pass)";
		return -1;
	}
	if (!*pattern || *pattern == ',' || pattern[strlen(pattern) - 1] == ',' ||
	    strstr(pattern, ",,")) {
		*why = "an empty field (use * for any)";
		return -1;
	}
	return 0;
}

/*
 * A row's key columns (col) match pattern field by field ('*' any); fields
 * past the pattern's match. The columns, not the joined key: a cpus:
 * placement has commas of its own.
 */
static bool key_matches(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t row,
			const char *pattern)
{
	int i;

	for (i = 0; *pattern && i < ZF_KEY_NCOLS; i++) {
		size_t pl = strcspn(pattern, ",");
		const char *field = zf_key_field(csv, kc, row, i);

		if (!(pl == 1 && *pattern == '*') && (strlen(field) != pl || strncmp(field, pattern, pl)))
			return false;
		pattern += pl + (pattern[pl] == ',');
	}
	return true;
}

static bool ungated(const struct zf_compare_opts *o, const struct zf_csv *csv,
		    const struct zf_key_cols *kc, size_t row)
{
	int i;

	for (i = 0; i < o->nungated; i++)
		if (key_matches(csv, kc, row, o->ungated[i]))
			return true;
	return false;
}

/* a row by its key and repetition, for finding rows by them in O(log rows) */
struct row_ref {
	const char *key, *rep;
	size_t row;
};

struct side {
	struct zf_csv csv;
	struct zf_key_cols key;
	int check, rep;
	char **keys;		/* per row */
	struct row_ref *refs;	/* every row, by key, then repetition, then row */
	bool *first;		/* per row: the first of its key */
};

static int cmp_ref(const void *x, const void *y)
{
	const struct row_ref *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	if (!c)
		c = strcmp(a->rep, b->rep);
	return c ? c : (a->row > b->row) - (a->row < b->row);
}

/* the first ref at or after (key, rep) in order; rep NULL: the first of key */
static size_t lower(const struct side *s, const char *key, const char *rep)
{
	size_t lo = 0, hi = s->csv.nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->refs[mid].key, key);

		if (!c && rep)
			c = strcmp(s->refs[mid].rep, rep);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool has_key(const struct side *s, const char *key)
{
	size_t i = lower(s, key, NULL);

	return i < s->csv.nrows && !strcmp(s->refs[i].key, key);
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; s->keys && i < s->csv.nrows; i++)
		free(s->keys[i]);
	free(s->keys);
	free(s->refs);
	free(s->first);
	zf_csv_free(&s->csv);
}

/* every row's key, and the rows sorted by it */
static int index_rows(struct side *s)
{
	size_t n = s->csv.nrows ? s->csv.nrows : 1, i, j;

	s->keys = calloc(n, sizeof(*s->keys));
	s->refs = calloc(n, sizeof(*s->refs));
	s->first = calloc(n, sizeof(*s->first));
	if (!s->keys || !s->refs || !s->first)
		return -ENOMEM;
	for (i = 0; i < s->csv.nrows; i++) {
		s->keys[i] = key_of(&s->csv, &s->key, i);
		if (!s->keys[i])
			return -ENOMEM;
		s->refs[i] = (struct row_ref){ s->keys[i], s->rep < 0 ? "" : s->csv.rows[i][s->rep],
					       i };
	}
	qsort(s->refs, s->csv.nrows, sizeof(*s->refs), cmp_ref);
	/* each key's lowest row: the order configurations are listed in */
	for (i = 0; i < s->csv.nrows; i = j) {
		size_t low = s->refs[i].row;

		for (j = i + 1; j < s->csv.nrows && !strcmp(s->refs[j].key, s->refs[i].key); j++)
			low = s->refs[j].row < low ? s->refs[j].row : low;
		s->first[low] = true;
	}
	return 0;
}

static int load(const char *dir, struct side *s)
{
	char path[PATH_MAX + 16];
	const char *missing;
	size_t line;
	int err;

	if (zf_results_complete(dir, path, sizeof(path))) {
		fprintf(stderr, "hzfbench: compare: %s\n", path);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	err = zf_csv_read(path, &s->csv, &line);
	if (err) {
		fprintf(stderr, "hzfbench: compare: %s: %s%s\n", path, strerror(-err),
			err == -EINVAL ? " (not a samples.csv)" : "");
		return err;
	}
	if (zf_key_cols_find(&s->csv, &s->key, &missing)) {
		fprintf(stderr, "hzfbench: compare: %s: no column %s\n", path, missing);
		zf_csv_free(&s->csv);
		return -EINVAL;
	}
	s->check = zf_csv_col(&s->csv, "kernel_check");
	s->rep = zf_csv_col(&s->csv, "rep");
	err = index_rows(s);
	if (err) {
		fprintf(stderr, "hzfbench: compare: %s: %s\n", path, strerror(-err));
		side_free(s);
	}
	return err;
}

static bool verified(const struct side *s, char **row)
{
	/* the kernel fell back: not a measurement of the same thing */
	return s->check < 0 || !*row[s->check] || !strcmp(row[s->check], "ok");
}

/* row i's metric over the same repetition of strategy norm in its group; NAN if none */
static double normalized(const struct side *s, size_t i, int col, const char *norm,
			 struct zf_buf *want)
{
	const char *rest = strchr(s->keys[i], ','), *rep;
	size_t j;

	if (!rest || s->rep < 0)
		return NAN;
	want->len = 0;
	zf_buf_printf(want, "%s%s", norm, rest);
	if (want->oom)
		return NAN;
	rep = s->csv.rows[i][s->rep];
	/* the first row of it in the file that has the metric */
	for (j = lower(s, want->text, rep); j < s->csv.nrows &&
	     !strcmp(s->refs[j].key, want->text) && !strcmp(s->refs[j].rep, rep); j++) {
		char **row = s->csv.rows[s->refs[j].row];

		if (*row[col] && atof(row[col]) != 0 && verified(s, row))
			return atof(s->csv.rows[i][col]) / atof(row[col]);
	}
	return NAN;
}

/* the metric's values of key's repetitions (verified ones only, for real faults), into v */
static size_t values(const struct side *s, const char *key, int col, const char *norm, double *v)
{
	struct zf_buf want = { 0 };
	size_t j, n = 0;

	for (j = lower(s, key, NULL); j < s->csv.nrows && !strcmp(s->refs[j].key, key); j++) {
		size_t i = s->refs[j].row;
		char **row = s->csv.rows[i];
		double x;

		if (!*row[col] || !verified(s, row))
			continue;
		x = norm ? normalized(s, i, col, norm, &want) : atof(row[col]);
		if (!isnan(x))
			v[n++] = x;
	}
	zf_buf_free(&want);
	return n;
}

/* the key columns of row as CSV fields, each quoted where it needs it, then a comma */
static void key_csv(struct zf_buf *b, const struct side *s, size_t row)
{
	int i;

	for (i = 0; i < ZF_KEY_NCOLS; i++)
		zf_buf_csv(b, zf_key_field(&s->csv, &s->key, row, i), 0);
}

/* compare.csv's rows of the configurations of one side that the other lacks */
static void only_in(struct zf_buf *b, const struct side *one, const struct side *other,
		    const char *verdict)
{
	size_t i;

	for (i = 0; i < one->csv.nrows; i++) {
		if (!one->first[i] || has_key(other, one->keys[i]))
			continue;
		zf_buf_printf(b, "*,");
		key_csv(b, one, i);
		zf_buf_printf(b, ",,,,,,,,,%s\n", verdict);
	}
}

static double median_of(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(double)), m;

	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(double));
	m = n ? zf_median(c, n) : NAN;
	free(c);
	return m;
}

struct row {
	int metric;
	const char *key;
	size_t at;		/* the configuration's first row in base */
	double base_median, base_sd, new_median, new_sd, change, worse, p, p_adj;
	size_t na, nb;
	const char *verdict;
};

/* Holm's adjustment over every test of the comparison (stats.h) */
static void holm(struct row *rows, size_t n)
{
	double *p = malloc((n ? n : 1) * sizeof(double)), *adj = malloc((n ? n : 1) * sizeof(double));
	size_t i;

	for (i = 0; p && adj && i < n; i++)
		p[i] = rows[i].p;
	if (!p || !adj || zf_holm(p, n, adj))
		for (i = 0; i < n; i++)
			rows[i].p_adj = 1;	/* no room to adjust: claim nothing */
	else
		for (i = 0; i < n; i++)
			rows[i].p_adj = adj[i];
	free(p);
	free(adj);
}

int zf_compare(const struct zf_compare_opts *o, FILE *out)
{
	struct side base = { 0 }, new = { 0 };
	struct zf_buf csv = { 0 }, json = { 0 }, missing = { 0 };
	json_t *jrows, *jungated;
	struct row *rows = NULL;
	size_t nrows = 0, i, r;
	double *a = NULL, *b = NULL;
	int m, regressed = 0, improved = 0, matched = 0, nmissing = 0, ret = 0, not_gated = 0;
	const char *dir;

	if (load(o->base, &base))
		return 2;
	if (load(o->new_dir, &new)) {
		side_free(&base);
		return 2;
	}
	{	/* a guest's times (hzfbench vm) against another machine's */
		char va[16], vb[16];

		zf_results_virtualized(o->base, va, sizeof(va));
		zf_results_virtualized(o->new_dir, vb, sizeof(vb));
		if (strcmp(va, vb))
			fprintf(stderr, "hzfbench: compare: warning: %s was measured %s%s, %s %s%s: "
				"their times are not comparable\n", o->base, va[0] ? "in a qemu guest under " :
				"outside hzfbench vm", va, o->new_dir, vb[0] ? "in a qemu guest under " :
				"outside hzfbench vm", vb);
	}
	rows = calloc((size_t)o->nmetrics * (base.csv.nrows ? base.csv.nrows : 1), sizeof(*rows));
	/* room for every repetition a side has: 100,000 of one configuration or more */
	a = malloc((base.csv.nrows ? base.csv.nrows : 1) * sizeof(*a));
	b = malloc((new.csv.nrows ? new.csv.nrows : 1) * sizeof(*b));
	if (!rows || !a || !b) {
		ret = 2;
		goto out;
	}
	/* configurations on one side only: listed, never dropped in silence */
	for (i = 0; i < base.csv.nrows; i++)
		if (base.first[i] && !has_key(&new, base.keys[i])) {
			zf_buf_printf(&missing, "  only in base: %s\n", base.keys[i]);
			nmissing++;
		}
	for (i = 0; i < new.csv.nrows; i++)
		if (new.first[i] && !has_key(&base, new.keys[i])) {
			zf_buf_printf(&missing, "  only in new: %s\n", new.keys[i]);
			nmissing++;
		}
	for (m = 0; m < o->nmetrics; m++) {
		int cb = zf_csv_col(&base.csv, o->metrics[m]), cn = zf_csv_col(&new.csv, o->metrics[m]);
		bool higher = false;

		zf_compare_metric_known(o->metrics[m], &higher);
		if (cb < 0 || cn < 0) {
			fprintf(stderr, "hzfbench: compare: --metric: %s: not in %s's samples.csv\n",
				o->metrics[m], cb < 0 ? o->base : o->new_dir);
			ret = 2;
			goto out;
		}
		for (i = 0; i < base.csv.nrows; i++) {
			struct row *w = &rows[nrows];
			struct zf_mwu t = { .p = 1 };

			if (!base.first[i] || !has_key(&new, base.keys[i]))
				continue;
			if (o->normalize && !strncmp(base.keys[i], o->normalize, strlen(o->normalize)) &&
			    base.keys[i][strlen(o->normalize)] == ',')
				continue;	/* itself over itself: 1, always */
			w->na = values(&base, base.keys[i], cb, o->normalize, a);
			w->nb = values(&new, base.keys[i], cn, o->normalize, b);
			if (!w->na || !w->nb)
				continue;
			matched += !m;
			w->metric = m;
			w->key = base.keys[i];
			w->at = i;
			w->base_median = median_of(a, w->na);
			w->new_median = median_of(b, w->nb);
			w->base_sd = zf_stddev_pct(a, w->na);
			w->new_sd = zf_stddev_pct(b, w->nb);
			w->change = w->base_median ? 100 * (w->new_median - w->base_median) /
						     fabs(w->base_median) : 0;
			w->worse = higher ? -w->change : w->change;
			zf_mann_whitney(a, w->na, b, w->nb, &t);
			w->p = t.p;
			nrows++;
		}
	}
	if (!matched) {
		fprintf(stderr, "hzfbench: compare: %s and %s have no configuration in common\n",
			o->base, o->new_dir);
		ret = 2;
		goto out;
	}
	holm(rows, nrows);
	zf_buf_printf(&csv, "metric,");
	zf_key_names(&csv);
	zf_buf_printf(&csv, "base_median,base_stddev_pct,base_reps,new_median,"
		      "new_stddev_pct,new_reps,change_pct,p_value,p_adjusted,verdict\n");
	jrows = json_array();
	for (r = 0; r < nrows; r++) {
		struct row *w = &rows[r];

		w->verdict = "same";
		if (w->p_adj < o->alpha && w->worse > o->threshold_pct && ungated(o, &base.csv, &base.key, w->at)) {
			w->verdict = "regressed-ungated";	/* shown, never the exit status */
			not_gated++;
		} else if (w->p_adj < o->alpha && w->worse > o->threshold_pct) {
			w->verdict = "regressed";
			regressed++;
		} else if (w->p_adj < o->alpha && -w->worse > o->threshold_pct) {
			w->verdict = "improved";
			improved++;
		}
		if (!o->quiet && (!r || rows[r - 1].metric != w->metric))
			fprintf(out, "%s%12s %9s %10s %12s %9s  %-8s %-8s %s%s%s\n", r ? "\n" : "", "base",
				"±%stddev", "%change", "new", "±%stddev", "p", "p(Holm)",
				o->metrics[w->metric], o->normalize ? " over " : "",
				o->normalize ? o->normalize : "");
		if (!o->quiet)
			fprintf(out, "%12.4g %8.0f%% %+9.1f%% %12.4g %8.0f%%  %-8.3g %-8.3g %s  %s\n",
				w->base_median, w->base_sd, w->change, w->new_median, w->new_sd, w->p,
				w->p_adj, w->key, strcmp(w->verdict, "same") ? w->verdict : "");
		zf_buf_printf(&csv, "%s,", o->metrics[w->metric]);
		key_csv(&csv, &base, w->at);
		zf_buf_printf(&csv, "%.6g,%.2f,%zu,%.6g,%.2f,%zu,%.2f,%.4g,%.4g,%s\n",
			      w->base_median, w->base_sd, w->na, w->new_median, w->new_sd, w->nb,
			      w->change, w->p, w->p_adj, w->verdict);
		zf_json_push(&jrows, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
			"metric", o->metrics[w->metric], "configuration", zf_json_text(w->key),
			"base_median", zf_json_real(w->base_median),
			"new_median", zf_json_real(w->new_median),
			"change_pct", zf_json_real(w->change), "p_value", zf_json_real(w->p),
			"p_adjusted", zf_json_real(w->p_adj), "verdict", w->verdict));
	}
	only_in(&csv, &base, &new, "only-in-base");
	only_in(&csv, &new, &base, "only-in-new");
	if (missing.text && !o->quiet)
		fprintf(out, "\nconfigurations on one side only:\n%s", missing.text);
	if (!o->quiet)
		fprintf(out, "\n%d configurations matched, %zu tests; %d regressed, %d improved "
			"(beyond %g%% at Holm-adjusted p < %g)\n", matched, nrows, regressed,
			improved, o->threshold_pct, o->alpha);
	if (!o->quiet && not_gated)
		fprintf(out, "%d more beyond it in configurations not gated (--ungated): shown, "
			"not counted\n", not_gated);
	jungated = json_array();
	for (m = 0; m < o->nungated; m++)
		zf_json_push(&jungated, zf_json_text(o->ungated[m]));
	zf_json_dump(json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:o}",
			       "base", zf_json_text(o->base), "new", zf_json_text(o->new_dir),
			       "threshold_pct", zf_json_real(o->threshold_pct),
			       "alpha", zf_json_real(o->alpha), "normalize", zf_json_text(o->normalize),
			       "rows", jrows, "matched", matched, "on_one_side_only", nmissing,
			       "regressed", regressed, "improved", improved,
			       "regressed_ungated", not_gated, "ungated", jungated), JSON_INDENT(2), &json);
	zf_buf_printf(&json, "\n");
	dir = o->out ? o->out : o->new_dir;
	if (o->out && mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "hzfbench: compare: --out: %s: %s\n", dir, strerror(errno));
		ret = 2;
		goto out;
	}
	ret = zf_buf_write(dir, "compare.csv", &csv, "compare") ||
	      zf_buf_write(dir, "compare.json", &json, "compare") ? 2 : regressed > 0;
out:
	free(rows);
	free(a);
	free(b);
	zf_buf_free(&csv);
	zf_buf_free(&json);
	zf_buf_free(&missing);
	side_free(&base);
	side_free(&new);
	return ret;
}
