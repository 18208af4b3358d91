// SPDX-License-Identifier: GPL-2.0
/*
 * Every CSV of a results folder, and model.csv, byte for byte against the
 * files in tests/data/golden/: made from fixed figures (no run, no clock),
 * so a change to how a column is written shows as a changed byte. After a
 * change meant to change them: HZF_GOLDEN_WRITE=1 build/hzftest golden
 * writes them anew, and the diff is the review.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "../../harness/analyze/model.h"
#include "../../harness/cli/opt.h"
#include "../../harness/doctor/sysinfo.h"
#include "../../harness/out/buf.h"
#include "../../harness/out/results.h"
#include "../../harness/out/show.h"
#include "../../harness/out/statsjson.h"
#include "../../harness/run/kallsyms.h"
#include "../../harness/run/perfctr.h"
#include "synthetic.h"
#include "test.h"

#define GOLDEN "tests/data/golden"

/* dir/name against GOLDEN/name, or written there under HZF_GOLDEN_WRITE */
static int same_as_golden(const char *dir, const char *name)
{
	char path[PATH_MAX + 64], *got = NULL, *want = NULL;
	size_t got_len = 0, want_len = 0;
	int same;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (zf_read_file_alloc(path, &got, &got_len))
		return 0;
	if (getenv("HZF_GOLDEN_WRITE")) {
		same = !zf_write_atomic(GOLDEN, name, got, got_len);
		free(got);
		return same;
	}
	snprintf(path, sizeof(path), GOLDEN "/%s", name);
	if (zf_read_file_alloc(path, &want, &want_len)) {
		free(got);
		return 0;
	}
	same = got_len == want_len && !memcmp(got, want, got_len);
	if (!same)
		fprintf(stderr, "  %s/%s differs from " GOLDEN "/%s\n", dir, name, name);
	free(got);
	free(want);
	return same;
}

/* task k of a repetition: figures that differ by task and repetition, none of them round */
/*
 * The golden folder's kernel symbols, in address order: the huge zero folio's
 * get and put, then ten others (a module's last), for profile.csv to cut at 8
 */
static const char fake_kallsyms[] =
	"ffffffff81696d00 T mm_get_huge_zero_folio\n"
	"ffffffff81696e60 T mm_put_huge_zero_folio\n"
	"ffffffff81700000 T clear_page_erms\n"
	"ffffffff81700100 t f4\nffffffff81700200 t f5\nffffffff81700300 t f6\n"
	"ffffffff81700400 t f7\nffffffff81700500 t f8\nffffffff81700600 t f9\n"
	"ffffffff81700700 t f10\nffffffff81700800 t f11\n"
	"ffffffffc0a02000 t ext4_statfs\t[ext4]\n";

/* a task's kernel samples over those: put's fewest, ranked past the first 8 */
static void fake_kernel_profile(struct zf_profile *p, uint64_t rep, uint64_t k)
{
	uint32_t s;

	p->kernel = 0;
	for (s = 1; s <= 12; s++) {
		p->ksym[s - 1].sym = s;
		p->ksym[s - 1].samples = s == 1 ? 200 + k : s == 2 ? 2 : s == 3 ? 100 + rep :
					 s == 12 ? 25 : 24 - s;
		p->kernel += p->ksym[s - 1].samples;
	}
	p->kernel_get = p->ksym[0].samples;
	p->kernel_put = p->ksym[1].samples;
	p->other += p->kernel;
}

