/* SPDX-License-Identifier: GPL-2.0 */
/* The terminal view of a results folder: summary.csv as a table, and the headline ratios. */
#ifndef HZF_SHOW_H
#define HZF_SHOW_H

#include <stdio.h>

/* 0, or -errno after one line on stderr */
int zf_show(const char *dir, FILE *out);

#endif
