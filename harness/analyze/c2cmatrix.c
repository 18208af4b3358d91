// SPDX-License-Identifier: GPL-2.0
/*
 * A c2c.csv read once (model.h): its shape and every cell checked, the
 * cells kept as numbers and the PUs sorted for lookup, so that model --from
 * fills each configuration's hand-offs from memory. At 1,024 PUs the file
 * has a million cells: read and parsed again for each of a sweep's
 * hundreds of configurations, it took a minute.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "model.h"
#include "parse.h"

/* the file's shape: a pu column, then one per PU, one row each, every cell a latency */
static int c2c_check(const char *path, const struct zf_csv *c, char *why, size_t len)
{
	size_t r, k;

	if (c->ncols < 3 || strcmp(c->header[0], "pu") || c->nrows != c->ncols - 1) {
		snprintf(why, len, "%s: not a c2c.csv (a pu column, then one per PU, one row each)",
			 path);
		return -EINVAL;
	}
	for (r = 0; r < c->nrows; r++) {
		const char *bad = NULL, *what = "";
		double ns;

		if (strcmp(c->rows[r][0], c->header[r + 1]))
			bad = c->rows[r][0], what = "a row's PU is not its column's";
		for (k = 1; !bad && k < c->ncols; k++) {
			const char *cell = c->rows[r][k];

			if (k == r + 1 ? *cell != '\0' : *cell && (zf_parse_ns(cell, &ns) || ns <= 0))
				bad = cell, what = k == r + 1 ? "not empty on the diagonal" :
							  "not a latency in ns";
		}
		if (bad) {
			snprintf(why, len, "%s: line %zu: %s: %s", path, r + 2, bad, what);
			return -EINVAL;
		}
	}
	return 0;
}

/* a label's PU number: the label is that number as "%d" writes it; -1 for any other label */
static int label_pu(const char *label)
{
	char again[16];
	char *end;
	long pu = strtol(label, &end, 10);

	if (end == label || *end || pu < 0 || pu > INT_MAX)
		return -1;
	snprintf(again, sizeof(again), "%ld", pu);
	return strcmp(again, label) ? -1 : (int)pu;
}

/* by PU, then by where it is in the file: the first of a PU labelled twice wins */
static int by_pu(const void *a, const void *b)
{
	const struct zf_c2c_pu *x = a, *y = b;

	if (x->pu != y->pu)
		return x->pu < y->pu ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

int zf_c2c_read(const char *path, struct zf_c2c *m, char *why, size_t len)
{
	struct zf_csv c;
	size_t line = 0, r, k, n;
	int err = zf_csv_read(path, &c, &line);

	memset(m, 0, sizeof(*m));
	if (err) {
		if (err == -EINVAL && !line)	/* no line read: there is no line 0 to blame */
			snprintf(why, len, "%s: not text to read (a NUL byte, a FIFO or a socket)",
				 path);
		else if (err == -EINVAL)
			snprintf(why, len, "%s: line %zu is not CSV", path, line);
		else
			snprintf(why, len, "%s: %s", path, strerror(-err));
		return err;
	}
	err = c2c_check(path, &c, why, len);
	if (err)
		goto out;
	n = c.nrows;
	m->path = strdup(path);
	m->ns = malloc(n * n * sizeof(*m->ns));
	m->pus = malloc(n * sizeof(*m->pus));
	if (!m->path || !m->ns || !m->pus) {
		snprintf(why, len, "%s: out of memory", path);
		err = -ENOMEM;
		zf_c2c_free(m);
		goto out;
	}
	m->n = (int)n;
	for (r = 0; r < n; r++) {
		m->pus[m->npus].pu = label_pu(c.rows[r][0]);
		m->pus[m->npus].at = (int)r;
		m->npus += m->pus[m->npus].pu >= 0;
		/* every cell a latency or empty (c2c_check): empty is -1 */
		for (k = 0; k < n; k++)
			if (!*c.rows[r][k + 1] || zf_parse_ns(c.rows[r][k + 1], &m->ns[r * n + k]))
				m->ns[r * n + k] = -1;
	}
	qsort(m->pus, m->npus, sizeof(*m->pus), by_pu);
out:
	zf_csv_free(&c);
	return err;
}

/* the row (and column) of PU pu in the matrix, -1 if it has none */
static int c2c_at(const struct zf_c2c *m, int pu)
{
	int lo = 0, hi = m->npus;

	/* the first entry not below pu */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m->pus[mid].pu < pu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->npus && m->pus[lo].pu == pu ? m->pus[lo].at : -1;
}

int zf_model_matrix_c2c(const struct zf_c2c *m, const struct zf_plan *plan, double *h,
			char *why, size_t len)
{
	int n = plan->ntasks, i, j, *at = calloc(n ? n : 1, sizeof(*at));

	if (!at) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		at[i] = c2c_at(m, plan->pu[i]);
		if (at[i] < 0) {
			snprintf(why, len, "%s: PU %d of the placement is not in the matrix",
				 m->path, plan->pu[i]);
			free(at);
			return -EINVAL;
		}
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			h[i * n + j] = i == j ? -1 : m->ns[(size_t)at[i] * m->n + at[j]];
	free(at);
	return 0;
}

void zf_c2c_free(struct zf_c2c *m)
{
	free(m->path);
	free(m->ns);
	free(m->pus);
	memset(m, 0, sizeof(*m));
}
