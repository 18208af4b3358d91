// SPDX-License-Identifier: GPL-2.0
/*
 * percpu: what the kernel's usual answer to a hot refcount, a percpu_ref
 * (lib/percpu-refcount.c), would have done for the huge zero folio. No
 * kernel counted it this way; it is here to answer "would percpu_ref have
 * done as well as mmflag?".
 *
 * In percpu mode a fault adds one to a count of its own task's (the kernel:
 * this_cpu_inc() on the fault's CPU; here a page per task, first touched by
 * that task, so on its node), and an unmap takes one off, neither touching
 * a shared line but the mode word, which is only read. The atomic count
 * holds a large bias meanwhile, so that nothing can take it to zero. The
 * shrinker, to free the folio, must first switch to atomic mode
 * (percpu_ref_switch_to_atomic): it marks the switch, waits a grace period,
 * folds every task's count into the atomic count and takes the bias out;
 * then the count is exact, and the folio is freed as `global` frees it, when
 * only the shrinker's reference is left. If users remain, it switches back
 * (percpu_ref_switch_to_percpu). A fault that finds no folio allocates one
 * as `global` does and switches to percpu mode.
 *
 * The grace period, emulated: the kernel's readers run with preemption off
 * and call_rcu() waits until every CPU has scheduled. Here each task marks
 * itself inside a get or put with a plain store; the switch is a store of
 * the mode, then membarrier(MEMBARRIER_CMD_GLOBAL), which makes every
 * running thread pass a full barrier (a synchronize_rcu() in the kernel, so
 * it costs milliseconds, as the kernel's grace period does), then a wait for
 * every task to be outside. A task's plain store and the membarrier are the
 * two halves of the fence the reader never pays for, as in liburcu's
 * membarrier flavour.
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "huge_zero.h"
#include "usemem.h"

#define PCPU_BIAS	(1L << 40)	/* PERCPU_COUNT_BIAS */

/* one task's count, alone on its page */
struct pcpu_count {
	_Atomic long count;	/* references this task took minus those it dropped */
	_Atomic int inside;	/* in a get or a put: the grace period waits */
};

static _Atomic unsigned int pcpu_generation;	/* a new one for each init */

/* this task's count in zs, found once per task and init */
static __thread struct {
	unsigned int gen;
	struct pcpu_count *c;
} pcpu_self;

