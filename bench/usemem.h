/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The usemem --readonly workload: what one task does to its region in one
 * pass. A fault is get() from the strategy, the folio stored in the task's
 * "page table" slot, one byte of it read (the user's read), and --fault-ns of
 * calibrated busy work standing for the rest of the kernel's fault path,
 * the mm's page-table bytes counted up first where the run emulates that
 * (--mm-atomics). Teardown zaps every slot: put() per slot where the strategy
 * counts them, and the bytes counted down.
 *
 * The two loops below are the whole measured work. Each strategy instantiates
 * them with its own get/put (ZF_DEFINE_PASSES), so nothing is called
 * indirectly per fault.
 */
#ifndef HZF_USEMEM_H
#define HZF_USEMEM_H

#include "strategy.h"
#include "tick.h"

struct zf_pass {
	struct zf_shared *zs;
	struct zf_mm *mm;
	struct zf_stats *st;
	struct zf_folio **slots;	/* one per step: the task's page table */
	volatile unsigned char *region;	/* kernel faults: the mapped region, or NULL */
	size_t region_len;
	unsigned long faults_per_pass;
	unsigned long step;
	unsigned long fault_iters;	/* busy-work iterations per fault */
	unsigned long read_sum;		/* OR of every byte read: stays 0 */
	unsigned long fallbacks;	/* get() gave no folio */
	bool mm_atomics;		/* emulated faults: count the mm's page-table bytes */
	/* kernel faults: ticks around sampled get()s, and around nothing (usemem.h) */
	uint64_t get_ticks, empty_ticks;
	unsigned long timed_gets, timed_empties;
};

/*
 * Calibrated busy work, n units of it. Where the CPU has a counter that runs
 * at one rate whatever the core's speed (x86's invariant TSC, arm64's
 * virtual counter of 50 MHz or more), a unit is one tick and a call spins
 * until n ticks have passed: the work is a time, which holds when the core
 * speeds up or slows down during a run (a vCPU here moved 15-40% within one
 * sweep, and a loop calibrated at the start then did that much more or less
 * work). Elsewhere, or with HZF_BUSY=loop, a unit is one compiler-opaque add.
 * Out of line and 64-byte aligned (usemem.c), so that every strategy's
 * fault loop and the calibration (bench/probe.c) run the very same
 * instructions: an inlined copy in each loop ran 30-55% slower than the
 * copy it was calibrated on.
 */
void zf_busy(unsigned long n);
/* chooses zf_busy()'s unit, once; returns it: "tsc", "cntvct" or "loop" */
const char *zf_busy_setup(void);

/*
 * mm_inc_nr_ptes() and mm_dec_nr_ptes(): a huge zero PMD's deposited page
 * table counted in its mm's page-table bytes at the fault, under the PMD
 * lock, and taken off at the zap; atomic_long_add/sub, which order nothing
 */
static inline __attribute__((always_inline)) void zf_mm_inc_nr_ptes(struct zf_mm *mm)
{
	atomic_fetch_add_explicit(&mm->pgtables_bytes, ZF_PTE_TABLE_BYTES, memory_order_relaxed);
}

static inline __attribute__((always_inline)) void zf_mm_dec_nr_ptes(struct zf_mm *mm)
{
	atomic_fetch_sub_explicit(&mm->pgtables_bytes, ZF_PTE_TABLE_BYTES, memory_order_relaxed);
}

/* one fault in every ZF_TIMED_EVERY has its get() timed, one other the timer alone */
#define ZF_TIMED_EVERY	16

/*
 * With busy work (--fault-ns above 0) the get is also timed where it
 * happens, on a sample, as zf_kernel_fault_loop() does below: a fault of
 * that much work can carry two tick pairs in sixteen faults, and the get's
 * share of it is then measured, not the difference of two medians. At
 * --fault-ns 0 nothing is timed: the loop stays the bare stress.
 */
static inline __attribute__((always_inline)) void
zf_fault_loop_body(struct zf_pass *p, zf_get_fn get, bool busy, bool mm_atomics)
{
	struct zf_shared *zs = p->zs;
	struct zf_mm *mm = p->mm;
	struct zf_stats *st = p->st;
	struct zf_folio **slots = p->slots;
	unsigned long i, n = p->faults_per_pass, step = p->step, iters = p->fault_iters;
	unsigned long off = 0, sum = 0, timed_gets = 0, timed_empties = 0;
	uint64_t get_ticks = 0, empty_ticks = 0, t0, t1;

#pragma GCC unroll 4
	for (i = 0; i < n; i++, off += step) {
		struct zf_folio *folio;

		if (busy && unlikely(i % ZF_TIMED_EVERY == 0)) {
			t0 = zf_tick();
			t1 = zf_tick();
			empty_ticks += t1 - t0;
			timed_empties++;
			folio = get(zs, mm, st);
		} else if (busy && unlikely(i % ZF_TIMED_EVERY == ZF_TIMED_EVERY / 2)) {
			t0 = zf_tick();
			folio = get(zs, mm, st);
			t1 = zf_tick();
			get_ticks += t1 - t0;
			timed_gets++;
		} else {
			folio = get(zs, mm, st);
		}
		slots[i] = folio;
		if (unlikely(!folio)) {
			p->fallbacks++;
			continue;
		}
		sum |= zf_folio_read(folio, off & (ZF_FOLIO_SIZE - 1));
		if (mm_atomics)
			zf_mm_inc_nr_ptes(mm);
		if (busy)
			zf_busy(iters);
	}
	/* counted here, not in get(): a per-fault memory increment is a loop-carried chain */
	st->gets += n;
	p->read_sum |= sum;
	if (busy) {
		p->get_ticks += get_ticks;
		p->empty_ticks += empty_ticks;
		p->timed_gets += timed_gets;
		p->timed_empties += timed_empties;
	}
}

/* four copies, so that neither --fault-ns 0 nor --mm-atomics off pays a test a fault */
static inline __attribute__((always_inline)) void
zf_fault_loop(struct zf_pass *p, zf_get_fn get)
{
	if (p->fault_iters && p->mm_atomics)
		zf_fault_loop_body(p, get, true, true);
	else if (p->fault_iters)
		zf_fault_loop_body(p, get, true, false);
	else if (p->mm_atomics)
		zf_fault_loop_body(p, get, false, true);
	else
		zf_fault_loop_body(p, get, false, false);
}

static inline __attribute__((always_inline)) void
zf_kernel_get(struct zf_pass *p, zf_get_fn get, unsigned long i)
{
	if (get) {
		struct zf_folio *folio = get(p->zs, p->mm, p->st);

		p->slots[i] = folio;
		if (unlikely(!folio))
			p->fallbacks++;
	}
}

/*
 * Real faults: one read every step of a fresh MADV_HUGEPAGE region, each a
 * huge-page read fault that maps the running kernel's huge zero folio, with
 * the emulated get() taken beside it (none for `native`).
 *
 * What get() adds to a real fault is timed where it happens, on a sample:
 * in every ZF_TIMED_EVERY faults, one has the ticks read around its get()
 * and another has them read around nothing (its get() then taken untimed),
 * so that the difference of the two means is get() alone, in the cache state
 * the real fault left. `native` times nothing in both: its difference is the
 * method's own zero. Every strategy pays the same two tick pairs per
 * ZF_TIMED_EVERY faults.
 */
static inline __attribute__((always_inline)) void
zf_kernel_fault_loop(struct zf_pass *p, zf_get_fn get)
{
	const volatile unsigned char *region = p->region;
	unsigned long i, n = p->faults_per_pass, step = p->step, off = 0, sum = 0;
	unsigned long timed_gets = 0, timed_empties = 0;
	uint64_t get_ticks = 0, empty_ticks = 0, t0, t1;

	for (i = 0; i < n; i++, off += step) {
		sum |= region[off];
		if (unlikely(i % ZF_TIMED_EVERY == 0)) {
			t0 = zf_tick();
			t1 = zf_tick();
			empty_ticks += t1 - t0;
			timed_empties++;
			zf_kernel_get(p, get, i);
		} else if (unlikely(i % ZF_TIMED_EVERY == ZF_TIMED_EVERY / 2)) {
			t0 = zf_tick();
			zf_kernel_get(p, get, i);
			t1 = zf_tick();
			get_ticks += t1 - t0;
			timed_gets++;
		} else {
			zf_kernel_get(p, get, i);
		}
	}
	p->st->gets += n;
	p->read_sum |= sum;
	p->get_ticks += get_ticks;
	p->empty_ticks += empty_ticks;
	p->timed_gets += timed_gets;
	p->timed_empties += timed_empties;
}

static inline __attribute__((always_inline)) void
zf_zap_loop_body(struct zf_pass *p, zf_put_fn put, bool mm_atomics)
{
	struct zf_shared *zs = p->zs;
	struct zf_mm *mm = p->mm;
	struct zf_stats *st = p->st;
	struct zf_folio **slots = p->slots;
	unsigned long i, n = p->faults_per_pass, zaps = 0;

	for (i = 0; i < n; i++) {
		if (!slots[i])
			continue;
		if (put)
			put(zs, mm, st);
		if (mm_atomics)
			zf_mm_dec_nr_ptes(mm);
		slots[i] = NULL;
		zaps++;
	}
	st->zaps += zaps;
}

static inline __attribute__((always_inline)) void
zf_zap_loop(struct zf_pass *p, zf_put_fn put)
{
	if (p->mm_atomics)
		zf_zap_loop_body(p, put, true);
	else
		zf_zap_loop_body(p, put, false);
}

/*
 * The fault and zap loops of strategy `name`, with get/put inlined. Each
 * starts on a 64-byte boundary, so that its loop sits the same way in the
 * instruction fetch windows whatever else the binary holds: at 16-byte
 * alignment, a harness change that moved these functions by 32 bytes took
 * mmflag from 0.57 to 0.85 ns a fault and persistent from 0.50 to 0.42 on
 * the same machine in alternating runs.
 */
#define ZF_LOOP_ALIGN	__attribute__((aligned(64)))
#define ZF_DEFINE_PASSES(name, get_fn, put_fn)				\
	static ZF_LOOP_ALIGN void name##_fault_pass(struct zf_pass *p)	\
	{								\
		zf_fault_loop(p, get_fn);				\
	}								\
	static ZF_LOOP_ALIGN void name##_kernel_fault_pass(struct zf_pass *p) \
	{								\
		zf_kernel_fault_loop(p, get_fn);			\
	}								\
	static ZF_LOOP_ALIGN void name##_zap_pass(struct zf_pass *p)	\
	{								\
		zf_zap_loop(p, put_fn);					\
	}

/* a new mm: no flags set, no page tables (fork/exec gives a fresh mm_struct) */
static inline void zf_mm_init(struct zf_mm *mm)
{
	atomic_store_explicit(&mm->flags, 0, memory_order_relaxed);
	atomic_store_explicit(&mm->pgtables_bytes, 0, memory_order_relaxed);
}

/* a private anonymous MAP_NORESERVE region of len, MADV_HUGEPAGE; 0 or -errno */
int zf_region_map(struct zf_pass *p, size_t len);
/* munmap() it: the kernel zaps every huge zero PMD */
int zf_region_unmap(struct zf_pass *p);

/* --profile: the passes with get/put called out of line (usemem.c) */
void zf_profiled_fault_pass(struct zf_pass *p, zf_get_fn get);
void zf_profiled_kernel_fault_pass(struct zf_pass *p, zf_get_fn get);
void zf_profiled_zap_pass(struct zf_pass *p, zf_put_fn put);

/* mmput(): the mm's last user exits */
void zf_mm_exit(const struct zf_strategy *s, struct zf_shared *zs, struct zf_mm *mm,
		struct zf_stats *st);

#endif
