// SPDX-License-Identifier: GPL-2.0
/*
 * --workload zeroout (hzfbench zeroout): users with no mm zeroing storage, as
 * __blkdev_issue_zero_pages() does for a device without WRITE_ZEROES. Each
 * request of --zero-size bytes is a segment list (a bio's bvecs) built from
 * one zero page: the 4 KiB ZERO_PAGE (segment page), or the huge zero folio
 * largest_zero_folio() gives (segment folio: 2 MiB). With folio segments
 * the strategy's pin/unpin hold the folio for the request: nothing for
 * persistent, a global reference for global and mmflag (there is no mm to
 * tie it to), a per-task count for percpu; the unpin comes at the request's
 * completion, emulated as asynchronous: DEPTH requests later.
 *
 * Sinks: emulated (build the list, pin, complete; nothing written) and file
 * (pwritev() of the list to a file in the results folder, IOV_MAX segments a
 * call, O_DIRECT where the file system takes it, unlinked at once so that
 * nothing is left behind).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/huge_zero.h"
#include "buf.h"
#include "chartstyle.h"
#include "json.h"
#include "metrics.h"
#include "opt.h"
#include "parse.h"
#include "results.h"
#include "sysinfo.h"
#include "topo.h"
#include "zeroout.h"
#include "../../bench/tick.h"

#define DEPTH		4		/* requests in flight before the oldest completes */
#define FILE_SPAN	(256ULL << 20)	/* each task's stretch of the file, written round */
#define PAGE_SEG	4096UL
#define FOLIO_SEG	ZF_FOLIO_SIZE

/* ZERO_PAGE(0) */
static const unsigned char zero_page[PAGE_SEG] __attribute__((aligned(PAGE_SEG)));

static bool pins(const struct zf_strategy *s)
{
	return s->pin != NULL;
}

struct zo_opts {
	const char *strategies, *tasks, *placement, *segments, *sink, *out;
	unsigned long long zero_size;
	unsigned long reps, min_ms;
	bool plan;
};

struct zo_run;

struct zo_task {
	struct zo_run *run;
	int id;
	struct zf_stats st __attribute__((aligned(ZF_LINE)));
	uint64_t requests, segments, bytes, calls;
	int err;
	char why[160];
};

struct zo_run {
	const struct zf_strategy *s;
	struct zf_shared *zs;
	struct zf_topo *topo;
	struct zf_plan plan;
	unsigned long seg, nseg, min_ms;
	int fd, ntasks;
	bool file;
	uint64_t span;			/* --sink file: a task's stretch of the file */
	int stretches;			/* distinct stretches, ntasks or fewer */
	pthread_barrier_t start, end;
	_Atomic int quit;
	struct zo_task *task;
	struct zf_stats init_st;	/* the strategy's init: persistent's allocation */
	uint64_t *wall_ns;		/* NULL, or each repetition's wall into [rep] */
};

/* one request: pin (folio segments), build the list, write it or not; 0 or -errno */
static int request(struct zo_run *run, struct zo_task *t, struct iovec *iov,
		   struct zf_folio **held, unsigned long k, uint64_t *off)
{
	const struct zf_strategy *s = run->s;
	struct zf_folio **slot = &held[k % DEPTH];
	const void *base = zero_page;
	unsigned long i, done;

	/* the request DEPTH ago completes now: its end_io drops the folio */
	if (*slot) {
		if (s->unpin)
			s->unpin(run->zs, NULL, &t->st);
		*slot = NULL;
	}
	if (run->seg == FOLIO_SEG) {
		struct zf_folio *f = s->pin(run->zs, NULL, &t->st);

		if (!f)
			return -ENOMEM;
		*slot = f;
		base = f->data;
	}
	for (i = 0; i < run->nseg; i++) {	/* bio_add_folio(), one segment each */
		iov[i].iov_base = (void *)base;
		iov[i].iov_len = run->seg;
	}
	if (run->file) {
		for (done = 0; done < run->nseg; done += IOV_MAX) {
			int n = run->nseg - done < IOV_MAX ? (int)(run->nseg - done) : IOV_MAX;
			ssize_t want = (ssize_t)n * (ssize_t)run->seg;
			uint64_t at = (uint64_t)(t->id % run->stretches) * run->span +
				      *off % run->span;

			if (pwritev(run->fd, iov + done, n, (off_t)at) != want)
				return errno ? -errno : -EIO;
			*off += (uint64_t)want;
			t->calls++;
		}
	} else {
		__asm__ __volatile__("" : : "r"(iov) : "memory");	/* the list is the work */
	}
	t->requests++;
	t->segments += run->nseg;
	t->bytes += run->nseg * run->seg;
	return 0;
}

