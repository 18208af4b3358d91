// SPDX-License-Identifier: GPL-2.0
/* Strategy semantics: references, the mm flag, the shrinker, poison, and the races. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../../bench/huge_zero.h"
#include "../../bench/usemem.h"
#include "test.h"

static struct zf_shared *new_shared(unsigned int nr)
{
	struct zf_shared *zs = aligned_alloc(ZF_LINE, sizeof(*zs));

	if (zs && zf_shared_init(zs, nr)) {
		free(zs);
		return NULL;
	}
	return zs;
}

static void free_shared(struct zf_shared *zs)
{
	zf_shared_fini(zs);
	free(zs);
}

TEST(global_get_allocates_then_counts)
{
	const struct zf_strategy *s = &zf_strategy_global;
	struct zf_shared *zs = new_shared(4);
	struct zf_stats st = { 0 };
	struct zf_mm mm;
	struct zf_folio *f1, *f2;
	char why[200];

	ASSERT_TRUE(zs);
	zf_mm_init(&mm);
	EXPECT_TRUE(s->init == NULL);	/* allocated on first use */
	f1 = s->get(zs, &mm, &st);
	ASSERT_TRUE(f1);
	/* one for us, one for the shrinker */
	EXPECT_EQ(atomic_load(&zs->refcount), 2);
	EXPECT_EQ(st.allocs, 1);
	EXPECT_EQ(zf_folio_verify(f1), 0);
	f2 = s->get(zs, &mm, &st);
	EXPECT_TRUE(f1 == f2);
	EXPECT_EQ(atomic_load(&zs->refcount), 3);
	EXPECT_EQ(st.allocs, 1);
	/* the shrinker cannot free a folio in use */
	EXPECT_EQ(s->shrink_count(zs), 0);
	EXPECT_EQ(s->shrink_scan(zs, &st), 0);
	s->put(zs, &mm, &st);
	s->put(zs, &mm, &st);
	st.zaps = 2;
	EXPECT_EQ(atomic_load(&zs->refcount), 1);
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	EXPECT_EQ(st.counter_touches, 5);	/* install's store, a CAS, a failed scan, 2 puts */
	free_shared(zs);
}

TEST(global_shrink_frees_poisons_and_reallocates)
{
	const struct zf_strategy *s = &zf_strategy_global;
	struct zf_shared *zs = new_shared(4);
	struct zf_stats st = { 0 };
	struct zf_folio *f;
	struct zf_mm mm;
	char why[200];

	ASSERT_TRUE(zs);
	zf_mm_init(&mm);
	f = s->get(zs, &mm, &st);
	ASSERT_TRUE(f);
	s->put(zs, &mm, &st);
	st.zaps = 1;
	EXPECT_EQ(s->shrink_count(zs), ZF_FOLIO_PAGES);
	EXPECT_EQ(s->shrink_scan(zs, &st), ZF_FOLIO_PAGES);
	EXPECT_EQ(atomic_load(&zs->refcount), 0);
	EXPECT_TRUE(atomic_load(&zs->folio) == NULL);
	/* the freed memory is poisoned: a late reader would see it */
	EXPECT_EQ(f->data[0], ZF_POISON_FREE);
	EXPECT_EQ(f->data[ZF_FOLIO_SIZE - 1], ZF_POISON_FREE);
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	/* the next fault pays for a new zeroed folio */
	f = s->get(zs, &mm, &st);
	ASSERT_TRUE(f);
	EXPECT_EQ(zf_folio_verify(f), 0);
	EXPECT_EQ(st.allocs, 2);
	EXPECT_EQ(st.frees, 1);
	EXPECT_EQ(st.shrinks, 1);
	free_shared(zs);
}

