/* SPDX-License-Identifier: GPL-2.0 */
/* qemu's argument vector as one line, for the vm tests to compare */
#ifndef HZF_TEST_VM_ARGV_H
#define HZF_TEST_VM_ARGV_H

#include <stdio.h>

#include "../../harness/vm/vm.h"

/* a's words joined by spaces into out */
static inline void joined(const struct zf_vm_argv *a, char *out, size_t len)
{
	size_t n = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < a->argc && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? " " : "", a->argv[i]);
}

#endif