uint64_t zf_zeroout_span(uint64_t budget, int ntasks, uint64_t zero_size, int *stretches)
{
	uint64_t span = FILE_SPAN;
	uint64_t n;

	if (ntasks < 1)
		ntasks = 1;
	if (span > budget / (uint64_t)ntasks)
		span = budget / (uint64_t)ntasks;
	span -= span % zero_size;
	if (span < zero_size)
		span = zero_size;
	n = budget / span;
	*stretches = n < 1 ? 1 : n > (uint64_t)ntasks ? ntasks : (int)n;
	return span;
}

/* what the file may hold: a quarter of MemAvailable (tmpfs keeps it in memory) */
static uint64_t file_budget(void)
{
	char text[8192], *p;
	unsigned long long kb;

	if (zf_read_file("/proc/meminfo", text, sizeof(text)) ||
	    !(p = strstr(text, "MemAvailable:")) || sscanf(p, "MemAvailable: %llu", &kb) != 1)
		return 4ULL << 30;
	return kb * 1024 / 4;
}

static void *task_main(void *arg)
{
	struct zo_task *t = arg;
	struct zo_run *run = t->run;
	struct iovec *iov = calloc(run->nseg, sizeof(*iov));
	struct zf_folio *held[DEPTH] = { 0 };
	uint64_t off = 0;
	unsigned long k = 0;
	int i;

	if (!iov) {
		t->err = -ENOMEM;
		snprintf(t->why, sizeof(t->why), "segment list of %lu: out of memory", run->nseg);
	} else if (run->plan.pu[t->id] >= 0 &&
		   zf_topo_bind_self(run->topo, run->plan.pu[t->id], t->why, sizeof(t->why))) {
		t->err = -EPERM;
	}
	for (;;) {
		uint64_t t0;

		pthread_barrier_wait(&run->start);
		if (atomic_load(&run->quit))
			break;
		t0 = zf_now_ns();
		/* one request at least (--plan's probes: min_ms 0, exactly one) */
		while (!t->err) {
			int err = request(run, t, iov, held, k++, &off);

			if (err) {
				t->err = err;
				snprintf(t->why, sizeof(t->why), "%s", err == -ENOMEM ?
					 "no huge zero folio to pin" : strerror(-err));
			}
			if (zf_now_ns() - t0 >= run->min_ms * 1000000ULL)
				break;
		}
		/* the rest complete: every folio pinned is released before the count is read */
		for (i = 0; i < DEPTH; i++, k++)
			if (held[k % DEPTH]) {
				if (run->s->unpin)
					run->s->unpin(run->zs, NULL, &t->st);
				held[k % DEPTH] = NULL;
			}
		pthread_barrier_wait(&run->end);
	}
	free(iov);
	return NULL;
}

static int only_zeroout(const char *opt, const char *arg, void *opts)
{
	(void)opts;
	return strcmp(arg, "zeroout") ? zf_bad_value(opt, arg, "hzfbench zeroout is --workload zeroout")
				      : 0;
}

#define FIELD(f)	.cmds = 1, .off = offsetof(struct zo_opts, f)

static const char zeroout_usage[] =
"usage: hzfbench zeroout [options]   (also: hzfbench sweep --workload zeroout ...)\n"
"  Users with no mm zero storage as __blkdev_issue_zero_pages() does: each\n"
"  request a list of segments from the 4 KiB zero page or from the 2 MiB\n"
"  huge zero folio (held by the strategy for the request, released at its\n"
"  emulated asynchronous completion), written to a file or not. Writes\n"
"  zeroout.csv (a row per repetition) and meta.json; prints the medians.\n";