TEST(global_put_to_zero_is_reported_not_fatal)
{
	const struct zf_strategy *s = &zf_strategy_global;
	struct zf_shared *zs = new_shared(4);
	struct zf_stats st = { 0 };
	struct zf_mm mm;
	char why[200] = "";

	ASSERT_TRUE(zs);
	zf_mm_init(&mm);
	ASSERT_TRUE(s->get(zs, &mm, &st));
	s->put(zs, &mm, &st);
	s->put(zs, &mm, &st);		/* one too many: takes the shrinker's reference */
	st.zaps = 2;
	EXPECT_EQ(st.broken, 1);
	EXPECT_TRUE(s->check(zs, &st, why, sizeof(why)) != 0);
	EXPECT_TRUE(strstr(why, "count at zero") != NULL);
	/* a broken state never spins: the next get fails at once */
	EXPECT_TRUE(s->get(zs, &mm, &st) == NULL);
	free_shared(zs);
}

TEST(global_check_catches_unbalanced_references)
{
	const struct zf_strategy *s = &zf_strategy_global;
	struct zf_shared *zs = new_shared(4);
	struct zf_stats st = { 0 };
	struct zf_mm mm;
	char why[200] = "";

	ASSERT_TRUE(zs);
	zf_mm_init(&mm);
	ASSERT_TRUE(s->get(zs, &mm, &st));
	ASSERT_TRUE(s->get(zs, &mm, &st));
	s->put(zs, &mm, &st);
	st.zaps = 2;
	EXPECT_TRUE(s->check(zs, &st, why, sizeof(why)) != 0);
	free_shared(zs);
}

TEST(mmflag_counts_only_first_fault_and_exit)
{
	const struct zf_strategy *s = &zf_strategy_mmflag;
	struct zf_shared *zs = new_shared(4);
	struct zf_stats st = { 0 };
	struct zf_mm a, b;
	unsigned long touches;
	char why[200];
	int i;

	ASSERT_TRUE(zs);
	zf_mm_init(&a);
	zf_mm_init(&b);
	ASSERT_TRUE(s->get(zs, &a, &st));
	EXPECT_EQ(atomic_load(&zs->refcount), 2);
	EXPECT_TRUE(atomic_load(&a.flags) & (1UL << ZF_MMF_HUGE_ZERO_FOLIO));
	touches = st.counter_touches;
	for (i = 0; i < 1000; i++)
		ASSERT_TRUE(s->get(zs, &a, &st));
	EXPECT_EQ(st.counter_touches, touches);
	EXPECT_EQ(st.ref_gets, 1);
	EXPECT_TRUE(s->put == NULL);	/* zapping drops nothing */
	/* a second mm takes its own reference */
	ASSERT_TRUE(s->get(zs, &b, &st));
	EXPECT_EQ(atomic_load(&zs->refcount), 3);
	/* not freeable while any mm that used it lives */
	zf_mm_exit(s, zs, &a, &st);
	EXPECT_EQ(s->shrink_count(zs), 0);
	EXPECT_EQ(s->shrink_scan(zs, &st), 0);
	zf_mm_exit(s, zs, &b, &st);
	EXPECT_EQ(atomic_load(&zs->refcount), 1);
	st.zaps = st.gets;
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	EXPECT_EQ(s->shrink_scan(zs, &st), ZF_FOLIO_PAGES);
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	free_shared(zs);
}

TEST(mmflag_exit_of_unused_mm_touches_nothing)
{
	const struct zf_strategy *s = &zf_strategy_mmflag;
	struct zf_shared *zs = new_shared(2);
	struct zf_stats st = { 0 };
	struct zf_mm mm;

	ASSERT_TRUE(zs);
	zf_mm_init(&mm);
	zf_mm_exit(s, zs, &mm, &st);
	EXPECT_EQ(st.ref_puts, 0);
	EXPECT_EQ(atomic_load(&zs->refcount), 0);
	EXPECT_EQ(st.broken, 0);
	free_shared(zs);
}

