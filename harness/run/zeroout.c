// SPDX-License-Identifier: GPL-2.0
/*
 * hzfbench zeroout (--workload zeroout): its options, its configurations
 * (strategies x segments x task counts), each run through the runner
 * (runner.c) as the workload of workload_zeroout.c, and what they wrote:
 * zeroout.csv, a row a repetition, and meta.json. --sink file's file is
 * opened here, in the results folder, O_DIRECT where the file system takes
 * it, and unlinked at once so that nothing is left behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "chartstyle.h"
#include "interrupt.h"
#include "json.h"
#include "metrics.h"
#include "opt.h"
#include "parse.h"
#include "results.h"
#include "runner.h"
#include "sysinfo.h"
#include "topo.h"
#include "zeroout.h"


static bool pins(const struct zf_strategy *s)
{
	return s->pin != NULL;
}

struct zo_opts {
	const char *strategies, *tasks, *placement, *segments, *sink, *out;
	unsigned long long zero_size;
	unsigned long reps, min_ms, warmup;
	bool plan;
};

/* one configuration */
struct zo_run {
	const struct zf_strategy *s;
	struct zf_topo *topo;
	struct zf_plan plan;
	struct zf_zeroout_work work;
	unsigned long min_ms;
	int ntasks;
};

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
	  .def = "global,mmflag,persistent,percpu", .help = "global, mmflag, persistent, percpu",
	  .complete = ZF_COMPLETE_STRATEGIES },
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
	{ .name = "reps", .kind = ZF_OPT_ULONG, FIELD(reps), .min = 1, .max = 100000, .arg = "R",
	  .def = "5", .help = "repetitions" },
	{ .name = "min-ms", .kind = ZF_OPT_ULONG, FIELD(min_ms), .max = 3600000,
	  .arg = "MS", .def = "200", .help = "each repetition's length" },
	{ .name = "warmup", .kind = ZF_OPT_ULONG, FIELD(warmup), .max = 100000, .arg = "W",
	  .def = "1", .help = "repetitions run first and not kept" },
	{ .name = "out", .kind = ZF_OPT_STRING, .check = zf_out_check, FIELD(out), .arg = "DIR",
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

	if (!err && o->zero_size % ZF_ZEROOUT_FOLIO)
		err = zf_bad_value("--zero-size", zf_opt_shown(&set, "zero-size"),
				   "not a multiple of 2M (a whole number of folio segments)");
	if (!err && strcmp(o->sink, "emulated") && strcmp(o->sink, "file"))
		err = zf_bad_value("--sink", o->sink, "not a sink (emulated, file)");
	zf_opt_free(&set);
	return err;
}

/* a configuration's requests and plan; 0 or 1 (said on stderr) */
static int config_open(struct zo_run *run, const char *placement, uint64_t budget,
		       uint64_t zero_size, bool folio, int fd)
{
	struct zf_zeroout_work *w = &run->work;
	char why[256] = "";

	w->span = zf_zeroout_span(budget, run->ntasks, zero_size, &w->stretches);
	w->seg = folio ? ZF_ZEROOUT_FOLIO : ZF_ZEROOUT_PAGE;
	w->nseg = zero_size / w->seg;
	w->fd = fd;
	if (!zf_plan_make(run->topo, placement, run->ntasks, &run->plan, why, sizeof(why)))
		return 0;
	fprintf(stderr, "hzfbench: zeroout: %s: cannot set up: %s\n", run->s->name, why);
	return 1;
}

static const char *segment_name(const struct zo_run *run)
{
	return run->work.seg == ZF_ZEROOUT_PAGE ? "page" : "folio";
}

/* what a configuration's runs give: each kept repetition's GB/s and wall */
struct zo_reps {
	double *gbps;			/* NAN: not run */
	uint64_t *wall_ns;
	unsigned int flagged;		/* repetitions whose tasks did not all run together */
};