static const struct zf_opt zo_table[] = {
	{ .name = "strategies", .kind = ZF_OPT_STRING, FIELD(strategies), .arg = "LIST",
	  .def = "global,mmflag,persistent,percpu", .help = "global, mmflag, persistent, percpu" },
	{ .name = "segments", .kind = ZF_OPT_STRING, FIELD(segments), .arg = "LIST",
	  .def = "page,folio",
	  .help = "page (ZERO_PAGE, 4 KiB), folio (largest_zero_folio, 2 MiB)" },
	{ .name = "sink", .kind = ZF_OPT_STRING, FIELD(sink), .arg = "S", .def = "emulated",
	  .help = "emulated (the list is the work) or file (pwritev to a file in the results "
	  "folder, O_DIRECT where it can)" },
	{ .name = "zero-size", .kind = ZF_OPT_SIZE, FIELD(zero_size), .arg = "BYTES",
	  .def = "64M", .help = "bytes a request, a multiple of 2M" },
	{ .name = "tasks", .kind = ZF_OPT_STRING, FIELD(tasks), .arg = "LIST", .def = "pow2",
	  .help = "1,2,4 or 1-8 or pow2 or all" },
	{ .name = "placement", .kind = ZF_OPT_STRING, FIELD(placement), .arg = "P",
	  .def = "compact", .help = "compact, scatter, node:N, cpus:LIST" },
	{ .name = "reps", .kind = ZF_OPT_ULONG, FIELD(reps), .min = 1, .max = 10000, .arg = "R",
	  .def = "5", .help = "repetitions" },
	{ .name = "min-ms", .kind = ZF_OPT_ULONG, FIELD(min_ms), .min = 1, .max = 3600000,
	  .arg = "MS", .def = "200", .help = "each repetition's length" },
	{ .name = "out", .kind = ZF_OPT_STRING, FIELD(out), .arg = "DIR",
	  .help = "results folder, new or empty (default results/<UTC time>-<host>)" },
	/* run and sweep hand their --workload zeroout on; not listed */
	{ .name = "workload", .kind = ZF_OPT_CUSTOM, .parse = only_zeroout, .cmds = 1 },
	{ .name = "plan", .kind = ZF_OPT_FLAG, FIELD(plan), .help = "print the configurations "
	  "and the estimated wall time and stop, nothing written: a repetition lasts --min-ms "
	  "and the request in flight, timed by short probes here" },
	ZF_OPT_TAIL(1),
};

const struct zf_opt_set zf_zeroout_opts = ZF_OPT_SET_OF(zo_table, "zeroout", zeroout_usage);

/* 0, 2 (said) or ZF_OPT_DONE */
static int parse(int argc, char **argv, struct zo_opts *o)
{
	struct zf_opt_set set = zf_zeroout_opts;
	int err = zf_opt_parse(&set, argc, argv, o);

	if (!err && o->zero_size % FOLIO_SEG)
		err = zf_bad_value("--zero-size", zf_opt_shown(&set, "zero-size"),
				   "not a multiple of 2M (a whole number of folio segments)");
	if (!err && strcmp(o->sink, "emulated") && strcmp(o->sink, "file"))
		err = zf_bad_value("--sink", o->sink, "not a sink (emulated, file)");
	zf_opt_free(&set);
	return err;
}

/* a configuration's strategy state and plan; 0 or 1 (said on stderr) */
static int config_open(struct zo_run *run, const char *placement, uint64_t budget,
		       uint64_t zero_size, bool folio)
{
	char why[256] = "";

	run->span = zf_zeroout_span(budget, run->ntasks, zero_size, &run->stretches);
	run->seg = folio ? FOLIO_SEG : PAGE_SEG;
	run->nseg = zero_size / run->seg;
	run->zs = aligned_alloc(ZF_LINE, sizeof(*run->zs));
	if (run->zs && !zf_shared_init(run->zs, run->ntasks * (DEPTH + 1) + 2)) {
		if (!zf_plan_make(run->topo, placement, run->ntasks, &run->plan, why, sizeof(why))) {
			if (!run->s->init || !run->s->init(run->zs, &run->init_st))
				return 0;
			zf_plan_free(&run->plan);
		}
		zf_shared_fini(run->zs);
	}
	free(run->zs);
	run->zs = NULL;
	fprintf(stderr, "hzfbench: zeroout: %s: cannot set up%s%s\n", run->s->name,
		*why ? ": " : "", why);
	return 1;
}

