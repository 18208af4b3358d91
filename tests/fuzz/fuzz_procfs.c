// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the parsers of /proc and /sys text: /proc/vmstat,
 * /proc/PID/smaps_rollup, a THP sysfs choice, a kernel .config, the kernel
 * release and /proc/cmdline (the huge zero folio probe's decision). The
 * first byte picks the parser, the rest is the file's text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kcheck.h"
#include "sysinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, out[32], why[512];
	uint64_t a, b;

	if (!size)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 6) {
	case 0:
		zf_vmstat_value(text, "thp_zero_page_alloc", &a);
		break;
	case 1:
		zf_smaps_rollup(text, &a, &b);
		break;
	case 2:
		zf_sysfs_choice(text, out, sizeof(out));
		if (strnlen(out, sizeof(out)) == sizeof(out))
			abort();
		break;
	case 3:
		zf_kconfig_value(text, "PERSISTENT_HUGE_ZERO_FOLIO");
		break;
	case 4:
		zf_kernel_strategy(text, "n");
		break;
	case 5:
		if (!zf_huge_zero_decide(0, 4096, text, why, sizeof(why)) &&
		    strnlen(why, sizeof(why)) == sizeof(why))
			abort();
		break;
	}
	free(text);
	return 0;
}
