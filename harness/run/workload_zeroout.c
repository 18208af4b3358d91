// SPDX-License-Identifier: GPL-2.0
/*
 * --workload zeroout: users with no mm zeroing storage, as
 * __blkdev_issue_zero_pages() does for a device without WRITE_ZEROES. A pass
 * is one request of --zero-size bytes: a segment list (a bio's bvecs) built
 * from one zero page, the 4 KiB ZERO_PAGE (segment page) or the huge zero
 * folio largest_zero_folio() gives (segment folio: 2 MiB). With folio
 * segments the strategy's pin/unpin hold the folio for the request: nothing
 * for persistent, a global reference for global and mmflag (there is no mm
 * to tie it to), a per-task count for percpu; the unpin comes at the
 * request's completion, emulated as asynchronous: ZF_ZEROOUT_DEPTH requests
 * later, and the last ones at the repetition's end (its teardown).
 *
 * Sinks: emulated (build the list, pin, complete; nothing written) and file
 * (pwritev() of the list to the file zeroout.c opened, IOV_MAX segments a
 * call, each task round its stretch of the file).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "numa.h"
#include "tasks.h"
#include "zeroout.h"
#include "../../bench/tick.h"

#define FILE_SPAN	(256ULL << 20)	/* each task's stretch of the file, written round */

/* ZERO_PAGE(0) */
static const unsigned char zero_page[ZF_ZEROOUT_PAGE] __attribute__((aligned(ZF_ZEROOUT_PAGE)));

/* a task's requests in flight, and where its next write goes */
struct zo_task {
	struct zf_folio *held[ZF_ZEROOUT_DEPTH];
	unsigned long k;		/* requests issued */
	uint64_t off;			/* bytes written round its stretch */
	/*
	 * the repetition's first request's start: its requests are timed
	 * together, not one by one (a folio request of 32 segments takes
	 * tens of ns, about what a clock read does), 0 before it
	 */
	uint64_t start_ns;
};

/* the request DEPTH ago (or, at the end, any) completes: its end_io drops the folio */
static void complete(struct zf_task *t, struct zf_folio **slot)
{
	const struct zf_strategy *s = t->r->cfg->strategy;

	if (!*slot)
		return;
	if (s->unpin)
		s->unpin(t->pass.zs, NULL, t->pass.st);
	*slot = NULL;
}

/* the segment list, on the task's node */
static int zeroout_task_init(struct zf_task *t, char *why, size_t len)
{
	const struct zf_zeroout_work *w = t->r->cfg->work;
	int node = t->r->cfg->plan->node[t->id];

	t->work = calloc(1, sizeof(struct zo_task));
	t->table_len = w->nseg * sizeof(struct iovec);
	t->table = zf_numa_alloc_placed(t->table_len, node, false, &t->slot->numa_moved);
	if (t->work && t->table)
		return 0;
	snprintf(why, len, "segment list of %lu on node %d: %s", w->nseg, node, strerror(errno));
	free(t->work);
	zf_numa_free(t->table, t->table_len);
	return -ENOMEM;
}

static void zeroout_task_fini(struct zf_task *t)
{
	free(t->work);
	zf_numa_free(t->table, t->table_len);
}

uint64_t zf_zeroout_span(uint64_t budget, int ntasks, uint64_t zero_size, int *stretches)
{
	uint64_t span = FILE_SPAN;
	uint64_t n;

	if (ntasks < 1)
		ntasks = 1;
	if (span > budget / (uint64_t)ntasks)
		span = budget / (uint64_t)ntasks;
	span -= span % zero_size;
	if (span < zero_size)
		span = zero_size;
	n = budget / span;
	*stretches = n < 1 ? 1 : n > (uint64_t)ntasks ? ntasks : (int)n;
	return span;
}

/* --sink file: the list, IOV_MAX segments a call, round the task's stretch; 0 or -errno */
static int write_list(struct zf_task *t, const struct zf_zeroout_work *w, struct iovec *iov)
{
	struct zo_task *zt = t->work;
	unsigned long done;

	for (done = 0; done < w->nseg; done += IOV_MAX) {
		int n = w->nseg - done < IOV_MAX ? (int)(w->nseg - done) : IOV_MAX;
		ssize_t want = (ssize_t)n * (ssize_t)w->seg;
		uint64_t at = (uint64_t)(t->id % w->stretches) * w->span + zt->off % w->span;

		if (pwritev(w->fd, iov + done, n, (off_t)at) != want)
			return errno ? -errno : -EIO;
		zt->off += (uint64_t)want;
		t->sample->write_calls++;
	}
	return 0;
}

static void zeroout_rep_start(struct zf_task *t)
{
	((struct zo_task *)t->work)->start_ns = 0;
}

/* one request: pin (folio segments), build the list, write it or not */
static int zeroout_pass(struct zf_task *t, bool last, char *why, size_t len)
{
	const struct zf_zeroout_work *w = t->r->cfg->work;
	const struct zf_strategy *s = t->r->cfg->strategy;
	struct zo_task *zt = t->work;
	struct zf_folio **slot = &zt->held[zt->k++ % ZF_ZEROOUT_DEPTH];
	struct iovec *iov = t->table;
	const void *base = zero_page;
	unsigned long i;
	int err = 0;

	(void)last;
	if (!zt->start_ns)
		zt->start_ns = zf_now_ns();
	complete(t, slot);
	if (w->seg == ZF_ZEROOUT_FOLIO) {
		*slot = s->pin(t->pass.zs, NULL, t->pass.st);
		if (!*slot) {
			snprintf(why, len, "no huge zero folio to pin");
			return -ENOMEM;
		}
		base = (*slot)->data;
	}
	for (i = 0; i < w->nseg; i++) {	/* bio_add_folio(), one segment each */
		iov[i].iov_base = (void *)base;
		iov[i].iov_len = w->seg;
	}
	if (w->fd >= 0)
		err = write_list(t, w, iov);
	else
		__asm__ __volatile__("" : : "r"(iov) : "memory");	/* the list is the work */
	if (err) {
		snprintf(why, len, "%s", strerror(-err));
		return err;
	}
	t->sample->segments += w->nseg;
	t->sample->bytes += w->nseg * w->seg;
	return 0;
}

/*
 * The requests' time, from the first one's start; then the rest complete
 * (the teardown): every folio pinned is released before the counts are read
 */
static void zeroout_rep_end(struct zf_task *t)
{
	struct zo_task *zt = t->work;
	uint64_t t0 = zf_now_ns();
	int i;

	if (zt->start_ns)
		t->sample->fault_ns += t0 - zt->start_ns;
	for (i = 0; i < ZF_ZEROOUT_DEPTH; i++)
		complete(t, &zt->held[i]);
	t->sample->teardown_ns += zf_now_ns() - t0;
}

const struct zf_workload_ops zf_workload_zeroout = {
	.name		= "zeroout",
	.unit		= "request",
	.folios_per_task = ZF_ZEROOUT_DEPTH + 1,
	.task_init	= zeroout_task_init,
	.task_fini	= zeroout_task_fini,
	.rep_start	= zeroout_rep_start,
	.pass		= zeroout_pass,
	.rep_end	= zeroout_rep_end,
};
