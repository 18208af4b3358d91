// SPDX-License-Identifier: GPL-2.0
/* Two tasks contending for one line with work between: see contend.h. */
#include <stdbool.h>

#include "contend.h"
#include "tick.h"
#include "usemem.h"

#define ID_MASK		((1ULL << ZF_CONTEND_ID_BITS) - 1)

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* both sides arrive, `target` arrivals in all since batch 0: two per barrier */
static void barrier(struct zf_contend *c, unsigned long target)
{
	atomic_fetch_add_explicit(&c->arrived, 1, memory_order_acq_rel);
	while (atomic_load_explicit(&c->arrived, memory_order_acquire) < target)
		relax();
}

static void snapshot(struct zf_contend_count *out, uint64_t t0, unsigned long ops,
		     unsigned long retries, unsigned long transfers)
{
	out->ns = zf_now_ns() - t0;
	out->ops = ops;
	out->retries = retries;
	out->transfers = transfers;
}

void zf_contend_batch(struct zf_contend *c, int side, unsigned long batch,
		      struct zf_contend_count *out)
{
	const uint64_t me = side + 1;
	unsigned long i, n = c->ops, iters = c->work_iters, done = 0, retries = 0, moved = 0;
	bool alone = false;
	uint64_t t0;

	/* the other side is past the last batch's end: the lines are side 0's to reset */
	if (!side) {
		atomic_store_explicit(&c->line, 1ULL << ZF_CONTEND_ID_BITS, memory_order_relaxed);
		atomic_store_explicit(&c->ended, 0, memory_order_relaxed);
	}
	barrier(c, 2 * (2 * batch + 1));
	t0 = zf_now_ns();
	for (i = 0; i < n; i++) {
		uint64_t old;

		if (unlikely(!alone && atomic_load_explicit(&c->ended, memory_order_relaxed))) {
			snapshot(out, t0, done, retries, moved);
			alone = true;
		}
		/* atomic_inc_not_zero() (huge_zero.h), the writer kept beside the count */
		old = atomic_load_explicit(&c->line, memory_order_relaxed);
		for (;;) {
			if (!(old >> ZF_CONTEND_ID_BITS))
				goto work;
			if (atomic_compare_exchange_weak_explicit(&c->line, &old,
					((old >> ZF_CONTEND_ID_BITS) + 1) << ZF_CONTEND_ID_BITS | me,
					memory_order_seq_cst, memory_order_relaxed))
				break;
			retries++;
		}
		done++;
		if ((old & ID_MASK) && (old & ID_MASK) != me)
			moved++;
work:
		zf_busy(iters);
	}
	if (!alone) {
		snapshot(out, t0, done, retries, moved);
		atomic_store_explicit(&c->ended, 1, memory_order_relaxed);
	}
	out->done = done;
	barrier(c, 2 * (2 * batch + 2));
	out->line_ops = side ? 0 : (atomic_load_explicit(&c->line, memory_order_relaxed) >>
				    ZF_CONTEND_ID_BITS) - 1;
}