static void fake_task(struct zf_task_sample *t, const struct zf_perf_list *events, uint64_t rep,
		      uint64_t k, bool kernel)
{
	uint64_t ph;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->faults = 640 + 32 * k;
	t->fault_ns = 1234567 + 100003 * rep + 70001 * k;
	t->teardown_ns = 234567 + 30011 * rep + 9001 * k;
	if (kernel) {
		t->minflt = t->faults + (rep == 1);
		t->rss_growth_kb = 2048 * (k + 1);
		t->anon_huge_kb = 2048 * (k + 1) - 4 * rep;
		t->get_ns = 3 * 1e5 + 777.5 * rep + 55.25 * k;
		t->timed_gets = 1000;
		t->empty_ns = 2 * 1e5 + 13.5 * k;
		t->timed_empties = 1000;
	}
	for (ph = 0; ph < ZF_PHASES; ph++)
		for (i = 0; i < events->n; i++) {
			struct zf_perf_value *v = &t->perf[ph][i];

			v->count = 1000003ULL * (i + 1) + 17 * rep + 5 * k + 101 * ph;
			v->enabled_ns = 2000000 + 1000 * rep;
			/* one event multiplexed in one task, one never run */
			v->running_ns = i == 1 && k == 1 ? v->enabled_ns / 3 :
					i == 4 && rep == 1 ? 0 : v->enabled_ns;
		}
	t->prof.get = 120 + 7 * rep + k;
	t->prof.put = 30 + 3 * k;
	t->prof.other = 900 + 11 * rep;
	fake_kernel_profile(&t->prof, rep, k);
	t->span_start_ns = 5000000000ULL + 1000 * k + 777 * rep;
	t->span_end_ns = k == 1 && rep == 0 && !kernel ? t->span_start_ns :
			 t->span_start_ns + 3000000 + 7919 * k;
	t->span_cpu_ns = 2900000 + 3571 * k + 11 * rep;
	t->nivcsw = 3 + k + rep;
	t->migrations = k == 0 && rep == 1 ? -1 : (int64_t)k;
	t->steal_pct = rep == 1 ? NAN : 0.125 * k;
	t->idle_pct = 1.0 / 3 + k;
	t->policy = (int)k;		/* SCHED_OTHER, then SCHED_FIFO */
}

/* one run of cfg, its reps repetitions as zf_run() would hand them over */
static int add_config(struct zf_results *r, unsigned int idx, const struct zf_run_config *cfg,
		      unsigned int reps, int seen_off)
{
	int n = cfg->plan->ntasks, mm_node[8], cpu_seen[8], k;
	struct zf_task_sample samples[16];
	struct zf_rep_kernel kernel[4];
	struct zf_run_result res = {
		.reps = reps, .passes = 5 + idx, .ntasks = n, .counter_node = idx ? -1 : 0,
		.total = { .gets = 1000 + idx, .puts = 999, .zaps = 1001, .mm_exits = 2,
			   .ref_gets = 7, .ref_puts = 6, .counter_touches = 15 + idx,
			   .cas_retries = 3, .allocs = 2, .frees = 1, .alloc_races_lost = 1,
			   .alloc_failures = 0, .shrinks = 4, .alloc_ns = 123456, .broken = 0 },
	};
	char verdict[64], why[256];
	unsigned int rep, suspect;

	for (rep = 0; rep < reps; rep++) {
		kernel[rep] = (struct zf_rep_kernel){
			.thp_zero_page_alloc = rep, .thp_fault_fallback = rep == 1,
			.wall_ns = rep == 2 ? 0 : 4000000 + 1009 * rep,
			.allocs = 3 + rep, .frees = 2 + rep, .alloc_ns = 50000 + 7 * rep,
			.steal_pct = rep ? NAN : 0.5, .idle_pct = 2.25,
		};
		for (k = 0; k < n; k++) {
			struct zf_task_sample *t = &samples[rep * n + k];

			fake_task(t, r->events, rep, k, cfg->fault == ZF_FAULT_KERNEL);
			t->seen = (struct zf_numa_seen){ .cpu = cfg->plan->pu[k] + (k == seen_off),
				.cpu_node = cfg->plan->node[k], .table_node = seen_off < 0 ? -1 :
				cfg->plan->node[k], .mm_node = seen_off < 0 ? -1 : cfg->plan->node[k] };
		}
	}
	for (k = 0; k < n; k++) {
		mm_node[k] = k ? -1 : 0;
		cpu_seen[k] = cfg->plan->pu[k];
	}
	res.samples = samples;
	res.kernel = kernel;
	res.mm_node = mm_node;
	res.cpu_seen = cpu_seen;
	return zf_results_add(r, idx, cfg, &res, &suspect, verdict, sizeof(verdict), why,
			      sizeof(why));
}

