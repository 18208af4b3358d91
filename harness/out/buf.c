// SPDX-License-Identifier: GPL-2.0
/* Text buffers and atomic file writes: see buf.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

static int buf_reserve(struct zf_buf *b, size_t more)
{
	size_t cap;
	char *text;

	if (b->oom)
		return -ENOMEM;
	if (b->len + more + 1 <= b->cap)
		return 0;
	for (cap = b->cap ? b->cap : 4096; cap < b->len + more + 1; cap *= 2)
		;
	text = realloc(b->text, cap);
	if (!text) {
		b->oom = 1;
		return -ENOMEM;
	}
	b->text = text;
	b->cap = cap;
	return 0;
}

void zf_buf_printf(struct zf_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started on the line above */
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_reserve(b, n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->text + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

void zf_buf_append(struct zf_buf *b, const char *data, size_t n)
{
	if (buf_reserve(b, n))
		return;
	memcpy(b->text + b->len, data, n);
	b->len += n;
	b->text[b->len] = '\0';
}

void zf_buf_csv(struct zf_buf *b, const char *field, int last)
{
	const char *p;

	if (!strpbrk(field, ",\"\n")) {
		zf_buf_printf(b, "%s%s", field, last ? "\n" : ",");
		return;
	}
	zf_buf_printf(b, "\"");
	for (p = field; *p; p++)
		zf_buf_printf(b, *p == '"' ? "\"\"" : "%c", *p);
	zf_buf_printf(b, "\"%s", last ? "\n" : ",");
}

void zf_buf_free(struct zf_buf *b)
{
	free(b->text);
	b->text = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

int zf_write_atomic(const char *dir, const char *name, const char *data, size_t len)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	size_t done = 0;
	int fd, dfd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name) >= (int)sizeof(tmp) ||
	    snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		done += n;
	}
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int zf_buf_write(const char *dir, const char *name, const struct zf_buf *b, const char *who)
{
	int err = b->oom ? -ENOMEM : zf_write_atomic(dir, name, b->text ? b->text : "", b->len);

	if (err) {
		fprintf(stderr, "hzfbench: %s: %s/%s: cannot be written: %s\n", who, dir, name,
			strerror(-err));
		return 1;
	}
	return 0;
}
