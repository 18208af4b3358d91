/* SPDX-License-Identifier: GPL-2.0 */
/* Reading back the JSON hzfbench writes: validate, and look up one value. */
#ifndef HZF_JSON_H
#define HZF_JSON_H

#include <stddef.h>

/* 0 when text is one well-formed JSON value (and nothing after it) */
int zf_json_validate(const char *text);
/*
 * The value at a dotted path of object keys ("thp.enabled"): a string
 * unescaped, anything else as its JSON text. -ENOENT when absent, -EINVAL
 * on malformed JSON, -ENOSPC when out is too small.
 */
int zf_json_get(const char *text, const char *path, char *out, size_t len);

#endif
