/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct zf_strategy: one way of counting references to the huge zero folio.
 *
 * Each strategy is one file (strategy_<name>.c) ending in one ops table, listed
 * once in strategy.c. The measured loops (usemem.h) are instantiated per
 * strategy so that its get()/put() are inlined: the ops table is where a
 * strategy is described, not a call the fault loop pays for.
 */
#ifndef HZF_STRATEGY_H
#define HZF_STRATEGY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "folio.h"

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

/*
 * Per-task counters. Every task has its own, on lines of its own (where the
 * runner places them), so keeping them costs a plain increment and never
 * moves a shared line.
 */
struct zf_stats {
	unsigned long gets;		/* faults taken: get() calls, counted by the caller */
	unsigned long puts;		/* put() calls: huge zero PMDs zapped with a put */
	unsigned long zaps;		/* slots torn down, put or not */
	unsigned long mm_exits;		/* mm_exit() calls */
	unsigned long ref_gets;		/* global references taken */
	unsigned long ref_puts;		/* global references dropped */
	unsigned long counter_touches;	/* atomic RMWs on the global counter's line */
	unsigned long cas_retries;	/* inc_not_zero CAS attempts that lost */
	unsigned long allocs;		/* folios allocated (zeroed) */
	unsigned long frees;		/* folios freed (poisoned) */
	unsigned long alloc_races_lost;	/* allocations freed because another won */
	unsigned long alloc_failures;	/* no folio could be allocated */
	unsigned long shrinks;		/* folios freed by the shrinker */
	unsigned long alloc_ns;		/* time spent allocating (zeroing 2 MiB) */
	unsigned long mm_tables_left;	/* mms that exited with page-table bytes counted */
	unsigned long broken;		/* invariant violations seen at the time */
};

/*
 * One mm: its flag word alone on its own lines (MMF_* bits), then its
 * page-table bytes on lines of their own, as far from the flags as the
 * kernel's mm_struct keeps pgtables_bytes from flags: every fault adds a
 * table's bytes and every zap takes them off (--mm-atomics), so in a thread
 * mm these are the lines every task writes, whatever the strategy.
 */
struct zf_mm {
	_Atomic unsigned long flags __attribute__((aligned(ZF_LINE)));
	_Atomic long pgtables_bytes __attribute__((aligned(ZF_LINE)));
};

/* what a deposited page table adds to pgtables_bytes: PTRS_PER_PTE * sizeof(pte_t) */
#define ZF_PTE_TABLE_BYTES	4096L

#define ZF_MMF_HUGE_ZERO_FOLIO	0UL	/* mm has ever used the global huge zero folio */

/*
 * State every task shares. Which lines are meant to be shared:
 * lines 0-1, the global reference count: every `global` fault writes it;
 * lines 2-3, the folio pointer: read by every fault, written only when the
 * folio is (re)allocated or shrunk; then the pool, touched on allocation only.
 */
struct zf_shared {
	_Atomic long refcount __attribute__((aligned(ZF_LINE)));
	struct zf_folio *_Atomic folio __attribute__((aligned(ZF_LINE)));
	_Atomic int broken __attribute__((aligned(ZF_LINE)));
	struct zf_folio_pool pool;
	/*
	 * percpu only (strategy_percpu.c): where references are counted now
	 * (ZF_PCPU_*), read by every fault and written only by mode switches;
	 * then a page of counts per task, made at init, touched first by the
	 * task it belongs to (so it lies on that task's node).
	 */
	_Atomic int pcpu_mode __attribute__((aligned(ZF_LINE)));
	_Atomic unsigned int pcpu_used __attribute__((aligned(ZF_LINE)));
	unsigned int pcpu_nr, pcpu_gen;
	unsigned char *pcpu;
	unsigned long pcpu_switches;	/* to atomic mode and back: the shrinker's */
};

#define ZF_PCPU_ATOMIC		0	/* counted in refcount, as global does */
#define ZF_PCPU_PERCPU		1	/* counted per task; refcount holds a bias */
#define ZF_PCPU_SWITCHING	2	/* the shrinker is folding the counts in */
#define ZF_PCPU_STRIDE		4096	/* one page of counts per task */

typedef struct zf_folio *(*zf_get_fn)(struct zf_shared *zs, struct zf_mm *mm,
				      struct zf_stats *st);
typedef void (*zf_put_fn)(struct zf_shared *zs, struct zf_mm *mm, struct zf_stats *st);

struct zf_pass;

/*
 * How `hzfbench model` predicts a strategy's cost (harness/analyze/model.c,
 * docs/model.md): where its get() takes a reference, if it takes one.
 */
