// SPDX-License-Identifier: GPL-2.0
/*
 * hzfbench: what it costs many CPUs to share one page full of zeroes.
 * The subcommands' table and the dispatch; each lives in its own file.
 */

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "c2c.h"
#include "cmd.h"
#include "detect.h"
#include "doctorcmd.h"
#include "model.h"
#include "opt.h"
#include "resources.h"
#include "vm.h"
#include "zeroout.h"

#ifndef HZF_VERSION
#define HZF_VERSION "0.1"
#endif

static int cmd_vm(int argc, char **argv);

static const struct zf_cmd subcommands[] = {
	{ "run",	"one configuration into a results folder",	&zf_run_opts,	cmd_run },
	{ "sweep",	"every configuration of lists into one results folder", &zf_sweep_opts,
			cmd_sweep },
	{ "topo",	"the machine and the PUs a placement gives, nothing run", &zf_topo_opts,
			cmd_topo },
	{ "show",	"a results folder's summary as a table",	&zf_show_opts,		cmd_show },
	{ "report",	"a results folder's charts and report.html (gnuplot)", &zf_report_opts,
			cmd_report },
	{ "compare",	"two results folders, LKP style; exit 1 on a regression", &zf_compare_opts,
			cmd_compare },
	{ "history",	"append a results folder to a CI history file",	&zf_history_opts,
			cmd_history },
	{ "c2c",	"core-to-core hand-off latency matrix by cache-line ping-pong", &zf_c2c_opts,
			zf_c2c_main },
	{ "model",	"predicted cost against tasks from hand-off latencies", &zf_model_opts,
			zf_model_main },
	{ "zeroout",	"mm-less users zeroing storage from the zero page or the huge zero folio",
			&zf_zeroout_opts, zf_zeroout_main },
	{ "usemem",	"usemem's spelling of the seed's command, usemem's units too",
			&zf_usemem_opts, cmd_usemem },
	{ "doctor",	"what on this machine can skew a timing, and the fixes", &zf_doctor_opts,
			zf_doctor_main },
	{ "detect",	"how the running kernel counts the huge zero folio, from what it does",
			&zf_detect_opts, zf_detect_main },
	{ "vm",		"a subcommand inside a qemu guest of the topology and kernel asked for",
			&zf_vm_opts, cmd_vm },
	{ "probe",	"reference loops: bare inc_not_zero, pointer read", &zf_probe_opts,
			cmd_probe },
	{ "strategies",	"the strategies and what each models",		&zf_strategies_opts,
			cmd_strategies },
	{ NULL, NULL, NULL, NULL },
};

static bool is_subcommand(const char *name)
{
	const struct zf_cmd *c;

	for (c = subcommands; c->name; c++)
		if (!strcmp(name, c->name))
			return true;
	return false;
}

/* vm, told the subcommands its guest may run */
static int cmd_vm(int argc, char **argv)
{
	return zf_vm_main(argc, argv, is_subcommand);
}

static void usage(FILE *out)
{
	const struct zf_cmd *c;

	fprintf(out, "usage: hzfbench <subcommand> [options]   (hzfbench <subcommand> --help)\n");
	for (c = subcommands; c->name; c++)
		fprintf(out, "  %-11s %s\n", c->name, c->summary);
	fprintf(out, "  --version   print the version\n");
}

int main(int argc, char **argv)
{
	const struct zf_cmd *c;

	/* a task's events, times a thousand tasks: the soft limit's 1,024 go at 90 */
	zf_res_raise_nofile();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") && argc > 2)
		return zf_doc_main(subcommands, argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		if (argc > 2) {
			fprintf(stderr, "hzfbench: --version: %s: unexpected argument\n", argv[2]);
			return 2;
		}
		printf("hzfbench %s\n", HZF_VERSION);
		return 0;
	}
	for (c = subcommands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "hzfbench: %s: not a subcommand (hzfbench --help)\n", argv[1]);
	return 2;
}
