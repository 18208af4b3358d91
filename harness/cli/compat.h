/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench usemem`: a results folder's figures in the units of
 * vm-scalability's usemem, so that numbers from old reports can be held
 * against ours. usemem counts a task's "bytes" as SIZE/8 at the allocation
 * plus 8 per access, and its throughput as those bytes, in KiB, over the
 * task's microseconds; it prints one line per task, then the time to free.
 */
#ifndef HZF_COMPAT_H
#define HZF_COMPAT_H

#include <stdio.h>

/* usemem's bytes for one task's lifetime of size bytes read every step */
unsigned long long zf_usemem_bytes(unsigned long long size, unsigned long long step);
/* its KB/s: bytes in KiB per second of usecs, as usemem truncates it; 0 when usecs is 0 */
unsigned long long zf_usemem_kbps(unsigned long long bytes, unsigned long long usecs);
/* the median repetition of DIR's only configuration, one usemem line per task; 0 or -errno */
int zf_usemem_report(const char *dir, unsigned long long size, unsigned long long step,
		     FILE *out);

#endif
