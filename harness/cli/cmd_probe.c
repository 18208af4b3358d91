// SPDX-License-Identifier: GPL-2.0
/* probe: the reference loops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/probe.h"
#include "cmd.h"
#include "parse.h"
#include "sweep.h"

int cmd_probe(int argc, char **argv)
{
	unsigned long fault_ns = 0;
	struct zf_probe p;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: hzfbench probe [--fault-ns NS]\n"
		       "  Measure the reference loops a run is read against: a bare\n"
		       "  atomic_inc_not_zero() CAS loop on one line, a pointer read, and\n"
		       "  the busy-work calibration (with --fault-ns, as a run of it\n"
		       "  calibrates: the iterations a call of NS takes). Medians of 7 rounds.\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--fault-ns")) {
		if (zf_parse_num_opt("--fault-ns", argv[2], 0, 10000000, &fault_ns))
			return 2;
	} else if (argc > 1) {
		fprintf(stderr, "hzfbench: probe: %s: unexpected argument\n", argv[1]);
		return 2;
	}
	zf_probe_measure(&p, (double)fault_ns);
	printf("inc_not_zero_ns    %.3f\npointer_read_ns    %.3f\nbusy_unit          %s\n"
	       "busy_iters_per_ns  %.4f\n",
	       p.inc_not_zero_ns, p.pointer_read_ns, p.busy_unit, p.busy_iters_per_ns);
	if (fault_ns)
		printf("busy_ns            %.1f\nbusy_iters         %lu\nbusy_call_ns       %.2f\n",
		       p.busy_ns, p.busy_iters, p.busy_call_ns);
	return 0;
}
