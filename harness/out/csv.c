// SPDX-License-Identifier: GPL-2.0
/* CSV reading: see csv.h. Every row must have as many fields as the header. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "csv.h"

static void free_record(char **fields, size_t n)
{
	while (n)
		free(fields[--n]);
	free(fields);
}

/*
 * The field at *s, malloc()ed to its size: "quoted" ("" for a quote inside)
 * or bare up to the next comma or line end. NULL with *err -EINVAL for a
 * quote left open or inside a bare field, -ENOMEM.
 */
static char *parse_field(const char **p, int *err)
{
	const char *s = *p, *start;
	char *field, *out;
	size_t len;

	*err = -EINVAL;
	if (*s != '"') {
		len = strcspn(s, ",\n\r\"");
		if (s[len] == '"')
			return NULL;
		*p = s + len;
		field = strndup(s, len);
		*err = field ? 0 : -ENOMEM;
		return field;
	}
	for (start = ++s; *s != '"' || s[1] == '"'; s += 1 + (*s == '"'))
		if (!*s)
			return NULL;
	field = malloc(s - start + 1);
	if (!field) {
		*err = -ENOMEM;
		return NULL;
	}
	for (out = field; start < s; start += 1 + (*start == '"'))
		*out++ = *start;
	*out = '\0';
	*p = s + 1;
	*err = 0;
	return field;
}

/* one record starting at *p; fields malloc()ed into *out, count in *n */
static int parse_record(const char **p, char ***out, size_t *n)
{
	const char *s = *p;
	char **fields = NULL, **grown;
	size_t count = 0, cap = 0;
	int err = -EINVAL;

	*out = NULL;
	*n = 0;
	for (;;) {
		char *field = parse_field(&s, &err);

		if (field && count == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(fields, cap * sizeof(*fields));
			if (!grown) {
				free(field);
				field = NULL;
				err = -ENOMEM;
			}
			fields = grown ? grown : fields;
		}
		if (!field) {
			free_record(fields, count);
			return err < 0 ? err : -EINVAL;
		}
		fields[count++] = field;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s && *s != '\n') {
			free_record(fields, count);
			return -EINVAL;
		}
		if (*s)
			s++;
		*p = s;
		/* as long as it is: a file of millions of fields keeps no slack */
		grown = realloc(fields, count * sizeof(*fields));
		*out = grown ? grown : fields;
		*n = count;
		return 0;
	}
}

int zf_csv_parse(const char *text, struct zf_csv *csv, size_t *line)
{
	const char *p = text;
	size_t n, cap = 0;
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
		if (csv->nrows == cap) {
			cap = cap ? cap * 2 : 64;
			rows = realloc(csv->rows, cap * sizeof(*rows));
			if (!rows) {
				free_record(fields, n);
				err = -ENOMEM;
				goto fail;
			}
			csv->rows = rows;
		}
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
	/* O_NONBLOCK: a FIFO put where a file was would hold the open forever */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	size_t n;
	int err;
	FILE *f;

	*line = 0;
	memset(csv, 0, sizeof(*csv));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		close(fd);
		return -EINVAL;	/* not a file to read */
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fdopen(fd, "r");
	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
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
