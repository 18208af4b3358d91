// SPDX-License-Identifier: GPL-2.0
/*
 * The option table's machinery (opt.h): getopt_long's array built from the
 * table, the parse loop, defaults, --help and --print-defaults.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "opt.h"
#include "parse.h"

#define HELP_WIDTH	80
#define HELP_INDENT	22	/* where an option's text starts */

static bool takes(const struct zf_opt_set *set, const struct zf_opt *o)
{
	return o->cmds & set->cmd_bit;
}

static bool has_value(const struct zf_opt *o)
{
	return o->kind != ZF_OPT_FLAG && o->kind != ZF_OPT_HELP && o->kind != ZF_OPT_DEFAULTS;
}

/* the entry of that name that set->cmd takes, or -1 */
static long find(const struct zf_opt_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (takes(set, &set->opts[i]) && !strcmp(set->opts[i].name, name))
			return (long)i;
	return -1;
}

/* a ZF_OPT_WORD's value: one of its words, or "not A, B or C" */
static int one_word(const struct zf_opt *o, const char *opt, const char *arg, const char **field)
{
	char why[160];
	size_t i, k;

	for (i = 0; o->words[i]; i++)
		if (!strcmp(o->words[i], arg)) {
			*field = arg;
			return 0;
		}
	k = snprintf(why, sizeof(why), "not");
	for (i = 0; o->words[i] && k < sizeof(why); i++)
		k += snprintf(why + k, sizeof(why) - k, "%s %s", !i ? "" : o->words[i + 1] ? "," : " or",
			      o->words[i]);
	return zf_bad_value(opt, arg, why);
}

/* one value into its field: 0, or 2 with the error said (naming it as typed: -n or --nproc) */
static int store(const struct zf_opt *o, const char *arg, void *opts, bool letter)
{
	void *field = (char *)opts + o->off;
	const char *why;
	char name[64];
	int err = 0;

	if (letter)
		snprintf(name, sizeof(name), "-%c", o->letter);
	else
		snprintf(name, sizeof(name), "--%s", o->name);
	switch (o->kind) {
	case ZF_OPT_FLAG:
		*(bool *)field = true;
		break;
	case ZF_OPT_ULONG:
		err = zf_parse_num_opt(name, arg, o->min, o->max, (unsigned long *)field);
		break;
	case ZF_OPT_SIZE:
		err = zf_parse_size_opt(name, arg, (unsigned long long *)field);
		break;
	case ZF_OPT_PCT:
		err = zf_parse_pct_opt(name, arg, (double *)field);
		break;
	case ZF_OPT_NS:
		err = zf_parse_ns_opt(name, arg, (double *)field);
		break;
	case ZF_OPT_DOUBLE:
		err = zf_parse_double_opt(name, arg, o->dmin, o->dmax, (double *)field);
		break;
	case ZF_OPT_STRING:
		if (o->check && o->check(arg, &why))
			err = zf_bad_value(name, arg, why);
		else
			*(const char **)field = arg;
		break;
	case ZF_OPT_WORD:
		err = one_word(o, name, arg, field);
		break;
	case ZF_OPT_CUSTOM:
		err = o->parse(name, arg, opts);
		break;
	case ZF_OPT_HELP:
	case ZF_OPT_DEFAULTS:
		break;
	}
	return err;
}

/*
 * getopt_long's array: every name of the table, whichever subcommand takes it
 * (another's is refused by name, not as unknown). Names for one field share a
 * value, so that an abbreviation of both (--strat) is not ambiguous.
 */
static struct option *long_options(const struct zf_opt_set *set)
{
	struct option *lo = calloc(set->n + 1, sizeof(*lo));
	size_t i, j;

	for (i = 0; lo && i < set->n; i++) {
		const struct zf_opt *o = &set->opts[i];

		for (j = 0; j < i; j++)
			if (set->opts[j].off == o->off && set->opts[j].kind == o->kind &&
			    set->opts[j].parse == o->parse)
				break;
		lo[i].name = o->name;
		lo[i].has_arg = has_value(o) ? required_argument : no_argument;
		lo[i].val = 256 + (int)j;
	}
	return lo;
}

