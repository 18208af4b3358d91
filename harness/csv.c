// SPDX-License-Identifier: GPL-2.0
/* CSV reading: see csv.h. Every row must have as many fields as the header. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "csv.h"

/* one record starting at *p; fields malloc()ed into *out, count in *n */
static int parse_record(const char **p, char ***out, size_t *n)
{
	const char *s = *p;
	char **fields = NULL;
	size_t count = 0;

	for (;;) {
		struct zf_buf field = { 0 };
		char **grown;

		zf_buf_printf(&field, "%s", "");
		if (*s == '"') {
			for (s++; ; s++) {
				if (!*s)
					goto bad;
				if (*s == '"') {
					if (s[1] != '"')
						break;
					s++;
				}
				zf_buf_printf(&field, "%c", *s);
			}
			s++;
		} else {
			for (; *s && *s != ',' && *s != '\n' && *s != '\r'; s++) {
				if (*s == '"')
					goto bad;
				zf_buf_printf(&field, "%c", *s);
			}
		}
		grown = realloc(fields, (count + 1) * sizeof(*fields));
		if (!grown || field.oom) {
			zf_buf_free(&field);
			free(grown ? grown : fields);
			return -ENOMEM;
		}
		fields = grown;
		fields[count++] = field.text;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s && *s != '\n') {
			while (count)
				free(fields[--count]);
			free(fields);
			return -EINVAL;
		}
		if (*s)
			s++;
		*p = s;
		*out = fields;
		*n = count;
		return 0;
bad:
		zf_buf_free(&field);
		while (count)
			free(fields[--count]);
		free(fields);
		return -EINVAL;
	}
}

static void free_record(char **fields, size_t n)
{
	while (n)
		free(fields[--n]);
	free(fields);
}

int zf_csv_parse(const char *text, struct zf_csv *csv, size_t *line)
{
	const char *p = text;
	size_t n;
	int err;

	memset(csv, 0, sizeof(*csv));
	*line = 1;
	if (!*p)
		return -EINVAL;
	err = parse_record(&p, &csv->header, &csv->ncols);
	if (err)
		return err;
	while (*p) {
		char **fields, ***rows;

		(*line)++;
		err = parse_record(&p, &fields, &n);
		if (err)
			goto fail;
		if (n != csv->ncols) {
			free_record(fields, n);
			err = -EINVAL;
			goto fail;
		}
		rows = realloc(csv->rows, (csv->nrows + 1) * sizeof(*rows));
		if (!rows) {
			free_record(fields, n);
			err = -ENOMEM;
			goto fail;
		}
		csv->rows = rows;
		csv->rows[csv->nrows++] = fields;
	}
	return 0;
fail:
	zf_csv_free(csv);
	return err;
}

int zf_csv_read(const char *path, struct zf_csv *csv, size_t *line)
{
	struct zf_buf text = { 0 };
	char chunk[65536];
	FILE *f = fopen(path, "r");
	size_t n;
	int err;

	*line = 0;
	memset(csv, 0, sizeof(*csv));
	if (!f)
		return -errno;
	zf_buf_printf(&text, "%s", "");
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		zf_buf_append(&text, chunk, n);
	err = ferror(f) ? -EIO : text.oom ? -ENOMEM : 0;
	fclose(f);
	if (!err && strlen(text.text) != text.len)
		err = -EINVAL;	/* a NUL byte inside */
	if (!err)
		err = zf_csv_parse(text.text, csv, line);
	zf_buf_free(&text);
	return err;
}

int zf_csv_col(const struct zf_csv *csv, const char *name)
{
	size_t i;

	for (i = 0; i < csv->ncols; i++)
		if (!strcmp(csv->header[i], name))
			return i;
	return -1;
}

void zf_csv_free(struct zf_csv *csv)
{
	size_t i;

	for (i = 0; i < csv->nrows; i++)
		free_record(csv->rows[i], csv->ncols);
	if (csv->header)
		free_record(csv->header, csv->ncols);
	free(csv->rows);
	memset(csv, 0, sizeof(*csv));
}
