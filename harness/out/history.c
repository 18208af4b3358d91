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
#include "csv.h"
#include "history.h"
#include "json.h"
#include "results.h"
#include "sysinfo.h"

/* the summary.csv columns a history row carries, after time, revision, host, kernel */
static const char *const carried[] = {
	"strategy", "fault", "task_kind", "tasks", "placement", "step", "faults_per_pass", "reps",
	"ns_per_fault_median", "ns_per_fault_stddev", "faults_per_sec_median",
	"teardown_ns_per_fault_median", "fairness_min_max",
};
#define NCARRIED (sizeof(carried) / sizeof(carried[0]))

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
	struct zf_buf rows = { 0 };
	struct zf_csv csv;
	int col[NCARRIED], fd, err;
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
	for (j = 0; j < NCARRIED; j++)
		if ((col[j] = zf_csv_col(&csv, carried[j])) < 0) {
			fprintf(stderr, "hzfbench: history: %s: no column %s\n", path, carried[j]);
			zf_csv_free(&csv);
			return 2;
		}
	for (i = 0; i < csv.nrows; i++) {
		zf_buf_csv(&rows, when, 0);
		zf_buf_csv(&rows, rev, 0);
		zf_buf_csv(&rows, host, 0);
		zf_buf_csv(&rows, kernel, 0);
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
		err = st.st_size ? 0 : write_all(fd, ZF_HISTORY_COLUMNS "\n",
						 strlen(ZF_HISTORY_COLUMNS) + 1);
		if (!err && rows.len)
			err = write_all(fd, rows.text, rows.len);
		if (!err && fsync(fd))
			err = -errno;
	}
	close(fd);	/* and the lock with it */
	if (!err && rows.oom)
		err = -ENOMEM;
	zf_buf_free(&rows);
	if (err) {
		fprintf(stderr, "hzfbench: history: %s: %s\n", file, strerror(-err));
		return 1;
	}
	return 0;
}
