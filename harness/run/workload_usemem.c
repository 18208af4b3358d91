// SPDX-License-Identifier: GPL-2.0
/*
 * --workload usemem and --workload lifecycle: what a task does in one pass,
 * usemem --readonly's fault phase and teardown over its "page table" (the
 * measured loops themselves, get and put inlined, are bench/usemem.h's). A
 * lifecycle is the same pass, each a life of its own, all tasks in waves.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kcheck.h"
#include "numa.h"
#include "sysinfo.h"
#include "tasks.h"
#include "../../bench/tick.h"

/*
 * Anonymous and AnonHugePages of this process now (not Rss: in a thread
 * mm, the others' first runs of code page in megabytes of the program's
 * files); false when they cannot be read
 */
static bool read_anon(uint64_t *anon_kb, uint64_t *anon_huge_kb)
{
	char text[4096];

	return !zf_read_file("/proc/self/smaps_rollup", text, sizeof(text)) &&
	       !zf_smaps_rollup(text, anon_kb, anon_huge_kb);
}

static uint64_t minflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

/*
 * The timed fault phase of a pass, get() inlined in the loop (or called out
 * of line for --profile), into the sample: its time, its counts, and the
 * gets timed inside it (usemem.h) in ns, the tick's unit taken from the
 * monotonic clock over this very phase
 */
static void fault_phase(struct zf_task *t, bool kernel)
{
	const struct zf_run_config *cfg = t->r->cfg;
	zf_get_fn get = cfg->strategy->get;
	struct zf_task_sample *sample = t->sample;
	struct zf_pass *pass = &t->pass;
	uint64_t t0, t1, k0, k1;
	double ns_per_tick;

	pass->get_ticks = pass->empty_ticks = 0;
	pass->timed_gets = pass->timed_empties = 0;
	zf_task_perf_mark(&t->tp, sample, -1);
	t0 = zf_now_ns();
	k0 = zf_tick();
	if (cfg->profile && kernel)
		zf_profiled_kernel_fault_pass(pass, get);
	else if (kernel)
		cfg->strategy->kernel_fault_pass(pass);
	else if (cfg->profile)
		zf_profiled_fault_pass(pass, get);
	else
		cfg->strategy->fault_pass(pass);
	k1 = zf_tick();
	t1 = zf_now_ns();
	zf_task_perf_mark(&t->tp, sample, ZF_PHASE_FAULT);
	sample->fault_ns += t1 - t0;
	/* --fault-ns above 0 or kernel faults: the get timed on a sample inside the loop */
	ns_per_tick = k1 > k0 ? (double)(t1 - t0) / (k1 - k0) : 0;
	sample->get_ns += pass->get_ticks * ns_per_tick;
	sample->empty_ns += pass->empty_ticks * ns_per_tick;
	sample->timed_gets += pass->timed_gets;
	sample->timed_empties += pass->timed_empties;
}

/* the timed teardown: the zap (and the munmap), the mm's exit for a process task */
static int teardown_phase(struct zf_task *t)
{
	const struct zf_run_config *cfg = t->r->cfg;
	struct zf_pass *pass = &t->pass;
	uint64_t t1, t2;
	int err = 0;

	zf_task_perf_mark(&t->tp, t->sample, -1);	/* what came between is not counted */
	t1 = zf_now_ns();
	if (cfg->profile)
		zf_profiled_zap_pass(pass, cfg->strategy->put);
	else
		cfg->strategy->zap_pass(pass);
	if (pass->region)
		err = zf_region_unmap(pass);
	if (cfg->kind == ZF_TASK_PROCESS)
		zf_mm_exit(cfg->strategy, pass->zs, pass->mm, pass->st);
	t2 = zf_now_ns();
	zf_task_perf_mark(&t->tp, t->sample, ZF_PHASE_TEARDOWN);
	t->sample->teardown_ns += t2 - t1;
	return err;
}

/*
 * One pass on real faults: map a fresh region, read it (timed, and the page
 * faults counted), look at RSS once per repetition while it is mapped
 * (untimed), then zap and munmap (timed).
 */
static int kernel_pass(struct zf_task *t, bool look)
{
	const struct zf_run_config *cfg = t->r->cfg;
	struct zf_task_sample *sample = t->sample;
	uint64_t flt, anon_kb, huge_kb;
	int err = zf_region_map(&t->pass, cfg->faults_per_pass * cfg->step);

	if (err)
		return err;
	flt = minflt_now();
	fault_phase(t, true);
	sample->minflt += minflt_now() - flt;
	if (look && read_anon(&anon_kb, &huge_kb)) {
		if (anon_kb > t->anon_base_kb && anon_kb - t->anon_base_kb > sample->rss_growth_kb)
			sample->rss_growth_kb = anon_kb - t->anon_base_kb;
		/*
		 * growth, as Anonymous's: a thread's stack or an arena that THP
		 * (enabled=always) backed with a huge page before is no fault's
		 */
		if (huge_kb > t->huge_base_kb && huge_kb - t->huge_base_kb > sample->anon_huge_kb)
			sample->anon_huge_kb = huge_kb - t->huge_base_kb;
	}
	return teardown_phase(t);
}

