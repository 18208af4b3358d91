/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cycle-scale timestamp for timing a few instructions inside the fault
 * loop, fenced so that what lies between two reads is what gets timed: the
 * TSC on x86 (lfence on both sides), the virtual counter on arm64 (isb), the
 * monotonic clock elsewhere. Its unit is converted to ns by the caller
 * against CLOCK_MONOTONIC over the same stretch.
 */
#ifndef HZF_TICK_H
#define HZF_TICK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns: for whole phases and repetitions, not instructions */
static inline uint64_t zf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline __attribute__((always_inline)) uint64_t zf_tick(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
#endif
}

/*
 * The same counter unfenced, for a deadline spin (zf_busy()), where the
 * platform has one: ZF_HAVE_COUNTER is then defined, and ZF_COUNTER_NAME.
 */
#if defined(__x86_64__) || defined(__i386__)
#define ZF_HAVE_COUNTER 1
#define ZF_COUNTER_NAME "tsc"
static inline __attribute__((always_inline)) uint64_t zf_counter(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#elif defined(__aarch64__)
#define ZF_HAVE_COUNTER 1
#define ZF_COUNTER_NAME "cntvct"
static inline __attribute__((always_inline)) uint64_t zf_counter(void)
{
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#endif

#endif
