// SPDX-License-Identifier: GPL-2.0
/* Appending a results folder to a CI history: see history.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cols.h"
#include "csv.h"
#include "history.h"
#include "json.h"
#include "results.h"
#include "sysinfo.h"

/* a history row: these of meta.json's, the configuration's key, then summary.csv's carried */
#define FROM_META "time,git_revision,host,kernel_release,"
static const char *const carried[] = {
	"reps", "ns_per_fault_median", "ns_per_fault_stddev", "faults_per_sec_median",
	"teardown_ns_per_fault_median", "fairness_min_max",
};
#define NCARRIED (sizeof(carried) / sizeof(carried[0]))

/* the header line */
static void header(struct zf_buf *b)
{
	size_t j;

	zf_buf_printf(b, FROM_META);
	zf_key_names(b);
	for (j = 0; j < NCARRIED; j++)
		zf_buf_printf(b, "%s%s", carried[j], j + 1 < NCARRIED ? "," : "\n");
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/*
 * fd, locked, of st_size bytes, is a history: its first line is the header
 * this build writes (a file of another's, a summary.csv, is never written
 * into: 1); a last line without its newline (an appender killed mid-row)
 * is given one, so that the next row starts a line of its own. 0, 1 or -errno.
 */
static int history_mend(int fd, off_t size, const struct zf_buf *want)
{
	char *first, last;
	ssize_t n;
	int err = 0;

	if (!size)
		return 0;
	first = malloc(want->len + 1);
	if (!first)
		return -ENOMEM;
	n = pread(fd, first, want->len, 0);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != want->len || memcmp(first, want->text, want->len))
		err = 1;
	free(first);
	if (err)
		return err;
	n = pread(fd, &last, 1, size - 1);
	if (n != 1)
		return n < 0 ? -errno : -EIO;
	return last == '\n' ? 0 : write_all(fd, "\n", 1);
}

int zf_history_append(const char *file, const char *dir)
{
	char path[PATH_MAX + 16], when[64] = "", rev[128] = "", host[256] = "", kernel[128] = "";
	char *meta;
	struct zf_buf rows = { 0 }, head = { 0 };
	struct zf_key_cols key;
	struct zf_csv csv;
	int col[NCARRIED], fd, err, k;
	const char *missing;
	size_t i, j, line;
	struct stat st;

	if (zf_results_complete(dir, path, sizeof(path))) {
		fprintf(stderr, "hzfbench: history: %s\n", path);
		return 2;
	}
	meta = zf_results_meta(dir);
	if (meta) {
		zf_json_get(meta, "end_time", when, sizeof(when));
		zf_json_get(meta, "git_revision", rev, sizeof(rev));
		zf_json_get(meta, "host", host, sizeof(host));
		zf_json_get(meta, "kernel_release", kernel, sizeof(kernel));
		free(meta);
	}
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	err = zf_csv_read(path, &csv, &line);
	if (err) {
		fprintf(stderr, "hzfbench: history: %s: %s\n", path, strerror(-err));
		return 2;
	}
	missing = NULL;
	zf_key_cols_find(&csv, &key, &missing);
	for (j = 0; j < NCARRIED && !missing; j++)
		if ((col[j] = zf_csv_col(&csv, carried[j])) < 0)
			missing = carried[j];
	if (missing) {
		fprintf(stderr, "hzfbench: history: %s: no column %s\n", path, missing);
		zf_csv_free(&csv);
		return 2;
	}
	for (i = 0; i < csv.nrows; i++) {
		zf_buf_csv(&rows, when, 0);
		zf_buf_csv(&rows, rev, 0);
		zf_buf_csv(&rows, host, 0);
		zf_buf_csv(&rows, kernel, 0);
		for (k = 0; k < ZF_KEY_NCOLS; k++)
			zf_buf_csv(&rows, zf_key_field(&csv, &key, i, k), 0);
		for (j = 0; j < NCARRIED; j++)
			zf_buf_csv(&rows, csv.rows[i][col[j]], j + 1 == NCARRIED);
	}
	zf_csv_free(&csv);
	/* O_NONBLOCK: a FIFO without a reader would hold the open forever */
	fd = open(file, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
	if (fd < 0) {
		fprintf(stderr, "hzfbench: history: %s: %s\n", file, strerror(errno));
		zf_buf_free(&rows);
		return 1;
	}
	header(&head);
	/* one appender at a time: the header once, each run's rows together */
	if (!fstat(fd, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "hzfbench: history: %s: not a regular file (a history is)\n", file);
		err = 2;
	} else if (flock(fd, LOCK_EX) || fstat(fd, &st)) {
		err = -errno;
	} else {
		err = head.oom ? -ENOMEM : history_mend(fd, st.st_size, &head);
		if (err == 1) {
			fprintf(stderr, "hzfbench: history: %s: not a history (its first line is "
				"not the header history writes)\n", file);
			err = 2;
		}
		if (!err && !st.st_size)
			err = write_all(fd, head.text, head.len);
		if (!err && rows.len)
			err = write_all(fd, rows.text, rows.len);
		if (!err && fsync(fd))
			err = -errno;
	}
	close(fd);	/* and the lock with it */
	zf_buf_free(&head);
	if (!err && rows.oom)
		err = -ENOMEM;
	zf_buf_free(&rows);
	if (err > 0)
		return err;	/* said */
	if (err) {
		fprintf(stderr, "hzfbench: history: %s: %s\n", file, strerror(-err));
		return 1;
	}
	return 0;
}
