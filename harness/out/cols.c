// SPDX-License-Identifier: GPL-2.0
/* Column tables and the configuration key: see cols.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cols.h"
#include "perfcols.h"

#define KEY(type, field)	ZF_COL(struct zf_config_key, type, field, NULL)
static const struct zf_col key_cols[ZF_KEY_NCOLS] = {
	KEY(ZF_COL_TEXT, strategy),
	KEY(ZF_COL_TEXT, fault),
	KEY(ZF_COL_TEXT, task_kind),
	KEY(ZF_COL_UINT, tasks),
	KEY(ZF_COL_TEXT, placement),
	KEY(ZF_COL_UINT, step),
	KEY(ZF_COL_UINT, faults_per_pass),
};

const struct zf_col_table zf_key_table = ZF_COL_TABLE_OF(key_cols);

/* t's column names, each followed by a comma */
static void names(struct zf_buf *b, const struct zf_col_table *t)
{
	size_t i;
	int c;

	for (i = 0; i < t->n; i++) {
		const struct zf_col *col = &t->cols[i];

		if (col->type == ZF_COL_TABLE)
			names(b, col->sub);
		else if (col->type == ZF_COL_PERF)
			for (c = 0; c < ZF_PERF_NCOLS; c++)
				zf_buf_printf(b, "%s,", zf_perf_col_name(c));
		else
			zf_buf_printf(b, "%s,", col->name);
	}
}

/* the last comma a newline */
static void end_line(struct zf_buf *b)
{
	if (b->len && b->text[b->len - 1] == ',')
		b->text[b->len - 1] = '\n';
}

void zf_cols_header(struct zf_buf *b, const struct zf_col_table *t)
{
	names(b, t);
	end_line(b);
}

/* a number, or nothing where it was not measured; a comma after it */
static void number(struct zf_buf *b, const char *fmt, double d)
{
	if (!isnan(d))
		zf_buf_printf(b, fmt, d);
	zf_buf_printf(b, ",");
}

/* the fields of t from row, each followed by a comma */
static void fields(struct zf_buf *b, const struct zf_col_table *t, const char *row)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct zf_col *col = &t->cols[i];
		const void *v = row + col->off;
		int c;

		switch (col->type) {
		case ZF_COL_NUM:
			number(b, col->fmt, *(const double *)v);
			break;
		case ZF_COL_UINT:
			zf_buf_printf(b, "%llu,", (unsigned long long)*(const uint64_t *)v);
			break;
		case ZF_COL_INT:
			zf_buf_printf(b, "%lld,", (long long)*(const int64_t *)v);
			break;
		case ZF_COL_TOLD:
			if (*(const int64_t *)v >= 0)
				zf_buf_printf(b, "%lld", (long long)*(const int64_t *)v);
			zf_buf_printf(b, ",");
			break;
		case ZF_COL_TEXT:
			zf_buf_csv(b, *(const char *const *)v ? *(const char *const *)v : "", 0);
			break;
		case ZF_COL_PERF:
			for (c = 0; c < ZF_PERF_NCOLS; c++)
				number(b, zf_perf_col_fmt(c), ((const double *)v)[c]);
			break;
		case ZF_COL_TABLE:
			fields(b, col->sub, v);
			break;
		}
	}
}

void zf_cols_row(struct zf_buf *b, const struct zf_col_table *t, const void *row, bool last)
{
	fields(b, t, row);
	if (last)
		end_line(b);
}

void zf_cols_unmeasured(const struct zf_col_table *t, void *row)
{
	static const double nan = NAN;
	static const char *const none;		/* NULL: an empty text */
	static const int64_t untold = -1;
	size_t i;
	int c;

	for (i = 0; i < t->n; i++) {
		char *v = (char *)row + t->cols[i].off;

		switch (t->cols[i].type) {
		case ZF_COL_NUM:
			memcpy(v, &nan, sizeof(nan));
			break;
		case ZF_COL_PERF:
			for (c = 0; c < ZF_PERF_NCOLS; c++)
				memcpy(v + c * sizeof(nan), &nan, sizeof(nan));
			break;
		case ZF_COL_TABLE:
			zf_cols_unmeasured(t->cols[i].sub, v);
			break;
		case ZF_COL_TEXT:
			memcpy(v, &none, sizeof(none));
			break;
		case ZF_COL_TOLD:
			memcpy(v, &untold, sizeof(untold));
			break;
		default:
			memset(v, 0, sizeof(uint64_t));
		}
	}
}