/* a repetition's row of zeroout.csv, from its tasks' samples and its wall */
static void write_row(const struct zo_run *run, const struct zo_opts *o, unsigned long rep,
		      const struct zf_run_result *res, bool direct, struct zf_buf *csv,
		      struct zo_reps *out)
{
	const struct zf_task_sample *t = &res->samples[rep * res->ntasks];
	uint64_t req = 0, segs = 0, bytes = 0, calls = 0, wall = res->kernel[rep].wall_ns;
	struct zf_rep_metrics m;
	char flags[32];
	int i;

	for (i = 0; i < res->ntasks; i++) {
		req += t[i].faults;
		segs += t[i].segments;
		bytes += t[i].bytes;
		calls += t[i].write_calls;
	}
	zf_rep_metrics(t, res->ntasks, &m);
	/* a file sink waits on the device: its CPU/wall says nothing of a task kept off its CPU */
	if (run->work.fd >= 0)
		m.flags &= ~(unsigned int)ZF_FLAG_CPU_WALL;
	out->flagged += m.flags != 0;
	out->gbps[rep] = wall ? bytes / (double)wall : NAN;
	out->wall_ns[rep] = wall;
	zf_buf_printf(csv, "%s,%s,%s,%d,", run->s->name, segment_name(run), o->sink, run->ntasks);
	zf_buf_csv(csv, o->placement, 0);	/* cpus:0,2 has commas */
	zf_buf_printf(csv, "%lu,%lu,%llu,%llu,%llu,%llu,%llu,%lu,%.4f,%d,%lu,%.4f,%.4f,%s\n",
		      run->work.seg, rep, (unsigned long long)req, (unsigned long long)segs,
		      (unsigned long long)bytes, (unsigned long long)calls,
		      (unsigned long long)wall, run->work.nseg, out->gbps[rep],
		      run->work.fd >= 0 ? direct : 0, res->passes, m.overlap, m.cpu_wall_min,
		      zf_flags_name(m.flags, flags, sizeof(flags)));
}

/*
 * One configuration through the runner: its tasks started, pinned, warmed
 * up, passes (requests) calibrated to --min-ms unless passes says how many,
 * every repetition from one barrier, watched, and the strategy's invariants
 * checked at the end. A row each kept repetition into csv; 0 or 1 (said on
 * stderr).
 */
static int run_config(struct zo_run *run, const struct zo_opts *o, unsigned long reps,
		      unsigned long passes, bool direct, struct zf_buf *csv, struct zo_reps *out)
{
	struct zf_run_config cfg = {
		.strategy = run->s,
		.kind = ZF_TASK_THREAD,
		.fault = ZF_FAULT_EMULATED,
		.plan = &run->plan,
		.faults_per_pass = 1,		/* a pass is one request */
		.reps = reps,
		.warmup = passes ? 0 : o->warmup,
		.min_ms = run->min_ms,
		.passes = passes,
		.counter_node = -1,
		.workload = ZF_WORKLOAD_ZEROOUT,
		.work = &run->work,
		.watchdog_ms = 60000 + 10 * run->min_ms,	/* as sweep's */
		.sched_policy = -1,
	};
	struct zf_run_result res;
	unsigned long rep;
	int err = zf_run(&cfg, run->topo, &res);

	for (rep = 0; rep < reps; rep++) {
		out->gbps[rep] = NAN;
		out->wall_ns[rep] = 0;
		/* a repetition kept is one whose samples hold its passes */
		if (rep < res.reps && res.samples[rep * res.ntasks].faults)
			write_row(run, o, rep, &res, direct, csv, out);
	}
	if (err)
		fprintf(stderr, "hzfbench: zeroout: %s, %s segments: %s\n", run->s->name,
			segment_name(run), res.error);
	zf_run_result_free(&res);
	return err ? 1 : 0;
}

