// SPDX-License-Identifier: GPL-2.0
/* `hzfbench doctor [options]`, and the snapshot a run keeps in meta.json. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor.h"
#include "doctorcmd.h"
#include "opt.h"
#include "parse.h"

const char *zf_doctor_root(void)
{
	const char *root = getenv("HZF_SYSROOT");

	return root ? root : "";
}

int zf_doctor_cpus(struct zf_topo *topo, const struct zf_plan *plans, size_t nplans,
		   hwloc_bitmap_t *cpus)
{
	int *pus, n, i, err = 0, unbound = zf_plans_pus(plans, nplans, &pus, &n);

	*cpus = NULL;
	if (unbound < 0)
		return unbound;
	/* unbound tasks may run anywhere: every PU */
	*cpus = unbound || !n ? hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topo->t)) :
		hwloc_bitmap_alloc();
	for (i = 0; *cpus && !unbound && i < n && !err; i++)
		err = hwloc_bitmap_set(*cpus, pus[i]);
	free(pus);
	if (!*cpus || err) {
		hwloc_bitmap_free(*cpus);
		*cpus = NULL;
		return -ENOMEM;
	}
	return 0;
}

int zf_doctor_snapshot(struct zf_topo *topo, const struct zf_plan *plans, size_t nplans,
		       unsigned long sample_ms, struct zf_doctor **d)
{
	struct zf_doctor_ctx ctx = { .root = zf_doctor_root(), .sample_ms = sample_ms,
				     .privileged = geteuid() == 0, .self = getpid() };
	hwloc_bitmap_t cpus;
	int err = zf_doctor_cpus(topo, plans, nplans, &cpus);

	*d = NULL;
	if (err)
		return err;
	ctx.cpus = cpus;
	ctx.cpuid = !ctx.root[0] && topo->thissystem;
	*d = zf_doctor_run(&ctx);
	hwloc_bitmap_free(cpus);
	return *d ? 0 : -ENOMEM;
}

/*
 * The machine, and the plan of ntasks tasks (0: as many as the placement has
 * PUs) on it; 0, or the exit status with the error said
 */
static int doctor_plan(struct zf_topo *topo, const char *placement, unsigned long ntasks,
		       struct zf_plan *plan)
{
	/* what went wrong may quote the placement: a cpus: list as long as the machine's */
	size_t len = strlen(placement) + 512;
	char *reason = malloc(len);
	int cap = 0, rc = 0;

	if (!reason) {
		fprintf(stderr, "hzfbench: doctor: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (zf_topo_open(topo, NULL, reason, len)) {
		fprintf(stderr, "hzfbench: doctor: %s\n", reason);
		free(reason);
		return 1;
	}
	if (!ntasks)
		cap = zf_placement_capacity(topo, placement, reason, len);
	if (cap < 0) {
		rc = zf_bad_value("--placement", placement, reason);
	} else {
		ntasks = ntasks ? ntasks : cap ? (unsigned long)cap : 1;
		if (zf_plan_make(topo, placement, (int)ntasks, plan, reason, len)) {
			fprintf(stderr, "hzfbench: --tasks: %lu: %s\n", ntasks, reason);
			rc = 2;
		}
	}
	if (rc)
		zf_topo_close(topo);
	free(reason);
	return rc;
}

struct doctor_opts {
	const char *placement, *tasks;
	unsigned long sample_ms;
	bool json, warnings;
};

static const char doctor_usage[] =
"usage: hzfbench doctor [--json] [--warnings] [--placement P] [--tasks N] [--sample-ms MS]\n"
"  One line a factor that can skew a timing on this machine: ok, warn (with\n"
"  the command that fixes it) or unknown (could not be read). The PUs looked\n"
"  at are those the placement gives the tasks (default: compact, every PU).\n"
"  Files are read under $HZF_SYSROOT when it is set (a fabricated /proc and /sys).\n";

#define FIELD(f)	.cmds = 1, .off = offsetof(struct doctor_opts, f)

static const struct zf_opt doctor_table[] = {
	{ .name = "json", .kind = ZF_OPT_FLAG, FIELD(json), .help = "the same as a JSON object" },
	{ .name = "warnings", .kind = ZF_OPT_FLAG, FIELD(warnings),
	  .help = "only the warnings, one line each (run.sh prints these)" },
	{ .name = "placement", .kind = ZF_OPT_STRING, .check = zf_placement_check,
	  FIELD(placement), .arg = "P", .def = "compact",
	  .help = "compact, scatter, node:N, cpus:LIST, none (every PU)" },
	{ .name = "tasks", .kind = ZF_OPT_STRING, FIELD(tasks), .arg = "N",
	  .help = "the first N PUs of the placement" },
	{ .name = "sample-ms", .kind = ZF_OPT_ULONG, FIELD(sample_ms), .min = 1, .max = 60000,
	  .arg = "MS", .def = "200",
	  .help = "steal time and other runnable tasks sampled this long" },
	ZF_OPT_TAIL(1),
};

const struct zf_opt_set zf_doctor_opts = ZF_OPT_SET_OF(doctor_table, "doctor", doctor_usage);

int zf_doctor_main(int argc, char **argv)
{
	struct doctor_opts o = { 0 };	/* the defaults are doctor_table's */
	unsigned long ntasks = 0;
	struct zf_doctor *d = NULL;
	struct zf_topo topo;
	struct zf_plan plan;
	int err;

	err = zf_opt_parse_only(&zf_doctor_opts, argc, argv, &o);
	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	if (o.json && o.warnings) {
		fprintf(stderr, "hzfbench: doctor: --json and --warnings: one or the other\n");
		return 2;
	}
	if (o.tasks && zf_parse_num_opt("--tasks", o.tasks, 1, INT_MAX, &ntasks))
		return 2;
	/* unbound tasks may run on any PU: one says as much as any number */
	if (!strcmp(o.placement, "none"))
		ntasks = 1;
	err = doctor_plan(&topo, o.placement, ntasks, &plan);
	if (err)
		return err;
	err = zf_doctor_snapshot(&topo, &plan, 1, o.sample_ms, &d);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
	if (err) {
		fprintf(stderr, "hzfbench: doctor: %s\n", strerror(-err));
		return 1;
	}
	if (o.json) {
		struct zf_buf b = { 0 };

		zf_doctor_json(d, &b);
		if (b.oom)
			err = -ENOMEM;
		else
			printf("%s\n", b.text);
		zf_buf_free(&b);
	} else {
		zf_doctor_print(d, stdout, o.warnings);
	}
	zf_doctor_free(d);
	return err ? 1 : 0;
}
