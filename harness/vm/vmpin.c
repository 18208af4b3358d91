// SPDX-License-Identifier: GPL-2.0
/*
 * hzfbench vm --mirror-host, the side that touches the host: qemu's QMP
 * socket (its vCPU threads, then "cont"), sched_setaffinity(), and reading
 * back /proc/PID/task/TID/status and /proc/PID/numa_maps.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "mirror.h"
#include "sysinfo.h"
#include "vm.h"

/* qemu gone (not reaped: its waiter is zf_vm_run_qemu()) */
static bool gone(pid_t pid)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid == pid;
}

struct qmp {
	int fd;
	pid_t pid;
	double deadline;
	struct zf_buf in;
};

static int qmp_connect(struct qmp *q, const char *path, char *why, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(why, len, "%s: a socket path this long does not fit (set TMPDIR)", path);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	for (;;) {
		q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (q->fd < 0) {
			snprintf(why, len, "socket: %s", strerror(errno));
			return -errno;
		}
		if (!connect(q->fd, (struct sockaddr *)&sa, sizeof(sa)))
			return 0;
		close(q->fd);
		q->fd = -1;
		if (gone(q->pid) || zf_vm_now_s() > q->deadline) {
			if (gone(q->pid))
				snprintf(why, len, "qemu ended before its QMP socket opened");
			else
				snprintf(why, len, "qemu's QMP socket %s: not there in time", path);
			return -ETIMEDOUT;
		}
		usleep(20000);
	}
}

/* the next message that is not an event: a greeting, a return or an error */
static json_t *qmp_read(struct qmp *q, char *why, size_t len)
{
	char chunk[4096], *nl;
	struct pollfd p = { .fd = q->fd, .events = POLLIN };
	double left;
	ssize_t got;

	for (;;) {
		while (q->in.len && (nl = memchr(q->in.text, '\n', q->in.len))) {
			size_t n = (size_t)(nl - q->in.text) + 1;
			json_t *msg = json_loadb(q->in.text, n, 0, NULL);

			memmove(q->in.text, q->in.text + n, q->in.len - n);
			q->in.len -= n;
			if (msg && !json_object_get(msg, "event"))
				return msg;
			json_decref(msg);
		}
		left = q->deadline - zf_vm_now_s();
		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0) {
			if (left > 0 && errno == EINTR)
				continue;
			snprintf(why, len, "qemu's QMP: no answer in time");
			return NULL;
		}
		got = read(q->fd, chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			snprintf(why, len, "qemu's QMP: closed (qemu ended?)");
			return NULL;
		}
		zf_buf_append(&q->in, chunk, (size_t)got);
		if (q->in.oom) {
			snprintf(why, len, "%s", strerror(ENOMEM));
			return NULL;
		}
	}
}

/* command's "return" (a new reference), or NULL with why */
static json_t *qmp_do(struct qmp *q, const char *command, char *why, size_t len)
{
	char line[128];
	json_t *reply, *ret;
	int n = snprintf(line, sizeof(line), "{\"execute\": \"%s\"}\n", command);

	if (write(q->fd, line, (size_t)n) != n) {
		snprintf(why, len, "qemu's QMP: %s: %s", command, strerror(errno));
		return NULL;
	}
	reply = qmp_read(q, why, len);
	if (!reply)
		return NULL;
	ret = json_incref(json_object_get(reply, "return"));
	if (!ret) {
		const char *desc = json_string_value(json_object_get(json_object_get(reply, "error"),
								     "desc"));

		snprintf(why, len, "qemu's QMP: %s: %s", command, desc ? desc : "no return");
	}
	json_decref(reply);
	return ret;
}

