/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run's, sweep's and topo's options: declared once each in runopts.c's table
 * (opt.h), parsed into struct zf_run_options with their cross checks.
 */
#ifndef HZF_RUNOPTS_H
#define HZF_RUNOPTS_H

#include <stdbool.h>

#include "opt.h"
#include "sweep.h"

/* the subcommands of the table, a bit each */
enum {
	ZF_CMD_RUN = 1,
	ZF_CMD_SWEEP = 2,
	ZF_CMD_TOPO = 4,
	ZF_CMD_MEASURE = ZF_CMD_RUN | ZF_CMD_SWEEP,
};

/* an option's name as run or sweep spells it, for the errors */
#define RUN_OR_SWEEP(o, run, sweep)	((o)->opt.cmd_bit == ZF_CMD_RUN ? (run) : (sweep))

struct zf_run_options {
	struct zf_sweep sw;
	struct zf_opt_set opt;		/* the table, and what was typed */
	const char *strategies, *task_kinds, *placements, *tasks, *topology, *faults;
	const char *set_thp;
	const char *mm_atomics;		/* "on" or "off" */
	unsigned long faults_per_life;
	bool summary;
};

/*
 * cmd's ("run", "sweep" or "topo") options from argv into o: 0, 2 (a usage
 * error, said) or ZF_OPT_DONE (--help or --print-defaults printed).
 * zf_opt_free(&o->opt) afterwards.
 */
int zf_run_options_parse(const char *cmd, int argc, char **argv, struct zf_run_options *o);

#endif
