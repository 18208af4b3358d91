/* SPDX-License-Identifier: GPL-2.0 */
/* Reading back the CSV files hzfbench writes (quoted fields included). */
#ifndef HZF_CSV_H
#define HZF_CSV_H

#include <stddef.h>

struct zf_csv {
	size_t ncols, nrows;
	char **header;		/* ncols */
	char ***rows;		/* nrows x ncols */
};

/* -errno, or -EINVAL with *line set to the first bad line (1-based) */
int zf_csv_parse(const char *text, struct zf_csv *csv, size_t *line);
int zf_csv_read(const char *path, struct zf_csv *csv, size_t *line);
/* the column's index, or -1 */
int zf_csv_col(const struct zf_csv *csv, const char *name);
void zf_csv_free(struct zf_csv *csv);

#endif
