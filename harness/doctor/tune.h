/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench doctor --tune` and `--reset`: the doctor's fixes applied, and
 * undone. Every file is named as the kernel names it ("/proc/sys/kernel/
 * nmi_watchdog") and read and written under a root ("" for this machine,
 * $HZF_SYSROOT for a fabricated tree). Before the first write, the whole
 * text of each file to be written is saved in a state file; --reset writes it
 * back and removes the state. tune.c says what to change, tunestate.c
 * changes it and keeps the state.
 */
#ifndef HZF_TUNE_H
#define HZF_TUNE_H

#include <stdbool.h>
#include <hwloc.h>

/* where the state goes unless --state says, under the root */
#define ZF_TUNE_STATE	"/var/tmp/hzfbench-tune.state"

/* one file to write, and what it held */
struct zf_tune_file {
	char *path;		/* under the root: "/proc/sys/kernel/nmi_watchdog" */
	char *was;		/* its whole text before, byte for byte */
	char *restore;		/* what --reset writes: was, or a choice file's chosen word */
	char *now;		/* what --tune writes */
};

struct zf_tune {
	const char *root;
	struct zf_tune_file *f;
	int n, cap;
	int oom;		/* a change could not be recorded: nothing is written */
};

/* what --tune asks for */
struct zf_tune_ask {
	hwloc_const_bitmap_t cpus;	/* the PUs measured: governor, boost; no IRQs there */
	hwloc_const_bitmap_t all;	/* every PU of the machine */
	const char *thp;		/* "madvise", "always", or NULL: THP's enabled left as it is */
};

/* the changes ask needs on the machine under t->root into t (t->oom when out of memory) */
void zf_tune_plan(struct zf_tune *t, const struct zf_tune_ask *ask);
/* path (under t->root) to be set to now, when it reads otherwise; choice: "a [b] c" */
void zf_tune_want(struct zf_tune *t, const char *path, const char *now, bool choice);
/* t's next entry, zeroed; NULL (t->oom) when out of memory */
struct zf_tune_file *zf_tune_add(struct zf_tune *t);
void zf_tune_free(struct zf_tune *t);

/*
 * --tune: ask planned, the state saved in state (refused when it exists), each
 * change made and said ("tune: PATH: OLD -> NEW"), each refusal said on
 * stderr; 0, 1 when a write was refused (the state keeps the others), 2 when
 * nothing was changed (a state file there already, or none could be saved)
 */
int zf_tune_run(const char *root, const struct zf_tune_ask *ask, const char *state);
/*
 * --reset: the state's files written back, last first ("reset: PATH: NEW ->
 * OLD"), and the state removed; 1 when a write was refused (the state keeps
 * those), 2 when there is no state to read or it was made under another root
 */
int zf_tune_reset(const char *root, const char *state);

#endif
