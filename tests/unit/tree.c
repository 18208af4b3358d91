// SPDX-License-Identifier: GPL-2.0
/* Fabricated /proc and /sys trees for the tests: see tree.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"

/* in /dev/shm where there is one: a tmpfs makes the 4,096 PUs' thousands of files at once */
void tree_make(struct tree *t)
{
	snprintf(t->root, sizeof(t->root), "/dev/shm/hzf-tree-XXXXXX");
	if (mkdtemp(t->root))
		return;
	snprintf(t->root, sizeof(t->root), "/tmp/hzf-tree-XXXXXX");
	if (!mkdtemp(t->root))
		t->root[0] = '\0';
}

void tree_free(struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	if (t->root[0] && system(cmd))
		fprintf(stderr, "  could not remove %s\n", t->root);
}

/* ROOT/rel := text, folders made as needed; text NULL: a folder (unreadable as a file) */
void put(struct tree *t, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", t->root, rel);
	for (slash = strchr(path + strlen(t->root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	if (!text) {
		mkdir(path, 0755);
		return;
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* ROOT/rel removed: a file, or an empty folder */
void drop(struct tree *t, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", t->root, rel);
	remove(path);
}

/* ROOT/rel's len bytes at off := data (a sparse file: pagemap, kpageflags), folders made */
void put_at(struct tree *t, const char *rel, long off, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", t->root, rel);
	f = fopen(path, "r+");
	if (!f) {
		put(t, rel, "");	/* its folders, and itself empty */
		f = fopen(path, "r+");
	}
	if (!f)
		return;
	if (fseek(f, off, SEEK_SET) || fwrite(data, 1, len, f) != len)
		fprintf(stderr, "  could not write %s at %ld\n", path, off);
	fclose(f);
}