static int parse_loop(struct zf_opt_set *set, int argc, char **argv, void *opts,
		      const struct option *lo)
{
	char letters[40] = "+:";	/* ':': a missing value told from an unknown option */
	size_t i, k = set->permute ? 1 : 2;
	int c, idx, err = 0;

	for (i = 0; i < set->n && k + 2 < sizeof(letters); i++)
		if (set->opts[i].letter && takes(set, &set->opts[i])) {
			letters[k++] = set->opts[i].letter;
			if (has_value(&set->opts[i]))
				letters[k++] = ':';
		}
	letters[k] = '\0';
	if (set->permute)
		letters[0] = ':';
	optind = 1;
	opterr = 0;
	while (!err && (c = getopt_long(argc, argv, letters, lo, &idx)) != -1) {
		const struct zf_opt *o;
		long at;

		if (c == '?' || c == ':') {
			fprintf(stderr, "hzfbench: %s: %s: %s\n", set->cmd, argv[optind - 1],
				c == ':' ? "needs a value" : "unknown option");
			return 2;
		}
		if (c < 256) {	/* a short option: its entry */
			for (idx = 0; set->opts[idx].letter != c; idx++)
				;
		}
		at = find(set, set->opts[idx].name);
		if (at < 0) {
			fprintf(stderr, "hzfbench: %s: --%s: not an option of %s\n", set->cmd,
				set->opts[idx].name, set->cmd);
			return 2;
		}
		o = &set->opts[at];
		if (o->kind == ZF_OPT_HELP) {
			zf_opt_help(set, stdout);
			return ZF_OPT_DONE;
		}
		if (o->kind == ZF_OPT_DEFAULTS) {
			zf_opt_print_defaults(set, stdout);
			return ZF_OPT_DONE;
		}
		set->typed[at] = has_value(o) ? optarg : "";
		err = store(o, optarg, opts, c < 256);
	}
	if (!err && !set->operands && zf_opt_no_operands(set->cmd, argc, argv))
		err = 2;
	return err;
}

int zf_opt_parse(struct zf_opt_set *set, int argc, char **argv, void *opts)
{
	struct option *lo;
	size_t i;
	int err = 0;

	set->typed = calloc(set->n, sizeof(*set->typed));
	lo = long_options(set);
	if (!set->typed || !lo) {
		fprintf(stderr, "hzfbench: %s: out of memory\n", set->cmd);
		err = 2;
	}
	/* a default goes where a typed value would, by the same parser */
	for (i = 0; !err && i < set->n; i++)
		if (set->opts[i].def && takes(set, &set->opts[i]))
			err = store(&set->opts[i], set->opts[i].def, opts, false);
	if (!err)
		err = parse_loop(set, argc, argv, opts, lo);
	free(lo);
	return err;
}

const char *zf_opt_peek(const struct zf_opt_set *set, int argc, char **argv, const char *name)
{
	struct option *lo = long_options(set);
	char **copy = calloc(argc + 1, sizeof(*copy));	/* getopt permutes what it reads */
	const char *seen = NULL;
	int c, idx;

	if (lo && copy && find(set, name) >= 0) {
		memcpy(copy, argv, argc * sizeof(*copy));
		optind = 1;
		opterr = 0;
		while ((c = getopt_long(argc, copy, ":", lo, &idx)) != -1)
			if (c >= 256 && !strcmp(set->opts[idx].name, name) && optarg)
				seen = optarg;
	}
	optind = 1;
	free(copy);
	free(lo);
	return seen;
}

int zf_opt_parse_only(const struct zf_opt_set *set, int argc, char **argv, void *opts)
{
	struct zf_opt_set copy = *set;
	int err = zf_opt_parse(&copy, argc, argv, opts);

	zf_opt_free(&copy);
	return err;
}

void zf_opt_free(struct zf_opt_set *set)
{
	free(set->typed);
	set->typed = NULL;
}

const char *zf_opt_typed(const struct zf_opt_set *set, const char *name)
{
	long at = find(set, name);

	return at < 0 || !set->typed ? NULL : set->typed[at];
}

