// SPDX-License-Identifier: GPL-2.0
/* Per-task perf_event counters: see perfctr.h. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kallsyms.h"
#include "perfctr.h"
#include "sysinfo.h"

static int perf_open(const struct zf_perf_event *e, int group)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = e->type,
		.config = e->config,
		.config1 = e->config1,
		.config2 = e->config2,
		.exclude_user = e->exclude_user,
		.exclude_kernel = e->exclude_kernel,
		.disabled = group < 0,	/* the leader holds its group back until started */
		.exclude_hv = 1,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd = syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static bool is_hardware(const struct zf_perf_event *e)
{
	return e->type != PERF_TYPE_SOFTWARE;
}

void zf_perf_open(struct zf_perf_task *t, const struct zf_perf_list *list)
{
	int hw_leader = -1, hw_members = 0, sw_leader = -1;
	size_t i;

	t->list = list;
	for (i = 0; i < ZF_PERF_MAX_EVENTS; i++) {
		t->fd[i] = -1;
		t->err[i] = 0;
		t->leader[i] = -1;
	}
	for (i = 0; list && i < list->n; i++) {
		bool hw = is_hardware(&list->ev[i]);
		int *leader = hw ? &hw_leader : &sw_leader, fd;

		if (hw && hw_members == ZF_PERF_HW_GROUP) {	/* a new group: the PMU multiplexes them */
			hw_leader = -1;
			hw_members = 0;
		}
		fd = perf_open(&list->ev[i], *leader >= 0 ? t->fd[*leader] : -1);
		if (fd < 0) {
			t->err[i] = -fd;
			continue;
		}
		t->fd[i] = fd;
		if (*leader < 0)
			*leader = i;
		t->leader[i] = *leader;
		hw_members += hw;
	}
}

void zf_perf_start(struct zf_perf_task *t)
{
	size_t i;

	for (i = 0; t->list && i < t->list->n; i++)
		if (t->fd[i] >= 0 && t->leader[i] == (int)i) {
			ioctl(t->fd[i], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
			ioctl(t->fd[i], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		}
}

int zf_perf_read(struct zf_perf_task *t, struct zf_perf_value *vals)
{
	uint64_t buf[3 + ZF_PERF_MAX_EVENTS];
	size_t i, j, k;

	memset(vals, 0, ZF_PERF_MAX_EVENTS * sizeof(*vals));
	for (i = 0; t->list && i < t->list->n; i++) {
		ssize_t n;

		if (t->fd[i] < 0 || t->leader[i] != (int)i)
			continue;
		n = read(t->fd[i], buf, sizeof(buf));
		if (n < (ssize_t)(3 * sizeof(uint64_t)))
			return n < 0 ? -errno : -EIO;
		/* { nr, time_enabled, time_running, value[nr] }: members in the order they joined */
		for (j = i, k = 0; j < t->list->n && k < buf[0]; j++) {
			if (t->leader[j] != (int)i)
				continue;
			vals[j].count = buf[3 + k++];
			vals[j].enabled_ns = buf[1];
			vals[j].running_ns = buf[2];
		}
	}
	return 0;
}

void zf_perf_close(struct zf_perf_task *t)
{
	size_t i;

	for (i = ZF_PERF_MAX_EVENTS; i-- > 0;) {	/* members before their leaders */
		if (t->fd[i] >= 0)
			close(t->fd[i]);
		t->fd[i] = -1;
	}
}

#define RING_PAGES	16	/* data pages: 64 KiB, ~4000 samples between drains */

int zf_sampler_open(struct zf_sampler *s, uint64_t period_ns, const void *get_lo,
		    const void *get_hi, const void *put_lo, const void *put_hi,
		    const struct zf_kallsyms *ks)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period_ns,
		.sample_type = PERF_SAMPLE_IP,
		.disabled = 1,
		.exclude_hv = 1,
	};
	long page = sysconf(_SC_PAGESIZE);

	memset(s, 0, sizeof(*s));
	s->get_lo = (uintptr_t)get_lo;
	s->get_hi = (uintptr_t)get_hi;
	s->put_lo = (uintptr_t)put_lo;
	s->put_hi = (uintptr_t)put_hi;
	s->ks = ks;
	s->fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	s->ring_len = (1 + RING_PAGES) * page;
	s->ring = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (s->ring == MAP_FAILED) {
		int err = -errno;

		close(s->fd);
		s->fd = -1;
		s->ring = NULL;
		return err;
	}
	return 0;
}

