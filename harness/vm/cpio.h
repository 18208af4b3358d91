/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing an initramfs: the kernel's "newc" cpio format (Documentation/
 * driver-api/early-userspace/buffer-format.rst), uncompressed, which every
 * kernel unpacks. Entries are written as they are added; the first error
 * sticks and zf_cpio_end() returns it.
 */
#ifndef HZF_CPIO_H
#define HZF_CPIO_H

#include <stddef.h>
#include <sys/types.h>

struct zf_cpio {
	int fd;
	unsigned int next_ino;
	unsigned long long bytes;	/* written so far */
	int err;			/* the first -errno */
	char why[320];			/* what the first error was about */
};

/* over an open file descriptor, which stays the caller's */
void zf_cpio_init(struct zf_cpio *c, int fd);
void zf_cpio_dir(struct zf_cpio *c, const char *path, mode_t perm);
void zf_cpio_data(struct zf_cpio *c, const char *path, mode_t perm, const void *data,
		  size_t len);
/* a host file's content (symbolic links followed) under another path */
void zf_cpio_copy(struct zf_cpio *c, const char *path, mode_t perm, const char *src);
/* a character device node, such as dev/console (5, 1) */
void zf_cpio_chardev(struct zf_cpio *c, const char *path, mode_t perm, unsigned int major,
		     unsigned int minor);
void zf_cpio_symlink(struct zf_cpio *c, const char *path, const char *target);
/* the TRAILER!!! entry; 0 or the first -errno, with c->why */
int zf_cpio_end(struct zf_cpio *c);

#endif
