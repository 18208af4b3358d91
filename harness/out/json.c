// SPDX-License-Identifier: GPL-2.0
/* Reading back the JSON hzfbench writes, through libjansson: see json.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "json.h"

static json_t *load(const char *text)
{
	json_error_t error;

	/* any value at the top, nothing after it, no NUL inside a string */
	return json_loads(text, JSON_DECODE_ANY, &error);
}

int zf_json_validate(const char *text)
{
	json_t *root = load(text);

	json_decref(root);
	return root ? 0 : -EINVAL;
}

/* one step of a path: an object's key, or an array's index in digits */
static json_t *step(json_t *v, const char *key, size_t keylen)
{
	char name[256];
	unsigned long i;

	if (!keylen || keylen >= sizeof(name))
		return NULL;
	memcpy(name, key, keylen);
	name[keylen] = '\0';
	if (json_is_object(v))
		return json_object_get(v, name);
	if (!json_is_array(v) || strspn(name, "0123456789") != keylen)
		return NULL;
	i = strtoul(name, NULL, 10);
	return json_array_get(v, i);
}

/* a string unescaped (UTF-8 as it is), anything else as compact JSON text */
static int copy_value(const json_t *v, char *out, size_t len)
{
	char *text = NULL;
	const char *s;
	size_t n;
	int err = 0;

	if (json_is_string(v)) {
		s = json_string_value(v);
		n = json_string_length(v);
	} else {
		text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
		s = text;
		n = text ? strlen(text) : 0;
		if (!text)
			err = -ENOMEM;
	}
	if (!err && n + 1 > len)
		err = -ENOSPC;
	if (!err) {
		memcpy(out, s, n);
		out[n] = '\0';
	}
	free(text);
	return err;
}

int zf_json_get(const char *text, const char *path, char *out, size_t len)
{
	json_t *root = load(text), *v = root;
	int err;

	while (v && *path) {
		size_t keylen = strcspn(path, ".");

		v = step(v, path, keylen);
		path += keylen;
		if (*path == '.')
			path++;
	}
	if (!root)
		err = -EINVAL;
	else if (!v)
		err = -ENOENT;
	else
		err = copy_value(v, out, len);
	json_decref(root);
	return err;
}

json_t *zf_json_real(double v)
{
	/* a whole number as one, as printf's %g wrote it: 2, not 2.0 */
	if (isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return isfinite(v) ? json_real(v) : json_null();
}

/* the length of the UTF-8 sequence at p, or 0 when it is not one */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = *p < 0x80 ? 1 : *p >= 0xc2 && *p < 0xe0 ? 2 : *p >= 0xe0 && *p < 0xf0 ? 3 :
		   *p >= 0xf0 && *p < 0xf5 ? 4 : 0, i;

	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			n = 0;
	return n;
}

json_t *zf_json_text(const char *s)
{
	json_t *v;
	char *copy;
	size_t i, n;

	if (!s)
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	copy = strdup(s);	/* not UTF-8: each byte that is not shown as '?' */
	if (!copy)
		return NULL;
	for (i = 0; copy[i]; i += n) {
		n = utf8_len((unsigned char *)copy + i);
		if (!n) {
			copy[i] = '?';
			n = 1;
		}
	}
	v = json_string(copy);
	for (i = 0; !v && copy[i]; i++)	/* an overlong form or a surrogate: ASCII alone */
		if ((unsigned char)copy[i] >= 0x80)
			copy[i] = '?';
	v = v ? v : json_string(copy);
	free(copy);
	return v;
}

void zf_json_push(json_t **a, json_t *v)
{
	/* jansson releases v itself when *a is not an array (NULL) */
	if (json_array_append_new(*a, v)) {
		json_decref(*a);
		*a = NULL;
	}
}

int zf_json_dump(json_t *root, size_t flags, struct zf_buf *b)
{
	char *text = root ? json_dumps(root, flags | JSON_REAL_PRECISION(10)) : NULL;
	int err = text ? 0 : -ENOMEM;

	if (text)
		zf_buf_append(b, text, strlen(text));
	else
		b->oom = 1;
	free(text);
	json_decref(root);
	return err;
}

#define LINE_FLAGS (JSON_ENCODE_ANY | JSON_INDENT(0) | JSON_REAL_PRECISION(10))

/* an array of objects, one a line under its member; 0 or -ENOMEM */
static int dump_rows(const json_t *a, struct zf_buf *b)
{
	json_t *row;
	size_t i;
	int err = 0;

	zf_buf_printf(b, "[");
	json_array_foreach(a, i, row) {
		char *v = json_dumps(row, LINE_FLAGS);

		if (v)
			zf_buf_printf(b, "%s\n    %s", i ? "," : "", v);
		else
			err = -ENOMEM;
		free(v);
	}
	zf_buf_printf(b, "\n  ]");
	return err;
}

int zf_json_dump_lines(json_t *root, bool rows, struct zf_buf *b)
{
	const char *key;
	json_t *value;
	size_t left;
	int err = json_is_object(root) ? 0 : -ENOMEM;

	zf_buf_printf(b, "{\n");
	left = err ? 0 : json_object_size(root);
	json_object_foreach(root, key, value) {
		json_t *name = json_string(key);
		char *k = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
		bool as_rows = rows && json_array_size(value) && json_is_object(json_array_get(value, 0));
		char *v = as_rows ? NULL : json_dumps(value, LINE_FLAGS);

		if (k && (v || as_rows)) {
			zf_buf_printf(b, "  %s: ", k);
			if (as_rows)
				err |= dump_rows(value, b);
			else
				zf_buf_printf(b, "%s", v);
			zf_buf_printf(b, "%s\n", --left ? "," : "");
		} else {
			err = -ENOMEM;
		}
		free(k);
		free(v);
		json_decref(name);
	}
	zf_buf_printf(b, "}\n");
	if (err)
		b->oom = 1;
	json_decref(root);
	return err;
}
