/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strategies.csv: every strategy this binary knows, in the table's order,
 * with how the charts draw it (struct zf_chart_style) and whether it runs
 * emulated faults (the charts of lifecycle and zeroout give those a slot
 * each, run or not). plots/style.gp reads
 * it, so a chart draws whatever strategies a folder's rows name, each in the
 * style its ops table gives, and no chart script lists them.
 */
#ifndef HZF_CHARTSTYLE_H
#define HZF_CHARTSTYLE_H

#include <stdbool.h>

#include "buf.h"

#define ZF_CHART_STYLES_CSV	"strategies.csv"
/* emulated: 1 where the strategy runs emulated faults (every workload but real faults) */
#define ZF_CHART_STYLES_COLUMNS	"strategy,colour,dash,point,emulated"

/* the whole of strategies.csv, header and a row a strategy */
void zf_chart_styles(struct zf_buf *b);
/*
 * dir/strategies.csv := zf_chart_styles(); where keep, one already there is
 * left as it is (the binary that measured knew its strategies best).
 * 0, or 1 with "hzfbench: WHO: ..." said.
 */
int zf_chart_styles_write(const char *dir, bool keep, const char *who);

#endif
