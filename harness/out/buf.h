/* SPDX-License-Identifier: GPL-2.0 */
/* A growing text buffer, and writing one whole file safely. */
#ifndef HZF_BUF_H
#define HZF_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct zf_buf {
	char *text;
	size_t len, cap;
	int oom;		/* an append failed: the text is incomplete */
};

void zf_buf_printf(struct zf_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void zf_buf_append(struct zf_buf *b, const char *data, size_t n);
/* one CSV field, quoted when it holds a comma, a quote or a newline */
void zf_buf_csv(struct zf_buf *b, const char *field, int last);
void zf_buf_free(struct zf_buf *b);

/*
 * dir/name := data, written to a temporary name, fsync()ed and renamed, so
 * that a reader sees the old file or the new one, never half of one.
 */
int zf_write_atomic(const char *dir, const char *name, const char *data, size_t len);
/* zf_write_atomic() of a whole buffer; 0, or 1 with "hzfbench: WHO: DIR/NAME: why" said */
int zf_buf_write(const char *dir, const char *name, const struct zf_buf *b, const char *who);

#endif
