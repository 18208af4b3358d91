// SPDX-License-Identifier: GPL-2.0
/* stats.json's members: see statsjson.h. */
#include <errno.h>
#include <string.h>

#include "buf.h"
#include "cols.h"
#include "json.h"
#include "statsjson.h"

struct member {
	json_t *stats;
	struct zf_buf name;
	size_t prefix_len;	/* name's configuration part, a dot after it */
	int err;
};

static void add(void *arg, const char *column, double value)
{
	struct member *m = arg;

	m->name.len = m->prefix_len;
	zf_buf_printf(&m->name, "%s", column);
	if (m->name.oom || json_object_set_new(m->stats, m->name.text, zf_json_real(value)))
		m->err = -ENOMEM;
}

int zf_stats_json_row(json_t *stats, const struct zf_summary_row *row)
{
	const struct zf_config_key *k = &row->key;
	struct member m = { .stats = stats };

	zf_buf_printf(&m.name, ZF_STATS_PREFIX ".%s.%s.%llu.", k->strategy, k->task_kind,
		      (unsigned long long)k->tasks);
	if (k->placement && strcmp(k->placement, ZF_STATS_DEFAULT_PLACEMENT))
		zf_buf_printf(&m.name, "%s.", k->placement);
	if (k->fault && strcmp(k->fault, ZF_STATS_DEFAULT_FAULT))
		zf_buf_printf(&m.name, "%s.", k->fault);
	m.prefix_len = m.name.len;
	zf_cols_numbers(&zf_summary_table, row, add, &m);
	if (m.name.oom)
		m.err = -ENOMEM;
	zf_buf_free(&m.name);
	return m.err;
}
