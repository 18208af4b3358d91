// SPDX-License-Identifier: GPL-2.0
/* What every doctor probe reads with: files under ctx->root, and how a factor is said. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpustat.h"
#include "doctor.h"
#include "doctor_sample.h"
#include "parse.h"
#include "sysinfo.h"

void zf_doctor_say(struct zf_doctor_factor *f, enum zf_doctor_status status, const char *fix,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* clang 14's analyzer sees ap uninitialized in some batches of files only */
	vsnprintf(f->value, sizeof(f->value), fmt, ap);	/* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	f->status = status;
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
}

/* ROOT/path into buf; -errno */
int zf_doctor_read(const struct zf_doctor_ctx *ctx, const char *path, char *buf, size_t len)
{
	char full[4096];

	snprintf(full, sizeof(full), "%s%s", ctx->root, path);
	return zf_read_file(full, buf, len);
}

void zf_doctor_unreadable(struct zf_doctor_factor *f, const char *path, int err)
{
	zf_doctor_say(f, ZF_DOCTOR_UNKNOWN, NULL, "cannot read %s: %s", path, strerror(-err));
}

/* a whole number from a one-value file; -errno, or -EINVAL for anything else */
int zf_doctor_read_long(const struct zf_doctor_ctx *ctx, const char *path, long *v)
{
	char text[64], *end;
	int err = zf_doctor_read(ctx, path, text, sizeof(text));

	if (err)
		return err;
	*v = strtol(text, &end, 10);
	return end == text || (*end && *end != '\n') ? -EINVAL : 0;
}

/* a CPU list file ("0-3,8", "" or "(null)"); -errno */
int zf_doctor_read_cpulist(const struct zf_doctor_ctx *ctx, const char *path, long **cpus,
			   size_t *n)
{
	char text[4096];
	const char *why;
	int err = zf_doctor_read(ctx, path, text, sizeof(text));

	*cpus = NULL;
	*n = 0;
	if (err)
		return err;
	if (!text[0] || !strcmp(text, "(null)"))
		return 0;
	return zf_parse_int_list(text, 0, 65535, 0, cpus, n, &why) ? -EINVAL : 0;
}

bool zf_doctor_in_list(const long *list, size_t n, long v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

/* a list of CPUs from zf_doctor_read_cpulist(), as "0-3,8" */
void zf_doctor_cpulist_format(const long *list, size_t n, char *out, size_t len)
{
	int cpus[256];
	size_t i;

	for (i = 0; i < n && i < 256; i++)
		cpus[i] = (int)list[i];
	zf_cpulist_format(cpus, (int)i, out, len);
}
