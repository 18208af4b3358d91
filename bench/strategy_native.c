// SPDX-License-Identifier: GPL-2.0
/*
 * native: the running kernel alone. Only real faults (--fault kernel): no
 * emulated count is taken beside them, so this is the baseline the other
 * strategies' additions are read against. The kernel's own strategy is in
 * meta.json (kernel_strategy).
 */
#include "usemem.h"

static void native_kernel_fault_pass(struct zf_pass *p)
{
	zf_kernel_fault_loop(p, NULL);
}

static void native_zap_pass(struct zf_pass *p)
{
	zf_zap_loop(p, NULL);
}

const struct zf_strategy zf_strategy_native = {
	.name		= "native",
	.summary	= "the running kernel alone: real faults with nothing emulated beside them",
	.model		= ZF_MODEL_NONE,
	.style		= { .colour = "#000000", .dash = 3, .point = 13 },
	.init		= NULL,
	.get		= NULL,
	.put		= NULL,
	.mm_exit	= NULL,
	.shrink_count	= NULL,
	.shrink_scan	= NULL,
	.check		= NULL,
	.fault_pass	= NULL,
	.kernel_fault_pass = native_kernel_fault_pass,
	.zap_pass	= native_zap_pass,
};