static int pin(const struct zf_vm_mirror *m, pid_t qemu, struct zf_vm_readback *rb, char *why,
	       size_t len)
{
	char path[PATH_MAX], *text;
	int i, err;

	for (i = 0; i < m->ncpus; i++) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((size_t)m->pu[i], &set);
		if (sched_setaffinity((pid_t)rb->cpus[i].tid, sizeof(set), &set)) {
			snprintf(why, len, "vCPU %d: sched_setaffinity(thread %ld, PU %d): %s", i,
				 rb->cpus[i].tid, m->pu[i], strerror(errno));
			return -errno;
		}
	}
	/* read back: what the host says, not what we asked */
	for (i = 0; i < m->ncpus; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/status", (int)qemu, rb->cpus[i].tid);
		err = zf_read_file_alloc(path, &text, NULL);
		if (err) {
			snprintf(why, len, "%s: %s", path, strerror(-err));
			return err;
		}
		if (zf_vm_status_allowed(text, rb->cpus[i].allowed, sizeof(rb->cpus[i].allowed)))
			snprintf(rb->cpus[i].allowed, sizeof(rb->cpus[i].allowed), "(unread)");
		free(text);
	}
	return 0;
}

static int bound(const struct zf_vm_mirror *m, pid_t qemu, struct zf_vm_readback *rb,
		 char *why, size_t len)
{
	char path[64], *text;
	int k, err;

	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)qemu);
	err = zf_read_file_alloc(path, &text, NULL);
	if (err) {
		snprintf(why, len, "%s: %s (a kernel without CONFIG_NUMA?)", path, strerror(-err));
		return err;
	}
	for (k = 0; k < m->nnodes; k++)
		zf_vm_numa_maps_bound(text, m->host_node[k], &rb->nodes[k]);
	free(text);
	return 0;
}

int zf_vm_mirror_start(const struct zf_vm_mirror *m, pid_t qemu, const char *qmp_path,
		       unsigned long long node_bytes, double deadline_s,
		       struct zf_vm_readback *rb, char *why, size_t len)
{
	struct qmp q = { .fd = -1, .pid = qemu, .deadline = deadline_s };
	json_t *greeting = NULL, *cpus = NULL, *ok;
	long *tids = NULL;
	int i, err;

	zf_vm_readback_free(rb);
	rb->cpus = calloc((size_t)m->ncpus, sizeof(*rb->cpus));
	rb->nodes = calloc((size_t)m->nnodes, sizeof(*rb->nodes));
	tids = calloc((size_t)m->ncpus, sizeof(*tids));
	if (!rb->cpus || !rb->nodes || !tids) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		err = -ENOMEM;
		goto out;
	}
	rb->ncpus = m->ncpus;
	rb->nnodes = m->nnodes;
	err = qmp_connect(&q, qmp_path, why, len);
	if (err)
		goto out;
	err = -EPROTO;
	greeting = qmp_read(&q, why, len);
	if (!greeting)
		goto out;
	ok = qmp_do(&q, "qmp_capabilities", why, len);
	if (!ok)
		goto out;
	json_decref(ok);
	cpus = qmp_do(&q, "query-cpus-fast", why, len);
	if (!cpus)
		goto out;
	err = zf_vm_qmp_threads(cpus, m, tids, why, len);
	if (err)
		goto out;
	for (i = 0; i < m->ncpus; i++)
		rb->cpus[i].tid = tids[i];
	/* qemu has preallocated its memory before its monitor answers */
	err = pin(m, qemu, rb, why, len);
	if (!err)
		err = bound(m, qemu, rb, why, len);
	if (!err)
		err = zf_vm_readback_check(m, rb, node_bytes, why, len);
	if (err)
		goto out;
	ok = qmp_do(&q, "cont", why, len);
	err = ok ? 0 : -EPROTO;
	json_decref(ok);
out:
	json_decref(greeting);
	json_decref(cpus);
	free(tids);
	zf_buf_free(&q.in);
	if (q.fd >= 0)
		close(q.fd);
	return err;
}

bool zf_vm_host_pmu(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES, .disabled = 1, .exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}
