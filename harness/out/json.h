/* SPDX-License-Identifier: GPL-2.0 */
/* Reading back the JSON hzfbench writes (libjansson): validate, and look up one value. */
#ifndef HZF_JSON_H
#define HZF_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct zf_buf;

/* 0 when text is one well-formed JSON value (and nothing after it) */
int zf_json_validate(const char *text);
/*
 * The value at a dotted path ("thp.enabled"; a part in digits indexes an
 * array: "kernels.0.name"): a string unescaped, as UTF-8, anything else as
 * compact JSON text (reals to 15 digits). -ENOENT when absent, -EINVAL on
 * malformed JSON, -ENOSPC when out is too small.
 */
int zf_json_get(const char *text, const char *path, char *out, size_t len);

/*
 * Building what is written: a real (a whole one as an integer, as %g wrote
 * it), or null where it is not finite (JSON has no NaN); a string, or null for NULL, any byte that is not UTF-8 as '?'.
 */
json_t *zf_json_real(double v);
json_t *zf_json_text(const char *s);
/*
 * v appended to the array *a. Where that fails (v NULL: a part not made; no
 * memory), *a is released and NULL, so that what holds it fails whole; on a
 * NULL *a, v is released.
 */
void zf_json_push(json_t **a, json_t *v);
/*
 * root's text appended to b (JSON_INDENT(n) in flags, reals to 10 digits),
 * then root released; -ENOMEM (b's oom set) when it could not be built or
 * dumped: a NULL root is an object that failed to be made.
 */
int zf_json_dump(json_t *root, size_t flags, struct zf_buf *b);
/*
 * An object as hzfbench's files have always laid it out: one member a line,
 * each value on that line (JSON_INDENT(0): ", " and ": "), so a grep of
 * "key": value finds it. With rows, a member that is an array of objects has
 * one of them a line (model.json's "rows"). root is released; -ENOMEM as
 * zf_json_dump().
 */
int zf_json_dump_lines(json_t *root, bool rows, struct zf_buf *b);

#endif
