// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the parsers of /proc and /sys text: /proc/vmstat,
 * /proc/PID/smaps_rollup, a THP sysfs choice, a kernel .config, the kernel
 * release and /proc/cmdline (the huge zero folio probe's decision),
 * /proc/stat, /proc/PID/sched and /proc/PID/stat (doctor and the runner).
 * The first byte picks the parser, the rest is the file's text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpustat.h"
#include "doctor.h"
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
	switch (data[0] % 9) {
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
	case 6: {
		struct zf_cpustat st;
		double steal, idle;
		int cpu = 1;

		if (!zf_cpustat_parse(text, &st)) {
			zf_cpustat_share(&st, &st, NULL, 0, &steal, &idle);
			zf_cpustat_share(&st, &st, &cpu, 1, &steal, &idle);
		}
		zf_cpustat_free(&st);
		break;
	}
	case 7:
		zf_proc_sched_value(text, "se.nr_migrations", &a);
		break;
	case 8: {
		char state, comm[32];
		int cpu;

		if (!zf_proc_stat_state(text, &state, &cpu, comm, sizeof(comm)) &&
		    strnlen(comm, sizeof(comm)) == sizeof(comm))
			abort();
		break;
	}
	}
	free(text);
	return 0;
}
