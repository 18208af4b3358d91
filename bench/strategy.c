// SPDX-License-Identifier: GPL-2.0
/* The list of strategies, and what every strategy shares. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "strategy.h"

static const struct zf_strategy *const builtin[] = {
	&zf_strategy_global,
	&zf_strategy_mmflag,
	&zf_strategy_persistent,
	&zf_strategy_percpu,
	&zf_strategy_native,
	NULL,
};

const struct zf_strategy *const *zf_strategies = builtin;

int zf_strategy_register(const struct zf_strategy *s)
{
	/* the list once grown: builtin's pointers and those registered since */
	static const struct zf_strategy **grown;
	const struct zf_strategy **list;
	size_t n = 0;

	if (zf_strategy_find(s->name))
		return -EEXIST;
	while (zf_strategies[n])
		n++;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers to the tables */
	list = realloc(grown, (n + 2) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	if (!grown)	/* NOLINTNEXTLINE(bugprone-sizeof-expression): the same */
		memcpy(list, builtin, n * sizeof(*list));
	list[n] = s;
	list[n + 1] = NULL;
	grown = list;
	zf_strategies = list;
	return 0;
}

const struct zf_strategy *zf_strategy_find(const char *name)
{
	const struct zf_strategy *const *s;

	for (s = zf_strategies; *s; s++)
		if (!strcmp((*s)->name, name))
			return *s;
	return NULL;
}

const struct zf_strategy *zf_strategy_first_of(enum zf_model_kind k)
{
	const struct zf_strategy *const *s;

	for (s = zf_strategies; *s; s++)
		if ((*s)->model == k)
			return *s;
	return NULL;
}

const char *zf_strategy_name(const struct zf_strategy *s)
{
	return s ? s->name : "";
}

const char *zf_strategy_not_one(char *buf, size_t len, const char *what,
				bool (*has)(const struct zf_strategy *s))
{
	const struct zf_strategy *const *s;
	size_t used = snprintf(buf, len, "not %s (", what);
	const char *sep = "";

	for (s = zf_strategies; *s; s++) {
		if (has && !has(*s))
			continue;
		used += snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, "%s%s",
				 sep, (*s)->name);
		sep = ", ";
	}
	snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, ")");
	return buf;
}

/* every counter is an unsigned long, from gets to broken */
_Static_assert(offsetof(struct zf_stats, broken) == 15 * sizeof(unsigned long),
	       "zf_stats_add() adds the fields of struct zf_stats as an array");

void zf_stats_add(struct zf_stats *sum, const struct zf_stats *st)
{
	const unsigned long *src = (const unsigned long *)st;
	unsigned long *dst = (unsigned long *)sum;
	size_t i;

	for (i = 0; i < offsetof(struct zf_stats, broken) / sizeof(long) + 1; i++)
		dst[i] += src[i];
}

int zf_shared_init(struct zf_shared *zs, unsigned int nr_folios)
{
	atomic_init(&zs->refcount, 0);
	atomic_init(&zs->folio, NULL);
	atomic_init(&zs->broken, 0);
	atomic_init(&zs->pcpu_mode, ZF_PCPU_ATOMIC);
	atomic_init(&zs->pcpu_used, 0);
	zs->pcpu_nr = zs->pcpu_gen = 0;
	zs->pcpu = NULL;
	zs->pcpu_switches = 0;
	return zf_folio_pool_init(&zs->pool, nr_folios);
}

void zf_shared_fini(struct zf_shared *zs)
{
	if (zs->pcpu)
		munmap(zs->pcpu, (size_t)zs->pcpu_nr * ZF_PCPU_STRIDE);
	zs->pcpu = NULL;
	zf_folio_pool_fini(&zs->pool);
	atomic_store(&zs->folio, NULL);
}
