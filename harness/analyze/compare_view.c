// SPDX-License-Identifier: GPL-2.0
/*
 * compare's results laid out: compare.csv and compare.json, one row a test
 * (a metric of a configuration, one folder against the base), and the table,
 * one row a metric of a configuration and a column group a folder.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "compare_priv.h"
#include "json.h"
#include "table.h"

/* compare.csv's rows of the configurations of one folder that the other lacks */
static void only_in(struct zf_buf *b, const struct side *one, const struct side *other,
		    const char *label, const char *verdict)
{
	size_t i;

	for (i = 0; i < one->csv.nrows; i++) {
		if (!one->first[i] || zf_cmp_has_key(other, one->keys[i]))
			continue;
		zf_buf_printf(b, "*,");
		zf_cmp_key_csv(b, one, i);
		zf_buf_printf(b, ",,,");
		zf_buf_csv(b, label, 0);
		zf_buf_printf(b, ",,,,,,%s\n", verdict);
	}
}

static json_t *counts_json(const struct folder_counts *t)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i}", "matched", t->matched,
			 "on_one_side_only", t->one_side_only, "regressed", t->regressed,
			 "improved", t->improved, "regressed_ungated", t->ungated);
}

static json_t *test_json(const struct comparison *c, const struct test *w)
{
	return json_pack("{s:s, s:o, s:o, s:o, s:I, s:i, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:s}",
		"metric", c->o->metrics[w->metric], "configuration", zf_json_text(w->key),
		"base_median", zf_json_real(w->base_median),
		"base_stddev_pct", zf_json_real(w->base_sd), "base_reps", (json_int_t)w->na,
		"folder", w->folder, "new_label", zf_json_text(c->sides[w->folder].label),
		"new_median", zf_json_real(w->new_median),
		"new_stddev_pct", zf_json_real(w->new_sd), "new_reps", (json_int_t)w->nb,
		"change_pct", zf_json_real(w->in_noise ? NAN : w->change), "p_value", zf_json_real(w->p),
		"p_adjusted", zf_json_real(w->p_adj), "verdict", w->verdict);
}

int zf_cmp_files(const struct comparison *c, struct zf_buf *csv, struct zf_buf *json)
{
	const struct zf_compare_opts *o = c->o;
	const struct side *base = &c->sides[0];
	const struct folder_counts *all = &c->counts[0];
	json_t *rows = json_array(), *folders = json_array(), *ungated = json_array();
	size_t r;
	int k;

	zf_buf_printf(csv, "metric,");
	zf_key_names(csv);
	zf_buf_printf(csv, "base_median,base_stddev_pct,base_reps,new_label,new_median,"
		      "new_stddev_pct,new_reps,change_pct,p_value,p_adjusted,verdict\n");
	for (r = 0; r < c->ntests; r++) {
		const struct test *w = &c->tests[r];

		zf_buf_printf(csv, "%s,", o->metrics[w->metric]);
		zf_cmp_key_csv(csv, base, w->at);
		zf_buf_printf(csv, "%.6g,%.2f,%zu,", w->base_median, w->base_sd, w->na);
		zf_buf_csv(csv, c->sides[w->folder].label, 0);
		zf_buf_printf(csv, "%.6g,%.2f,%zu,", w->new_median, w->new_sd, w->nb);
		if (!w->in_noise)	/* inside the noise: no change, the field empty */
			zf_buf_printf(csv, "%.2f", w->change);
		zf_buf_printf(csv, ",%.4g,%.4g,%s\n", w->p, w->p_adj, w->verdict);
		zf_json_push(&rows, test_json(c, w));
	}
	for (k = 1; k < c->nsides; k++) {
		only_in(csv, base, &c->sides[k], c->sides[k].label, "only-in-base");
		only_in(csv, &c->sides[k], base, c->sides[k].label, "only-in-new");
	}
	for (k = 0; k < c->nsides; k++) {
		json_t *f = k ? counts_json(&c->counts[k]) : json_object();

		if (f && (json_object_set_new(f, "dir", zf_json_text(c->sides[k].dir)) ||
			  json_object_set_new(f, "label", zf_json_text(c->sides[k].label)))) {
			json_decref(f);
			f = NULL;
		}
		zf_json_push(&folders, f);
	}
	for (k = 0; k < o->nungated; k++)
		zf_json_push(&ungated, zf_json_text(o->ungated[k]));
	/* "new": the other folder of a two-way compare; "folders" has them all */
	zf_json_dump(json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:o}",
			       "base", zf_json_text(base->dir),
			       "new", zf_json_text(c->nsides == 2 ? c->sides[1].dir : NULL),
			       "folders", folders, "threshold_pct", zf_json_real(o->threshold_pct),
			       "alpha", zf_json_real(o->alpha), "normalize", zf_json_text(o->normalize),
			       "rows", rows, "matched", all->matched,
			       "on_one_side_only", all->one_side_only, "regressed", all->regressed,
			       "improved", all->improved, "regressed_ungated", all->ungated,
			       "ungated", ungated), JSON_INDENT(2), json);
	zf_buf_printf(json, "\n");
	return csv->oom || json->oom ? -ENOMEM : 0;
}

