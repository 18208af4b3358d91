// SPDX-License-Identifier: GPL-2.0
/* The usemem workload's out-of-line parts: see usemem.h. */
#include "usemem.h"

void zf_mm_exit(const struct zf_strategy *s, struct zf_shared *zs, struct zf_mm *mm,
		struct zf_stats *st)
{
	st->mm_exits++;
	if (s->mm_exit)
		s->mm_exit(zs, mm, st);
}