TEST(golden_results_csvs)
{
	static const char *const files[] = {
		"samples.csv", "tasks.csv", "summary.csv", "counters.csv", "perf.csv", "timing.csv",
		"profile.csv",
	};
	char dir[] = "/tmp/hzfgolden.XXXXXX", why[256], bad[64], cmd[PATH_MAX + 16];
	int pu2[] = { 0, 1 }, pu3[] = { 1, 3 }, node2[] = { 0, 0 }, node3[] = { 0, 1 };
	struct zf_plan compact = { .placement = "compact", .ntasks = 2, .pu = pu2, .node = node2 };
	struct zf_plan cpus = { .placement = "cpus:1,3", .ntasks = 2, .pu = pu3, .node = node3 };
	struct zf_plan one = { .placement = "scatter", .ntasks = 1, .pu = pu3, .node = node3 };
	struct zf_run_config cfg[] = {
		{ .strategy = &zf_strategy_global, .kind = ZF_TASK_THREAD, .fault = ZF_FAULT_EMULATED,
		  .plan = &compact, .faults_per_pass = 32, .step = 2 << 20 },
		{ .strategy = &zf_strategy_mmflag, .kind = ZF_TASK_PROCESS, .fault = ZF_FAULT_KERNEL,
		  .plan = &cpus, .faults_per_pass = 64, .step = 2 << 20 },
		{ .strategy = &zf_strategy_persistent, .kind = ZF_TASK_PROCESS,
		  .fault = ZF_FAULT_EMULATED, .plan = &one, .faults_per_pass = 16, .step = 4096,
		  .workload = ZF_WORKLOAD_LIFECYCLE },
	};
	struct zf_results r = { .profile = true, .tag = "ci, \"nightly\"" };
	struct zf_perf_list events;
	struct zf_kallsyms ks;
	struct zf_topo topo;
	char *shown = NULL;
	size_t shown_len;
	FILE *show;
	const char *w;
	size_t i;

	ASSERT_TRUE(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/kallsyms", dir);
	show = fopen(cmd, "w");
	ASSERT_TRUE(show);
	fputs(fake_kallsyms, show);
	fclose(show);
	ASSERT_EQ(zf_kallsyms_load(&ks, cmd), 0);
	ASSERT_EQ(ks.n, 12);
	unlink(cmd);
	r.kallsyms = &ks;
	ASSERT_EQ(open_synthetic(&topo, "pack:2 [numa] core:2 pu:1"), 0);
	ASSERT_EQ(zf_perf_parse("cycles,instructions,cache-references,cache-misses,"
				"L1-dcache-load-misses,LLC-load-misses,branch-misses,task-clock,"
				"page-faults,context-switches,cpu-migrations", &events, bad,
				sizeof(bad), &w), 0);
	snprintf(r.dir, sizeof(r.dir), "%s", dir);
	r.topo = &topo;
	r.events = &events;
	ASSERT_EQ(zf_results_begin(&r, 4, why, sizeof(why)), 0);	/* the 4th never kept */
	EXPECT_EQ(add_config(&r, 0, &cfg[0], 3, -2), 0);
	EXPECT_EQ(add_config(&r, 1, &cfg[1], 2, 1), 0);
	EXPECT_EQ(add_config(&r, 2, &cfg[2], 1, -1), 0);
	r.perf_err[5] = EOPNOTSUPP;	/* LLC-load-misses: refused, its columns empty */
	for (i = 0; i < 4; i++) {
		struct zf_run_record run = { .config = i % 3, .round = i / 3, .passes = 5 + i,
			.tasks = 2, .timing = { .start_ns = 1000000 + i, .calibrate_ns = 2345678,
			.calibrate_reps = 2, .warmup_ns = 3456789, .measure_ns = 45678901 * (i + 1),
			.stop_ns = 567890 } };

		EXPECT_EQ(zf_results_add_run(&r, &run), 0);
	}
	ASSERT_EQ(zf_results_write(&r, why, sizeof(why)), 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		EXPECT_TRUE(same_as_golden(dir, files[i]));
	snprintf(cmd, sizeof(cmd), "%s/stats.json", dir);
	EXPECT_TRUE(access(cmd, F_OK) != 0);	/* not before the folder is complete */
	ASSERT_EQ(zf_results_end(&r, true, why, sizeof(why)), 0);
	EXPECT_TRUE(same_as_golden(dir, "stats.json"));
	EXPECT_EQ(zf_results_complete(dir, why, sizeof(why)), 0);
	/* show: profile.csv's lines, perf report's way, put's past the first 8 kept */
	show = open_memstream(&shown, &shown_len);
	ASSERT_TRUE(show);
	EXPECT_EQ(zf_show(dir, show), 0);
	fclose(show);
	EXPECT_TRUE(strstr(shown, "  global emulated thread x2 compact:\n") != NULL);
	EXPECT_TRUE(strstr(shown, "%  [k] mm_get_huge_zero_folio\n") != NULL);
	EXPECT_TRUE(strstr(shown, "%  [k] ext4_statfs [ext4]\n") != NULL);
	EXPECT_TRUE(strstr(shown, "  0.13%  [k] mm_put_huge_zero_folio\n") != NULL);
	EXPECT_TRUE(strstr(shown, "[k] f11\n") == NULL);	/* 9th of 12: cut */
	free(shown);
	zf_results_free(&r);
	zf_kallsyms_free(&ks);
	zf_topo_close(&topo);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(system(cmd), 0);
}

/* model --from the committed sample: summary.csv's columns, a prediction outside the model */
TEST(golden_model_csv)
{
	char dir[] = "/tmp/hzfgolden.XXXXXX", contention[PATH_MAX + 32], cmd[PATH_MAX + 16];
	char out[PATH_MAX + 16];
	static const char rows[] = "pu_a,pu_b,level,work_ns,ns_per_op,ops_per_transfer,"
		"retries_per_op,ops\n0,1,node,0,33.000,15.000,0.050,60000\n"
		"0,1,node,1000,1010.000,1.300,0.001,5000\n";
	char *argv[] = { "model", "--from", "tests/data/sample", "--contention", contention,
			 "--handoff-ns", "30", "--out", out, NULL };
	int err, saved;

	ASSERT_TRUE(mkdtemp(dir));
	snprintf(contention, sizeof(contention), "%s/contention.csv", dir);
	snprintf(out, sizeof(out), "%s/model", dir);	/* new: --out takes no folder with files */
	ASSERT_EQ(zf_write_atomic(dir, "contention.csv", rows, strlen(rows)), 0);
	setenv("HWLOC_SYNTHETIC", "pack:2 [numa] core:2 pu:1", 1);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);	/* its table is not this test's output */
	ASSERT_TRUE(freopen("/dev/null", "w", stdout) != NULL);
	err = zf_model_main(sizeof(argv) / sizeof(argv[0]) - 1, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	unsetenv("HWLOC_SYNTHETIC");
	ASSERT_EQ(err, 0);
	EXPECT_TRUE(same_as_golden(out, "model.csv"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(system(cmd), 0);
}

/* the name's default placement and fault, the ones run and sweep take when not told */
TEST(stats_json_defaults)
{
	const struct zf_opt_set *sets[] = { &zf_run_opts, &zf_sweep_opts };
	size_t i, j, found = 0;

	for (i = 0; i < 2; i++)
		for (j = 0; j < sets[i]->n; j++) {
			const struct zf_opt *o = &sets[i]->opts[j];
			const char *want = !strcmp(o->name, "placement") ||
					   !strcmp(o->name, "placements") ? ZF_STATS_DEFAULT_PLACEMENT :
					   !strcmp(o->name, "fault") || !strcmp(o->name, "faults") ?
					   ZF_STATS_DEFAULT_FAULT : NULL;

			if (!want || !(o->cmds & sets[i]->cmd_bit) || !o->def)
				continue;
			EXPECT_STREQ(o->def, want);
			found++;
		}
	EXPECT_EQ(found, 4);
}