TEST(persistent_allocates_at_init_and_never_counts)
{
	const struct zf_strategy *s = &zf_strategy_persistent;
	struct zf_shared *zs = new_shared(2);
	struct zf_stats st = { 0 };
	struct zf_folio *f;
	struct zf_mm mm;
	unsigned long touches;
	char why[200];
	int i;

	ASSERT_TRUE(zs);
	zf_mm_init(&mm);
	ASSERT_EQ(s->init(zs, &st), 0);
	EXPECT_EQ(st.allocs, 1);
	touches = st.counter_touches;
	f = s->get(zs, &mm, &st);
	ASSERT_TRUE(f);
	for (i = 0; i < 1000; i++)
		EXPECT_TRUE(s->get(zs, &mm, &st) == f);
	EXPECT_EQ(st.counter_touches, touches);
	EXPECT_TRUE(s->put == NULL && s->mm_exit == NULL);
	/* no shrinker is registered */
	EXPECT_TRUE(s->shrink_scan == NULL && s->shrink_count == NULL);
	st.zaps = st.gets;
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	EXPECT_EQ(zf_folio_verify(f), 0);
	free_shared(zs);
}

TEST(folio_pool_double_free_and_exhaustion)
{
	struct zf_folio_pool pool;
	struct zf_folio *a, *b;

	ASSERT_EQ(zf_folio_pool_init(&pool, 2), 0);
	a = zf_folio_alloc(&pool);
	b = zf_folio_alloc(&pool);
	ASSERT_TRUE(a && b && a != b);
	EXPECT_TRUE(zf_folio_alloc(&pool) == NULL);
	EXPECT_EQ(zf_folio_free(a), 0);
	EXPECT_TRUE(zf_folio_free(a) != 0);
	EXPECT_EQ(zf_folio_live_count(&pool), 1);
	a->data[17] = 0;
	b->data[12345] = 7;
	EXPECT_EQ(zf_folio_verify(b), 12346);
	zf_folio_pool_fini(&pool);
}

/* -------- races -------- */

#define RACERS	4
#define ROUNDS	300

struct race {
	const struct zf_strategy *s;
	struct zf_shared *zs;
	struct zf_mm mm;
	pthread_barrier_t start, end;
	struct zf_stats st[RACERS];
	struct zf_folio *got[RACERS];
	_Atomic int stop;
	_Atomic long bad_reads;
	_Atomic unsigned long faults;	/* the holder's progress, for the shrinker's loop */
};

/* a race on a fresh shared state for nr tasks, or NULL with nothing left allocated */
static struct race *new_race(const struct zf_strategy *s, unsigned int nr)
{
	struct race *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->s = s;
	r->zs = new_shared(nr);
	if (!r->zs) {
		free(r);
		return NULL;
	}
	return r;
}

static void *first_fault_racer(void *arg)
{
	struct race *r = ((void **)arg)[0];
	int id = (int)(long)((void **)arg)[1], round;

	for (round = 0; round < ROUNDS; round++) {
		pthread_barrier_wait(&r->start);
		r->got[id] = r->s->get(r->zs, &r->mm, &r->st[id]);
		pthread_barrier_wait(&r->end);
		pthread_barrier_wait(&r->start);	/* main checks and resets */
	}
	return NULL;
}

/* RACERS threads take the first fault of one fresh mm at once, ROUNDS times */
static void race_first_fault(struct zf_test *_t, const struct zf_strategy *s,
			     long want_refcount)
{
	struct race *r = new_race(s, RACERS + 2);
	pthread_t th[RACERS];
	void *args[RACERS][2];
	struct zf_stats main_st = { 0 }, sum;
	int i, round;

	ASSERT_TRUE(r);
	zf_mm_init(&r->mm);
	pthread_barrier_init(&r->start, NULL, RACERS + 1);
	pthread_barrier_init(&r->end, NULL, RACERS + 1);
	for (i = 0; i < RACERS; i++) {
		args[i][0] = r;
		args[i][1] = (void *)(long)i;
		pthread_create(&th[i], NULL, first_fault_racer, args[i]);
	}
	for (round = 0; round < ROUNDS; round++) {
		pthread_barrier_wait(&r->start);
		pthread_barrier_wait(&r->end);
		for (i = 0; i < RACERS; i++)
			EXPECT_TRUE(r->got[i] && r->got[i] == atomic_load(&r->zs->folio));
		EXPECT_EQ(atomic_load(&r->zs->refcount), want_refcount);
		EXPECT_EQ(zf_folio_live_count(&r->zs->pool), 1);
		/* tear down: every reference back, then shrink so the next round allocates */
		if (s->put)
			for (i = 0; i < RACERS; i++)
				s->put(r->zs, &r->mm, &main_st);
		zf_mm_exit(s, r->zs, &r->mm, &main_st);
		zf_mm_init(&r->mm);
		EXPECT_EQ(s->shrink_scan(r->zs, &main_st), ZF_FOLIO_PAGES);
		pthread_barrier_wait(&r->start);
	}
	for (i = 0; i < RACERS; i++)
		pthread_join(th[i], NULL);
	sum = main_st;
	for (i = 0; i < RACERS; i++)
		zf_stats_add(&sum, &r->st[i]);
	EXPECT_EQ(sum.ref_gets, sum.ref_puts);
	EXPECT_EQ(sum.allocs - sum.frees, 0);
	EXPECT_EQ(sum.shrinks, ROUNDS);
	EXPECT_EQ(sum.broken, 0);
	printf("  %d rounds: %lu allocation races lost, %lu CAS retries, %lu flag races lost\n",
	       ROUNDS, sum.alloc_races_lost, sum.cas_retries,
	       s == &zf_strategy_mmflag ? sum.ref_gets - ROUNDS : 0);
	free_shared(r->zs);
	pthread_barrier_destroy(&r->start);
	pthread_barrier_destroy(&r->end);
	free(r);
}

