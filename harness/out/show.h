/* SPDX-License-Identifier: GPL-2.0 */
/* The terminal view of a results folder: summary.csv as a table, and the headline ratios. */
#ifndef HZF_SHOW_H
#define HZF_SHOW_H

#include <stdio.h>

#include "table.h"

/* 0, or -errno after one line on stderr */
int zf_show(const char *dir, FILE *out);
/* as zf_show() in format f: text is zf_show()'s, the others the summary table alone */
int zf_show_as(const char *dir, enum zf_format f, FILE *out);

/* profile.csv's lines, perf report's way, where dir has one (showprof.c) */
void zf_show_profile(const char *dir, FILE *out);

#endif
