// SPDX-License-Identifier: GPL-2.0
/*
 * profile.csv: where --profile's samples fell, a configuration's every
 * repetition and task together, as perf report lists it: the strategy's get
 * and put sections ([.]), then the kernel's symbols ([k]) by samples, the
 * first ZF_PROFILE_TOP_KSYMS and the huge zero folio's get and put functions
 * wherever they rank.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kallsyms.h"
#include "rescols.h"
#include "resrows.h"

/* per kernel symbol (index + 1), its samples over the configuration's tasks */
struct ksym_total {
	uint32_t sym;
	uint64_t samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct ksym_total *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

/* the tasks' symbols added up into t (room for every slot of every task); how many */
static size_t ksym_totals(const struct zf_task_sample *ts, size_t n, struct ksym_total *t)
{
	size_t i, j, k, nt = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < ZF_PROFILE_KSYMS && ts[i].prof.ksym[j].sym; j++) {
			const struct zf_ksym_count *c = &ts[i].prof.ksym[j];

			for (k = 0; k < nt && t[k].sym != c->sym; k++)
				;
			if (k == nt)
				t[nt++] = (struct ksym_total){ .sym = c->sym };
			t[k].samples += c->samples;
		}
	qsort(t, nt, sizeof(*t), by_samples);
	return nt;
}

static void profile_row(struct zf_buf *b, const struct zf_config_result *c, const char *mode,
			const char *symbol, uint64_t samples, uint64_t all)
{
	struct zf_profile_row row = { .mode = mode, .symbol = symbol, .samples = samples,
				      .share = (double)samples / all };

	zf_results_key(&c->cfg, &row.key);
	zf_cols_row(b, &zf_profile_table, &row, true);
}

void zf_results_profile_rows(struct zf_buf *b, const struct zf_results *r,
			     const struct zf_config_result *c)
{
	size_t n = (size_t)c->reps * c->cfg.plan->ntasks, i, nt;
	const struct zf_task_sample *ts = c->samples;
	uint64_t get = 0, put = 0, all = 0;
	struct ksym_total *t;

	for (i = 0; i < n; i++) {
		get += ts[i].prof.get;
		put += ts[i].prof.put;
		all += ts[i].prof.get + ts[i].prof.put + ts[i].prof.other;
	}
	if (!r->profile || r->profile_err || !all)
		return;
	profile_row(b, c, "[.]", "hzf_get", get, all);
	profile_row(b, c, "[.]", "hzf_put", put, all);
	if (!r->kallsyms)
		return;
	t = calloc(n * ZF_PROFILE_KSYMS + 1, sizeof(*t));
	if (!t) {
		b->oom = 1;
		return;
	}
	nt = ksym_totals(ts, n, t);
	for (i = 0; i < nt; i++) {
		const struct zf_ksym *k = &r->kallsyms->sym[t[i].sym - 1];
		char name[256];

		if (i >= ZF_PROFILE_TOP_KSYMS && !zf_kernel_role(k->name))
			continue;
		snprintf(name, sizeof(name), k->module ? "%s [%s]" : "%s", k->name, k->module);
		profile_row(b, c, "[k]", name, t[i].samples, all);
	}
	free(t);
}
