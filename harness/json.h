/* SPDX-License-Identifier: GPL-2.0 */
/* Reading back the JSON hzfbench writes (libjansson): validate, and look up one value. */
#ifndef HZF_JSON_H
#define HZF_JSON_H

#include <stddef.h>

/* 0 when text is one well-formed JSON value (and nothing after it) */
int zf_json_validate(const char *text);
/*
 * The value at a dotted path ("thp.enabled"; a part in digits indexes an
 * array: "kernels.0.name"): a string unescaped, as UTF-8, anything else as
 * compact JSON text (reals to 15 digits). -ENOENT when absent, -EINVAL on
 * malformed JSON, -ENOSPC when out is too small.
 */
int zf_json_get(const char *text, const char *path, char *out, size_t len);

#endif
