/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's symbols, from /proc/kallsyms, for --profile to name where a
 * kernel sample fell, as perf report does: loaded once before any task
 * starts, sorted by address, and looked up by binary search (the symbol with
 * the greatest address at or below the sample's). Only text symbols (t, T,
 * w, W) name a sample; the others bound them, so that an address past a
 * function's end, in data, is no function's.
 */
#ifndef HZF_KALLSYMS_H
#define HZF_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zf_ksym {
	uint64_t addr;
	const char *name;	/* without its module */
	const char *module;	/* "ext4" for "[ext4]"; NULL: the kernel's own */
	bool text;
};

struct zf_kallsyms {
	struct zf_ksym *sym;	/* by address, one a distinct address */
	size_t n;
	size_t garbage;		/* lines that were no symbol */
	/*
	 * kptr_restrict: every address read as 0, so no sample can be named.
	 * The symbols are not kept.
	 */
	bool hidden;
	char *names;		/* every name and module, one allocation */
};

/* the file's path: /proc/kallsyms under $HZF_SYSROOT, as the doctor reads it */
void zf_kallsyms_path(char *buf, size_t len);
/* read path into ks (empty on failure); 0, or -errno */
int zf_kallsyms_load(struct zf_kallsyms *ks, const char *path);
/* the text symbol ip is in, or NULL (below the first, in data, hidden) */
const struct zf_ksym *zf_kallsyms_find(const struct zf_kallsyms *ks, uint64_t ip);
/*
 * --profile's: this machine's symbols into ks, true when kernel samples can
 * be named; false after one line on stderr saying why not (kptr_restrict)
 */
bool zf_kallsyms_profile(struct zf_kallsyms *ks);
void zf_kallsyms_free(struct zf_kallsyms *ks);

#endif
