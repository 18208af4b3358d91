/* SPDX-License-Identifier: GPL-2.0 */
/* What compare.c measures and compare_view.c lays out: compare's own, no one else's. */
#ifndef HZF_COMPARE_PRIV_H
#define HZF_COMPARE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "buf.h"
#include "cols.h"
#include "compare.h"
#include "csv.h"

/* a row by its key and repetition, for finding rows by them in O(log rows) */
struct row_ref {
	const char *key, *rep;
	size_t row;
};

/* one results folder */
struct side {
	const char *dir, *label;
	char *label_own;	/* label, where it was made here */
	struct zf_csv csv;
	struct zf_key_cols key;
	int check, rep;
	char **keys;		/* per row */
	struct row_ref *refs;	/* every row, by key, then repetition, then row */
	bool *first;		/* per row: the first of its key */
};

/* one test: a metric of one configuration, folder against the base */
struct test {
	int metric, folder;
	const char *key;
	size_t at;		/* the configuration's first row in base */
	double base_median, base_sd, new_median, new_sd, change, worse, p, p_adj;
	size_t na, nb;
	bool in_noise;		/* the medians' difference inside the noise (stats.h): no change */
	const char *verdict;
};

/* what one folder's comparison against the base found */
struct folder_counts {
	int matched, one_side_only, regressed, improved, ungated;
};

struct comparison {
	const struct zf_compare_opts *o;
	struct side *sides;	/* nsides, the first the base */
	int nsides;
	/* by metric, then the base's row, then folder: a table row's tests are neighbours */
	struct test *tests;
	size_t ntests;
	struct folder_counts *counts;	/* per folder; [0] the sum over the others */
	struct zf_buf missing;	/* "  only in ...: KEY" lines */
};

/* dir's samples.csv, indexed: 0, or -errno said on stderr (s left empty) */
int zf_cmp_load(const char *dir, struct side *s);
void zf_cmp_side_free(struct side *s);
bool zf_cmp_has_key(const struct side *s, const char *key);
/*
 * The column col's values of key's repetitions into v (verified ones only, for
 * real faults; each over the same repetition of strategy norm, where not NULL)
 */
size_t zf_cmp_values(const struct side *s, const char *key, int col, const char *norm, double *v);
/* the key columns of row as CSV fields, each quoted where it needs it, then a comma */
void zf_cmp_key_csv(struct zf_buf *b, const struct side *s, size_t row);
/* compare.csv's and compare.json's text: 0 or -ENOMEM */
int zf_cmp_files(const struct comparison *c, struct zf_buf *csv, struct zf_buf *json);
/* the table on out, in format f: 0 or -ENOMEM */
int zf_cmp_table(const struct comparison *c, int format, FILE *out);

#endif
