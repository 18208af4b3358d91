// SPDX-License-Identifier: GPL-2.0
/* Reading back the JSON hzfbench writes, through libjansson: see json.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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
