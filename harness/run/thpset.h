/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --set-thp: one of the two places hzfbench writes sysfs (doctor --tune, in
 * tune.c, is the other). It sets THP `enabled` to the mode asked for and
 * `use_zero_page` to 1 where it was 0, and puts back what it found at exit,
 * on SIGINT, SIGTERM and SIGHUP. Only the process that set it restores it:
 * forked tasks inherit the handlers and skip the restore.
 */
#ifndef HZF_THPSET_H
#define HZF_THPSET_H

#include <stdbool.h>
#include <stddef.h>

struct zf_thp_saved {
	bool active;
	char mode[16];				/* what --set-thp asked for */
	char enabled_was[16], zero_was[8];	/* what was there before */
};

/* "madvise" and "always" are the modes --set-thp takes */
bool zf_thp_mode_valid(const char *mode);
/* set it; 0, or -errno and why in one line (nothing left changed) */
int zf_thp_set(const char *mode, char *why, size_t len);
/* put back what zf_thp_set found, once, from the process that set it */
void zf_thp_restore(void);
/* what was set and what it replaced, for meta.json; !active when nothing was */
const struct zf_thp_saved *zf_thp_saved(void);

#endif