void zf_sampler_enable(struct zf_sampler *s, bool on)
{
	if (s->fd >= 0)
		ioctl(s->fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/* len bytes at offset off of the data area, which wraps */
static void ring_copy(const unsigned char *data, uint64_t size, uint64_t off, void *out,
		      size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		((unsigned char *)out)[i] = data[(off + i) % size];
}

int zf_kernel_role(const char *name)
{
	/*
	 * folio since 6.10 (mm_ since 6.8 puts a process's reference), page
	 * before; map_ is kernel/global.patch's reference per mapping
	 */
	static const char *const get[] = { "get_huge_zero_folio", "get_huge_zero_page",
		"mm_get_huge_zero_folio", "mm_get_huge_zero_page", "map_get_huge_zero_folio" };
	static const char *const put[] = { "put_huge_zero_folio", "put_huge_zero_page",
		"mm_put_huge_zero_folio", "mm_put_huge_zero_page", "map_put_huge_zero_folio" };
	/* gcc's parts of a function keep its name before a dot: .cold, .isra.0, .part.0 */
	size_t i, n = strcspn(name, ".");

	for (i = 0; i < sizeof(get) / sizeof(get[0]); i++) {
		if (strlen(get[i]) == n && !strncmp(name, get[i], n))
			return ZF_KERNEL_GET;
		if (strlen(put[i]) == n && !strncmp(name, put[i], n))
			return ZF_KERNEL_PUT;
	}
	return 0;
}

/* a kernel sample at ip: named by the kallsyms where it can be */
static void kernel_sample(const struct zf_sampler *s, uint64_t ip, struct zf_profile *p)
{
	const struct zf_ksym *k = s->ks ? zf_kallsyms_find(s->ks, ip) : NULL;
	uint32_t sym;
	size_t i;

	p->kernel++;
	if (!k)
		return;
	switch (zf_kernel_role(k->name)) {
	case ZF_KERNEL_GET:
		p->kernel_get++;
		break;
	case ZF_KERNEL_PUT:
		p->kernel_put++;
		break;
	}
	sym = (uint32_t)(k - s->ks->sym) + 1;
	for (i = 0; i < ZF_PROFILE_KSYMS; i++) {
		if (!p->ksym[i].sym)
			p->ksym[i].sym = sym;
		if (p->ksym[i].sym == sym) {
			p->ksym[i].samples++;
			return;
		}
	}
}

void zf_sampler_drain(struct zf_sampler *s, struct zf_profile *p)
{
	struct perf_event_mmap_page *meta = s->ring;
	const unsigned char *data;
	uint64_t head, tail, size;

	if (!s->ring)
		return;
	data = (const unsigned char *)s->ring + meta->data_offset;
	size = meta->data_size;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	tail = meta->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		uint64_t v[2];

		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 8) {
			uintptr_t ip;

			ring_copy(data, size, tail + sizeof(h), v, 8);
			ip = v[0];
			if (ip >= s->get_lo && ip < s->get_hi)
				p->get++;
			else if (ip >= s->put_lo && ip < s->put_hi)
				p->put++;
			else
				p->other++;
			if ((h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
				kernel_sample(s, ip, p);
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			ring_copy(data, size, tail + sizeof(h), v, 16);	/* id, lost */
			p->lost += v[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

void zf_sampler_close(struct zf_sampler *s)
{
	if (s->ring)
		munmap(s->ring, s->ring_len);
	if (s->fd >= 0)
		close(s->fd);
	s->ring = NULL;
	s->fd = -1;
}

bool zf_perf_scaled(const struct zf_perf_value *v, double *out, bool *multiplexed)
{
	if (!v->running_ns) {
		*multiplexed = v->enabled_ns > 0;
		return false;
	}
	*multiplexed = v->running_ns < v->enabled_ns;
	*out = *multiplexed ? (double)v->count * v->enabled_ns / v->running_ns : (double)v->count;
	return true;
}

const char *zf_perf_hint(int err, char *buf, size_t len)
{
	char level[32] = "?";

	if (err != EACCES && err != EPERM)
		return NULL;
	zf_read_file("/proc/sys/kernel/perf_event_paranoid", level, sizeof(level));
	snprintf(buf, len, "perf_event_open refused (%s): /proc/sys/kernel/perf_event_paranoid is %s;"
		 " run as root or lower it (echo 1 > /proc/sys/kernel/perf_event_paranoid)",
		 strerror(err), level);
	return buf;
}

bool zf_perf_tool_failure(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM;
}

void zf_perf_failure(const char *what, int err, char *why, size_t len)
{
	struct rlimit r = { 0 };

	getrlimit(RLIMIT_NOFILE, &r);
	snprintf(why, len, "perf_event_open: %s: %s (RLIMIT_NOFILE %llu): hzfbench's failure, not "
		 "an event this machine cannot count", what, strerror(err),
		 (unsigned long long)r.rlim_cur);
}

int zf_perf_failed(const struct zf_perf_task *t, char *why, size_t len)
{
	size_t i;

	for (i = 0; t->list && i < t->list->n; i++)
		if (zf_perf_tool_failure(t->err[i])) {
			zf_perf_failure(t->list->ev[i].name, t->err[i], why, len);
			return t->err[i];
		}
	return 0;
}