static void config_close(struct zo_run *run)
{
	zf_plan_free(&run->plan);
	zf_shared_fini(run->zs);
	free(run->zs);
	run->zs = NULL;
}

/* one configuration, every repetition: a row each into csv; 0 or 1 (said on stderr) */
static int run_config(struct zo_run *run, const struct zo_opts *o, unsigned long reps,
		      struct zf_buf *csv, double *gbps, bool direct)
{
	pthread_t *th = calloc(run->ntasks, sizeof(*th));
	struct zf_stats total = { 0 };
	char why[200];
	unsigned long rep;
	int i, ret = 0;

	run->task = calloc(run->ntasks, sizeof(*run->task));
	if (!th || !run->task) {
		free(th);
		free(run->task);
		fprintf(stderr, "hzfbench: zeroout: out of memory\n");
		return 1;
	}
	pthread_barrier_init(&run->start, NULL, run->ntasks + 1);
	pthread_barrier_init(&run->end, NULL, run->ntasks + 1);
	atomic_store(&run->quit, 0);
	for (i = 0; i < run->ntasks; i++) {
		run->task[i] = (struct zo_task){ .run = run, .id = i };
		pthread_create(&th[i], NULL, task_main, &run->task[i]);
	}
	for (rep = 0; rep < reps && !ret; rep++) {
		uint64_t req = 0, segs = 0, bytes = 0, calls = 0, t0, wall;

		for (i = 0; i < run->ntasks; i++) {
			req -= run->task[i].requests;
			segs -= run->task[i].segments;
			bytes -= run->task[i].bytes;
			calls -= run->task[i].calls;
		}
		t0 = zf_now_ns();
		pthread_barrier_wait(&run->start);
		pthread_barrier_wait(&run->end);
		wall = zf_now_ns() - t0;
		if (run->wall_ns)
			run->wall_ns[rep] = wall;
		for (i = 0; i < run->ntasks; i++) {
			struct zo_task *t = &run->task[i];

			req += t->requests;
			segs += t->segments;
			bytes += t->bytes;
			calls += t->calls;
			if (t->err && !ret) {
				fprintf(stderr, "hzfbench: zeroout: %s, %s segments, task %d: %s\n",
					run->s->name, run->seg == PAGE_SEG ? "page" : "folio", i, t->why);
				ret = 1;
			}
		}
		gbps[rep] = wall ? bytes / (double)wall : NAN;
		zf_buf_printf(csv, "%s,%s,%s,%d,", run->s->name, run->seg == PAGE_SEG ? "page" : "folio",
			      o->sink, run->ntasks);
		zf_buf_csv(csv, o->placement, 0);	/* cpus:0,2 has commas */
		zf_buf_printf(csv, "%lu,%lu,%llu,%llu,%llu,%llu,%llu,%lu,%.4f,%d\n",
			      run->seg, rep, (unsigned long long)req,
			      (unsigned long long)segs, (unsigned long long)bytes,
			      (unsigned long long)calls, (unsigned long long)wall, run->nseg,
			      gbps[rep], run->file ? direct : 0);
	}
	atomic_store(&run->quit, 1);
	pthread_barrier_wait(&run->start);
	for (i = 0; i < run->ntasks; i++) {
		pthread_join(th[i], NULL);
		zf_stats_add(&total, &run->task[i].st);
	}
	zf_stats_add(&total, &run->init_st);
	if (!ret && run->s->check) {
		if (run->s->check(run->zs, &total, why, sizeof(why))) {
			fprintf(stderr, "hzfbench: zeroout: invariant: %s: %s\n", run->s->name, why);
			ret = 1;
		}
	}
	pthread_barrier_destroy(&run->start);
	pthread_barrier_destroy(&run->end);
	free(th);
	free(run->task);
	run->task = NULL;
	return ret;
}

