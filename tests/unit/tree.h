/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fabricated /proc and /sys trees for the tests that read them through
 * $HZF_SYSROOT: a folder of its own (in /dev/shm where there is one: a tmpfs
 * makes thousands of files at once), its files, and its removal.
 */
#ifndef HZF_TEST_TREE_H
#define HZF_TEST_TREE_H

#include <stddef.h>

struct tree {
	char root[64];
};

/* root "" when no folder could be made */
void tree_make(struct tree *t);
void tree_free(struct tree *t);
/* ROOT/rel := text, folders made as needed; text NULL: a folder (unreadable as a file) */
void put(struct tree *t, const char *rel, const char *text);
/* ROOT/rel's len bytes at off := data (a sparse file: pagemap, kpageflags), folders made */
void put_at(struct tree *t, const char *rel, long off, const void *data, size_t len);
/* ROOT/rel removed: a file, or an empty folder */
void drop(struct tree *t, const char *rel);

#endif