const char *zf_opt_shown(const struct zf_opt_set *set, const char *name)
{
	long at = find(set, name);

	if (at < 0)
		return NULL;
	return set->typed && set->typed[at] ? set->typed[at] : set->opts[at].def;
}

/* text's words from column col on, wrapped at HELP_WIDTH to HELP_INDENT */
static void wrap(FILE *out, size_t col, const char *text)
{
	const char *p = text;
	bool first = true, glued = false;

	while (*p) {
		size_t len = strcspn(p, " "), gap = first || glued ? 0 : 1;

		/* a list too long for a line breaks after a comma */
		glued = len > HELP_WIDTH - HELP_INDENT && strcspn(p, ",") < len;
		if (glued)
			len = strcspn(p, ",") + 1;
		if (!first && col + gap + len > HELP_WIDTH) {
			fprintf(out, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (gap) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)len, p);
		col += len;
		p += len;
		p += strspn(p, " ");
		first = false;
	}
	fputc('\n', out);
}

/* an entry's field as its kind stores it, for meta.json; NULL for a parser's own */
static json_t *field_json(const struct zf_opt *o, const void *opts)
{
	const void *field = (const char *)opts + o->off;

	switch (o->kind) {
	case ZF_OPT_FLAG:
		return json_boolean(*(const bool *)field);
	case ZF_OPT_ULONG:
		return json_integer((json_int_t)*(const unsigned long *)field);
	case ZF_OPT_SIZE:
		return json_integer((json_int_t)*(const unsigned long long *)field);
	case ZF_OPT_PCT:
	case ZF_OPT_NS:
	case ZF_OPT_DOUBLE:
		return zf_json_real(*(const double *)field);
	case ZF_OPT_STRING:
	case ZF_OPT_WORD:
		return *(const char *const *)field ? zf_json_text(*(const char *const *)field) :
		       json_null();
	default:
		return NULL;
	}
}

json_t *zf_opt_meta(const struct zf_opt_set *set, const void *opts)
{
	json_t *meta = json_object(), *v;
	size_t i;

	for (i = 0; meta && i < set->n; i++) {
		const struct zf_opt *o = &set->opts[i];

		if (!o->meta || !takes(set, o))
			continue;
		v = o->meta_json ? o->meta_json(opts) : field_json(o, opts);
		if (v && json_object_set_new(meta, o->meta, v)) {
			json_decref(meta);
			return NULL;
		}
	}
	return meta;
}

long zf_opt_next_listed(const struct zf_opt_set *set, long i)
{
	for (i++; i >= 0 && (size_t)i < set->n; i++)
		if (takes(set, &set->opts[i]) && set->opts[i].help)
			return i;
	return -1;
}

void zf_opt_left(const struct zf_opt *o, char *buf, size_t len)
{
	if (o->letter && !o->arg)
		snprintf(buf, len, "-%c, --%s", o->letter, o->name);
	else if (o->letter)
		snprintf(buf, len, "-%c, --%s %s", o->letter, o->name, o->arg);
	else
		snprintf(buf, len, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void zf_opt_help(const struct zf_opt_set *set, FILE *out)
{
	char left[64], text[512];
	long i;

	fputs(set->usage, out);
	for (i = zf_opt_next_listed(set, -1); i >= 0; i = zf_opt_next_listed(set, i)) {
		const struct zf_opt *o = &set->opts[i];
		char name[60];
		int col;

		zf_opt_left(o, name, sizeof(name));
		col = snprintf(left, sizeof(left), "  %s", name);
		if (o->def)
			snprintf(text, sizeof(text), "%s (default %s)", o->help, o->def);
		else
			snprintf(text, sizeof(text), "%s", o->help);
		/* the text in its column, or one space after a long name */
		col = col < HELP_INDENT - 1 ? HELP_INDENT : col + 1;
		fprintf(out, "%-*s", col, left);
		wrap(out, (size_t)col, text);
	}
}

void zf_opt_print_defaults(const struct zf_opt_set *set, FILE *out)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->opts[i].def && takes(set, &set->opts[i]))
			fprintf(out, "--%s=%s\n", set->opts[i].name, set->opts[i].def);
}