TEST(mmflag_first_fault_race_leaves_one_reference)
{
	/* one reference for the mm, one for the shrinker, however the race went */
	race_first_fault(_t, &zf_strategy_mmflag, 2);
}

TEST(global_allocation_race_leaves_one_folio)
{
	/* every racer holds a reference, plus the shrinker's; one folio live */
	race_first_fault(_t, &zf_strategy_global, RACERS + 1);
}

/* one task faulting and unmapping in a loop, a life an mm; its counts in r->st[id] */
struct holder_arg {
	struct race *r;
	int id;
};

static void *holder(void *arg)
{
	struct race *r = ((struct holder_arg *)arg)->r;
	struct zf_stats *st = &r->st[((struct holder_arg *)arg)->id];
	struct zf_mm mm;
	unsigned long i;

	zf_mm_init(&mm);
	for (i = 0; !atomic_load(&r->stop); i++) {
		struct zf_folio *f = r->s->get(r->zs, &mm, st);
		int k;

		st->gets++;
		atomic_fetch_add_explicit(&r->faults, 1, memory_order_relaxed);
		if (!f) {
			atomic_fetch_add(&r->bad_reads, 1);
			continue;
		}
		/* while held, the folio must stay live and all zero where read */
		for (k = 0; k < 64; k++)
			if (atomic_load(&f->state) != ZF_FOLIO_LIVE ||
			    f->data[((i + k) * 4096 + k) % ZF_FOLIO_SIZE])
				atomic_fetch_add(&r->bad_reads, 1);
		if (r->s->put)
			r->s->put(r->zs, &mm, st);
		st->zaps++;
		zf_mm_exit(r->s, r->zs, &mm, st);
		zf_mm_init(&mm);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a shrinker scanning while a task faults and unmaps in a loop */
static void shrinker_race(struct zf_test *_t, const struct zf_strategy *s)
{
	struct race *r = new_race(s, 4);
	struct zf_stats shrink_st = { 0 }, sum;
	struct holder_arg one = { .r = r, .id = 0 };
	double deadline = now_s() + 3;
	long bad_reads;
	pthread_t th;
	char why[200];

	ASSERT_TRUE(r);
	pthread_create(&th, NULL, holder, &one);
	/* until the shrinker has freed under the task's feet often, or 3 s */
	while ((shrink_st.shrinks < 200 || atomic_load(&r->faults) < 20000) && now_s() < deadline)
		if (s->shrink_count(r->zs))
			s->shrink_scan(r->zs, &shrink_st);
	atomic_store(&r->stop, 1);
	pthread_join(th, NULL);
	bad_reads = atomic_load(&r->bad_reads);
	EXPECT_EQ(bad_reads, 0);
	/* the race must really have been run: frees and reallocations happened */
	EXPECT_TRUE(shrink_st.shrinks > 0);
	sum = shrink_st;
	zf_stats_add(&sum, &r->st[0]);
	EXPECT_EQ(sum.allocs, sum.shrinks + (atomic_load(&r->zs->folio) ? 1 : 0) +
		  sum.alloc_races_lost);
	EXPECT_EQ(s->check(r->zs, &sum, why, sizeof(why)), 0);
	printf("  %lu faults, %lu folios freed by the shrinker meanwhile\n", sum.gets,
	       sum.shrinks);
	free_shared(r->zs);
	free(r);
}

TEST(global_shrinker_never_frees_a_folio_in_use)
{
	shrinker_race(_t, &zf_strategy_global);
}

TEST(mmflag_shrinker_never_frees_a_folio_in_use)
{
	shrinker_race(_t, &zf_strategy_mmflag);
}

TEST(percpu_shrinker_never_frees_a_folio_in_use)
{
	shrinker_race(_t, &zf_strategy_percpu);
}

/* -------- percpu: counts per task, switched to atomic by the shrinker -------- */

TEST(percpu_counts_per_task_off_the_shared_line)
{
	const struct zf_strategy *s = &zf_strategy_percpu;
	struct zf_shared *zs = new_shared(4);
	struct zf_stats st = { 0 };
	struct zf_folio *f;
	unsigned long touches;
	long count;
	char why[200];
	int i;

	ASSERT_TRUE(zs);
	ASSERT_EQ(s->init(zs, &st), 0);
	EXPECT_EQ(atomic_load(&zs->pcpu_mode), ZF_PCPU_ATOMIC);	/* no folio yet */
	f = s->get(zs, NULL, &st);
	ASSERT_TRUE(f != NULL);
	EXPECT_EQ(st.allocs, 1);
	EXPECT_EQ(atomic_load(&zs->pcpu_mode), ZF_PCPU_PERCPU);
	/* from now on no get or put writes the shared count */
	touches = st.counter_touches;
	count = atomic_load(&zs->refcount);
	for (i = 0; i < 1000; i++)
		EXPECT_TRUE(s->get(zs, NULL, &st) == f);
	for (i = 0; i < 1001; i++) {
		s->put(zs, NULL, &st);
		st.zaps++;
	}
	EXPECT_EQ(st.counter_touches, touches);
	EXPECT_EQ(atomic_load(&zs->refcount), count);
	EXPECT_EQ(st.ref_gets, 1001);
	EXPECT_EQ(st.ref_puts, 1001);
	/* at rest the folded count is the shrinker's reference alone, and the mode is kept */
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	EXPECT_EQ(atomic_load(&zs->pcpu_mode), ZF_PCPU_PERCPU);
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	touches = st.counter_touches;
	/* a reference too many is caught, folded or not */
	EXPECT_TRUE(s->get(zs, NULL, &st) == f);
	EXPECT_EQ(st.counter_touches, touches);
	st.zaps++;	/* as if it had been zapped without a put */
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), -EPROTO);
	free_shared(zs);
}

