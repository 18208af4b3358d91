/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Column tables, in the manner of fio's options: a CSV file is one table of
 * { name, type, format, where the value is in the row's struct }, from which
 * its header line and every row are written, so that a column's name and its
 * value cannot drift apart. A number that was not measured (NAN) or a text
 * that is NULL is an empty field, never a made-up zero.
 *
 * A configuration's key (strategy, fault, task_kind, tasks, placement, step,
 * faults_per_pass) is one struct and one table: the first columns of every
 * results CSV, and what the readers match rows by, by name.
 */
#ifndef HZF_COLS_H
#define HZF_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "csv.h"

enum zf_col_type {
	ZF_COL_NUM,	/* double, by fmt; NAN: empty */
	ZF_COL_UINT,	/* uint64_t, %llu */
	ZF_COL_INT,	/* int64_t, %lld */
	ZF_COL_TOLD,	/* int64_t, %lld; negative: not told (a node, a CPU, a count), empty */
	ZF_COL_TEXT,	/* const char *, quoted where it needs it; NULL: empty */
	ZF_COL_PERF,	/* double[ZF_PERF_NCOLS]: the default events' columns (perfcols.h) */
	ZF_COL_TABLE,	/* a struct of another table's columns (sub), in its place */
};

struct zf_col_table;

struct zf_col {
	const char *name;
	enum zf_col_type type;
	const char *fmt;		/* ZF_COL_NUM's printf format */
	size_t off;			/* offsetof() the value in the row's struct */
	const struct zf_col_table *sub;	/* ZF_COL_TABLE's */
};

struct zf_col_table {
	const struct zf_col *cols;
	size_t n;
};

#define ZF_COL_TABLE_OF(a)	{ a, sizeof(a) / sizeof((a)[0]) }
/* a column named as its field: ZF_COL(struct row, ZF_COL_NUM, ns_per_fault, "%.3f") */
#define ZF_COL(row, type, field, fmt)	{ #field, type, fmt, offsetof(row, field), NULL }
/* the configuration's key columns (zf_key_table), from the row's member `key` */
#define ZF_COL_KEY(row)		{ "", ZF_COL_TABLE, NULL, offsetof(row, key), &zf_key_table }

/* the header line, a newline after it */
void zf_cols_header(struct zf_buf *b, const struct zf_col_table *t);
/* row's fields, a newline after them; last false: a comma instead, more to come */
void zf_cols_row(struct zf_buf *b, const struct zf_col_table *t, const void *row, bool last);

/* every number of row NAN, every text NULL, every count 0: then set what is known */
void zf_cols_unmeasured(const struct zf_col_table *t, void *row);

/*
 * fn(arg, name, value) for each number of row that was measured, in the
 * table's order, as its column writes it (rounded by its format): an empty
 * field, a text and the key (a configuration's name, not a figure) skipped.
 * A count past 2^53 loses its last digits as a double.
 */
void zf_cols_numbers(const struct zf_col_table *t, const void *row,
		     void (*fn)(void *arg, const char *name, double value), void *arg);
/* t (or a table inside it) has a text column of that name: a word, never a figure */
bool zf_cols_text(const struct zf_col_table *t, const char *name);

/* what names a configuration: the first columns of every results CSV */
struct zf_config_key {
	const char *strategy, *fault, *task_kind;
	uint64_t tasks;
	const char *placement;
	uint64_t step, faults_per_pass;
};

extern const struct zf_col_table zf_key_table;
#define ZF_KEY_NCOLS	7

/*
 * Finding rows by their key, by column name. A reader's key: a NULL text
 * or ZF_KEY_ANY number matches any row, and needs no column in the file.
 */
#define ZF_KEY_ANY	UINT64_MAX

struct zf_key_cols {
	int col[ZF_KEY_NCOLS];	/* each key column's index in the file, in key order; -1: none */
};

/* 0, or -1 with *missing the first key column the file lacks (the others still found) */
int zf_key_cols_find(const struct zf_csv *csv, struct zf_key_cols *kc, const char **missing);
/* the names of the key's columns, each followed by a comma */
void zf_key_names(struct zf_buf *b);
/* row's key column i (key order), as written; "" where the file has none */
const char *zf_key_field(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t row,
			 int i);
/* row's key: its texts point into csv; a number not there or not one: ZF_KEY_ANY */
void zf_key_of_row(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t row,
		   struct zf_config_key *key);
/* row r is the configuration want names (its NULL and ZF_KEY_ANY fields: any) */
bool zf_key_matches(const struct zf_csv *csv, const struct zf_key_cols *kc, size_t r,
		    const struct zf_config_key *want);

#endif
