/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options as data, after perf's parse-options.h and fio's options.c: each
 * option is declared once, in a table of struct zf_opt (its name, the kind of
 * value it takes and where that goes, its bounds, its default as typed, the
 * subcommands that take it and its help), and getopt_long's array, the parse
 * loop with its one-line errors, the refusal of another subcommand's option,
 * --help and --print-defaults all come from that table.
 */
#ifndef HZF_OPT_H
#define HZF_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_t;

enum zf_opt_kind {
	ZF_OPT_FLAG,		/* no value: a bool at off, set */
	ZF_OPT_ULONG,		/* an unsigned long at off, decimal, in [min, max] */
	ZF_OPT_SIZE,		/* an unsigned long long at off: bytes, K/M/G/T */
	ZF_OPT_PCT,		/* a double at off: a percentage in (0, 100] */
	ZF_OPT_NS,		/* a double at off: a cost in ns, in [0, 1e9] */
	ZF_OPT_DOUBLE,		/* a double at off, decimal, in [dmin, dmax] */
	ZF_OPT_STRING,		/* a const char * at off: as typed, after check() if any */
	ZF_OPT_WORD,		/* a const char * at off: one of words[] */
	ZF_OPT_CUSTOM,		/* parse() judges and stores it */
	ZF_OPT_HELP,		/* -h, --help: the subcommand's usage and this table */
	ZF_OPT_DEFAULTS,	/* --print-defaults: each default as --name=value */
};

/* what bash completion offers for an option's value (docgen.c) */
enum zf_opt_complete {
	ZF_COMPLETE_KIND,	/* a ZF_OPT_WORD's words; any other value: file names */
	ZF_COMPLETE_STRATEGY,	/* a strategy's name */
	ZF_COMPLETE_STRATEGIES,	/* a comma list of them */
};

/*
 * A custom option's parser: opt is the option as written ("--reps"), opts the
 * caller's options struct. 0, or 2 with the one-line error said (zf_bad_value).
 */
typedef int (*zf_opt_parse_fn)(const char *opt, const char *arg, void *opts);

struct zf_opt {
	const char *name;	/* the long name, without "--" */
	char letter;		/* a short option, or 0 */
	enum zf_opt_kind kind;
	unsigned int cmds;	/* the subcommands that take it, one bit each */
	size_t off;		/* offsetof() the field in the caller's options struct */
	unsigned long min, max;	/* ZF_OPT_ULONG's bounds */
	double dmin, dmax;	/* ZF_OPT_DOUBLE's */
	const char *def;	/* the default as one would type it, or NULL */
	const char *arg;	/* the value's name in --help: "N", "BYTES" */
	const char *help;	/* wrapped by --help, "(default DEF)" added; NULL: not listed */
	zf_opt_parse_fn parse;	/* ZF_OPT_CUSTOM */
	const char *const *words;	/* ZF_OPT_WORD: the values taken, NULL last */
	/* ZF_OPT_STRING: a value it refuses (non-zero, with why) is a usage error */
	int (*check)(const char *value, const char **why);
	/*
	 * Its key in meta.json's "options" (NULL: not kept there), and the
	 * value kept, from the caller's options once every list is expanded;
	 * meta_json NULL: the field as its kind stores it; meta_json() NULL:
	 * not kept this time (--max-reps without --reps auto)
	 */
	const char *meta;
	struct json_t *(*meta_json)(const void *opts);
	enum zf_opt_complete complete;
};

/* a table's last entries: --print-defaults and -h, --help for the subcommands in c */
#define ZF_OPT_PRINT_DEFAULTS(c) \
	{ .name = "print-defaults", .kind = ZF_OPT_DEFAULTS, .cmds = (c), \
	  .help = "print each option's default, --name=value a line, and stop" }
#define ZF_OPT_HELP_ENTRY(c) \
	{ .name = "help", .letter = 'h', .kind = ZF_OPT_HELP, .cmds = (c), .help = "this text" }
#define ZF_OPT_TAIL(c)	ZF_OPT_PRINT_DEFAULTS(c), ZF_OPT_HELP_ENTRY(c)

