// SPDX-License-Identifier: GPL-2.0
/* `hzfbench doctor [options]`, and the snapshot a run keeps in meta.json. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor.h"
#include "doctorcmd.h"
#include "opt.h"
#include "parse.h"
#include "tune.h"

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
	const char *placement, *tasks, *ignore, *set_thp, *state;
	unsigned long sample_ms;
	bool json, warnings, strict, tune, reset;
};

static const char doctor_usage[] =
"usage: hzfbench doctor [--json|--warnings] [--strict [--ignore LIST]] [--placement P]\n"
"                       [--tasks N] [--sample-ms MS]\n"
"       hzfbench doctor --tune [--set-thp MODE] [--placement P] [--tasks N] [--state FILE]\n"
"       hzfbench doctor --reset [--state FILE]\n"
"  One line a factor that can skew a timing on this machine: ok, warn (with\n"
"  the command that fixes it) or unknown (could not be read). The PUs looked\n"
"  at are those the placement gives the tasks (default: compact, every PU).\n"
"  --tune makes the fixes a write to /sys or /proc makes, for those PUs, and\n"
"  keeps what it found in the state file; --reset puts it back. Files are read\n"
"  and written under $HZF_SYSROOT when it is set (a fabricated /proc and /sys).\n";

static const char *const thp_modes[] = { "madvise", "always", NULL };

static int state_check(const char *value, const char **why)
{
	*why = "empty file name";
	return !*value;
}

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
	{ .name = "strict", .kind = ZF_OPT_FLAG, FIELD(strict),
	  .help = "exit 1 when a factor warns (unknown ones do not count)" },
	{ .name = "ignore", .kind = ZF_OPT_STRING, FIELD(ignore), .arg = "LIST",
	  .help = "with --strict: these factors (a comma list) may warn" },
	{ .name = "tune", .kind = ZF_OPT_FLAG, FIELD(tune),
	  .help = "apply the fixes that a write makes (governor, boost, numa_balancing, "
		  "nmi_watchdog, perf_event_paranoid, use_zero_page, IRQs off the PUs looked at), "
		  "the old values saved in the state file first; refused while one is there" },
	{ .name = "set-thp", .kind = ZF_OPT_WORD, FIELD(set_thp), .arg = "MODE", .words = thp_modes,
	  .help = "with --tune: THP's enabled to MODE (madvise or always) too" },
	{ .name = "reset", .kind = ZF_OPT_FLAG, FIELD(reset),
	  .help = "write back every value the state file keeps, then remove it" },
	{ .name = "state", .kind = ZF_OPT_STRING, .check = state_check, FIELD(state),
	  .arg = "FILE", .help = "--tune's and --reset's state (default " ZF_TUNE_STATE
	  " under $HZF_SYSROOT)" },
	ZF_OPT_TAIL(1),
};

const struct zf_opt_set zf_doctor_opts = ZF_OPT_SET_OF(doctor_table, "doctor", doctor_usage);

/* 2, said, for options that do not go together */
static int doctor_conflicts(const struct doctor_opts *o)
{
	const char *what = NULL;

	if (o->json && o->warnings)
		what = "--json and --warnings: one or the other";
	else if (o->tune && o->reset)
		what = "--tune and --reset: one or the other";
	else if ((o->tune || o->reset) && (o->json || o->warnings || o->strict))
		what = "--tune, --reset: not with --json, --warnings or --strict";
	else if (o->ignore && !o->strict)
		what = "--ignore: needs --strict";
	else if (o->set_thp && !o->tune)
		what = "--set-thp: needs --tune";
	else if (o->state && !o->tune && !o->reset)
		what = "--state: needs --tune or --reset";
	if (what)
		fprintf(stderr, "hzfbench: doctor: %s\n", what);
	return what ? 2 : 0;
}

/* is name in the comma list? */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

/* every name of --ignore a factor's; 2 with the first that is not said */
static int ignore_check(const char *list)
{
	struct zf_buf names = { 0 };
	const char *p, *name;
	char bad[64];
	size_t i, len;
	int rc;

	for (p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL) {
		len = strcspn(p, ",");
		snprintf(bad, sizeof(bad), "%.*s", (int)len, p);
		if (len < sizeof(bad) && zf_doctor_probe(bad))
			continue;
		for (i = 0; (name = zf_doctor_probe_name(i)); i++)
			zf_buf_printf(&names, "%s%s", i ? ", " : "not a factor (", name);
		zf_buf_printf(&names, ")");
		rc = zf_bad_value("--ignore", bad, names.oom ? "not a factor" : names.text);
		zf_buf_free(&names);
		return rc;
	}
	return 0;
}