enum zf_model_kind {
	ZF_MODEL_NONE = 0,	/* no prediction: the model has no term for it */
	ZF_MODEL_SHARED,	/* one shared counter: a get every fault, a put every zap */
	ZF_MODEL_PER_MM,	/* a get at an mm's first fault, a put at its exit */
	ZF_MODEL_UNCOUNTED,	/* never counted: the fault's own work alone */
};

/*
 * How every chart draws a strategy (plots/style.gp): a colour "#rrggbb", a
 * gnuplot dash type and point type, apart from every other strategy's.
 */
struct zf_chart_style {
	const char *colour;
	int dash;
	int point;
};

struct zf_strategy {
	const char *name;
	const char *summary;
	enum zf_model_kind model;
	struct zf_chart_style style;
	/* set up zs (pool already made); 0 or -errno; NULL: nothing to set up */
	int (*init)(struct zf_shared *zs, struct zf_stats *st);
	/* one read fault of mm: the folio to map, or NULL (fall back) */
	zf_get_fn get;
	/* one huge zero PMD zapped; NULL: zapping touches nothing */
	zf_put_fn put;
	/* the mm's last user left; NULL: nothing to do */
	zf_put_fn mm_exit;
	/*
	 * A user with no mm (the block layer zeroing, seeds 005/006): the folio
	 * largest_zero_folio() would give it, held until the request completes,
	 * and its release then (mm is NULL). pin NULL: no such user is served.
	 */
	zf_get_fn pin;
	zf_put_fn unpin;
	/* shrinker count/scan; NULL: no shrinker is registered */
	unsigned long (*shrink_count)(struct zf_shared *zs);
	unsigned long (*shrink_scan)(struct zf_shared *zs, struct zf_stats *st);
	/* at rest (every mm exited): 0, or -EPROTO with the broken invariant in why;
	 * NULL: nothing is counted, so nothing can be broken */
	int (*check)(struct zf_shared *zs, const struct zf_stats *total,
		     char *why, size_t len);
	/*
	 * The measured loops with this strategy's get/put inlined (usemem.h):
	 * emulated faults (NULL: the strategy exists only on real faults), real
	 * kernel faults with get taken beside each, and the zap of the page table.
	 */
	void (*fault_pass)(struct zf_pass *p);
	void (*kernel_fault_pass)(struct zf_pass *p);
	void (*zap_pass)(struct zf_pass *p);
};

/*
 * A strategy's get() and its reference-dropping side (put, mm_exit) keep their
 * out-of-line copies in sections of their own, so that a sampling profile
 * (--profile) can tell their instructions from the rest by address, as perf
 * tells get_huge_zero_page() from the rest of the fault in seed 007.
 */
#define ZF_GET_CODE	__attribute__((section("hzf_get"), used))
#define ZF_PUT_CODE	__attribute__((section("hzf_put"), used))
extern const char __start_hzf_get[], __stop_hzf_get[];
extern const char __start_hzf_put[], __stop_hzf_put[];

extern const struct zf_strategy zf_strategy_global;
extern const struct zf_strategy zf_strategy_mmflag;
extern const struct zf_strategy zf_strategy_persistent;
extern const struct zf_strategy zf_strategy_percpu;
extern const struct zf_strategy zf_strategy_native;

/*
 * NULL-terminated, in the order they are listed to users: the table of
 * strategy.c, then any zf_strategy_register() added
 */
extern const struct zf_strategy *const *zf_strategies;

const struct zf_strategy *zf_strategy_find(const char *name);
/*
 * The first strategy of model kind k, in the list's order (NULL: none): the
 * one a measure is held against, as persistent's fault counts nothing and
 * global's counts on one shared line.
 */
const struct zf_strategy *zf_strategy_first_of(enum zf_model_kind k);
/* its name, "" for NULL: a name no row has */
const char *zf_strategy_name(const struct zf_strategy *s);
/*
 * s after the others, for a binary that brings a strategy of its own (a
 * test's, tests/strategy/): 0, -EEXIST for a name taken, -ENOMEM.
 * Before any thread starts: the list is not locked.
 */
int zf_strategy_register(const struct zf_strategy *s);
/*
 * "not a strategy (global, mmflag, ...)": what an error names, from the
 * table, the strategies for which has() holds (NULL: all). Into buf.
 */
const char *zf_strategy_not_one(char *buf, size_t len, const char *what,
				bool (*has)(const struct zf_strategy *s));
void zf_stats_add(struct zf_stats *sum, const struct zf_stats *st);

/* shared state: pool of nr_folios, reference count 0, no folio */
int zf_shared_init(struct zf_shared *zs, unsigned int nr_folios);
/* free whatever folio is left and the pool (at the end of a run) */
void zf_shared_fini(struct zf_shared *zs);

#endif