TEST(percpu_shrinker_switches_folds_and_frees)
{
	const struct zf_strategy *s = &zf_strategy_percpu;
	struct zf_shared *zs = new_shared(4);
	struct zf_stats st = { 0 }, sh = { 0 };
	struct zf_folio *f;
	char why[200];

	ASSERT_TRUE(zs);
	ASSERT_EQ(s->init(zs, &st), 0);
	f = s->get(zs, NULL, &st);
	ASSERT_TRUE(f != NULL);
	/* held: the switch folds, finds a user, and switches back; nothing freed */
	EXPECT_EQ(s->shrink_count(zs), ZF_FOLIO_PAGES);	/* per task, nobody knows: maybe */
	EXPECT_EQ(s->shrink_scan(zs, &sh), 0);
	EXPECT_EQ(zs->pcpu_switches, 1);
	EXPECT_EQ(atomic_load(&zs->pcpu_mode), ZF_PCPU_PERCPU);
	EXPECT_EQ(atomic_load(&f->state), ZF_FOLIO_LIVE);
	/* dropped on percpu mode: the next switch finds only its own reference */
	s->put(zs, NULL, &st);
	st.zaps++;
	EXPECT_EQ(s->shrink_scan(zs, &sh), ZF_FOLIO_PAGES);
	EXPECT_EQ(zs->pcpu_switches, 2);
	EXPECT_EQ(atomic_load(&zs->pcpu_mode), ZF_PCPU_ATOMIC);
	EXPECT_TRUE(atomic_load(&zs->folio) == NULL);
	EXPECT_EQ(atomic_load(&zs->refcount), 0);
	EXPECT_EQ(s->shrink_count(zs), 0);
	/* the next fault allocates anew and counts per task again */
	f = s->get(zs, NULL, &st);
	ASSERT_TRUE(f != NULL);
	EXPECT_EQ(st.allocs, 2);
	EXPECT_EQ(atomic_load(&zs->pcpu_mode), ZF_PCPU_PERCPU);
	s->put(zs, NULL, &st);
	st.zaps++;
	zf_stats_add(&st, &sh);
	EXPECT_EQ(s->check(zs, &st, why, sizeof(why)), 0);
	free_shared(zs);
}

