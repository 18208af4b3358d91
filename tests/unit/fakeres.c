// SPDX-License-Identifier: GPL-2.0
/* The golden folder's fixed figures: see fakeres.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "../../harness/analyze/model.h"
#include "../../harness/doctor/sysinfo.h"
#include "fakeres.h"
#include "synthetic.h"

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

/* task k of a repetition: figures that differ by task and repetition, none of them round */
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

/* where each configuration's tasks were seen: off by one PU at task seen_off, or unread (< -1) */
static const int seen_off[FAKE_CONFIGS] = { -2, 1, -1 };

int fake_add(struct fake_folder *f, unsigned int idx, unsigned int rep0, unsigned int reps)
{
	const struct zf_run_config *cfg = &f->cfg[idx];
	int n = cfg->plan->ntasks, mm_node[8], cpu_seen[8], k, off = seen_off[idx];
	struct zf_task_sample samples[16];
	struct zf_rep_kernel kernel[4];
	struct zf_run_result res = {
		.reps = reps, .passes = 5 + idx, .ntasks = n, .counter_node = idx ? -1 : 0,
		/* LLC-load-misses: refused, its columns empty and its perf.csv rows left out */
		.perf_err = { [5] = EOPNOTSUPP },
	};
	char verdict[64];
	unsigned int i, suspect;

	if (!rep0)
		res.total = (struct zf_stats){ .gets = 1000 + idx, .puts = 999, .zaps = 1001,
			.mm_exits = 2, .ref_gets = 7, .ref_puts = 6, .counter_touches = 15 + idx,
			.cas_retries = 3, .allocs = 2, .frees = 1, .alloc_races_lost = 1,
			.alloc_failures = 0, .shrinks = 4, .alloc_ns = 123456, .broken = 0 };
	for (i = 0; i < reps; i++) {
		unsigned int rep = rep0 + i;

		kernel[i] = (struct zf_rep_kernel){
			.thp_zero_page_alloc = rep, .thp_fault_fallback = rep == 1,
			.wall_ns = rep == 2 ? 0 : 4000000 + 1009 * rep,
			.allocs = 3 + rep, .frees = 2 + rep, .alloc_ns = 50000 + 7 * rep,
			.steal_pct = rep ? NAN : 0.5, .idle_pct = 2.25,
		};
		for (k = 0; k < n; k++) {
			struct zf_task_sample *t = &samples[i * n + k];

			fake_task(t, &f->events, rep, k, cfg->fault == ZF_FAULT_KERNEL);
			t->seen = (struct zf_numa_seen){ .cpu = cfg->plan->pu[k] + (k == off),
				.cpu_node = cfg->plan->node[k], .table_node = off < 0 ? -1 :
				cfg->plan->node[k], .mm_node = off < 0 ? -1 : cfg->plan->node[k] };
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
	return zf_results_add(&f->r, idx, cfg, &res, &suspect, verdict, sizeof(verdict), f->why,
			      sizeof(f->why));
}

int fake_runs(struct fake_folder *f)
{
	size_t i;

	for (i = 0; i < 4; i++) {
		struct zf_run_record run = { .config = i % 3, .round = i / 3, .passes = 5 + i,
			.tasks = 2, .timing = { .start_ns = 1000000 + i, .calibrate_ns = 2345678,
			.calibrate_reps = 2, .warmup_ns = 3456789, .measure_ns = 45678901 * (i + 1),
			.stop_ns = 567890 } };

		if (zf_results_add_run(&f->r, &run))
			return -1;
	}
	return 0;
}

int fake_folder_begin(struct fake_folder *f)
{
	char path[PATH_MAX], why[256], bad[64];
	const char *w;
	FILE *ks;

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/hzfgolden.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(path, sizeof(path), "%s/kallsyms", f->dir);
	ks = fopen(path, "w");
	if (!ks)
		return -1;
	fputs(fake_kallsyms, ks);
	fclose(ks);
	if (zf_kallsyms_load(&f->ks, path) || f->ks.n != 12)
		return -1;
	unlink(path);
	if (open_synthetic(&f->topo, "pack:2 [numa] core:2 pu:1") ||
	    zf_perf_parse("cycles,instructions,cache-references,cache-misses,"
			  "L1-dcache-load-misses,LLC-load-misses,branch-misses,task-clock,"
			  "page-faults,context-switches,cpu-migrations", &f->events, bad,
			  sizeof(bad), &w))
		return -1;
	memcpy(f->pu2, (int[]){ 0, 1 }, sizeof(f->pu2));
	memcpy(f->pu3, (int[]){ 1, 3 }, sizeof(f->pu3));
	memcpy(f->node3, (int[]){ 0, 1 }, sizeof(f->node3));
	f->plan[0] = (struct zf_plan){ .placement = "compact", .ntasks = 2, .pu = f->pu2,
				       .node = f->node2 };
	f->plan[1] = (struct zf_plan){ .placement = "cpus:1,3", .ntasks = 2, .pu = f->pu3,
				       .node = f->node3 };
	f->plan[2] = (struct zf_plan){ .placement = "scatter", .ntasks = 1, .pu = f->pu3,
				       .node = f->node3 };
	f->cfg[0] = (struct zf_run_config){ .strategy = &zf_strategy_global, .kind = ZF_TASK_THREAD,
		.fault = ZF_FAULT_EMULATED, .plan = &f->plan[0], .faults_per_pass = 32,
		.step = 2 << 20 };
	f->cfg[1] = (struct zf_run_config){ .strategy = &zf_strategy_mmflag, .kind = ZF_TASK_PROCESS,
		.fault = ZF_FAULT_KERNEL, .plan = &f->plan[1], .faults_per_pass = 64,
		.step = 2 << 20 };
	f->cfg[2] = (struct zf_run_config){ .strategy = &zf_strategy_persistent,
		.kind = ZF_TASK_PROCESS, .fault = ZF_FAULT_EMULATED, .plan = &f->plan[2],
		.faults_per_pass = 16, .step = 4096, .workload = ZF_WORKLOAD_LIFECYCLE };
	f->r = (struct zf_results){ .profile = true, .tag = "ci, \"nightly\"", .kallsyms = &f->ks,
				    .topo = &f->topo, .events = &f->events };
	snprintf(f->r.dir, sizeof(f->r.dir), "%s", f->dir);
	return zf_results_begin(&f->r, 4, why, sizeof(why)) ? -1 : 0;	/* the 4th never kept */
}

long fake_file_lines(const char *path)
{
	char *text, *p;
	long n = 0;
	size_t len;

	if (zf_read_file_alloc(path, &text, &len))
		return -1;
	for (p = text; (p = strchr(p, '\n')); p++)
		n++;
	free(text);
	return n;
}

int fake_folder_end(struct fake_folder *f)
{
	char cmd[64];

	zf_results_free(&f->r);
	zf_kallsyms_free(&f->ks);
	zf_topo_close(&f->topo);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	return system(cmd) ? -1 : 0;
}

int fake_model_quiet(const char *synthetic, int argc, char **argv)
{
	int err, saved;

	setenv("HWLOC_SYNTHETIC", synthetic, 1);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);	/* its table is not a test's output */
	if (saved < 0 || !freopen("/dev/null", "w", stdout)) {
		unsetenv("HWLOC_SYNTHETIC");
		return -1;
	}
	err = zf_model_main(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	unsetenv("HWLOC_SYNTHETIC");
	return err;
}
