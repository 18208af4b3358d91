// SPDX-License-Identifier: GPL-2.0
/* probe: the reference loops. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/probe.h"
#include "cmd.h"
#include "opt.h"
#include "parse.h"
#include "sweep.h"

static const char probe_usage[] =
"usage: hzfbench probe [--fault-ns NS]\n"
"  Measure the reference loops a run is read against: a bare\n"
"  atomic_inc_not_zero() CAS loop on one line, a pointer read, and\n"
"  the busy-work calibration (with --fault-ns, as a run of it\n"
"  calibrates: the iterations a call of NS takes). Medians of 7 rounds.\n";

struct probe_opts {
	unsigned long fault_ns;
};

static const struct zf_opt probe_table[] = {
	{ .name = "fault-ns", .kind = ZF_OPT_ULONG, .cmds = 1,
	  .off = offsetof(struct probe_opts, fault_ns), .max = 10000000, .arg = "NS", .def = "0",
	  .help = "also calibrate busy work of NS a call, as a run of --fault-ns NS does" },
	ZF_OPT_HELP_ENTRY(1),
};

const struct zf_opt_set zf_probe_opts = ZF_OPT_SET_OF(probe_table, "probe", probe_usage);

int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = { 0 };
	unsigned long fault_ns;
	struct zf_probe p;
	int err = zf_opt_parse_only(&zf_probe_opts, argc, argv, &o);

	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	fault_ns = o.fault_ns;
	zf_probe_measure(&p, (double)fault_ns);
	printf("inc_not_zero_ns    %.3f\npointer_read_ns    %.3f\nbusy_unit          %s\n"
	       "busy_iters_per_ns  %.4f\n",
	       p.inc_not_zero_ns, p.pointer_read_ns, p.busy_unit, p.busy_iters_per_ns);
	if (fault_ns)
		printf("busy_ns            %.1f\nbusy_iters         %lu\nbusy_call_ns       %.2f\n",
		       p.busy_ns, p.busy_iters, p.busy_call_ns);
	return 0;
}
