// SPDX-License-Identifier: GPL-2.0
/*
 * profile.csv: where --profile's samples fell, a configuration's every
 * repetition and task together, as perf report lists it: the strategy's get
 * and put sections ([.]), then the kernel's symbols ([k]) by samples, the
 * first ZF_PROFILE_TOP_KSYMS and the huge zero folio's get and put functions
 * wherever they rank. Each run's samples are pooled into its
 * configuration's as it is added: one count a symbol, however many tasks
 * and repetitions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "rescols.h"
#include "resrows.h"

static int by_samples(const void *a, const void *b)
{
	const struct zf_ksym_total *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

/* where sym is in c's pool, kept in symbol order, or where it would go */
static size_t ksym_at(const struct zf_config_result *c, uint32_t sym)
{
	size_t lo = 0, hi = c->nksym;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->ksym[mid].sym < sym)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* one task's count of sym added to c's pool; -ENOMEM */
static int ksym_add(struct zf_config_result *c, uint32_t sym, uint64_t samples)
{
	size_t at = ksym_at(c, sym);

	if (at == c->nksym || c->ksym[at].sym != sym) {
		/* one more: a symbol not seen before is rare once a run is in */
		struct zf_ksym_total *grown = realloc(c->ksym, (c->nksym + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		c->ksym = grown;
		memmove(&c->ksym[at + 1], &c->ksym[at], (c->nksym - at) * sizeof(*c->ksym));
		c->ksym[at] = (struct zf_ksym_total){ .sym = sym };
		c->nksym++;
	}
	c->ksym[at].samples += samples;
	return 0;
}

int zf_results_profile_pool(const struct zf_results *r, struct zf_config_result *c,
			    const struct zf_run_result *res)
{
	size_t n = (size_t)res->reps * res->ntasks, i, j;
	const struct zf_task_sample *ts = res->samples;

	for (i = 0; i < n; i++) {
		c->prof_get += ts[i].prof.get;
		c->prof_put += ts[i].prof.put;
		c->prof_all += ts[i].prof.get + ts[i].prof.put + ts[i].prof.other;
	}
	if (!r->profile || !r->kallsyms)
		return 0;	/* no [k] row: nothing to pool */
	for (i = 0; i < n; i++)
		for (j = 0; j < ZF_PROFILE_KSYMS && ts[i].prof.ksym[j].sym; j++)
			if (ksym_add(c, ts[i].prof.ksym[j].sym, ts[i].prof.ksym[j].samples))
				return -ENOMEM;
	return 0;
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
	uint64_t all = c->prof_all;
	struct zf_ksym_total *t;
	size_t i;

	if (!r->profile || r->profile_err || !all)
		return;
	profile_row(b, c, "[.]", "hzf_get", c->prof_get, all);
	profile_row(b, c, "[.]", "hzf_put", c->prof_put, all);
	if (!r->kallsyms)
		return;
	/* by samples, the pool left in symbol order for the next run's */
	t = malloc((c->nksym + 1) * sizeof(*t));
	if (!t) {
		b->oom = 1;
		return;
	}
	if (c->nksym)
		memcpy(t, c->ksym, c->nksym * sizeof(*t));
	qsort(t, c->nksym, sizeof(*t), by_samples);
	for (i = 0; i < c->nksym; i++) {
		const struct zf_ksym *k = &r->kallsyms->sym[t[i].sym - 1];
		char name[256];

		if (i >= ZF_PROFILE_TOP_KSYMS && !zf_kernel_role(k->name))
			continue;
		snprintf(name, sizeof(name), k->module ? "%s [%s]" : "%s", k->name, k->module);
		profile_row(b, c, "[k]", name, t[i].samples, all);
	}
	free(t);
}
