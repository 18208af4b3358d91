// SPDX-License-Identifier: GPL-2.0
/* Results folders held against the first: see compare.h; compare_view.c lays them out. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/probe.h"
#include "compare_priv.h"
#include "json.h"
#include "results.h"
#include "stats.h"
#include "table.h"

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

/* Holm's adjustment over every test of one folder against the base (stats.h) */
static void holm(struct comparison *c, int folder)
{
	size_t n = c->ntests ? c->ntests : 1, i, k = 0;
	double *p = malloc(n * sizeof(double)), *adj = malloc(n * sizeof(double));

	for (i = 0; p && i < c->ntests; i++)
		if (c->tests[i].folder == folder)
			p[k++] = c->tests[i].p;
	if (!p || !adj || zf_holm(p, k, adj)) {
		for (i = 0; i < c->ntests; i++)
			if (c->tests[i].folder == folder)
				c->tests[i].p_adj = 1;	/* no room to adjust: claim nothing */
	} else {
		for (i = 0, k = 0; i < c->ntests; i++)
			if (c->tests[i].folder == folder)
				c->tests[i].p_adj = adj[k++];
	}
	free(p);
	free(adj);
}

/*
 * Each folder's name: --label's, else its meta.json's tag, else its kernel
 * release; the folder's path where that would name two folders alike
 */
static int label_sides(struct comparison *c)
{
	const char *p = c->o->labels;
	int i, j, n = 1;

	for (; p && *p; p++)
		n += *p == ',';
	if (c->o->labels && n != c->nsides) {
		fprintf(stderr, "hzfbench: compare: --label: %s: %d names for %d folders\n",
			c->o->labels, n, c->nsides);
		return -EINVAL;
	}
	for (i = 0, p = c->o->labels; i < c->nsides; i++) {
		struct side *s = &c->sides[i];
		char *meta = p ? NULL : zf_results_meta(s->dir), v[256];
		size_t len = p ? strcspn(p, ",") : 0;

		if (p)
			s->label_own = strndup(p, len);
		else if (meta && ((!zf_json_get(meta, "tag", v, sizeof(v)) && strcmp(v, "null")) ||
				  !zf_json_get(meta, "kernel_release", v, sizeof(v))))
			s->label_own = strdup(v);
		free(meta);
		if (p)
			p += len + !!p[len];
		s->label = s->label_own ? s->label_own : s->dir;
	}
	for (i = 0; !c->o->labels && i < c->nsides; i++)
		for (j = 0; j < c->nsides; j++)
			if (i != j && !strcmp(c->sides[i].label_own ? c->sides[i].label_own : "",
					      c->sides[j].label_own ? c->sides[j].label_own : ""))
				c->sides[i].label = c->sides[i].dir;
	return 0;
}

/* a guest's times (hzfbench vm) against another machine's */
static void warn_virtualized(const struct comparison *c)
{
	char va[16], vb[16];
	const char *base = c->sides[0].dir, *dir;
	int k;

	zf_results_virtualized(base, va, sizeof(va));
	for (k = 1; k < c->nsides; k++) {
		dir = c->sides[k].dir;
		zf_results_virtualized(dir, vb, sizeof(vb));
		if (strcmp(va, vb))
			fprintf(stderr, "hzfbench: compare: warning: %s was measured %s%s, %s %s%s: "
				"their times are not comparable\n", base, va[0] ? "in a qemu guest under " :
				"outside hzfbench vm", va, dir, vb[0] ? "in a qemu guest under " :
				"outside hzfbench vm", vb);
	}
}

