// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench doctor --tune` and `--reset` (tune.h): the changes made, the
 * state that undoes them kept before the first write, and put back.
 *
 * The state is JSON: {"root": ROOT, "files": [{"path", "was", "restore",
 * "now"}, ...]}, made beside its final name and linked there, so that two
 * tunes cannot both take it. Root writes what it says, so --reset takes only
 * a state file of its own user that no one else may write, and only the
 * files --tune writes (cpu, THP, three sysctls, IRQ affinity).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "sysinfo.h"
#include "tune.h"

/* a file's text up to its first newline, for one line of output */
#define SHOWN(s)	(int)strcspn((s), "\n"), (s)

/* the files --tune may write, and so --reset too */
static bool tunable(const char *path)
{
	static const char *const under[] = {
		"/sys/devices/system/cpu/", "/sys/kernel/mm/transparent_hugepage/", "/proc/irq/",
		"/proc/sys/kernel/numa_balancing", "/proc/sys/kernel/nmi_watchdog",
		"/proc/sys/kernel/perf_event_paranoid",
	};
	size_t i;

	if (strstr(path, "/../") || strstr(path, "/./"))
		return false;
	for (i = 0; i < sizeof(under) / sizeof(under[0]); i++)
		if (!strncmp(path, under[i], strlen(under[i])) &&
		    (under[i][strlen(under[i]) - 1] == '/' || !path[strlen(under[i])]))
			return true;
	return false;
}

/* {"path", "was", "restore", "now"}; NULL when a text is not UTF-8 or out of memory */
static json_t *file_json(const struct zf_tune_file *f)
{
	json_t *was = json_string(f->was), *restore = json_string(f->restore);
	json_t *path = json_string(f->path), *now = json_string(f->now);

	if (!was || !restore || !path || !now) {
		json_decref(was);
		json_decref(restore);
		json_decref(path);
		json_decref(now);
		return NULL;
	}
	return json_pack("{s:o, s:o, s:o, s:o}", "path", path, "was", was, "restore", restore,
			 "now", now);
}

/* 2, said: --tune over a state that --reset has not consumed */
static int not_reset(const char *state)
{
	fprintf(stderr, "hzfbench: doctor: --tune: %s: a tune not reset yet "
		"(hzfbench doctor --reset first)\n", state);
	return 2;
}

/*
 * The files of t that keep says into state: a new file there (-EEXIST when
 * there is one), or replacing it; -errno with the error said
 */