/*
 * RACERS tasks fault and unmap in a loop while the shrinker switches modes
 * under them: a get or put that read percpu mode just before the switch must
 * still be folded in, one that came after must count atomically, and a
 * folio freed must never be one somebody still holds.
 */
TEST(percpu_mode_switch_races_with_gets)
{
	struct race *r = new_race(&zf_strategy_percpu, RACERS + 2);
	struct holder_arg arg[RACERS];
	struct zf_stats shrink_st = { 0 }, sum;
	double deadline = now_s() + 3;
	pthread_t th[RACERS];
	char why[200];
	int i;

	ASSERT_TRUE(r);
	ASSERT_EQ(r->s->init(r->zs, &shrink_st), 0);
	for (i = 0; i < RACERS; i++) {
		arg[i] = (struct holder_arg){ .r = r, .id = i };
		pthread_create(&th[i], NULL, holder, &arg[i]);
	}
	while ((r->zs->pcpu_switches < 40 || shrink_st.shrinks < 5) && now_s() < deadline)
		if (r->s->shrink_count(r->zs))
			r->s->shrink_scan(r->zs, &shrink_st);
	atomic_store(&r->stop, 1);
	for (i = 0; i < RACERS; i++)
		pthread_join(th[i], NULL);
	EXPECT_EQ(atomic_load(&r->bad_reads), 0);
	EXPECT_TRUE(r->zs->pcpu_switches > 0);
	sum = shrink_st;
	for (i = 0; i < RACERS; i++)
		zf_stats_add(&sum, &r->st[i]);
	EXPECT_EQ(sum.ref_gets, sum.ref_puts);
	EXPECT_EQ(sum.broken, 0);
	EXPECT_EQ(r->s->check(r->zs, &sum, why, sizeof(why)), 0);
	printf("  %lu faults, %lu mode switches, %lu folios freed, %lu CAS retries meanwhile\n",
	       sum.gets, r->zs->pcpu_switches, sum.shrinks, sum.cas_retries);
	free_shared(r->zs);
	free(r);
}

TEST(strategy_table_lists_each_once)
{
	EXPECT_TRUE(zf_strategy_find("global") == &zf_strategy_global);
	EXPECT_TRUE(zf_strategy_find("mmflag") == &zf_strategy_mmflag);
	EXPECT_TRUE(zf_strategy_find("persistent") == &zf_strategy_persistent);
	EXPECT_TRUE(zf_strategy_find("native") == &zf_strategy_native);
	EXPECT_TRUE(zf_strategy_find("percpu") == &zf_strategy_percpu);
	EXPECT_TRUE(zf_strategy_find("percpu_ref") == NULL);
	EXPECT_TRUE(zf_strategies[5] == NULL);
	/* native exists on real faults only */
	EXPECT_TRUE(zf_strategy_native.fault_pass == NULL);
	EXPECT_TRUE(zf_strategy_native.kernel_fault_pass != NULL);
}

