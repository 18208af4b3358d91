// SPDX-License-Identifier: GPL-2.0
/* --set-thp: write THP sysfs, put it back at exit and on a signal: see thpset.h. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo.h"
#include "thpset.h"

static struct zf_thp_saved saved;
/* everything the restore needs, ready before any signal can come */
static char enabled_path[PATH_MAX], zero_path[PATH_MAX];
static pid_t owner;
static atomic_bool restored;
static bool zero_changed, enabled_changed;

bool zf_thp_mode_valid(const char *mode)
{
	return !strcmp(mode, "madvise") || !strcmp(mode, "always");
}

const struct zf_thp_saved *zf_thp_saved(void)
{
	return &saved;
}

static int read_choice(const char *path, char *out, size_t len)
{
	char text[256];
	int err = zf_read_file(path, text, sizeof(text));

	if (!err)
		zf_sysfs_choice(text, out, len);
	return err;
}

void zf_thp_restore(void)
{
	if (!saved.active || getpid() != owner || atomic_exchange(&restored, true))
		return;
	if (enabled_changed)
		zf_write_file(enabled_path, saved.enabled_was);
	if (zero_changed)
		zf_write_file(zero_path, saved.zero_was);
}

static void on_signal(int sig)
{
	zf_thp_restore();
	/* SA_RESETHAND put the default back: die of the same signal once we return */
	raise(sig);
}

static void at_exit(void)
{
	zf_thp_restore();
}

static int failed(char *why, size_t len, const char *path, int err)
{
	snprintf(why, len, "cannot write %s: %s%s", path, strerror(-err),
		 err == -EACCES || err == -EPERM ? " (it needs root)" : "");
	return err;
}

int zf_thp_set(const char *mode, char *why, size_t len)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };
	char now[32];
	size_t i;
	int err;

	if (saved.active) {
		snprintf(why, len, "set twice");
		return -EINVAL;
	}
	snprintf(enabled_path, sizeof(enabled_path), "%s/enabled", zf_thp_dir());
	snprintf(zero_path, sizeof(zero_path), "%s/use_zero_page", zf_thp_dir());
	err = read_choice(enabled_path, saved.enabled_was, sizeof(saved.enabled_was));
	if (!err)
		err = read_choice(zero_path, saved.zero_was, sizeof(saved.zero_was));
	if (err) {
		snprintf(why, len, "cannot read %s: %s", zf_thp_dir(), strerror(-err));
		return err;
	}
	snprintf(saved.mode, sizeof(saved.mode), "%s", mode);
	owner = getpid();
	saved.active = true;
	/* handlers first, so that a signal between the writes still restores */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		sigaction(signals[i], &sa, NULL);
	atexit(at_exit);

	if (strcmp(saved.enabled_was, mode)) {
		enabled_changed = true;
		err = zf_write_file(enabled_path, mode);
		if (err)
			return failed(why, len, enabled_path, err);
	}
	if (strcmp(saved.zero_was, "1")) {
		zero_changed = true;
		err = zf_write_file(zero_path, "1");
		if (err) {
			zf_thp_restore();
			return failed(why, len, zero_path, err);
		}
	}
	if (read_choice(enabled_path, now, sizeof(now)) || strcmp(now, mode)) {
		zf_thp_restore();
		snprintf(why, len, "%s still says %s after writing %s", enabled_path, now, mode);
		return -EIO;
	}
	return 0;
}
