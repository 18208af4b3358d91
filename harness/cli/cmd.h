/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands: each a cmd_*.c of its own (those of another room keep
 * their zf_*_main there), gathered in main.c's table of { name, summary, fn }.
 */
#ifndef HZF_CMD_H
#define HZF_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct zf_opt_set;

struct zf_cmd {
	const char *name;
	const char *summary;
	const struct zf_opt_set *options;	/* its table (opt.h); NULL: none of its own */
	int (*fn)(int argc, char **argv);
};

/*
 * hzfbench help [--markdown | --man | --completion] [SUBCOMMAND]: the docs'
 * option tables, a man page and bash completion, from cmds' option tables
 * (docgen.c); cmds ends in a NULL name
 */
int zf_doc_main(const struct zf_cmd *cmds, int argc, char **argv);

int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_usemem(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_strategies(int argc, char **argv);

/* shared by run and usemem (cmd_run.c) */
/* tasks: one a PU, or 4096 where there are fewer PUs */
unsigned long zf_tasks_cap(long pus);
int zf_bad_tasks(const char *opt, const char *value, const char *why, unsigned long cap);
int zf_sweep_or_run(int argc, char **argv, bool single, int meta_argc, char **meta_argv,
		    char *dir, size_t dir_len);

#endif
