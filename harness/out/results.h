/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A results folder: meta.json, samples.csv, tasks.csv, perf.csv,
 * summary.csv, counters.csv, profile.csv, timing.csv and topology.xml.
 * samples.csv, tasks.csv and perf.csv, a row a repetition, task or event,
 * are streamed: each run's rows appended as it is added (stream.h), so
 * that a configuration keeps its repetitions' figures and not its tasks'.
 * The rest, a row a configuration or a run, are rewritten whole (temporary
 * name, fsync, rename) after each round, the streamed files fsync()ed
 * first; meta.json says `complete: false` until the last one is in;
 * stats.json (statsjson.h) is written just before that, a complete
 * folder's alone. Columns: results/README.md.
 */
#ifndef HZF_RESULTS_H
#define HZF_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../bench/probe.h"
#include "buf.h"
#include "cols.h"
#include "json.h"
#include "metrics.h"
#include "perfcols.h"
#include "runner.h"
#include "stream.h"
#include "sysinfo.h"
#include "topo.h"

/*
 * What a configuration keeps of one repetition: the figures summary.csv
 * takes the medians of, as its samples.csv row has them (its tasks' rows
 * are written, not kept)
 */
struct zf_rep_kept {
	struct zf_rep_metrics m;	/* ns/fault and the rest; the concurrency flags */
	double perf[ZF_PERF_NCOLS];	/* the perf columns */
	double get_share, put_share;	/* --profile; NAN: none */
	double kernel_share, kernel_get_share, kernel_put_share;
	double allocs_per_sec, frees_per_sec, alloc_share;	/* the folio's life; NAN: none */
};

/* a kernel symbol (its kallsyms index + 1) and its samples, pooled */
struct zf_ksym_total {
	uint32_t sym;
	uint64_t samples;
};

/* what has been kept of one configuration so far */
struct zf_config_result {
	struct zf_run_config cfg;
	unsigned long passes;		/* per repetition, from the first run */
	unsigned int reps;
	struct zf_rep_kept *rep;	/* reps */
	int counter_node;
	struct zf_stats total;		/* every run of it added up */
	/* --profile: every task's samples of every repetition, pooled (profile.csv) */
	uint64_t prof_get, prof_put, prof_all;
	struct zf_ksym_total *ksym;	/* by sym, one a symbol seen: nksym */
	size_t nksym;
};

/* the files streamed, a row a repetition, task or event: zf_results_add() writes them */
enum { ZF_STREAM_SAMPLES, ZF_STREAM_TASKS, ZF_STREAM_PERF, ZF_STREAMS };

/* one run (a configuration's round): where its time went, and what was planned */
struct zf_run_record {
	unsigned int config;		/* index into configs */
	unsigned int round;
	unsigned long passes;
	unsigned int tasks;
	struct zf_run_timing timing;
};

struct zf_results {
	char dir[PATH_MAX];
	char start_time[32];
	int argc;
	char **argv;
	struct zf_sysinfo si;
	struct zf_probe probe;
	struct zf_topo *topo;
	json_t *options;		/* the parsed options, an object; NULL: none yet */
	struct zf_config_result *configs;
	unsigned int nconfigs;		/* with at least one repetition kept */
	const struct zf_perf_list *events;	/* what every task was asked to count */
	int perf_err[ZF_PERF_MAX_EVENTS];	/* per event: the first errno any run gave */
	bool profile;			/* --profile: tasks sampled where their time went */
	int profile_err;		/* the first errno sampling gave, or 0 */
	const struct zf_kallsyms *kallsyms;	/* --profile: names kernel samples; NULL: none */
	const char *tag;		/* --tag: a label for CI and slides; NULL none */
	json_t *doctor;			/* the doctor's snapshot, an object; NULL: none */
	struct zf_run_record *runs;	/* every run so far, in the order they ran: timing.csv */
	size_t nruns, runs_cap;
	uint64_t setup_ns;		/* the sweep's own, before its first run */
	uint64_t write_ns;		/* writing these files, every round so far */
	unsigned long numa_moved_pages;	/* bound pages the kernel put elsewhere, moved back */
	struct zf_buf stats;		/* stats.json as of the last write: written once complete */
	struct zf_stream stream[ZF_STREAMS];	/* open from zf_results_begin() on */
};

/*
 * Make the folder: `out`, or results/<UTC time>-<host> when NULL. An
 * existing folder must be empty: nothing already there is overwritten.
 */
