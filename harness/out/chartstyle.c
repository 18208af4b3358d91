// SPDX-License-Identifier: GPL-2.0
/* strategies.csv: what the charts know of each strategy (chartstyle.h). */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "chartstyle.h"

void zf_chart_styles(struct zf_buf *b)
{
	const struct zf_strategy *const *s;

	zf_buf_printf(b, ZF_CHART_STYLES_COLUMNS "\n");
	for (s = zf_strategies; *s; s++)
		zf_buf_printf(b, "%s,%s,%d,%d,%d\n", (*s)->name, (*s)->style.colour,
			      (*s)->style.dash, (*s)->style.point, (*s)->fault_pass != NULL);
}

int zf_chart_styles_write(const char *dir, bool keep, const char *who)
{
	struct zf_buf b = { 0 };
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, ZF_CHART_STYLES_CSV);
	if (keep && !access(path, F_OK))
		return 0;
	zf_chart_styles(&b);
	ret = zf_buf_write(dir, ZF_CHART_STYLES_CSV, &b, who);
	zf_buf_free(&b);
	return ret;
}
