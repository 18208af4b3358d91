// SPDX-License-Identifier: GPL-2.0
/* A file appended to row by row: see stream.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "stream.h"

/* all of data, or -errno (a short write and then ENOSPC, as a full disk does) */
static int write_all(struct zf_stream *s, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(s->fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		s->size += n;
		data += n;
		len -= n;
	}
	return 0;
}

int zf_stream_open(struct zf_stream *s, const char *dir, const char *name,
		   const struct zf_buf *header)
{
	char path[PATH_MAX];

	*s = (struct zf_stream){ 0 };
	if (header->oom)
		return -ENOMEM;
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	s->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	if (s->fd < 0)
		return -errno;
	s->open = true;
	s->err = write_all(s, header->text ? header->text : "", header->len);
	s->mark = s->size;
	return s->err;
}

void zf_stream_mark(struct zf_stream *s)
{
	s->mark = s->size;
}

/* the rows made written, the buffer kept for the next ones */
static int write_rows(struct zf_stream *s)
{
	if (!s->err && s->rows.oom)
		s->err = -ENOMEM;
	if (!s->err && s->rows.len)
		s->err = write_all(s, s->rows.text, s->rows.len);
	s->rows.len = 0;
	return s->err;
}

void zf_stream_row(struct zf_stream *s)
{
	if (s->rows.len >= ZF_STREAM_CHUNK || s->rows.oom)
		write_rows(s);
}

int zf_stream_flush(struct zf_stream *s)
{
	int err = write_rows(s);

	zf_buf_free(&s->rows);
	return err;
}

void zf_stream_cut(struct zf_stream *s)
{
	zf_buf_free(&s->rows);
	if (s->open && !ftruncate(s->fd, s->mark))
		s->size = s->mark;
}

int zf_stream_sync(struct zf_stream *s)
{
	if (!s->open || s->err)
		return s->err;
	if (fsync(s->fd))
		s->err = -errno;
	return s->err;
}

void zf_stream_close(struct zf_stream *s)
{
	zf_buf_free(&s->rows);
	if (s->open)
		close(s->fd);
	s->open = false;
}