static int state_save(const struct zf_tune *t, const bool *keep, const char *state, bool replace)
{
	json_t *files = json_array(), *root;
	char tmp[PATH_MAX], *text = NULL;
	int i, fd = -1, err = 0;
	FILE *f;

	for (i = 0; files && i < t->n; i++) {
		if (!keep[i])
			continue;
		root = file_json(&t->f[i]);
		if (!root || json_array_append_new(files, root)) {
			json_decref(files);
			files = NULL;
		}
	}
	root = files ? json_pack("{s:s, s:o}", "root", t->root, "files", files) : NULL;
	text = root ? json_dumps(root, JSON_INDENT(1)) : NULL;
	json_decref(root);
	if (!text) {
		fprintf(stderr, "hzfbench: doctor: %s: cannot make the state (a file not UTF-8, "
			"or out of memory)\n", state);
		return -ENOMEM;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", state) >= sizeof(tmp)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (fprintf(f, "%s\n", text) < 0 || fflush(f) || fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && (replace ? rename(tmp, state) : link(tmp, state)))
		err = -errno;
	if (err || !replace)
		unlink(tmp);
out:
	free(text);
	if (err == -EEXIST)
		not_reset(state);
	else if (err)
		fprintf(stderr, "hzfbench: doctor: %s: cannot save the state: %s\n", state,
			strerror(-err));
	return err;
}

int zf_tune_run(const char *root, const struct zf_tune_ask *ask, const char *state)
{
	struct zf_tune t = { .root = root };
	char full[PATH_MAX];
	int i, err, failed = 0;
	bool *keep;

	if (!access(state, F_OK))
		return not_reset(state);
	zf_tune_plan(&t, ask);
	keep = calloc(t.n ? t.n : 1, sizeof(*keep));
	if (t.oom || !keep) {
		fprintf(stderr, "hzfbench: doctor: --tune: %s\n", strerror(ENOMEM));
		err = 2;
		goto out;
	}
	for (i = 0; i < t.n; i++)
		keep[i] = true;
	/* every file's text saved before the first is written */
	if (state_save(&t, keep, state, false)) {
		err = 2;
		goto out;
	}
	for (i = 0; i < t.n; i++) {
		const struct zf_tune_file *f = &t.f[i];

		snprintf(full, sizeof(full), "%s%s", root, f->path);
		err = zf_write_file(full, f->now);
		if (err) {
			fflush(stdout);	/* in a log, each refusal where it happened */
			fprintf(stderr, "hzfbench: doctor: --tune: %s: cannot write %s: %s\n", f->path,
				f->now, strerror(-err));
			keep[i] = false;
			failed++;
			continue;
		}
		printf("tune: %s: %.*s -> %s\n", f->path, SHOWN(f->restore), f->now);
	}
	/* the state says what was changed: a write refused is not undone */
	if (failed && state_save(&t, keep, state, true))
		fprintf(stderr, "hzfbench: doctor: --tune: %s still lists the %d files not "
			"written; --reset writes back what they hold\n", state, failed);
	printf("tune: %d changed, %d refused; %s keeps what was there (hzfbench doctor --reset "
	       "puts it back)\n", t.n - failed, failed, state);
	err = failed ? 1 : 0;
out:
	free(keep);
	zf_tune_free(&t);
	return err;
}

/* the state's text of key into *out (malloc()ed); false when it has none */
static bool take(json_t *file, const char *key, char **out)
{
	const char *s = json_string_value(json_object_get(file, key));

	*out = s ? strdup(s) : NULL;
	return *out != NULL;
}

/* the state file into t (t->root from it); 2 with the error said */
static int state_load(const char *state, const char *root, struct zf_tune *t, json_t **json)
{
	json_t *files, *file;
	json_error_t error;
	struct stat st;
	size_t i;

	*json = NULL;
	if (stat(state, &st)) {
		fprintf(stderr, "hzfbench: doctor: --reset: %s: %s (nothing tuned, or reset "
			"already)\n", state, strerror(errno));
		return 2;
	}
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(stderr, "hzfbench: doctor: --reset: %s: not this user's own, or writable "
			"by others: not trusted\n", state);
		return 2;
	}
	*json = json_load_file(state, 0, &error);
	t->root = json_string_value(json_object_get(*json, "root"));
	files = json_object_get(*json, "files");
	if (!t->root || !json_is_array(files)) {
		fprintf(stderr, "hzfbench: doctor: --reset: %s: not a state of --tune (%s)\n",
			state, *json ? "no root or files" : error.text);
		return 2;
	}
	if (strcmp(t->root, root)) {
		fprintf(stderr, "hzfbench: doctor: --reset: %s: tuned under root \"%s\", not \"%s\" "
			"($HZF_SYSROOT)\n", state, t->root, root);
		return 2;
	}
	json_array_foreach(files, i, file) {
		struct zf_tune_file *f = zf_tune_add(t);

		if (!f) {
			fprintf(stderr, "hzfbench: doctor: --reset: %s\n", strerror(ENOMEM));
			return 2;
		}
		if (!take(file, "path", &f->path) || !take(file, "restore", &f->restore) ||
		    !take(file, "now", &f->now) || !take(file, "was", &f->was) ||
		    !tunable(f->path)) {
			fprintf(stderr, "hzfbench: doctor: --reset: %s: file %zu: %s\n", state, i,
				f->path && !tunable(f->path) ? "not a file --tune writes" :
				"no path, was, restore or now");
			return 2;
		}
	}
	return 0;
}

int zf_tune_reset(const char *root, const char *state)
{
	struct zf_tune t = { .root = root };
	char full[PATH_MAX];
	int i, err, failed = 0;
	json_t *json;
	bool *keep = NULL;

	err = state_load(state, root, &t, &json);
	if (!err) {
		keep = calloc(t.n ? t.n : 1, sizeof(*keep));
		if (!keep)
			err = 2;
	}
	/* the last change first, as a stack unwinds */
	for (i = t.n - 1; !err && i >= 0; i--) {
		const struct zf_tune_file *f = &t.f[i];
		int e;

		snprintf(full, sizeof(full), "%s%s", root, f->path);
		e = zf_write_file(full, f->restore);
		if (e) {
			fflush(stdout);
			fprintf(stderr, "hzfbench: doctor: --reset: %s: cannot write back %.*s: %s\n",
				f->path, SHOWN(f->restore), strerror(-e));
			keep[i] = true;
			failed++;
			continue;
		}
		printf("reset: %s: %s -> %.*s\n", f->path, f->now, SHOWN(f->restore));
	}
	if (!err && !failed && unlink(state)) {
		fprintf(stderr, "hzfbench: doctor: --reset: %s: cannot remove: %s\n", state,
			strerror(errno));
		err = 1;
	} else if (!err && failed) {
		t.root = root;
		state_save(&t, keep, state, true);
		fprintf(stderr, "hzfbench: doctor: --reset: %d files not written back; %s keeps "
			"them\n", failed, state);
		err = 1;
	} else if (!err) {
		printf("reset: %d put back; %s removed\n", t.n, state);
	}
	free(keep);
	t.root = root;
	zf_tune_free(&t);
	json_decref(json);
	return err;
}