/* the mark of a change: its verdict beyond the threshold, '*' inside it, nothing if noise */
static const char *mark(const struct comparison *c, const struct test *w)
{
	if (strcmp(w->verdict, "same"))
		return w->verdict;
	return w->p_adj < c->o->alpha ? "*" : "";
}

static void columns(const struct comparison *c, struct zf_table *t)
{
	struct zf_buf name = { 0 };
	size_t col = 2;
	int k;

	zf_table_column(t, 0, NULL, "metric", false);
	zf_table_column(t, 1, NULL, "configuration", false);
	for (k = 0; k < c->nsides; k++) {
		const char *label = c->sides[k].label;

		zf_table_column(t, col++, NULL, label, true);
		name.len = 0;
		zf_buf_printf(&name, "%s_stddev_pct", label);
		zf_table_column(t, col++, name.oom ? "" : name.text, "±%stddev", true);
		if (!k)
			continue;
		name.len = 0;
		zf_buf_printf(&name, "%s_change_pct", label);
		zf_table_column(t, col++, name.oom ? "" : name.text, "%change", true);
		name.len = 0;
		zf_buf_printf(&name, "%s_sig", label);
		zf_table_column(t, col++, name.oom ? "" : name.text, "sig", false);
	}
	t->oom |= name.oom;
	zf_buf_free(&name);
}

/* the tests from first on of one metric and configuration: a row; the next row's first */
static size_t table_row(const struct comparison *c, struct zf_table *t, size_t first)
{
	const struct test *w = &c->tests[first];
	size_t r = first, col = 4;
	int k;

	zf_table_row(t);
	zf_table_set(t, 0, "%s%s%s", c->o->metrics[w->metric], c->o->normalize ? " over " : "",
		     c->o->normalize ? c->o->normalize : "");
	zf_table_set(t, 1, "%s", w->key);
	zf_table_set(t, 2, "%.4g", w->base_median);
	zf_table_set(t, 3, "%.0f%%", w->base_sd);
	for (k = 1; k < c->nsides; k++, col += 4) {
		w = r < c->ntests ? &c->tests[r] : NULL;
		if (!w || w->folder != k || w->metric != c->tests[first].metric ||
		    w->at != c->tests[first].at) {
			zf_table_set(t, col, "-");	/* not in that folder */
			continue;
		}
		zf_table_set(t, col, "%.4g", w->new_median);
		zf_table_set(t, col + 1, "%.0f%%", w->new_sd);
		if (w->in_noise)
			zf_table_set(t, col + 2, "in noise");
		else
			zf_table_set(t, col + 2, "%+.1f%%", w->change);
		zf_table_set(t, col + 3, "%s", mark(c, w));
		r++;
	}
	return r;
}

static void notes(const struct comparison *c, struct zf_table *t)
{
	const struct zf_compare_opts *o = c->o;
	int k;

	zf_table_note(t, "%s", "");
	zf_table_note(t, "sig: * a change at Holm-adjusted p < %g (Mann-Whitney U, each folder "
		      "against %s) within the %g%% threshold; regressed, improved: beyond it; "
		      "-: not in that folder", o->alpha, c->sides[0].label, o->threshold_pct);
	zf_table_note(t, "in noise: the medians' difference is no larger than the two stddevs of "
		      "the repetitions together: no %%change is made of it");
	if (c->missing.len) {
		zf_table_note(t, "%s", "");
		zf_table_note(t, "configurations in some folders only:");
		zf_table_note(t, "%.*s", (int)c->missing.len - 1, c->missing.text);
	}
	zf_table_note(t, "%s", "");
	for (k = 1; k < c->nsides; k++) {
		const struct folder_counts *n = &c->counts[k];

		zf_table_note(t, "%s against %s: %d configurations matched; %d regressed, %d "
			      "improved (beyond %g%% at Holm-adjusted p < %g)", c->sides[k].label,
			      c->sides[0].label, n->matched, n->regressed, n->improved,
			      o->threshold_pct, o->alpha);
		if (n->ungated)
			zf_table_note(t, "%d more beyond it in configurations not gated (--ungated): "
				      "shown, not counted", n->ungated);
	}
}

int zf_cmp_table(const struct comparison *c, int format, FILE *out)
{
	struct zf_table t;
	size_t r;
	int err = zf_table_init(&t, 4 + 4 * (size_t)(c->nsides - 1));

	if (err)
		return err;
	columns(c, &t);
	for (r = 0; r < c->ntests; )
		r = table_row(c, &t, r);
	notes(c, &t);
	err = zf_table_print(&t, format, "hzfbench compare", out);
	zf_table_free(&t);
	return err;
}