/* --strict: 1 when a factor not ignored warns, said on stderr with their names */
static int strict_gate(const struct zf_doctor *d, const char *ignore)
{
	int i, n = 0;

	for (i = 0; i < d->n; i++) {
		if (d->f[i].status != ZF_DOCTOR_WARN || (ignore && listed(ignore, d->f[i].name)))
			continue;
		fprintf(stderr, "%s%s", n++ ? ", " : "hzfbench: doctor: --strict: warns: ",
			d->f[i].name);
	}
	if (n)
		fprintf(stderr, " (--ignore FACTOR,... lets one pass)\n");
	return n ? 1 : 0;
}

/* --tune for the PUs of the plan */
static int doctor_tune(struct zf_topo *topo, const struct zf_plan *plan, const char *thp,
		       const char *state)
{
	struct zf_tune_ask ask = { .all = hwloc_topology_get_topology_cpuset(topo->t),
				   .thp = thp };
	hwloc_bitmap_t cpus;
	int err;

	/* a user's every write refused, one line each, helps no one */
	if (!zf_doctor_root()[0] && geteuid() != 0) {
		fprintf(stderr, "hzfbench: doctor: --tune: writes /sys and /proc: run it as root\n");
		return 2;
	}
	err = zf_doctor_cpus(topo, plan, 1, &cpus);
	if (err) {
		fprintf(stderr, "hzfbench: doctor: %s\n", strerror(-err));
		return 2;
	}
	ask.cpus = cpus;
	err = zf_tune_run(zf_doctor_root(), &ask, state);
	hwloc_bitmap_free(cpus);
	return err;
}

/*
 * $HZF_SYSROOT a folder that can be read: under a root that is missing every
 * factor would read as unknown, and --strict pass on nothing read
 */
static int root_check(const char *root)
{
	struct stat st;

	if (!root[0])
		return 0;
	if (stat(root, &st))
		return zf_bad_value("$HZF_SYSROOT", root, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return zf_bad_value("$HZF_SYSROOT", root, "not a folder");
	if (access(root, R_OK | X_OK))
		return zf_bad_value("$HZF_SYSROOT", root, strerror(errno));
	return 0;
}

int zf_doctor_main(int argc, char **argv)
{
	struct doctor_opts o = { 0 };	/* the defaults are doctor_table's */
	char state[PATH_MAX];
	unsigned long ntasks = 0;
	struct zf_doctor *d = NULL;
	struct zf_topo topo;
	struct zf_plan plan;
	int err;

	err = zf_opt_parse_only(&zf_doctor_opts, argc, argv, &o);
	if (err)
		return err == ZF_OPT_DONE ? 0 : err;
	err = doctor_conflicts(&o);
	if (!err && o.ignore)
		err = ignore_check(o.ignore);
	if (err)
		return err;
	err = root_check(zf_doctor_root());
	if (err)
		return err;
	/* the default under the root: a fabricated machine's state is its own */
	if ((size_t)snprintf(state, sizeof(state), "%s%s", o.state ? "" : zf_doctor_root(),
			     o.state ? o.state : ZF_TUNE_STATE) >= sizeof(state))
		return zf_bad_value(o.state ? "--state" : "$HZF_SYSROOT",
				    o.state ? o.state : zf_doctor_root(), "too long");
	if (o.reset)
		return zf_tune_reset(zf_doctor_root(), state);
	if (o.tasks && zf_parse_num_opt("--tasks", o.tasks, 1, INT_MAX, &ntasks))
		return 2;
	/* unbound tasks may run on any PU: one says as much as any number */
	if (!strcmp(o.placement, "none"))
		ntasks = 1;
	err = doctor_plan(&topo, o.placement, ntasks, &plan);
	if (err)
		return err;
	if (o.tune)
		err = doctor_tune(&topo, &plan, o.set_thp, state);
	else
		err = zf_doctor_snapshot(&topo, &plan, 1, o.sample_ms, &d);
	zf_plan_free(&plan);
	zf_topo_close(&topo);
	if (o.tune)
		return err;
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
	fflush(stdout);
	if (!err && o.strict)
		err = strict_gate(d, o.ignore);
	zf_doctor_free(d);
	return err < 0 ? 1 : err;
}