/* what the model, show and report ask of the table instead of names */
TEST(strategy_table_says_each_kind)
{
	EXPECT_TRUE(zf_strategy_first_of(ZF_MODEL_SHARED) == &zf_strategy_global);
	EXPECT_TRUE(zf_strategy_first_of(ZF_MODEL_PER_MM) == &zf_strategy_mmflag);
	EXPECT_TRUE(zf_strategy_first_of(ZF_MODEL_UNCOUNTED) == &zf_strategy_persistent);
	EXPECT_TRUE(zf_strategy_first_of(ZF_MODEL_NONE) == &zf_strategy_percpu);
	EXPECT_TRUE(!strcmp(zf_strategy_name(NULL), ""));
	/* a name taken is refused, and the list is left as it was */
	EXPECT_EQ(zf_strategy_register(&zf_strategy_global), -EEXIST);
	EXPECT_TRUE(zf_strategies[5] == NULL);
}

/*
 * --mm-atomics: each emulated fault counts its deposited table in the mm's
 * page-table bytes and each zap takes it off, on the mm's own line, whatever
 * the strategy; off, the line is never touched
 */
TEST(mm_atomics_count_each_fault_and_zap_on_the_mm)
{
	const struct zf_strategy *const *s;
	struct zf_folio *slots[8];

	_Static_assert(offsetof(struct zf_mm, pgtables_bytes) >= ZF_LINE,
		       "the page-table bytes lie apart from the flag word");
	for (s = zf_strategies; *s; s++) {
		struct zf_shared *zs;
		struct zf_stats st = { 0 };
		struct zf_mm mm;
		int on;

		if (!(*s)->fault_pass)
			continue;	/* native: real faults count the kernel's own mm */
		for (on = 0; on < 2; on++) {
			struct zf_pass p = { .mm = &mm, .st = &st, .slots = slots,
					     .faults_per_pass = 8, .step = 2UL << 20,
					     .mm_atomics = on };

			zs = new_shared(2);
			ASSERT_TRUE(zs);
			p.zs = zs;
			ASSERT_EQ((*s)->init ? (*s)->init(zs, &st) : 0, 0);
			zf_mm_init(&mm);
			(*s)->fault_pass(&p);
			EXPECT_EQ(p.fallbacks, 0);
			EXPECT_EQ(atomic_load(&mm.pgtables_bytes), on ? 8 * ZF_PTE_TABLE_BYTES : 0);
			(*s)->zap_pass(&p);
			EXPECT_EQ(atomic_load(&mm.pgtables_bytes), 0);
			zf_mm_exit(*s, zs, &mm, &st);
			EXPECT_EQ(st.mm_tables_left, 0);
			free_shared(zs);
			memset(&st, 0, sizeof(st));
		}
	}
}

/* check_mm(): an mm that exits with page-table bytes still counted is said */
TEST(mm_exit_with_tables_counted_is_a_broken_invariant)
{
	struct zf_stats st = { 0 };
	struct zf_mm mm;

	zf_mm_init(&mm);
	zf_mm_inc_nr_ptes(&mm);
	zf_mm_exit(&zf_strategy_persistent, NULL, &mm, &st);
	EXPECT_EQ(st.mm_tables_left, 1);
	zf_mm_init(&mm);
	zf_mm_exit(&zf_strategy_persistent, NULL, &mm, &st);
	EXPECT_EQ(st.mm_tables_left, 1);
}

/* every pass's region on a 2 MiB boundary, whole, and gone after its unmap */
TEST(region_map_aligns_to_a_pmd)
{
	struct zf_pass p = { 0 };
	size_t len = (3UL << 20) + 4096;
	const void *at;
	int i;

	for (i = 0; i < 16; i++) {
		ASSERT_EQ(zf_region_map(&p, len), 0);
		EXPECT_EQ((uintptr_t)p.region % (2UL << 20), 0);
		EXPECT_EQ(p.region_len, len);
		EXPECT_EQ(p.region[0] | p.region[len - 1], 0);
		at = (const void *)p.region;
		ASSERT_EQ(zf_region_unmap(&p), 0);
		EXPECT_TRUE(msync((void *)at, 4096, MS_ASYNC) == -1 && errno == ENOMEM);
	}
}