int zf_zeroout_probe(struct zf_topo *here, const char *strategy, bool folio, int fd,
		     uint64_t bytes, int ntasks, double *wall_s)
{
	struct zo_opts o = { .sink = fd >= 0 ? "file" : "emulated", .placement = "compact" };
	struct zo_run run = { .s = zf_strategy_find(strategy), .topo = here, .fd = fd,
			      .file = fd >= 0, .ntasks = ntasks };	/* min_ms 0: one request */
	struct zf_buf csv = { 0 };
	uint64_t wall[3] = { 0 };
	double gbps[3];
	int ret;

	run.wall_ns = wall;
	if (!run.s || !run.s->pin || config_open(&run, "compact", file_budget(), bytes, folio))
		return 1;
	/* 3 repetitions, the middle time: the first allocates, a disk may stall once */
	ret = run_config(&run, &o, 3, &csv, gbps, false);
	*wall_s = fmax(fmin(wall[0], wall[1]), fmin(fmax(wall[0], wall[1]), wall[2])) / 1e9;
	config_close(&run);
	zf_buf_free(&csv);
	return ret;
}

int zf_zeroout_main(int argc, char **argv)
{
	struct zo_opts o = { 0 };	/* the defaults are zo_table's */
	char why[256], dir[PATH_MAX], path[PATH_MAX + 32], *sbuf = NULL, *gbuf = NULL;
	char **snames = NULL, **gnames = NULL, start[32];
	size_t ns = 0, ng = 0, nt = 0, a, b, c;
	uint64_t budget = 0;
	struct zf_buf csv = { 0 }, meta = { 0 };
	const char *w;
	struct zf_topo topo;
	struct zf_sysinfo si;
	long *tasks = NULL;
	int ret, cap, fd = -1;
	bool direct = false;
	double *gbps = NULL;

	ret = parse(argc, argv, &o);
	if (ret)
		return ret == ZF_OPT_DONE ? 0 : ret;
	if (zf_split_list(o.strategies, &sbuf, &snames, &ns, &w))
		return zf_bad_value("--strategies", o.strategies, w);
	for (a = 0; a < ns; a++) {
		const struct zf_strategy *s = zf_strategy_find(snames[a]);

		if (!s || !s->pin) {
			ret = zf_bad_value("--strategies", snames[a], s ? "serves no user without an mm"
					   : zf_strategy_not_one(why, sizeof(why), "a strategy", pins));
			goto out;
		}
	}
	if (zf_split_list(o.segments, &gbuf, &gnames, &ng, &w)) {
		ret = zf_bad_value("--segments", o.segments, w);
		goto out;
	}
	for (a = 0; a < ng; a++)
		if (strcmp(gnames[a], "page") && strcmp(gnames[a], "folio")) {
			ret = zf_bad_value("--segments", gnames[a], "not a segment (page, folio)");
			goto out;
		}
	if (zf_topo_open(&topo, NULL, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: zeroout: %s\n", why);
		ret = 2;
		goto out;
	}
	cap = zf_placement_capacity(&topo, o.placement, why, sizeof(why));
	if (cap <= 0) {
		ret = zf_bad_value("--placement", o.placement, cap < 0 ? why : "tasks must be pinned: not none");
		goto close;
	}
	if (zf_parse_int_list(o.tasks, 1, cap, cap, &tasks, &nt, &w)) {
		ret = zf_bad_value("--tasks", o.tasks, w);
		goto close;
	}
	if (o.plan) {
		struct zf_zeroout_plan in = {
			.strategy = snames[0], .nstrategies = ns, .segments = gnames, .nsegments = ng,
			.tasks = tasks, .ntasks = nt, .reps = o.reps, .min_ms = o.min_ms,
			.zero_size = o.zero_size, .file = !strcmp(o.sink, "file"), .out = o.out,
		};

		ret = zf_zeroout_plan(&topo, &in);
		goto close;
	}
	if (zf_results_dir(o.out, dir, sizeof(dir), why, sizeof(why))) {
		fprintf(stderr, "hzfbench: --out: %s: %s\n", o.out ? o.out : dir, why);
		ret = 2;
		goto close;
	}
	if (!strcmp(o.sink, "file")) {
		snprintf(path, sizeof(path), "%s/zeroout.dat", dir);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0600);
		direct = fd >= 0;
		if (fd < 0 && errno == EINVAL)	/* tmpfs and the like: buffered */
			fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0) {
			fprintf(stderr, "hzfbench: zeroout: %s: %s\n", path, strerror(errno));
			ret = 1;
			goto close;
		}
		unlink(path);	/* nothing left behind, whatever happens */
		if (!direct)
			printf("zeroout: %s: O_DIRECT refused here: buffered writes (direct=0)\n", path);
	}
	gbps = calloc(o.reps, sizeof(*gbps));
	zf_buf_printf(&csv, "strategy,segment,sink,tasks,placement,segment_bytes,rep,requests,"
		      "segments,bytes,write_calls,wall_ns,segments_per_request,gb_per_sec,direct\n");
	zf_sysinfo_read(&si);
	zf_utc_time(start, sizeof(start), false);
	budget = file_budget();
	printf("%-10s %-6s %5s %14s %9s %9s %9s\n", "strategy", "seg", "tasks", "segs/request",
	       "GB/s", "min", "max");
	for (a = 0; a < ns && !ret && gbps; a++)
		for (b = 0; b < ng && !ret; b++)
			for (c = 0; c < nt && !ret; c++) {
				struct zo_run run = { .s = zf_strategy_find(snames[a]), .topo = &topo,
						      .min_ms = o.min_ms, .fd = fd, .file = fd >= 0,
						      .ntasks = (int)tasks[c] };
				double med, lo, hi;
				unsigned long r;

				if (config_open(&run, o.placement, budget, o.zero_size, strcmp(gnames[b], "page"))) {
					ret = 1;
					break;
				}
				if (fd >= 0 && run.stretches < run.ntasks && !b && !a)
					printf("zeroout: %d tasks share %d stretches of %llu MiB of the "
					       "file: a quarter of MemAvailable, %llu MiB, holds no more\n",
					       run.ntasks, run.stretches,
					       (unsigned long long)(run.span >> 20),
					       (unsigned long long)(budget >> 20));
				ret = run_config(&run, &o, o.reps, &csv, gbps, direct);
				med = zf_median_measured(gbps, o.reps);
				for (lo = hi = gbps[0], r = 1; r < o.reps; r++) {
					lo = fmin(lo, gbps[r]);
					hi = fmax(hi, gbps[r]);
				}
				printf("%-10s %-6s %5d %14lu %9.3f %9.3f %9.3f\n", run.s->name, gnames[b],
				       run.ntasks, run.nseg, med, lo, hi);
				config_close(&run);
			}
	zf_json_dump(json_pack("{s:s, s:o, s:o, s:I, s:s, s:o, s:s, s:b, s:I, s:i, s:i, s:I, s:b}",
			       "workload", "zeroout", "host", zf_json_text(si.host),
			       "cpu_model", zf_json_text(si.cpu_model),
			       "online_cpus", (json_int_t)si.online_cpus, "start_time", start,
			       "kernel_release", zf_json_text(si.kernel_release), "sink", o.sink,
			       "direct", direct, "zero_size", (json_int_t)o.zero_size, "depth", DEPTH,
			       "iov_max", IOV_MAX, "file_budget", (json_int_t)budget, "complete", !ret),
		     JSON_INDENT(2), &meta);
	zf_buf_printf(&meta, "\n");
	if (zf_buf_write(dir, "zeroout.csv", &csv, "zeroout") ||
	    zf_chart_styles_write(dir, false, "zeroout") ||
	    zf_buf_write(dir, "meta.json", &meta, "zeroout"))
		ret = 1;
	else
		printf("results: %s\n", dir);
close:
	zf_topo_close(&topo);
out:
	if (fd >= 0)
		close(fd);
	free(gbps);
	free(tasks);
	free(sbuf);
	free(snames);
	free(gbuf);
	free(gnames);
	zf_buf_free(&csv);
	zf_buf_free(&meta);
	return ret;
}
