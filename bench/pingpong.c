// SPDX-License-Identifier: GPL-2.0
/* Cache-line ping-pong: see pingpong.h. */
#include <time.h>

#include "pingpong.h"
#include "tick.h"

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

uint64_t zf_pingpong_side(struct zf_pingpong *pp, int side)
{
	/* side 0 owns the even values, side 1 the odd ones: 2 hand-offs a round trip */
	uint64_t i, want = side, n = 2 * pp->rounds, t0 = 0;

	if (!side) {
		atomic_store_explicit(&pp->line, 0, memory_order_relaxed);
		atomic_store_explicit(&pp->go, 1, memory_order_release);
		t0 = zf_now_ns();
	} else {
		while (!atomic_load_explicit(&pp->go, memory_order_acquire))
			relax();
	}
	for (i = want; i < n; i += 2) {
		if (pp->method == ZF_PP_CAS) {
			uint64_t expect = i;

			/* each try is a locked RMW on the line, as an inc_not_zero is */
			while (!atomic_compare_exchange_weak_explicit(&pp->line, &expect, i + 1,
					memory_order_acq_rel, memory_order_relaxed))
				expect = i;
		} else {
			while (atomic_load_explicit(&pp->line, memory_order_acquire) != i)
				;
			atomic_store_explicit(&pp->line, i + 1, memory_order_release);
		}
	}
	if (side)
		return 0;
	/* the last hand-off back: side 1 wrote n */
	while (atomic_load_explicit(&pp->line, memory_order_acquire) != n)
		relax();
	atomic_store_explicit(&pp->go, 0, memory_order_relaxed);
	return zf_now_ns() - t0;
}
