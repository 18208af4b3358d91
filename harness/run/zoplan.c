// SPDX-License-Identifier: GPL-2.0
/*
 * zeroout --plan: how long hzfbench zeroout will take, before it runs. The
 * runner calibrates a configuration's requests a task (passes) until a
 * repetition lasts --min-ms, warms up, then runs the repetitions: each a
 * whole number of requests. Where a request takes longer than that (64 MiB a task
 * written to a file, on a slow disk or under emulation: 46 s at 64 tasks in
 * a TCG guest) the request, not --min-ms, sets the time. So the plan times
 * one request of every task here, with the sink and segments the run will
 * use, at a few of the run's task counts, and scales it to --zero-size.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "topo.h"
#include "zeroout.h"

#define PROBE_BYTES	(4ULL << 20)	/* a probe's request: 1024 page segments, 2 folio ones */
#define PROBE_COUNTS	8		/* task counts probed at most; the rest interpolated */
#define START_MS	5.0		/* a configuration's threads, plan and strategy set-up */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the file sink's probe file: unnamed, on the file system the results will go to; -1 */
static int probe_file(const char *out)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	const char *want = out ? out : "results";
	struct stat st;
	int fd;

	if (snprintf(dir, sizeof(dir), "%s", want) >= (int)sizeof(dir)) {
		fprintf(stderr, "hzfbench: zeroout: --out: a name of %zu bytes: longer than PATH_MAX\n",
			strlen(want));
		return -1;
	}
	while (stat(dir, &st) || !S_ISDIR(st.st_mode)) {	/* the nearest folder there is */
		char *slash = strrchr(dir, '/');

		if (!slash) {
			strcpy(dir, ".");
			break;
		}
		slash[slash == dir] = '\0';	/* "/x" leaves "/" */
	}
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (fd < 0) {		/* no O_TMPFILE there: a name, gone at once */
		snprintf(path, sizeof(path), "%s/.hzfbench-zeroout-XXXXXX", dir);
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0) {
		fprintf(stderr, "hzfbench: zeroout: --plan: a probe file in %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	(void)fcntl(fd, F_SETFL, O_DIRECT);	/* as the run: O_DIRECT where it is taken */
	return fd;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* the i-th of m spread evenly over u[0..nu), the first and the last among them */
static long pick(const long *u, size_t nu, size_t i, size_t m)
{
	return m < 2 ? u[0] : u[i * (nu - 1) / (m - 1)];
}

/* a request's seconds at n tasks from the probes at count[0..m): linear between them */
static double at(const long *count, const double *secs, size_t m, long n)
{
	size_t i;

	if (n <= count[0])
		return secs[0];
	for (i = 1; i < m; i++)
		if (n <= count[i])
			return secs[i - 1] + (secs[i] - secs[i - 1]) * (n - count[i - 1]) /
			       (double)(count[i] - count[i - 1]);
	return secs[m - 1];	/* above this machine's PUs: each task brings its own CPU */
}

/*
 * A configuration's seconds where a request takes req: the runner's
 * calibration (zf_next_passes(), from one request a task until a repetition
 * lasts min_ms), its warm-up and its repetitions, each of the passes found
 */
static double config_s(double req, unsigned long min_ms, unsigned long reps,
		       unsigned long warmup)
{
	unsigned long passes = 1;
	double rep = req, calibrate = req;

	if (req <= 0)	/* too short to time: min_ms a repetition */
		return (reps + warmup + 1) * min_ms / 1e3;
	while (rep < min_ms / 1e3) {
		passes = zf_next_passes(passes, (uint64_t)(rep * 1e9), min_ms);
		rep = passes * req;
		calibrate += rep;
	}
	return calibrate + (warmup + reps) * rep;
}

int zf_zeroout_plan(struct zf_topo *topo, const struct zf_zeroout_plan *p)
{
	uint64_t bytes = p->zero_size < PROBE_BYTES ? p->zero_size : PROBE_BYTES;
	double scale = (double)p->zero_size / (double)bytes, t0, total = 0, *secs = NULL;
	long *uniq = NULL, *count = NULL, most = 0;
	size_t nu, m, i, g;
	struct zf_topo here, *h = topo;
	bool here_open = false;
	char why[256];
	int fd = -1, ret = 1;

	printf("plan: %zu configurations x %lu repetitions of %lu ms\n",
	       p->nstrategies * p->nsegments * p->ntasks, p->reps, p->min_ms);
	if (!p->ntasks || !p->nsegments)
		return 1;	/* zeroout's parse gives one of each at least */
	if (!topo->thissystem) {
		if (zf_topo_open_here(&here, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: zeroout: --plan: this machine's topology: %s\n", why);
			return 1;
		}
		here_open = true;
		h = &here;
	}
	uniq = calloc(p->ntasks, sizeof(*uniq));
	count = calloc(p->ntasks, sizeof(*count));
	secs = calloc(p->ntasks * p->nsegments, sizeof(*secs));
	if (!uniq || !count || !secs) {
		fprintf(stderr, "hzfbench: zeroout: --plan: out of memory\n");
		goto out;
	}
	/* the task counts this machine places, each once, ascending; at most PROBE_COUNTS */
	for (i = 0; i < p->ntasks; i++) {
		most = p->tasks[i] > most ? p->tasks[i] : most;
		uniq[i] = p->tasks[i] < h->pus ? p->tasks[i] : h->pus;
	}
	qsort(uniq, p->ntasks, sizeof(*uniq), cmp_long);
	nu = 1;
	for (i = 1; i < p->ntasks; i++)
		if (uniq[i] != uniq[nu - 1])
			uniq[nu++] = uniq[i];
	for (m = 0; m < nu && m < PROBE_COUNTS; m++)
		count[m] = pick(uniq, nu, m, nu < PROBE_COUNTS ? nu : PROBE_COUNTS);
	if (p->file && (fd = probe_file(p->out)) < 0)
		goto out;
	t0 = now_s();
	for (g = 0; g < p->nsegments; g++)
		for (i = 0; i < m; i++) {
			double *s = &secs[g * m + i];

			if (zf_zeroout_probe(h, p->strategy, strcmp(p->segments[g], "page") != 0,
					     fd, bytes, (int)count[i], s)) {
				fprintf(stderr, "hzfbench: zeroout: --plan: the probe of %s segments x%ld "
					"failed\n", p->segments[g], count[i]);
				goto out;
			}
			*s *= scale;
		}
	printf("plan: requests probed here in %.1f s: %zu run%s, one request of %llu KiB a task, "
	       "%s, at %ld to %ld tasks, scaled to %llu KiB\n", now_s() - t0, m * p->nsegments,
	       m * p->nsegments > 1 ? "s" : "",
	       (unsigned long long)(bytes >> 10), p->file ? "to a file" : "emulated", count[0],
	       count[m - 1], (unsigned long long)(p->zero_size >> 10));
	for (g = 0; g < p->nsegments; g++)
		printf("plan: a request of %s segments: %.3f s at %ld task%s, %.3f s at %ld\n",
		       p->segments[g], secs[g * m], count[0], count[0] > 1 ? "s" : "",
		       secs[g * m + m - 1], count[m - 1]);
	if (most > count[m - 1])
		printf("plan: above %ld tasks (the PUs here) a request takes as long as at %ld: "
		       "each task its own CPU and share of the bandwidth\n", count[m - 1],
		       count[m - 1]);
	for (g = 0; g < p->nsegments; g++)
		for (i = 0; i < p->ntasks; i++)
			total += p->nstrategies * (config_s(at(count, &secs[g * m], m, p->tasks[i]),
							    p->min_ms, p->reps, p->warmup) +
					       START_MS / 1e3);
	{
		long t = (long)(total + 0.5);

		printf("plan: estimated %ld:%02ld:%02ld (%.1f s)\n", t / 3600, t / 60 % 60, t % 60,
		       total);
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (here_open)
		zf_topo_close(&here);
	free(uniq);
	free(count);
	free(secs);
	return ret;
}
