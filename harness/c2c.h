/* SPDX-License-Identifier: GPL-2.0 */
/* `hzfbench c2c`: the core-to-core hand-off latency matrix (c2c.c). */
#ifndef HZF_C2C_H
#define HZF_C2C_H

int zf_c2c_main(int argc, char **argv);

#endif