static int membarrier(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

/*
 * Not at the page's start: the emulated fault reads the folio at an offset
 * that is a multiple of 4 KiB, and a load 4 KiB apart from a store just made
 * waits for it on x86 (4K aliasing), a cost of our layout, not of percpu_ref.
 */
#define PCPU_OFFSET	1344

static inline struct pcpu_count *pcpu_slot(struct zf_shared *zs, unsigned int i)
{
	return (struct pcpu_count *)(zs->pcpu + (size_t)i * ZF_PCPU_STRIDE + PCPU_OFFSET);
}

/* a task's first get or put of this init: take a page (NULL: none left) */
static __attribute__((noinline)) struct pcpu_count *pcpu_claim(struct zf_shared *zs)
{
	unsigned int i = atomic_fetch_add_explicit(&zs->pcpu_used, 1, memory_order_relaxed);
	struct pcpu_count *c = i < zs->pcpu_nr ? pcpu_slot(zs, i) : NULL;

	if (!c)
		atomic_fetch_sub_explicit(&zs->pcpu_used, 1, memory_order_relaxed);
	pcpu_self.gen = zs->pcpu_gen;
	pcpu_self.c = c;
	return c;
}

/* rcu_read_lock(): NULL when every page is taken (the task counts atomically) */
static inline __attribute__((always_inline)) struct pcpu_count *pcpu_enter(struct zf_shared *zs)
{
	struct pcpu_count *c = pcpu_self.c;

	if (unlikely(pcpu_self.gen != zs->pcpu_gen))
		c = pcpu_claim(zs);
	if (likely(c)) {
		atomic_store_explicit(&c->inside, 1, memory_order_relaxed);
		atomic_signal_fence(memory_order_seq_cst);	/* the switch's membarrier is the rest */
	}
	return c;
}

/* rcu_read_unlock() */
static inline void pcpu_exit(struct pcpu_count *c)
{
	if (likely(c))
		atomic_store_explicit(&c->inside, 0, memory_order_release);
}

static inline bool pcpu_counting(struct zf_shared *zs, const struct pcpu_count *c)
{
	return c && atomic_load_explicit(&zs->pcpu_mode, memory_order_relaxed) == ZF_PCPU_PERCPU;
}

/* this_cpu_add(): one writer, its own task */
static inline void pcpu_add(struct pcpu_count *c, long v)
{
	atomic_store_explicit(&c->count, atomic_load_explicit(&c->count, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

/* percpu_ref_switch_to_percpu(), from atomic mode: the bias first */
static void pcpu_to_percpu(struct zf_shared *zs, struct zf_stats *st)
{
	int atomic_mode = ZF_PCPU_ATOMIC;

	if (!zs->pcpu)
		return;
	atomic_fetch_add_explicit(&zs->refcount, PCPU_BIAS, memory_order_seq_cst);
	st->counter_touches++;
	if (!atomic_compare_exchange_strong_explicit(&zs->pcpu_mode, &atomic_mode, ZF_PCPU_PERCPU,
			memory_order_seq_cst, memory_order_relaxed)) {
		atomic_fetch_sub_explicit(&zs->refcount, PCPU_BIAS, memory_order_seq_cst);
		st->counter_touches++;
	}
}

/* atomic mode (no folio yet, the shrinker switching, or no page): as global */
ZF_GET_CODE
static __attribute__((noinline)) struct zf_folio *percpu_get_atomic(struct zf_shared *zs,
								   struct zf_stats *st)
{
	unsigned long allocs = st->allocs;

	if (unlikely(!zf_get_huge_zero_folio(zs, st)))
		return NULL;
	if (unlikely(st->allocs != allocs))
		pcpu_to_percpu(zs, st);	/* a new folio: count per task again */
	return zf_huge_zero_folio(zs);
}

/* percpu_ref_tryget_live(), or get_huge_zero_folio() in atomic mode */
ZF_GET_CODE
static inline struct zf_folio *percpu_get(struct zf_shared *zs, struct zf_mm *mm,
					  struct zf_stats *st)
{
	struct pcpu_count *c = pcpu_enter(zs);

	(void)mm;
	if (likely(pcpu_counting(zs, c))) {
		pcpu_add(c, 1);
		pcpu_exit(c);
		st->ref_gets++;
		return zf_huge_zero_folio(zs);	/* in percpu mode there is one, held */
	}
	pcpu_exit(c);
	return percpu_get_atomic(zs, st);
}

ZF_PUT_CODE
static __attribute__((noinline)) void percpu_put_atomic(struct zf_shared *zs,
							struct zf_stats *st)
{
	zf_put_huge_zero_folio(zs, st);
}

/* percpu_ref_put() */
ZF_PUT_CODE
static inline void percpu_unref(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st)
{
	struct pcpu_count *c = pcpu_enter(zs);

	(void)mm;
	if (likely(pcpu_counting(zs, c))) {
		pcpu_add(c, -1);
		pcpu_exit(c);
		st->ref_puts++;
		return;
	}
	pcpu_exit(c);
	percpu_put_atomic(zs, st);
}

/* a huge zero PMD zapped */
ZF_PUT_CODE
static inline void percpu_put(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st)
{
	st->puts++;
	percpu_unref(zs, mm, st);
}

static int percpu_init(struct zf_shared *zs, struct zf_stats *st)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int have = membarrier(MEMBARRIER_CMD_QUERY);

	(void)st;
	if (have < 0 || !(have & MEMBARRIER_CMD_GLOBAL)) {
		fprintf(stderr, "hzfbench: percpu: membarrier(MEMBARRIER_CMD_GLOBAL) is not "
			"available: no grace period to switch modes with\n");
		return -ENOSYS;
	}
	/* a page per task; MAP_NORESERVE: a page no task uses is never made */
	zs->pcpu_nr = (unsigned int)(cpus > 0 ? cpus : 1) * 2 + 64;
	zs->pcpu = mmap(NULL, (size_t)zs->pcpu_nr * ZF_PCPU_STRIDE, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (zs->pcpu == MAP_FAILED) {
		zs->pcpu = NULL;
		zs->pcpu_nr = 0;
		return -errno;
	}
	zs->pcpu_gen = atomic_fetch_add(&pcpu_generation, 1) + 1;
	return 0;
}

/* every task's count into the atomic count, and the bias out; mode must not be percpu */
static void pcpu_fold(struct zf_shared *zs, struct zf_stats *st)
{
	unsigned int i, used = atomic_load(&zs->pcpu_used);
	long sum = 0;

	for (i = 0; i < used && i < zs->pcpu_nr; i++) {
		struct pcpu_count *c = pcpu_slot(zs, i);

		sum += atomic_exchange_explicit(&c->count, 0, memory_order_relaxed);
	}
	atomic_fetch_add_explicit(&zs->refcount, sum - PCPU_BIAS, memory_order_seq_cst);
	st->counter_touches++;
}

/* the grace period: every task that saw percpu mode is out of its get or put */
static int pcpu_grace(struct zf_shared *zs)
{
	unsigned int i, used;

	if (membarrier(MEMBARRIER_CMD_GLOBAL))
		return -errno;
	used = atomic_load(&zs->pcpu_used);
	for (i = 0; i < used && i < zs->pcpu_nr; i++) {
		struct pcpu_count *c = pcpu_slot(zs, i);
		unsigned long spins = 0;

		while (atomic_load_explicit(&c->inside, memory_order_acquire))
			if (++spins % 1024 == 0)
				sched_yield();	/* a descheduled task, inside */
	}
	return 0;
}

static unsigned long percpu_shrink_count(struct zf_shared *zs)
{
	if (!zf_huge_zero_folio(zs))
		return 0;
	/* counted per task, nobody knows the count without switching: maybe */
	if (atomic_load(&zs->pcpu_mode) == ZF_PCPU_PERCPU)
		return ZF_FOLIO_PAGES;
	return zf_huge_zero_shrink_count(zs);
}

static unsigned long percpu_shrink_scan(struct zf_shared *zs, struct zf_stats *st)
{
	int mode = ZF_PCPU_PERCPU;
	unsigned long freed;

	if (!atomic_compare_exchange_strong(&zs->pcpu_mode, &mode, ZF_PCPU_SWITCHING))
		/* atomic already (no folio yet, or no page for a task): as global; switching: busy */
		return mode == ZF_PCPU_ATOMIC ? zf_huge_zero_shrink_scan(zs, st) : 0;
	zs->pcpu_switches++;
	if (pcpu_grace(zs)) {
		/* no grace period: back to percpu mode, nothing folded, nothing freed */
		atomic_store(&zs->pcpu_mode, ZF_PCPU_PERCPU);
		return 0;
	}
	pcpu_fold(zs, st);
	freed = zf_huge_zero_shrink_scan(zs, st);
	/* users left, or a fault allocated anew meanwhile: per task again */
	if (zf_huge_zero_folio(zs)) {
		atomic_fetch_add_explicit(&zs->refcount, PCPU_BIAS, memory_order_seq_cst);
		st->counter_touches++;
		atomic_store(&zs->pcpu_mode, ZF_PCPU_PERCPU);
	} else {
		atomic_store(&zs->pcpu_mode, ZF_PCPU_ATOMIC);
	}
	return freed;
}

/* at rest: fold, check as global does, and leave the mode as it was */
static int percpu_check(struct zf_shared *zs, const struct zf_stats *total, char *why,
			size_t len)
{
	struct zf_stats scratch = { 0 };
	int was = atomic_load(&zs->pcpu_mode), err;

	if (was == ZF_PCPU_SWITCHING) {
		snprintf(why, len, "a mode switch was left unfinished");
		return -EPROTO;
	}
	if (was == ZF_PCPU_PERCPU) {
		atomic_store(&zs->pcpu_mode, ZF_PCPU_SWITCHING);
		pcpu_fold(zs, &scratch);
	}
	err = zf_huge_zero_check_mapped(zs, total, why, len);
	if (was == ZF_PCPU_PERCPU) {
		atomic_fetch_add(&zs->refcount, PCPU_BIAS);
		atomic_store(&zs->pcpu_mode, ZF_PCPU_PERCPU);
	}
	return err;
}

ZF_DEFINE_PASSES(percpu, percpu_get, percpu_put)

const struct zf_strategy zf_strategy_percpu = {
	.name		= "percpu",
	.summary	= "a percpu_ref: a count per task, atomic only while the shrinker switches (never in a kernel)",
	.model		= ZF_MODEL_NONE,
	.style		= { .colour = "#CC79A7", .dash = 5, .point = 11 },
	.init		= percpu_init,
	.get		= percpu_get,
	.put		= percpu_put,
	.mm_exit	= NULL,
	.pin		= percpu_get,
	.unpin		= percpu_unref,
	.shrink_count	= percpu_shrink_count,
	.shrink_scan	= percpu_shrink_scan,
	.check		= percpu_check,
	.fault_pass	= percpu_fault_pass,
	.kernel_fault_pass = percpu_kernel_fault_pass,
	.zap_pass	= percpu_zap_pass,
};
