// SPDX-License-Identifier: GPL-2.0
/*
 * hzfbench help: the option tables in the forms others read them in, so
 * that none of them is written by hand: a Markdown table a subcommand (the
 * ones in docs/, between markers that tools/docs-options.sh rewrites), a man
 * page, and bash completion.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../bench/strategy.h"
#include "cmd.h"
#include "opt.h"

static const char doc_usage[] =
"usage: hzfbench help [SUBCOMMAND]\n"
"       hzfbench help --markdown SUBCOMMAND\n"
"       hzfbench help --man [SUBCOMMAND] | --man-dir DIR | --completion\n"
"  SUBCOMMAND's --help; its options as a Markdown table (docs/usage.md's);\n"
"  a man page in roff, hzfbench(1) or hzfbench-SUBCOMMAND(1), or every one of\n"
"  them written into DIR; bash completion (source it, or put it in\n"
"  /etc/bash_completion.d/hzfbench). All from the option tables --help reads.\n";

/* options beyond -h, --help and --print-defaults, which every subcommand takes */
static bool has_options(const struct zf_opt_set *set)
{
	long i;

	for (i = zf_opt_next_listed(set, -1); i >= 0; i = zf_opt_next_listed(set, i))
		if (set->opts[i].kind != ZF_OPT_HELP && set->opts[i].kind != ZF_OPT_DEFAULTS)
			return true;
	return false;
}

static const struct zf_cmd *find_cmd(const struct zf_cmd *cmds, const char *name)
{
	for (; cmds->name; cmds++)
		if (!strcmp(cmds->name, name))
			return cmds;
	return NULL;
}

