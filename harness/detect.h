/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench detect --behaviour`: how the running kernel counts the huge zero
 * folio, told from what it does rather than from its config. Three
 * processes fault one huge zero page each, with caches dropped between them
 * (the shrinker frees a folio nobody holds), and /proc/vmstat's
 * thp_zero_page_alloc says when a fault had to allocate it again.
 */
#ifndef HZF_DETECT_H
#define HZF_DETECT_H

#include <stddef.h>
#include <stdint.h>

/* thp_zero_page_alloc at each step */
struct zf_detect_counts {
	uint64_t start;		/* before anything */
	uint64_t first;		/* after the first process's fault (it unmapped, stays alive) */
	uint64_t second;	/* caches dropped, then a second process's fault */
	uint64_t third;		/* the first exited, caches dropped, a third process's fault */
};

/*
 * The decision: "global" when the second fault allocated (the folio was
 * freed while an mm that had used it lived: counted per mapping), else
 * "mmflag" when the third did (freed once that mm exited), else
 * "persistent" (never freed). why says what each step saw.
 */
const char *zf_detect_decide(const struct zf_detect_counts *c, char *why, size_t len);

int zf_detect_main(int argc, char **argv);

#endif