/* the page table, a slot a fault, on the task's node */
static int usemem_task_init(struct zf_task *t, char *why, size_t len)
{
	const struct zf_run_config *cfg = t->r->cfg;

	t->table_len = cfg->faults_per_pass * sizeof(struct zf_folio *);
	t->table = zf_numa_alloc_placed(t->table_len, cfg->plan->node[t->id], false,
					&t->slot->numa_moved);
	if (!t->table) {
		snprintf(why, len, "page table of %zu bytes on node %d: %s", t->table_len,
			 cfg->plan->node[t->id], errno == EXDEV ?
			 "the kernel put pages elsewhere and could not move them" : strerror(errno));
		return -ENOMEM;
	}
	t->pass.slots = t->table;
	t->pass.faults_per_pass = cfg->faults_per_pass;
	t->pass.step = cfg->step;
	t->pass.fault_iters = (unsigned long)(cfg->fault_ns * cfg->busy_iters_per_ns + 0.5);
	/* a real fault counts the kernel's own mm: nothing to emulate beside it */
	t->pass.mm_atomics = cfg->mm_atomics && cfg->fault == ZF_FAULT_EMULATED;
	return 0;
}

static void usemem_task_fini(struct zf_task *t)
{
	zf_numa_free(t->table, t->table_len);
}

/*
 * Its slots, and on real faults the kernel's tables: a huge zero PMD
 * deposits a page table for a later split (pgtable_trans_huge_deposit()),
 * held until the region is unmapped, and a PMD table maps a PUD's worth;
 * where the kernel does not map the huge zero folio a read fault allocates
 * a huge page of real memory instead.
 */
static void usemem_task_memory(const struct zf_run_config *cfg, bool mapped,
			       struct zf_task_memory *m)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), faults = cfg->faults_per_pass;
	uint64_t len = faults * cfg->step, pud = page / 8 * ZF_FOLIO_SIZE;

	*m = (struct zf_task_memory){
		.slots = faults * sizeof(struct zf_folio *),
		.per_fault = sizeof(struct zf_folio *),
	};
	if (cfg->fault != ZF_FAULT_KERNEL)
		return;
	m->page_tables = faults * page + (len + pud - 1) / pud * page;
	m->per_fault += page;
	m->address_space = len + ZF_FOLIO_SIZE;	/* its mapping, padded to align it */
	if (!mapped) {
		m->region = faults * ZF_FOLIO_SIZE;
		m->per_fault += ZF_FOLIO_SIZE;
	}
}

static void usemem_rep_start(struct zf_task *t)
{
	if (t->r->cfg->fault == ZF_FAULT_KERNEL)
		read_anon(&t->anon_base_kb, &t->huge_base_kb);
}

static int usemem_pass(struct zf_task *t, bool last, char *why, size_t len)
{
	const struct zf_run_config *cfg = t->r->cfg;
	int err = 0;

	/* process tasks: each pass is an mm lifetime (usemem -n) */
	if (cfg->kind == ZF_TASK_PROCESS)
		zf_mm_init(t->pass.mm);
	if (cfg->fault == ZF_FAULT_KERNEL) {
		err = kernel_pass(t, last);
	} else {	/* emulated faults */
		fault_phase(t, false);
		teardown_phase(t);
	}
	if (err)
		snprintf(why, len, "region of %lu bytes: %s", cfg->faults_per_pass * cfg->step,
			 strerror(-err));
	return err;
}

const struct zf_workload_ops zf_workload_usemem = {
	.name		= "usemem",
	.unit		= "fault",
	.folios_per_task = 1,
	.sized_pass	= true,
	.task_init	= usemem_task_init,
	.task_fini	= usemem_task_fini,
	.task_memory	= usemem_task_memory,
	.rep_start	= usemem_rep_start,
	.pass		= usemem_pass,
};

/* each pass a life; every task's next life starts with the others' (a wave) */
const struct zf_workload_ops zf_workload_lifecycle = {
	.name		= "lifecycle",
	.unit		= "fault",
	.folios_per_task = 1,
	.calibrate_by_wall = true,
	.task_init	= usemem_task_init,
	.task_fini	= usemem_task_fini,
	.task_memory	= usemem_task_memory,
	.rep_start	= usemem_rep_start,
	.between_passes	= zf_task_wave,
	.pass		= usemem_pass,
};
