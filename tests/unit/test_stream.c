// SPDX-License-Identifier: GPL-2.0
/*
 * A file appended to row by row (stream.h): a run whose rows could not all
 * be written is cut off again, so that the file ends with a whole row. A
 * full disk is a file size limit here (RLIMIT_FSIZE: the kernel's EFBIG, a
 * short write first, as ENOSPC).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../harness/doctor/sysinfo.h"
#include "../../harness/out/stream.h"
#include "test.h"

/* writes past limit bytes refused (EFBIG) from now on, or (limit 0) not any more */
static void limit_files(rlim_t limit, struct rlimit *saved)
{
	struct rlimit lim;

	if (limit) {
		getrlimit(RLIMIT_FSIZE, saved);
		lim = (struct rlimit){ .rlim_cur = limit, .rlim_max = saved->rlim_max };
		signal(SIGXFSZ, SIG_IGN);	/* its default ends the process */
		setrlimit(RLIMIT_FSIZE, &lim);
	} else {
		setrlimit(RLIMIT_FSIZE, saved);
		signal(SIGXFSZ, SIG_DFL);
	}
}

TEST(stream_cuts_a_failed_run_off)
{
	char dir[] = "/tmp/hzfstream.XXXXXX", path[64], *text;
	struct zf_buf header = { 0 };
	struct zf_stream s, again;
	struct rlimit saved;
	size_t len;
	int i;

	ASSERT_TRUE(mkdtemp(dir));
	zf_buf_printf(&header, "a,b\n");
	ASSERT_EQ(zf_stream_open(&s, dir, "rows.csv", &header), 0);
	EXPECT_EQ(zf_stream_open(&again, dir, "rows.csv", &header), -EEXIST);	/* never over a file */
	zf_stream_close(&again);
	/* a run of rows, written a chunk at a time and then the rest */
	zf_stream_mark(&s);
	for (i = 0; i < 10000; i++) {
		zf_buf_printf(&s.rows, "%d,%d\n", i, 2 * i);
		zf_stream_row(&s);
		EXPECT_TRUE(s.rows.cap <= ZF_STREAM_BUF_MAX);
	}
	EXPECT_TRUE(s.size > ZF_STREAM_CHUNK);	/* some written before the run's end */
	ASSERT_EQ(zf_stream_flush(&s), 0);
	EXPECT_TRUE(s.rows.text == NULL);	/* nothing held between runs */
	ASSERT_EQ(zf_stream_sync(&s), 0);
	/* the next run's rows refused past the file's limit, a row cut in two */
	zf_stream_mark(&s);
	limit_files((rlim_t)s.size + ZF_STREAM_CHUNK + 3, &saved);
	for (i = 0; i < 20000; i++) {
		zf_buf_printf(&s.rows, "%d,%d\n", i, 3 * i);
		zf_stream_row(&s);
	}
	EXPECT_EQ(zf_stream_flush(&s), -EFBIG);
	limit_files(0, &saved);
	zf_stream_cut(&s);
	EXPECT_EQ(zf_stream_sync(&s), -EFBIG);	/* stays failed */
	zf_stream_close(&s);
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	ASSERT_EQ(zf_read_file_alloc(path, &text, &len), 0);
	EXPECT_TRUE(len > 4 && !strncmp(text, "a,b\n0,0\n", 8));
	EXPECT_TRUE(strstr(text, "\n9999,19998\n") != NULL && text[len - 1] == '\n');
	EXPECT_TRUE(strstr(text, ",29997\n") == NULL);	/* none of the failed run's */
	free(text);
	zf_buf_free(&header);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(system(path), 0);
}