int zf_zeroout_probe(struct zf_topo *here, const char *strategy, bool folio, int fd,
		     uint64_t bytes, int ntasks, double *wall_s)
{
	struct zo_opts o = { .sink = fd >= 0 ? "file" : "emulated", .placement = "compact" };
	struct zo_run run = { .s = zf_strategy_find(strategy), .topo = here, .ntasks = ntasks };
	struct zf_buf csv = { 0 };
	uint64_t wall[3] = { 0 };
	double gbps[3];
	struct zo_reps out = { .gbps = gbps, .wall_ns = wall };
	int ret;

	if (!run.s || !run.s->pin || config_open(&run, "compact", file_budget(), bytes, folio, fd))
		return 1;
	/* 3 repetitions of one request, the middle time: the first allocates, a disk may stall once */
	ret = run_config(&run, &o, 3, 1, false, &csv, &out);
	*wall_s = fmax(fmin(wall[0], wall[1]), fmin(fmax(wall[0], wall[1]), wall[2])) / 1e9;
	zf_plan_free(&run.plan);
	zf_buf_free(&csv);
	return ret;
}

/* what a run of zeroout keeps beside its rows: meta.json's facts */
struct zo_meta {
	struct zf_sysinfo si;
	char start[32];
	uint64_t budget;		/* --sink file: what the file may hold */
	bool direct;			/* --sink file: O_DIRECT taken */
};

/*
 * meta.json: first with "complete": false, which a signal (zf_interrupt_catch)
 * or a failure leaves, then again at the end; 0 or 1 (said on stderr)
 */
static int write_meta(const char *dir, const struct zo_opts *o, const struct zo_meta *m,
		      bool complete)
{
	struct zf_buf meta = { 0 };
	int ret;

	zf_json_dump(json_pack("{s:s, s:o, s:o, s:I, s:s, s:o, s:s, s:b, s:I, s:i, s:i, s:I, s:b, "
			       "s:i}",
			       "workload", "zeroout", "host", zf_json_text(m->si.host),
			       "cpu_model", zf_json_text(m->si.cpu_model),
			       "online_cpus", (json_int_t)m->si.online_cpus, "start_time", m->start,
			       "kernel_release", zf_json_text(m->si.kernel_release), "sink", o->sink,
			       "direct", m->direct, "zero_size", (json_int_t)o->zero_size,
			       "depth", ZF_ZEROOUT_DEPTH, "iov_max", IOV_MAX,
			       "file_budget", (json_int_t)m->budget, "complete", complete,
			       "warmup", (int)o->warmup),
		     JSON_INDENT(2), &meta);
	zf_buf_printf(&meta, "\n");
	ret = zf_buf_write(dir, "meta.json", &meta, "zeroout") ? 1 : 0;
	zf_buf_free(&meta);
	return ret;
}

/* --sink file: the file in dir, O_DIRECT where it can, unlinked at once; -1 (said) */
static int open_sink(const char *dir, bool *direct)
{
	char path[PATH_MAX + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/zeroout.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0600);
	*direct = fd >= 0;
	if (fd < 0 && errno == EINVAL)	/* tmpfs and the like: buffered */
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		fprintf(stderr, "hzfbench: zeroout: %s: %s\n", path, strerror(errno));
		return -1;
	}
	unlink(path);	/* nothing left behind, whatever happens */
	if (!*direct)
		printf("zeroout: %s: O_DIRECT refused here: buffered writes (direct=0)\n", path);
	return fd;
}

