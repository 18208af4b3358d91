/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file appended to as its rows are made (a results folder's samples.csv,
 * tasks.csv and perf.csv): its header written when it is made, then each
 * run's rows, a chunk at a time, so that what is held in memory is a chunk,
 * never the file. A run whose rows fail to be written is cut back off the
 * file, which ends with a whole row again.
 */
#ifndef HZF_STREAM_H
#define HZF_STREAM_H

#include <stdbool.h>
#include <sys/types.h>

#include "buf.h"

/* rows are written once this many bytes of them are made */
#define ZF_STREAM_CHUNK		65536
/*
 * the most a stream's buffer holds: a chunk and the row that passed it
 * (zf_buf's room doubles), for rows shorter than a chunk
 */
#define ZF_STREAM_BUF_MAX	(2 * (size_t)ZF_STREAM_CHUNK)

struct zf_stream {
	bool open;		/* zeroed: not open, and nothing to close */
	int fd;
	struct zf_buf rows;	/* made, not yet written */
	off_t size;		/* bytes written to the file */
	off_t mark;		/* where the current run's rows began */
	int err;		/* the first failure's -errno: nothing more is written */
};

/* dir/name made (it must not exist yet) and its header written; 0 or -errno */
int zf_stream_open(struct zf_stream *s, const char *dir, const char *name,
		   const struct zf_buf *header);
/* a run's rows begin here: what zf_stream_cut() goes back to */
void zf_stream_mark(struct zf_stream *s);
/* after each row: the rows made so far written once they make a chunk */
void zf_stream_row(struct zf_stream *s);
/* every row made written, the buffer let go; 0 or the first -errno */
int zf_stream_flush(struct zf_stream *s);
/* the rows since the mark cut off the file (a run that failed), as far as it can be */
void zf_stream_cut(struct zf_stream *s);
/* what is written, fsync()ed; 0 or -errno */
int zf_stream_sync(struct zf_stream *s);
void zf_stream_close(struct zf_stream *s);

#endif