/* v as fmt writes it, read back */
static double as_written(const char *fmt, double v)
{
	char text[64];

	snprintf(text, sizeof(text), fmt, v);
	return strtod(text, NULL);
}

void zf_cols_numbers(const struct zf_col_table *t, const void *row,
		     void (*fn)(void *arg, const char *name, double value), void *arg)
{
	size_t i;
	int c;

	for (i = 0; i < t->n; i++) {
		const struct zf_col *col = &t->cols[i];
		const char *v = (const char *)row + col->off;
		uint64_t u;
		double d;
		int64_t n;

		switch (col->type) {
		case ZF_COL_NUM:
			memcpy(&d, v, sizeof(d));
			if (!isnan(d))
				fn(arg, col->name, as_written(col->fmt, d));
			break;
		case ZF_COL_PERF:
			for (c = 0; c < ZF_PERF_NCOLS; c++) {
				memcpy(&d, v + c * sizeof(d), sizeof(d));
				if (!isnan(d))
					fn(arg, zf_perf_col_name(c), as_written(zf_perf_col_fmt(c), d));
			}
			break;
		case ZF_COL_UINT:
			memcpy(&u, v, sizeof(u));
			fn(arg, col->name, (double)u);
			break;
		case ZF_COL_INT:
		case ZF_COL_TOLD:
			memcpy(&n, v, sizeof(n));
			if (col->type == ZF_COL_INT || n >= 0)
				fn(arg, col->name, (double)n);
			break;
		case ZF_COL_TEXT:
		case ZF_COL_TABLE:
			break;
		}
	}
}

bool zf_cols_text(const struct zf_col_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct zf_col *col = &t->cols[i];

		if (col->type == ZF_COL_TABLE && zf_cols_text(col->sub, name))
			return true;
		if (col->type == ZF_COL_TEXT && !strcmp(col->name, name))
			return true;
	}
	return false;
}

int zf_key_cols_find(const struct zf_csv *csv, struct zf_key_cols *kc, const char **missing)
{
	int i, err = 0;

	for (i = ZF_KEY_NCOLS - 1; i >= 0; i--) {
		kc->col[i] = zf_csv_col(csv, key_cols[i].name);
		if (kc->col[i] < 0) {
			*missing = key_cols[i].name;
			err = -1;
		}
	}
	return err;
}

void zf_key_names(struct zf_buf *b)
{
	names(b, &zf_key_table);
}

const char *zf_key_field(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t row, int i)
{
	return kc->col[i] < 0 ? "" : csv->rows[row][kc->col[i]];
}

/* a key number as written, or ZF_KEY_ANY */
static uint64_t key_number(const char *field)
{
	char *end;
	uint64_t n = strtoull(field, &end, 10);

	return end == field || *end ? ZF_KEY_ANY : n;
}

void zf_key_of_row(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t row,
		   struct zf_config_key *key)
{
	int i;

	for (i = 0; i < ZF_KEY_NCOLS; i++) {
		char *v = (char *)key + key_cols[i].off;
		const char *field = kc->col[i] < 0 ? NULL : csv->rows[row][kc->col[i]];
		uint64_t n = field ? key_number(field) : ZF_KEY_ANY;

		if (key_cols[i].type == ZF_COL_TEXT)
			memcpy(v, &field, sizeof(field));
		else
			memcpy(v, &n, sizeof(n));
	}
}

bool zf_key_matches(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t r,
		    const struct zf_config_key *want)
{
	int i;

	for (i = 0; i < ZF_KEY_NCOLS; i++) {
		const char *v = (const char *)want + key_cols[i].off;
		const char *field = kc->col[i] < 0 ? NULL : csv->rows[r][kc->col[i]];
		const char *s;
		uint64_t n;

		if (key_cols[i].type == ZF_COL_TEXT) {
			memcpy(&s, v, sizeof(s));
			if (s && (!field || strcmp(field, s)))
				return false;
			continue;
		}
		memcpy(&n, v, sizeof(n));
		if (n != ZF_KEY_ANY && (!field || key_number(field) != n))
			return false;
	}
	return true;
}
