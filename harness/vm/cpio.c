// SPDX-License-Identifier: GPL-2.0
/*
 * newc cpio: per entry, "070701", thirteen 8-digit hex fields, the name
 * with its NUL, padding to 4 bytes, the data, padding to 4 bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"

void zf_cpio_init(struct zf_cpio *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->next_ino = 1;
}

static void fail(struct zf_cpio *c, int err, const char *path)
{
	if (c->err)
		return;
	c->err = err;
	snprintf(c->why, sizeof(c->why), "%s: %s", path, strerror(-err));
}

static void put(struct zf_cpio *c, const void *data, size_t len, const char *path)
{
	const char *p = data;

	while (!c->err && len) {
		ssize_t n = write(c->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fail(c, n < 0 ? -errno : -EIO, path);
			return;
		}
		p += n;
		len -= (size_t)n;
		c->bytes += (unsigned long long)n;
	}
}

static void pad4(struct zf_cpio *c, const char *path)
{
	static const char zeros[4];

	put(c, zeros, (size_t)((4 - c->bytes % 4) % 4), path);
}

static void header(struct zf_cpio *c, const char *path, unsigned int mode,
		   unsigned long long size, unsigned int rmajor, unsigned int rminor)
{
	char h[160];
	size_t namesize = strlen(path) + 1;

	if (size > 0xffffffffULL) {
		fail(c, -EFBIG, path);
		return;
	}
	/* ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize check */
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->next_ino++, mode, 0, 0, 1, 0, (unsigned int)size, 0, 0, rmajor, rminor,
		 (unsigned int)namesize, 0);
	put(c, h, 110, path);
	put(c, path, namesize, path);
	pad4(c, path);
}

void zf_cpio_dir(struct zf_cpio *c, const char *path, mode_t perm)
{
	header(c, path, S_IFDIR | (perm & 07777), 0, 0, 0);
}

void zf_cpio_data(struct zf_cpio *c, const char *path, mode_t perm, const void *data,
		  size_t len)
{
	header(c, path, S_IFREG | (perm & 07777), len, 0, 0);
	put(c, data, len, path);
	pad4(c, path);
}

void zf_cpio_copy(struct zf_cpio *c, const char *path, mode_t perm, const char *src)
{
	char chunk[65536];
	unsigned long long left;
	struct stat st;
	int fd, err;

	if (c->err)
		return;
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail(c, -errno, src);
		return;
	}
	err = fstat(fd, &st) ? -errno : S_ISREG(st.st_mode) ? 0 : -EINVAL;
	if (err) {
		fail(c, err, src);
		close(fd);
		return;
	}
	header(c, path, S_IFREG | (perm & 07777), (unsigned long long)st.st_size, 0, 0);
	for (left = (unsigned long long)st.st_size; !c->err && left;) {
		ssize_t n = read(fd, chunk, left < sizeof(chunk) ? left : sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {	/* the file shrank under us: the header would lie */
			fail(c, n < 0 ? -errno : -EIO, src);
			break;
		}
		put(c, chunk, (size_t)n, path);
		left -= (unsigned long long)n;
	}
	close(fd);
	pad4(c, path);
}

void zf_cpio_chardev(struct zf_cpio *c, const char *path, mode_t perm, unsigned int major,
		     unsigned int minor)
{
	header(c, path, S_IFCHR | (perm & 07777), 0, major, minor);
}

void zf_cpio_symlink(struct zf_cpio *c, const char *path, const char *target)
{
	size_t len = strlen(target);

	header(c, path, S_IFLNK | 0777, len, 0, 0);
	put(c, target, len, path);
	pad4(c, path);
}

int zf_cpio_end(struct zf_cpio *c)
{
	header(c, "TRAILER!!!", 0, 0, 0, 0);
	return c->err;
}
