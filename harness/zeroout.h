/* SPDX-License-Identifier: GPL-2.0 */
/* `hzfbench zeroout` (--workload zeroout): mm-less users zeroing storage, see zeroout.c */
#ifndef HZF_ZEROOUT_H
#define HZF_ZEROOUT_H

#include <stdint.h>

int zf_zeroout_main(int argc, char **argv);

/*
 * --sink file: each task's stretch of the file, in bytes, a multiple of
 * zero_size (256 MiB or less), and into *stretches how many distinct ones
 * the tasks write round (task i the (i mod stretches)-th): ntasks of them
 * where budget bytes hold them, fewer where not (tasks then share, and the
 * file stays within budget whatever the count of tasks), never under one.
 */
uint64_t zf_zeroout_span(uint64_t budget, int ntasks, uint64_t zero_size, int *stretches);

#endif