/* configurations in the base or in one folder only: listed, never dropped in silence */
static void one_side_only(struct comparison *c)
{
	const struct side *base = &c->sides[0];
	size_t i;
	int k;

	for (k = 1; k < c->nsides; k++) {
		const struct side *s = &c->sides[k];

		for (i = 0; i < base->csv.nrows; i++)
			if (base->first[i] && !zf_cmp_has_key(s, base->keys[i])) {
				zf_buf_printf(&c->missing, "  only in %s, not in %s: %s\n",
					      base->label, s->label, base->keys[i]);
				c->counts[k].one_side_only++;
			}
		for (i = 0; i < s->csv.nrows; i++)
			if (s->first[i] && !zf_cmp_has_key(base, s->keys[i])) {
				zf_buf_printf(&c->missing, "  only in %s, not in %s: %s\n",
					      s->label, base->label, s->keys[i]);
				c->counts[k].one_side_only++;
			}
		c->counts[0].one_side_only += c->counts[k].one_side_only;
	}
}

/* configuration `at` of the base against folder k on metric m: a test, or false where none */
static bool test_one(struct comparison *c, int m, size_t at, int k, const int *col, double *a,
		     double *b)
{
	const struct side *base = &c->sides[0], *s = &c->sides[k];
	const char *key = base->keys[at];
	struct test *w = &c->tests[c->ntests];
	struct zf_mwu t = { .p = 1 };
	bool higher = false;

	if (!zf_cmp_has_key(s, key))
		return false;
	w->na = zf_cmp_values(base, key, col[0], c->o->normalize, a);
	w->nb = zf_cmp_values(s, key, col[k], c->o->normalize, b);
	if (!w->na || !w->nb)
		return false;
	zf_compare_metric_known(c->o->metrics[m], &higher);
	w->metric = m;
	w->folder = k;
	w->key = key;
	w->at = at;
	w->base_median = median_of(a, w->na);
	w->new_median = median_of(b, w->nb);
	w->base_sd = zf_stddev_pct(a, w->na);
	w->new_sd = zf_stddev_pct(b, w->nb);
	w->change = w->base_median ? 100 * (w->new_median - w->base_median) /
				     fabs(w->base_median) : 0;
	w->worse = higher ? -w->change : w->change;
	w->in_noise = zf_inside_noise(w->new_median, zf_stddev(b, w->nb), w->base_median,
				      zf_stddev(a, w->na));
	zf_mann_whitney(a, w->na, b, w->nb, &t);
	w->p = t.p;
	c->ntests++;
	return true;
}

/* every test, by metric, then the base's configuration, then folder: 0, or 2 said */
static int run_tests(struct comparison *c, double *a, double *b)
{
	const struct zf_compare_opts *o = c->o;
	const struct side *base = &c->sides[0];
	const char *norm = o->normalize;
	int m, k, *col = calloc(c->nsides, sizeof(*col));
	size_t i;

	for (m = 0; col && m < o->nmetrics; m++) {
		for (k = 0; k < c->nsides; k++) {
			col[k] = zf_csv_col(&c->sides[k].csv, o->metrics[m]);
			if (col[k] < 0) {
				fprintf(stderr, "hzfbench: compare: --metric: %s: not in %s's samples.csv\n",
					o->metrics[m], c->sides[k].dir);
				free(col);
				return 2;
			}
		}
		for (i = 0; i < base->csv.nrows; i++) {
			if (!base->first[i])
				continue;
			if (norm && !strncmp(base->keys[i], norm, strlen(norm)) &&
			    base->keys[i][strlen(norm)] == ',')
				continue;	/* itself over itself: 1, always */
			for (k = 1; k < c->nsides; k++)
				if (test_one(c, m, i, k, col, a, b) && !m)
					c->counts[k].matched++;
		}
	}
	free(col);
	if (!col)
		return 2;
	for (k = 1; k < c->nsides; k++) {
		if (!c->counts[k].matched) {
			fprintf(stderr, "hzfbench: compare: %s and %s have no configuration in common\n",
				base->dir, c->sides[k].dir);
			return 2;
		}
		c->counts[0].matched += c->counts[k].matched;
	}
	return 0;
}

