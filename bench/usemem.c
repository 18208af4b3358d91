// SPDX-License-Identifier: GPL-2.0
/* The usemem workload's out-of-line parts: see usemem.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>

#include "usemem.h"

/* set once by zf_busy_setup(), before any work is sized: see usemem.h */
static bool busy_on_counter;
static const char *busy_unit;

__attribute__((noinline, aligned(64))) void zf_busy(unsigned long n)
{
	if (!n)		/* no work: not even the counter's reads (c2c --contention at 0) */
		return;
#ifdef ZF_HAVE_COUNTER
	if (busy_on_counter) {
		/*
		 * fenced: the deadline starts once what came before (the get's
		 * locked operation) has completed, as a fault's next locked
		 * operation (the PMD lock) waits for it; an unfenced read ran
		 * ahead of a contended get and hid its miss in the work
		 */
		uint64_t end = zf_tick() + n;

		while ((int64_t)(zf_counter() - end) < 0)
			;
		return;
	}
	(void)zf_tick();	/* the loop too starts once the get has completed */
#endif
	while (n--)
		__asm__ __volatile__("" : "+r"(n));
}

#ifdef ZF_HAVE_COUNTER
/* the TSC counts at one rate whatever the core's speed, and in every C-state */
static bool counter_is_steady(void)
{
	bool steady = false;
#if defined(__x86_64__) || defined(__i386__)
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		steady = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
		break;
	}
	if (f)
		fclose(f);
#elif defined(__aarch64__)
	uint64_t hz;

	/* the architected counter is steady; fine enough to measure out 50 ns? */
	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
	steady = hz >= 50000000;
#endif
	return steady;
}
#endif

const char *zf_busy_setup(void)
{
	const char *env;

	if (busy_unit)
		return busy_unit;
	env = getenv("HZF_BUSY");
#ifdef ZF_HAVE_COUNTER
	busy_on_counter = !(env && !strcmp(env, "loop")) && counter_is_steady();
	busy_unit = busy_on_counter ? ZF_COUNTER_NAME : "loop";
#else
	(void)env;
	busy_unit = "loop";
#endif
	return busy_unit;
}

/*
 * The region starts on a 2 MiB boundary, so that every read maps a PMD of
 * its own task's region. Before 6.7 the kernel does not align anonymous
 * mmaps: a thread's region could then merge with its neighbour's VMA, a
 * huge PMD straddle the two, and either's munmap split it and flush the TLB
 * of every CPU the mm runs on.
 */
#define ZF_REGION_ALIGN	(2UL << 20)

int zf_region_map(struct zf_pass *p, size_t len)
{
	size_t pad = ZF_REGION_ALIGN, head;
	unsigned char *map = mmap(NULL, len + pad, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	unsigned char *region;

	if (map == MAP_FAILED)
		return -errno;
	head = (ZF_REGION_ALIGN - (uintptr_t)map % ZF_REGION_ALIGN) % ZF_REGION_ALIGN;
	region = map + head;
	if ((head && munmap(map, head)) ||
	    (pad - head && munmap(region + len, pad - head)) ||
	    madvise(region, len, MADV_HUGEPAGE)) {
		int err = -errno;

		munmap(map, len + pad);
		return err;
	}
	p->region = region;
	p->region_len = len;
	return 0;
}

int zf_region_unmap(struct zf_pass *p)
{
	int err = munmap((void *)p->region, p->region_len) ? -errno : 0;

	p->region = NULL;
	return err;
}

void zf_mm_exit(const struct zf_strategy *s, struct zf_shared *zs, struct zf_mm *mm,
		struct zf_stats *st)
{
	st->mm_exits++;
	/* check_mm(): an mm freed with page tables still counted is a leak */
	if (atomic_load_explicit(&mm->pgtables_bytes, memory_order_relaxed))
		st->mm_tables_left++;
	if (s->mm_exit)
		s->mm_exit(zs, mm, st);
}

/*
 * --profile: the same loops, calling get() and put() out of line through the
 * ops table, as the kernel calls get_huge_zero_folio(): a sample's address
 * then tells whether it fell in the strategy (strategy.h's sections).
 */
void zf_profiled_fault_pass(struct zf_pass *p, zf_get_fn get)
{
	zf_fault_loop(p, get);
}

void zf_profiled_kernel_fault_pass(struct zf_pass *p, zf_get_fn get)
{
	zf_kernel_fault_loop(p, get);
}

void zf_profiled_zap_pass(struct zf_pass *p, zf_put_fn put)
{
	zf_zap_loop(p, put);
}