/* every configuration, strategies outermost, a row a repetition into csv; 0 or 1 */
static int run_configs(struct zf_topo *topo, const struct zo_opts *o, char **snames, size_t ns,
		       char **gnames, size_t ng, const long *tasks, size_t nt, int fd,
		       const struct zo_meta *m, struct zf_buf *csv)
{
	struct zo_reps out = { .gbps = calloc(o->reps, sizeof(double)),
			       .wall_ns = calloc(o->reps, sizeof(uint64_t)) };
	size_t a, b, c;
	int ret = out.gbps && out.wall_ns ? 0 : 1;

	zf_buf_printf(csv, "strategy,segment,sink,tasks,placement,segment_bytes,rep,requests,"
		      "segments,bytes,write_calls,wall_ns,segments_per_request,gb_per_sec,direct,"
		      "passes,overlap,cpu_wall_min,concurrency_check\n");
	printf("%-10s %-6s %5s %14s %9s %9s %9s\n", "strategy", "seg", "tasks", "segs/request",
	       "GB/s", "min", "max");
	for (a = 0; a < ns && !ret; a++)
		for (b = 0; b < ng && !ret; b++)
			for (c = 0; c < nt && !ret; c++) {
				struct zo_run run = { .s = zf_strategy_find(snames[a]), .topo = topo,
						      .min_ms = o->min_ms, .ntasks = (int)tasks[c] };
				const struct zf_zeroout_work *w = &run.work;
				double med, lo = NAN, hi = NAN;
				unsigned long r;

				if (config_open(&run, o->placement, m->budget, o->zero_size,
						strcmp(gnames[b], "page"), fd)) {
					ret = 1;
					break;
				}
				if (fd >= 0 && w->stretches < run.ntasks && !b && !a)
					printf("zeroout: %d tasks share %d stretches of %llu MiB of the "
					       "file: a quarter of MemAvailable, %llu MiB, holds no more\n",
					       run.ntasks, w->stretches,
					       (unsigned long long)(w->span >> 20),
					       (unsigned long long)(m->budget >> 20));
				ret = run_config(&run, o, o->reps, 0, m->direct, csv, &out);
				for (r = 0; r < o->reps; r++) {
					lo = fmin(lo, out.gbps[r]);
					hi = fmax(hi, out.gbps[r]);
				}
				med = zf_median_measured(out.gbps, o->reps);
				printf("%-10s %-6s %5d %14lu %9.3f %9.3f %9.3f\n", run.s->name, gnames[b],
				       run.ntasks, w->nseg, med, lo, hi);
				zf_plan_free(&run.plan);
			}
	if (out.flagged)
		fprintf(stderr, "hzfbench: warning: %u repetitions did not run every task together "
			"(overlap or CPU/wall below %.1f): concurrency_check in zeroout.csv\n",
			out.flagged, ZF_CONCURRENCY_MIN);
	free(out.gbps);
	free(out.wall_ns);
	return ret;
}

int zf_zeroout_main(int argc, char **argv)
{
	struct zo_opts o = { 0 };	/* the defaults are zo_table's */
	char why[256], dir[PATH_MAX], *sbuf = NULL, *gbuf = NULL;
	char **snames = NULL, **gnames = NULL;
	size_t ns = 0, ng = 0, nt = 0, a;
	struct zf_buf csv = { 0 };
	struct zo_meta m = { 0 };
	const char *w;
	struct zf_topo topo;
	long *tasks = NULL;
	int ret, cap, fd = -1;

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
			.warmup = o.warmup,
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
	if (!strcmp(o.sink, "file") && (fd = open_sink(dir, &m.direct)) < 0) {
		ret = 1;
		goto close;
	}
	zf_sysinfo_read(&m.si);
	zf_utc_time(m.start, sizeof(m.start), false);
	m.budget = file_budget();
	ret = write_meta(dir, &o, &m, false);
	if (!ret) {
		zf_interrupt_catch(dir, "meta.json");
		ret = run_configs(&topo, &o, snames, ns, gnames, ng, tasks, nt, fd, &m, &csv);
	}
	if (zf_buf_write(dir, "zeroout.csv", &csv, "zeroout") ||
	    zf_chart_styles_write(dir, false, "zeroout") || write_meta(dir, &o, &m, !ret))
		ret = 1;
	else
		printf("results: %s\n", dir);
close:
	zf_topo_close(&topo);
out:
	if (fd >= 0)
		close(fd);
	free(tasks);
	free(sbuf);
	free(snames);
	free(gbuf);
	free(gnames);
	zf_buf_free(&csv);
	return ret;
}