/* one subcommand's parse: its table, and what was typed for each option */
struct zf_opt_set {
	const struct zf_opt *opts;
	size_t n;
	const char *cmd;	/* "run", for the errors */
	unsigned int cmd_bit;	/* its bit in zf_opt.cmds */
	const char *usage;	/* --help's lines before the options */
	const char **typed;	/* n entries, NULL or what was typed (a flag: "") */
	bool permute;		/* options after operands too (getopt's), not stop at one */
	bool operands;		/* it takes operands: left from optind on, for it to judge */
};

/* the set of a subcommand that has a table of its own (options as getopt permutes them) */
#define ZF_OPT_SET_OF(table, name, text) { .opts = (table), \
	.n = sizeof(table) / sizeof((table)[0]), .cmd = (name), .cmd_bit = 1, .permute = true, \
	.usage = (text) }
/* and of one that takes operands, left from optind on */
#define ZF_OPT_SET_WITH_OPERANDS(table, name, text) { .opts = (table), \
	.n = sizeof(table) / sizeof((table)[0]), .cmd = (name), .cmd_bit = 1, .permute = true, \
	.operands = true, .usage = (text) }

/*
 * Each subcommand's set, const: what its parse copies (the copy keeps what
 * was typed), and what --help, the docs' option tables, the man page and the
 * completion are made from (cmd.h's table names them)
 */
extern const struct zf_opt_set zf_run_opts, zf_sweep_opts, zf_topo_opts, zf_zeroout_opts;
extern const struct zf_opt_set zf_model_opts, zf_c2c_opts, zf_doctor_opts, zf_compare_opts;
extern const struct zf_opt_set zf_detect_opts, zf_vm_opts, zf_usemem_opts, zf_probe_opts;
extern const struct zf_opt_set zf_show_opts, zf_report_opts, zf_history_opts, zf_strategies_opts;

/* zf_opt_parse()'s answer when --help or --print-defaults was printed: exit 0 */
#define ZF_OPT_DONE	(-1)

/*
 * The defaults of set->cmd's options, then argv through getopt_long: 0, 2
 * with the one-line error said (exit status 2), or ZF_OPT_DONE. set->typed is
 * calloc()ed here (NULL where that fails: 2); zf_opt_free() frees it.
 */
int zf_opt_parse(struct zf_opt_set *set, int argc, char **argv, void *opts);
void zf_opt_free(struct zf_opt_set *set);
/* zf_opt_parse() of a copy of set, for a caller that asks nothing of what was typed */
int zf_opt_parse_only(const struct zf_opt_set *set, int argc, char **argv, void *opts);

/*
 * Before parsing: the value argv gives the option of this name, as
 * set->cmd's parse would take it (--name V, --name=V, an abbreviation), the
 * last one typed; NULL where none. Options the table lacks are passed over,
 * not refused: for choosing which table parses argv. argv is left as it is.
 */
const char *zf_opt_peek(const struct zf_opt_set *set, int argc, char **argv, const char *name);

/* what was typed for the option of this name, or NULL where it was not */
const char *zf_opt_typed(const struct zf_opt_set *set, const char *name);
/* what was typed, else its default: the value an error names */
const char *zf_opt_shown(const struct zf_opt_set *set, const char *name);

/* meta.json's "options": each meta key set->cmd takes, in the table's order; NULL: no memory */
struct json_t *zf_opt_meta(const struct zf_opt_set *set, const void *opts);

/* the usage and one entry an option, wrapped at 80 columns */
void zf_opt_help(const struct zf_opt_set *set, FILE *out);
/* "--name=default" a line, for each option of set->cmd that has one */
void zf_opt_print_defaults(const struct zf_opt_set *set, FILE *out);
/* the options listed by --help: index i of set->opts, or -1 past the last */
long zf_opt_next_listed(const struct zf_opt_set *set, long i);
/* "--name ARG" or "-x, --name ARG", as --help writes it */
void zf_opt_left(const struct zf_opt *o, char *buf, size_t len);

#endif
