// SPDX-License-Identifier: GPL-2.0
/*
 * What every doctor probe reads with: files under ctx->root, read whole
 * (a cpulist or /proc/stat grows with the CPUs), CPU lists as hwloc bitmaps,
 * and how a factor is said.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "doctor_sample.h"
#include "sysinfo.h"

void zf_doctor_factor_free(struct zf_doctor_factor *f)
{
	free(f->value);
	free(f->fix);
	f->value = f->fix = NULL;
}

void zf_doctor_say(struct zf_doctor_factor *f, enum zf_doctor_status status, const char *fix,
		const char *fmt, ...)
{
	va_list ap;
	int n;

	zf_doctor_factor_free(f);
	va_start(ap, fmt);
	/* clang 14's analyzer sees ap uninitialized in some batches of files only */
	n = vasprintf(&f->value, fmt, ap);	/* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	if (n < 0)
		f->value = NULL;
	f->fix = strdup(fix ? fix : "");
	/* what could not be said is not ok */
	f->status = f->value && f->fix ? status : ZF_DOCTOR_UNKNOWN;
}

int zf_doctor_read_alloc(const struct zf_doctor_ctx *ctx, const char *path, char **text)
{
	char full[PATH_MAX];
	size_t n;
	int err;

	*text = NULL;
	if ((size_t)snprintf(full, sizeof(full), "%s%s", ctx->root, path) >= sizeof(full))
		return -ENAMETOOLONG;
	err = zf_read_file_alloc(full, text, &n);
	if (err)
		return err;
	while (n > 0 && (*text)[n - 1] == '\n')
		(*text)[--n] = '\0';
	return 0;
}

int zf_doctor_read(const struct zf_doctor_ctx *ctx, const char *path, char *buf, size_t len)
{
	char *text;
	int err = zf_doctor_read_alloc(ctx, path, &text);

	buf[0] = '\0';
	if (err)
		return err;
	if (strlen(text) >= len)
		err = -EFBIG;
	else
		memcpy(buf, text, strlen(text) + 1);
	free(text);
	return err;
}

bool zf_doctor_oom(struct zf_doctor_factor *f, const void *p)
{
	if (!p)
		zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "out of memory");
	return !p;
}

void zf_doctor_unreadable(struct zf_doctor_factor *f, const char *path, int err)
{
	zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "cannot read %s: %s", path, strerror(-err));
}

/* a whole number from a one-value file; -errno, or -EINVAL for anything else */
int zf_doctor_read_long(const struct zf_doctor_ctx *ctx, const char *path, long *v)
{
	char text[32], *end;	/* "-9223372036854775808" and a newline */
	int err = zf_doctor_read(ctx, path, text, sizeof(text));

	if (err)
		return err == -EFBIG ? -EINVAL : err;
	*v = strtol(text, &end, 10);
	return end == text || (*end && *end != '\n') ? -EINVAL : 0;
}

/* digits, commas and dashes, a digit first and last: hwloc's strtoul would take "-1" or "0x10" */
static bool cpulist_shaped(const char *text)
{
	size_t n = strlen(text);

	return strspn(text, "0123456789,-") == n && text[0] >= '0' && text[0] <= '9' &&
	       text[n - 1] >= '0' && text[n - 1] <= '9';
}

int zf_doctor_read_cpulist(const struct zf_doctor_ctx *ctx, const char *path,
			   hwloc_bitmap_t *set)
{
	char *text;
	int err = zf_doctor_read_alloc(ctx, path, &text);

	*set = NULL;
	if (err)
		return err;
	*set = hwloc_bitmap_alloc();
	if (!*set)
		err = -ENOMEM;
	else if (text[0] && strcmp(text, "(null)") &&
		 (!cpulist_shaped(text) || hwloc_bitmap_list_sscanf(*set, text)))
		err = -EINVAL;
	free(text);
	if (err) {
		hwloc_bitmap_free(*set);
		*set = NULL;
	}
	return err;
}

char *zf_doctor_list(hwloc_const_bitmap_t set)
{
	char *list = NULL;

	if (hwloc_bitmap_iszero(set))
		return strdup("none");
	return hwloc_bitmap_list_asprintf(&list, set) < 0 ? NULL : list;
}

void zf_doctor_buf_list(struct zf_buf *b, hwloc_const_bitmap_t set)
{
	char *list = zf_doctor_list(set);

	if (list)
		zf_buf_printf(b, "%s", list);
	else
		b->oom = 1;
	free(list);
}
