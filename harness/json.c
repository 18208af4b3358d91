// SPDX-License-Identifier: GPL-2.0
/* A small JSON reader: see json.h. Depth is bounded; no value is built. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH 64

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *skip_value(const char *p, int depth);

/* past a string starting at the quote; NULL when malformed */
static const char *skip_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
	}
	return p + 1;
}

static const char *skip_number(const char *p)
{
	const char *start;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		start = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == start)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		start = p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == start)
			return NULL;
	}
	return p;
}

static const char *skip_container(const char *p, int depth)
{
	char close = *p == '{' ? '}' : ']';
	int object = *p == '{';

	p = skip_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = skip_string(p);
			if (!p)
				return NULL;
			p = skip_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = skip_value(p, depth + 1);
		if (!p)
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = skip_ws(p);
	}
}

static const char *skip_value(const char *p, int depth)
{
	if (depth > MAX_DEPTH)
		return NULL;
	p = skip_ws(p);
	switch (*p) {
	case '{':
	case '[':
		return skip_container(p, depth);
	case '"':
		return skip_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return skip_number(p);
	}
}

int zf_json_validate(const char *text)
{
	const char *end = skip_value(text, 0);

	return end && !*skip_ws(end) ? 0 : -EINVAL;
}

/* copy the value at p (string unescaped) into out */
static int copy_value(const char *p, char *out, size_t len)
{
	const char *end = skip_value(p, 0);
	size_t n = 0;

	if (*p != '"') {
		if ((size_t)(end - p) >= len)
			return -ENOSPC;
		snprintf(out, len, "%.*s", (int)(end - p), p);
		return 0;
	}
	for (p++; *p != '"'; p++) {
		char c = *p;

		if (c == '\\') {
			c = *++p;
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' :
			    c == 'b' ? '\b' : c == 'f' ? '\f' : c;
			if (c == 'u') {
				unsigned code;

				sscanf(p + 1, "%4x", &code);
				c = code < 0x80 ? (char)code : '?';
				p += 4;
			}
		}
		if (n + 1 >= len)
			return -ENOSPC;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

int zf_json_get(const char *text, const char *path, char *out, size_t len)
{
	const char *p = skip_ws(text);

	if (zf_json_validate(text))
		return -EINVAL;
	while (*path) {
		size_t keylen = strcspn(path, ".");
		int found = 0;

		if (*p != '{')
			return -ENOENT;
		p = skip_ws(p + 1);
		while (*p == '"') {
			const char *key = p + 1, *after = skip_string(p);

			p = skip_ws(skip_ws(after) + 1);	/* past ':' */
			if ((size_t)(after - 1 - key) == keylen && !strncmp(key, path, keylen)) {
				found = 1;
				break;
			}
			p = skip_ws(skip_value(p, 0));
			if (*p == ',')
				p = skip_ws(p + 1);
		}
		if (!found)
			return -ENOENT;
		path += keylen;
		if (*path == '.')
			path++;
	}
	return copy_value(p, out, len);
}
