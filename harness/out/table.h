/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A table of text cells, built row by row and rendered as text (aligned
 * columns, the terminal's), CSV, JSON (an array of objects, one a row),
 * markdown (a GitHub table) or HTML (a small self-contained page): the
 * one place show and compare lay their tables out, whatever --format asks.
 */
#ifndef HZF_TABLE_H
#define HZF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "buf.h"

enum zf_format { ZF_FORMAT_TEXT, ZF_FORMAT_CSV, ZF_FORMAT_JSON, ZF_FORMAT_MARKDOWN,
		 ZF_FORMAT_HTML };

/* --format's words, in enum zf_format's order, NULL last */
extern const char *const zf_format_names[];
/* name's format, or -1 */
int zf_format_of(const char *name);

struct zf_table {
	size_t ncols, nrows, cap;
	char **names;		/* per column: the key in CSV and JSON */
	char **titles;		/* per column: the heading in text, markdown and HTML */
	bool *right;		/* per column: right-aligned (a number) */
	char **cells;		/* nrows * ncols, row by row; NULL: empty */
	struct zf_buf notes;	/* lines after the table (text, markdown, HTML only) */
	bool oom;
};

/* an empty table of ncols columns: 0 or -ENOMEM */
int zf_table_init(struct zf_table *t, size_t ncols);
/* column col's key (NULL: its title), heading and alignment */
void zf_table_column(struct zf_table *t, size_t col, const char *name, const char *title,
		     bool right);
/* a new last row, every cell empty */
void zf_table_row(struct zf_table *t);
/* the last row's cell col, printf()-like */
void zf_table_set(struct zf_table *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* a line below the table, printf()-like, without its newline */
void zf_table_note(struct zf_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The table in format f (the title above it in HTML's <title> and heading,
 * NULL: none): 0, or -ENOMEM when a cell could not be kept (nothing printed).
 */
int zf_table_print(const struct zf_table *t, enum zf_format f, const char *title, FILE *out);
void zf_table_free(struct zf_table *t);

#endif
