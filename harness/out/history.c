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
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "hzfbench: history: %s: %s\n", file, strerror(errno));
		zf_buf_free(&rows);
		return 1;
	}
	/* one appender at a time: the header once, each run's rows together */
	if (flock(fd, LOCK_EX) || fstat(fd, &st)) {
		err = -errno;
	} else {
		if (!st.st_size)
			header(&head);
		err = head.oom ? -ENOMEM : write_all(fd, head.text, head.len);
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
	if (err) {
		fprintf(stderr, "hzfbench: history: %s: %s\n", file, strerror(-err));
		return 1;
	}
	return 0;
}