/* a Markdown cell: a | would end it, a < start a tag */
static void md_text(FILE *out, const char *s, size_t len)
{
	const char *end = s + len;

	for (; s < end; s++) {
		if (strchr("|<>*", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/*
 * The default column: the table's default, else what the help ends with in
 * "(default X)" or "(default: X)", taken out of the text; *len: the text's
 * length without it
 */
static void md_default(const struct zf_opt *o, char *def, size_t dlen, size_t *len)
{
	const char *help = o->help, *p = strstr(help, " (default");
	size_t n = strlen(help);

	*len = n;
	def[0] = '\0';
	if (o->def) {
		snprintf(def, dlen, "%s", o->def);
		return;
	}
	while (p && strstr(p + 1, " (default"))
		p = strstr(p + 1, " (default");
	if (!p || help[n - 1] != ')' || (p[9] != ' ' && p[9] != ':'))
		return;
	*len = p - help;
	p += p[9] == ':' ? 11 : 10;
	snprintf(def, dlen, "%.*s", (int)(help + n - 1 - p), p);
}

static void markdown(const struct zf_opt_set *set, FILE *out)
{
	char left[64], def[160] = "", *bar;
	size_t len;
	long i;

	fprintf(out, "| option | meaning | default |\n|---|---|---|\n");
	for (i = zf_opt_next_listed(set, -1); i >= 0; i = zf_opt_next_listed(set, i)) {
		const struct zf_opt *o = &set->opts[i];

		if (o->kind == ZF_OPT_HELP || o->kind == ZF_OPT_DEFAULTS)
			continue;	/* every subcommand's; usage.md says so once */
		zf_opt_left(o, left, sizeof(left));
		bar = strchr(left, '|');	/* R|auto: a bare | would end the cell */
		if (o->letter)	/* "-n, --nproc N": each spelling its own code span */
			fprintf(out, "| `%.2s`, `%s` | ", left, left + 4);
		else if (bar)
			fprintf(out, "| `%.*s\\|%s` | ", (int)(bar - left), left, bar + 1);
		else
			fprintf(out, "| `%s` | ", left);
		md_default(o, def, sizeof(def), &len);
		md_text(out, o->help, len);
		fprintf(out, " | ");
		if (def[0] && o->def)
			fprintf(out, "`%s`", def);
		else
			md_text(out, def, strlen(def));
		fprintf(out, " |\n");
	}
}

/* roff: a backslash is \e, a line may not start with . or ' */
static void roff_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else if (*s == ',')	/* a list may break after each comma */
			fputs(",\\:", out);
		else
			fputc(*s, out);
		if (*s == '\n' && (s[1] == '.' || s[1] == '\''))
			fputs("\\&", out);
	}
}

static void man_head(FILE *out, const char *name, const char *upper)
{
	fprintf(out, ".\\\" made by hzfbench help --man from its option tables: edit those\n"
		".TH %s 1 \"\" \"hzfbench\" \"User Commands\"\n.ad l\n.SH NAME\n%s \\- ", upper,
		name);
}

/* hzfbench(1): what it is, the subcommands, and each one's page */
static void man_main(const struct zf_cmd *cmds, FILE *out)
{
	const struct zf_cmd *c;
	bool first = true;

	man_head(out, "hzfbench", "HZFBENCH");
	fprintf(out, "what it costs many CPUs to share one page full of zeroes\n"
		".SH SYNOPSIS\n.B hzfbench\n.I subcommand\n[\\fIoptions\\fR]\n"
		".SH DESCRIPTION\nhzfbench times the read faults of untouched anonymous memory "
		"that map the huge zero folio, against the three ways Linux has counted "
		"references to it (global, mmflag, persistent), with tasks pinned across "
		"NUMA nodes and perf counters per task.\n"
		"Each subcommand takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR and has a page "
		"of its own.\n.SH SUBCOMMANDS\n");
	for (c = cmds; c->name; c++) {
		fprintf(out, ".TP\n.B %s\n", c->name);
		roff_text(out, c->summary);
		fprintf(out, c->options ? " (\\fBhzfbench\\-%s\\fR(1))\n" : "\n", c->name);
	}
	fprintf(out, ".SH FILES\nA results folder: meta.json, samples.csv, tasks.csv, "
		"summary.csv, counters.csv, perf.csv, timing.csv, strategies.csv, "
		"topology.xml (docs/results.md).\n.SH SEE ALSO\n");
	for (c = cmds; c->name; c++)
		if (c->options) {
			fprintf(out, "%s.BR hzfbench\\-%s (1)", first ? "" : ",\n", c->name);
			first = false;
		}
	fprintf(out, ",\n.BR perf (1),\n.BR hwloc-ls (1),\n.BR numactl (8)\n");
}

/* hzfbench-CMD(1): its usage's first lines the synopsis, the rest the description */
static void man_cmd(const struct zf_cmd *c, FILE *out)
{
	const struct zf_opt_set *set = c->options;
	const char *p = set->usage, *nl;
	char left[64], title[80];
	bool synopsis = true;
	long i;
	size_t k;

	snprintf(left, sizeof(left), "hzfbench-%s", c->name);
	for (k = 0; left[k] && k + 1 < sizeof(title); k++)
		title[k] = (char)toupper((unsigned char)left[k]);
	title[k] = '\0';
	man_head(out, left, title);
	roff_text(out, c->summary);
	fprintf(out, "\n.SH SYNOPSIS\n.nf\n");
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		if (synopsis && strncmp(p, "usage: ", 7) && strncmp(p, "       ", 7)) {
			fprintf(out, ".fi\n.SH DESCRIPTION\n");
			synopsis = false;
		}
		p += synopsis ? 7 : strspn(p, " ");
		{
			char line[256];

			snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
			roff_text(out, line);
		}
		fputc('\n', out);
	}
	if (synopsis)
		fprintf(out, ".fi\n");
	fprintf(out, ".SH OPTIONS\n");
	for (i = zf_opt_next_listed(set, -1); i >= 0; i = zf_opt_next_listed(set, i)) {
		const struct zf_opt *o = &set->opts[i];

		zf_opt_left(o, left, sizeof(left));
		fprintf(out, ".TP\n.B ");
		roff_text(out, left);
		fputc('\n', out);
		roff_text(out, o->help);
		if (o->def) {
			fputs(" (default ", out);
			roff_text(out, o->def);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	fprintf(out, ".SH SEE ALSO\n.BR hzfbench (1)\n");
}

/* one page into dir/name; c NULL: hzfbench(1). 0, or 1 said on stderr */
static int man_file(const struct zf_cmd *cmds, const struct zf_cmd *c, const char *dir)
{
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/hzfbench%s%s.1", dir, c ? "-" : "", c ? c->name : "");
	out = fopen(path, "w");
	if (out) {
		if (c)
			man_cmd(c, out);
		else
			man_main(cmds, out);
	}
	if (!out || fclose(out)) {
		fprintf(stderr, "hzfbench: help: --man-dir: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* every page into dir: hzfbench.1, and hzfbench-CMD.1 for each subcommand */
static int man_dir(const struct zf_cmd *cmds, const char *dir)
{
	const struct zf_cmd *c;
	int err = man_file(cmds, NULL, dir);

	for (c = cmds; !err && c->name; c++)
		if (c->options)	/* every subcommand's, but one a caller's table lacks */
			err = man_file(cmds, c, dir);
	return err;
}

static void completion(const struct zf_cmd *cmds, FILE *out)
{
	const struct zf_cmd *c;
	long i;
	size_t w;

	fprintf(out, "# bash completion for hzfbench, made by hzfbench help --completion from its\n"
		"# option tables: . it, or put it in /etc/bash_completion.d/hzfbench\n"
		"_hzfbench_words() {\n"
		"\tCOMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n"
		"}\n"
		"# a comma list: its last item completed, those before it kept\n"
		"_hzfbench_words_list() {\n"
		"\tlocal head=\n"
		"\tcase $cur in *,*) head=${cur%%,*}, ;; esac\n"
		"\tCOMPREPLY=($(compgen -P \"$head\" -W \"$1\" -- \"${cur##*,}\"))\n"
		"}\n"
		"_hzfbench() {\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
		"\tlocal opts= valued=\n"
		"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		"\t\tCOMPREPLY=($(compgen -W \"");
	for (c = cmds; c->name; c++)
		fprintf(out, "%s ", c->name);
	fprintf(out, "help --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
		"\tcase ${COMP_WORDS[1]} in\n");
	for (c = cmds; c->name; c++) {
		const struct zf_opt_set *set = c->options;
		bool any = false, help = false;

		if (!set)
			continue;
		fprintf(out, "\t%s)\n\t\topts=\"", c->name);
		for (i = zf_opt_next_listed(set, -1); i >= 0; i = zf_opt_next_listed(set, i)) {
			fprintf(out, "%s--%s", any ? " " : "", set->opts[i].name);
			any = true;
			help |= set->opts[i].kind == ZF_OPT_HELP;
		}
		fprintf(out, "%s\"\n\t\tvalued=\"", help ? "" : " --help");
		any = false;
		for (i = zf_opt_next_listed(set, -1); i >= 0; i = zf_opt_next_listed(set, i))
			if (set->opts[i].arg) {
				fprintf(out, "%s--%s", any ? " " : "", set->opts[i].name);
				any = true;
			}
		fprintf(out, "\"\n\t\tcase $prev in\n");
		for (i = zf_opt_next_listed(set, -1); i >= 0; i = zf_opt_next_listed(set, i)) {
			const struct zf_opt *o = &set->opts[i];

			if (o->complete != ZF_COMPLETE_KIND) {
				fprintf(out, "\t\t--%s) _hzfbench_words%s \"", o->name,
					o->complete == ZF_COMPLETE_STRATEGIES ? "_list" : "");
				for (w = 0; zf_strategies[w]; w++)
					fprintf(out, "%s%s", w ? " " : "", zf_strategies[w]->name);
				fprintf(out, "\"; return ;;\n");
				continue;
			}
			if (o->kind != ZF_OPT_WORD)
				continue;
			fprintf(out, "\t\t--%s) _hzfbench_words \"", o->name);
			for (w = 0; o->words[w]; w++)
				fprintf(out, "%s%s", w ? " " : "", o->words[w]);
			fprintf(out, "\"; return ;;\n");
		}
		fprintf(out, "\t\tesac\n\t\t;;\n");
	}
	/* a value with no words to offer, or an operand: a file or folder */
	fprintf(out, "\t*) opts=--help ;;\n\tesac\n"
		"\tcase \" $valued \" in\n"
		"\t*\" $prev \"*) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
		"\tesac\n"
		"\tcase $cur in\n"
		"\t-*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;;\n"
		"\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
		"\tesac\n"
		"}\n"
		"complete -F _hzfbench hzfbench\n");
}

int zf_doc_main(const struct zf_cmd *cmds, int argc, char **argv)
{
	const char *what = argc > 1 && argv[1][0] == '-' ? argv[1] : NULL;
	const char *name = argv[what ? 2 : 1];
	const struct zf_cmd *c = NULL;
	char help[] = "--help", *args[] = { NULL, help, NULL };
	int operands = argc - 1 - (what != NULL);
	bool named = what && (!strcmp(what, "--markdown") || !strcmp(what, "--man"));

	if (what && (!strcmp(what, "-h") || !strcmp(what, "--help"))) {
		fputs(doc_usage, stdout);
		return 0;
	}
	if (what && !named && strcmp(what, "--completion") && strcmp(what, "--man-dir")) {
		fprintf(stderr, "hzfbench: help: %s: unknown option\n", what);
		return 2;
	}
	if (what && !strcmp(what, "--man-dir")) {
		if (operands != 1) {
			fprintf(stderr, "hzfbench: help: --man-dir: %s\n", operands ? "one folder" :
				"which folder?");
			return 2;
		}
		return man_dir(cmds, name);
	}
	if (name && !(c = find_cmd(cmds, name))) {
		fprintf(stderr, "hzfbench: help: %s: not a subcommand (hzfbench --help)\n", name);
		return 2;
	}
	if (operands > 1 || (what && !named && operands)) {
		fprintf(stderr, "hzfbench: help: %s: unexpected argument\n", argv[argc - 1]);
		return 2;
	}
	if (!what && !c) {
		fputs(doc_usage, stdout);
		return 0;
	}
	if (!what) {	/* hzfbench help SUBCOMMAND: its --help */
		args[0] = (char *)c->name;
		return c->fn(2, args);
	}
	if (!strcmp(what, "--completion")) {
		completion(cmds, stdout);
		return 0;
	}
	if (!strcmp(what, "--man") && !c) {
		man_main(cmds, stdout);
		return 0;
	}
	if (!c) {
		fprintf(stderr, "hzfbench: help: --markdown: which subcommand's options?\n");
		return 2;
	}
	if (!strcmp(what, "--man") && c->options) {
		man_cmd(c, stdout);
		return 0;
	}
	if (!c->options || !has_options(c->options)) {
		fprintf(stderr, "hzfbench: help: %s: %s: no options of its own\n", what, c->name);
		return 2;
	}
	markdown(c->options, stdout);
	return 0;
}