int zf_results_dir(const char *out, char *dir, size_t len, char *why, size_t whylen);
/*
 * zf_results_dir()'s refusal asked alone, nothing made: 0 where out is NULL,
 * missing or an empty folder; else -EEXIST and why. For a check before any
 * probe or measurement, so that an --out refused costs nothing.
 */
int zf_results_out_usable(const char *out, char *why, size_t whylen);
/*
 * meta.json (complete: false), topology.xml and the streamed files'
 * headers; room for nconfigs
 */
int zf_results_begin(struct zf_results *r, unsigned int nconfigs, char *why, size_t len);
/*
 * Add a run's repetitions to configuration idx's (resrun.c): their rows
 * appended to samples.csv, tasks.csv and perf.csv, in the order runs are
 * added, and their figures kept. *suspect counts the kernel-fault
 * repetitions whose verification failed (kernel_check is not "ok"), with
 * the first verdict in verdict. A write that fails cuts the run's rows off
 * again and fails the run: why names the file.
 */
int zf_results_add(struct zf_results *r, unsigned int idx, const struct zf_run_config *cfg,
		   const struct zf_run_result *res, unsigned int *suspect, char *verdict,
		   size_t verdict_len, char *why, size_t len);
/* keep a run's record for timing.csv; -ENOMEM */
int zf_results_add_run(struct zf_results *r, const struct zf_run_record *run);
/* configuration cfg's key: the first columns of every CSV (its texts are cfg's) */
void zf_results_key(const struct zf_run_config *cfg, struct zf_config_key *key);
/* repetition rep of a run, verified: see zf_kernel_verdict() */
const char *zf_results_rep_verdict(const struct zf_run_result *res, unsigned int rep,
				   char *buf, size_t len);
/*
 * The bytes the results keep in memory for each repetition of a
 * configuration of ntasks tasks, whatever ntasks: its figures (struct
 * zf_rep_kept) and, in a sweep, where each run is one repetition, the
 * run's timing.csv record (twice over: their array doubles as it grows).
 * Beside them each configuration holds its struct zf_config_result
 * (zf_results_begin() makes room for all) and, under --profile with
 * kallsyms, a struct zf_ksym_total for each kernel symbol its tasks'
 * samples fell in, however many tasks and repetitions.
 */
size_t zf_results_rep_bytes(int ntasks);
/*
 * The bytes one run's own result holds while it is added: zf_run()'s
 * samples, kernel figures and per-task nodes (struct zf_run_result), and
 * the rows on their way to the streamed files (a buffer of each, let go
 * once the run is in)
 */
size_t zf_results_run_bytes(int ntasks, unsigned int reps);
/*
 * The streamed files fsync()ed, every other CSV file rewritten from what
 * is kept, and meta.json (complete: false)
 */
int zf_results_write(struct zf_results *r, char *why, size_t len);
/* meta.json with the end time and `complete`; complete: stats.json first */
int zf_results_end(struct zf_results *r, bool complete, char *why, size_t len);
/*
 * Reading a folder back (resread.c). 0 when dir is a results folder a
 * reader may trust: meta.json is JSON that says "complete": true (false: a
 * run stopped or failed), and its table, summary.csv (zeroout.csv in one of
 * hzfbench zeroout), is CSV, whole, with a row at least; with csv, that
 * table, read (zf_csv_free()). Else -1 and why: one line naming the file and
 * what is wrong. What show, report, compare, history and model --from ask
 * first, and refuse with exit status 2.
 */
int zf_results_open(const char *dir, struct zf_csv *csv, char *why, size_t len);
/*
 * 0 when every figure of csv, read from path, is a finite number; else -1
 * and why names the file, the line and the column of the first that is not
 * (nan, inf, 1e999: what no run writes). zf_results_open() asks it of the
 * folder's table; a reader of another of its CSVs asks it of that one.
 */
int zf_results_finite(const char *path, const struct zf_csv *csv, char *why, size_t len);
/* zf_results_open() without the table kept */
int zf_results_complete(const char *dir, char *why, size_t len);
/* DIR/meta.json, whole (it grows with the machine: 4,096 CPUs, the doctor's lists), malloc()ed; NULL */
char *zf_results_meta(const char *dir);
/* meta.json's "virtualized" (tcg, kvm: hzfbench vm's guest), or "" for none */
void zf_results_virtualized(const char *dir, char *accel, size_t len);
void zf_results_free(struct zf_results *r);

void zf_utc_time(char *buf, size_t len, bool compact);

#endif
