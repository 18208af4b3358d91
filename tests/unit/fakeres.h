/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A results folder of fixed figures (no run, no clock): the golden
 * folder's three configurations, their runs handed over as zf_run() would,
 * in whatever order a test adds them (tests/data/golden/ holds what they
 * write).
 */
#ifndef HZF_TEST_FAKERES_H
#define HZF_TEST_FAKERES_H

#include "../../harness/out/results.h"
#include "../../harness/run/kallsyms.h"
#include "../../harness/run/perfctr.h"

#define FAKE_CONFIGS	3

struct fake_folder {
	char dir[32];
	struct zf_results r;
	struct zf_perf_list events;
	struct zf_kallsyms ks;
	struct zf_topo topo;
	int pu2[2], pu3[2], node2[2], node3[2];
	struct zf_plan plan[FAKE_CONFIGS];
	struct zf_run_config cfg[FAKE_CONFIGS];
	char why[256];			/* fake_add()'s, where it failed */
};

/* the golden folder begun in a new /tmp folder (room for 4 configurations); 0 or -1 */
int fake_folder_begin(struct fake_folder *f);
/*
 * configuration idx's repetitions rep0 to rep0 + reps - 1, one run (its
 * counters the configuration's whole: given with its first repetition);
 * zf_results_add()'s return, and its why in f->why
 */
int fake_add(struct fake_folder *f, unsigned int idx, unsigned int rep0, unsigned int reps);
/* timing.csv's runs */
int fake_runs(struct fake_folder *f);
/* the lines in path, its header among them; -1 where it cannot be read */
long fake_file_lines(const char *path);
/* everything let go, the folder removed; 0 or -1 */
int fake_folder_end(struct fake_folder *f);

/* hzfbench model ARGV on the HWLOC_SYNTHETIC topology, its table sent to /dev/null */
int fake_model_quiet(const char *synthetic, int argc, char **argv);

#endif