/* each test's verdict, and each folder's counts of them */
static void judge(struct comparison *c)
{
	const struct zf_compare_opts *o = c->o;
	const struct side *base = &c->sides[0];
	size_t r;

	for (r = 0; r < c->ntests; r++) {
		struct test *w = &c->tests[r];
		struct folder_counts *t = &c->counts[w->folder];
		bool significant = w->p_adj < o->alpha;

		w->verdict = "same";
		if (significant && w->worse > o->threshold_pct &&
		    ungated(o, &base->csv, &base->key, w->at)) {
			w->verdict = "regressed-ungated";	/* shown, never the exit status */
			t->ungated++;
			c->counts[0].ungated++;
		} else if (significant && w->worse > o->threshold_pct) {
			w->verdict = "regressed";
			t->regressed++;
			c->counts[0].regressed++;
		} else if (significant && -w->worse > o->threshold_pct) {
			w->verdict = "improved";
			t->improved++;
			c->counts[0].improved++;
		}
	}
}

/* compare.csv and compare.json into --out, or the last folder: 0, or 2 said */
static int write_files(const struct comparison *c, const struct zf_buf *csv,
		       const struct zf_buf *json)
{
	const struct zf_compare_opts *o = c->o;
	const char *dir = o->out ? o->out : c->sides[c->nsides - 1].dir;

	if (o->out && mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "hzfbench: compare: --out: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	return zf_buf_write(dir, "compare.csv", csv, "compare") ||
	       zf_buf_write(dir, "compare.json", json, "compare") ? 2 : 0;
}

int zf_compare(const struct zf_compare_opts *o, FILE *out)
{
	const char *pair[2] = { o->base, o->new_dir };
	const char *const *dirs = o->dirs ? o->dirs : pair;
	struct comparison c = { .o = o, .nsides = o->dirs ? o->ndirs : 2 };
	struct zf_buf csv = { 0 }, json = { 0 };
	int format = o->format ? zf_format_of(o->format) : ZF_FORMAT_TEXT, ret = 2, k, loaded = 0;
	size_t most = 1;
	double *a = NULL, *b = NULL;

	c.sides = calloc(c.nsides, sizeof(*c.sides));
	c.counts = calloc(c.nsides, sizeof(*c.counts));
	if (!c.sides || !c.counts)
		goto oom;
	for (; loaded < c.nsides; loaded++) {
		c.sides[loaded].dir = dirs[loaded];
		if (zf_cmp_load(dirs[loaded], &c.sides[loaded]))
			goto out;
		if (c.sides[loaded].csv.nrows > most)
			most = c.sides[loaded].csv.nrows;
	}
	if (label_sides(&c))
		goto out;
	warn_virtualized(&c);
	/* a test for each metric, configuration of the base and other folder */
	c.tests = calloc((size_t)o->nmetrics * (c.sides[0].csv.nrows ? c.sides[0].csv.nrows : 1) *
			 (c.nsides - 1), sizeof(*c.tests));
	/* room for every repetition a folder has: 100,000 of one configuration or more */
	a = malloc(most * sizeof(*a));
	b = malloc(most * sizeof(*b));
	if (!c.tests || !a || !b)
		goto oom;
	one_side_only(&c);
	if (run_tests(&c, a, b))
		goto out;
	for (k = 1; k < c.nsides; k++)
		holm(&c, k);
	judge(&c);
	if (zf_cmp_files(&c, &csv, &json))
		goto oom;
	if (!o->quiet && format == ZF_FORMAT_JSON)
		fputs(json.text, out);
	else if (!o->quiet && zf_cmp_table(&c, format < 0 ? ZF_FORMAT_TEXT : format, out))
		goto oom;
	ret = write_files(&c, &csv, &json);
	ret = ret ? ret : c.counts[0].regressed > 0;
	goto out;
oom:
	fprintf(stderr, "hzfbench: compare: %s\n", strerror(ENOMEM));
out:
	free(a);
	free(b);
	free(c.tests);
	free(c.counts);
	for (k = 0; k < loaded; k++)
		zf_cmp_side_free(&c.sides[k]);
	free(c.sides);
	zf_buf_free(&csv);
	zf_buf_free(&json);
	zf_buf_free(&c.missing);
	return ret;
}
