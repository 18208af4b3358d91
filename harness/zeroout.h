/* SPDX-License-Identifier: GPL-2.0 */
/* `hzfbench zeroout` (--workload zeroout): mm-less users zeroing storage, see zeroout.c */
#ifndef HZF_ZEROOUT_H
#define HZF_ZEROOUT_H

int zf_zeroout_main(int argc, char **argv);

#endif
