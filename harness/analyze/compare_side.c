// SPDX-License-Identifier: GPL-2.0
/* One results folder as compare reads it: its rows by configuration key and repetition. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "results.h"

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

bool zf_cmp_has_key(const struct side *s, const char *key)
{
	size_t i = lower(s, key, NULL);

	return i < s->csv.nrows && !strcmp(s->refs[i].key, key);
}

void zf_cmp_side_free(struct side *s)
{
	size_t i;

	for (i = 0; s->keys && i < s->csv.nrows; i++)
		free(s->keys[i]);
	free(s->keys);
	free(s->refs);
	free(s->first);
	free(s->label_own);
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

int zf_cmp_load(const char *dir, struct side *s)
{
	char path[PATH_MAX + 16], why[PATH_MAX + 128];
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
	if (zf_results_finite(path, &s->csv, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: compare: %s\n", why);
		zf_csv_free(&s->csv);
		return -EINVAL;
	}
	s->check = zf_csv_col(&s->csv, "kernel_check");
	s->rep = zf_csv_col(&s->csv, "rep");
	err = index_rows(s);
	if (err) {
		fprintf(stderr, "hzfbench: compare: %s: %s\n", path, strerror(-err));
		zf_cmp_side_free(s);
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
size_t zf_cmp_values(const struct side *s, const char *key, int col, const char *norm, double *v)
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
void zf_cmp_key_csv(struct zf_buf *b, const struct side *s, size_t row)
{
	int i;

	for (i = 0; i < ZF_KEY_NCOLS; i++)
		zf_buf_csv(b, zf_key_field(&s->csv, &s->key, row, i), 0);
}

