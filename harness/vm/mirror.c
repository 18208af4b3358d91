// SPDX-License-Identifier: GPL-2.0
/* hzfbench vm --mirror-host: the plan, what is read back of it, and its JSON. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirror.h"
#include "vm.h"

/* one chosen host PU, and where hwloc puts it */
struct host_pu {
	int os, logical, package, core, node;
};

static int by_logical(const void *a, const void *b)
{
	const struct host_pu *x = a, *y = b;

	return (x->logical > y->logical) - (x->logical < y->logical);
}

void zf_vm_mirror_free(struct zf_vm_mirror *m)
{
	free(m->placement);
	free(m->pus);
	free(m->pu);
	free(m->vnode);
	free(m->host_node);
	memset(m, 0, sizeof(*m));
}

void zf_vm_mirror_ids(const struct zf_vm_mirror *m, int i, int *socket, int *core, int *thread)
{
	*socket = i / (m->cores * m->threads);
	*core = i / m->threads % m->cores;
	*thread = i % m->threads;
}

/* the chosen PUs, by hwloc's logical order (package, then core, then thread), and as a set */
static int chosen(struct zf_topo *topo, const char *placement, struct host_pu **out, int *n,
		  hwloc_bitmap_t set, char *why, size_t len)
{
	const char *p = placement ? placement : "compact";
	char pwhy[ZF_PLACEMENT_WHY_LEN + 64];
	struct zf_plan plan = { 0 };
	struct host_pu *hp;
	int cap, err, i, kept = 0;

	cap = zf_placement_capacity(topo, p, pwhy, sizeof(pwhy));
	if (cap <= 0) {
		snprintf(why, len, "%s", cap ? pwhy : "binds no PU: there is nothing to mirror");
		return -EINVAL;
	}
	err = zf_plan_make(topo, p, cap, &plan, pwhy, sizeof(pwhy));
	if (err) {
		snprintf(why, len, "%s", pwhy);
		return err;
	}
	hp = calloc((size_t)cap, sizeof(*hp));
	if (!hp) {
		zf_plan_free(&plan);
		return -ENOMEM;
	}
	for (i = 0; i < plan.ntasks; i++) {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo->t, (unsigned)plan.pu[i]);

		if (!pu || hwloc_bitmap_isset(set, (unsigned)plan.pu[i]))
			continue;
		hwloc_bitmap_set(set, (unsigned)plan.pu[i]);
		hp[kept++] = (struct host_pu){ .os = plan.pu[i], .logical = (int)pu->logical_index,
					       .package = plan.package[i],
					       .core = plan.core[i] < 0 ? -2 - i : plan.core[i],
					       .node = plan.node[i] };
	}
	zf_plan_free(&plan);
	qsort(hp, (size_t)kept, sizeof(*hp), by_logical);
	*out = hp;
	*n = kept;
	return 0;
}

/*
 * Sockets of equal cores, cores of equal threads: qemu's -smp has one count
 * of each. 0, or -EINVAL with the first socket or core that differs.
 */
static int shape(const struct host_pu *hp, int n, struct zf_vm_mirror *m, char *why, size_t len)
{
	int i, threads = 0, sock_cores = 0;

	m->sockets = m->cores = m->threads = 0;
	for (i = 0; i <= n; i++) {
		bool new_core = i == n || !i || hp[i].core != hp[i - 1].core ||
				hp[i].package != hp[i - 1].package;
		bool new_socket = i == n || !i || hp[i].package != hp[i - 1].package;

		if (i && new_core) {
			if (m->threads && threads != m->threads) {
				snprintf(why, len, "the core of PU %d has %d of its threads chosen, "
					 "the first core %d: qemu gives every core as many",
					 hp[i - 1].os, threads, m->threads);
				return -EINVAL;
			}
			m->threads = threads;
			threads = 0;
			sock_cores++;
		}
		if (i && new_socket) {
			if (m->cores && sock_cores != m->cores) {
				snprintf(why, len, "the package of PU %d has %d cores chosen, the "
					 "first %d: qemu gives every socket as many",
					 hp[i - 1].os, sock_cores, m->cores);
				return -EINVAL;
			}
			m->cores = sock_cores;
			sock_cores = 0;
			m->sockets++;
		}
		threads++;
	}
	return 0;
}

int zf_vm_mirror_plan(struct zf_topo *topo, const char *placement, struct zf_vm_mirror *m,
		      char *why, size_t len)
{
	struct host_pu *hp = NULL;
	hwloc_bitmap_t set = NULL;
	int err, i, k, n = 0;

	memset(m, 0, sizeof(*m));
	set = hwloc_bitmap_alloc();
	if (!set)
		return -ENOMEM;
	err = chosen(topo, placement, &hp, &n, set, why, len);
	if (err)
		goto out;
	if (!n) {
		snprintf(why, len, "no PU of it is on this machine");
		err = -EINVAL;
		goto out;
	}
	if (n > ZF_VM_MAX_CPUS) {
		snprintf(why, len, "%d PUs, over %d, the most CPUs qemu's q35 machine takes "
			 "(choose fewer: --cpus LIST or --placement node:N)", n, ZF_VM_MAX_CPUS);
		err = -EINVAL;
		goto out;
	}
	err = shape(hp, n, m, why, len);
	if (err)
		goto out;
	m->ncpus = n;
	m->placement = placement ? strdup(placement) : NULL;
	m->pu = calloc((size_t)n, sizeof(*m->pu));
	m->vnode = calloc((size_t)n, sizeof(*m->vnode));
	m->host_node = calloc((size_t)n, sizeof(*m->host_node));
	err = -ENOMEM;
	if ((placement && !m->placement) || !m->pu || !m->vnode || !m->host_node)
		goto out;
	for (i = 0; i < n; i++) {
		m->pu[i] = hp[i].os;
		for (k = 0; k < m->nnodes && m->host_node[k] != hp[i].node; k++)
			;
		if (k == m->nnodes) {
			if (hp[i].node < 0 || m->nnodes == ZF_VM_MIRROR_MAX_NODES) {
				snprintf(why, len, hp[i].node < 0 ? "PU %d is on no NUMA node" :
					 "PU %d is on a NUMA node past qemu's %d", hp[i].os,
					 ZF_VM_MIRROR_MAX_NODES);
				err = -EINVAL;
				goto out;
			}
			m->host_node[m->nnodes++] = hp[i].node;
		}
		m->vnode[i] = k;
	}
	err = hwloc_bitmap_list_asprintf(&m->pus, set) < 0 ? -ENOMEM : 0;
out:
	hwloc_bitmap_free(set);
	free(hp);
	if (err)
		zf_vm_mirror_free(m);
	return err;
}

void zf_vm_readback_free(struct zf_vm_readback *rb)
{
	free(rb->cpus);
	free(rb->nodes);
	memset(rb, 0, sizeof(*rb));
}

int zf_vm_status_allowed(const char *status, char *list, size_t len)
{
	static const char key[] = "Cpus_allowed_list:";
	const char *p = status, *end;

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, sizeof(key) - 1))
			continue;
		p += sizeof(key) - 1;
		p += strspn(p, " \t");
		end = p + strcspn(p, "\n");
		snprintf(list, len, "%.*s", (int)(end - p), p);
		return 0;
	}
	return -ENOENT;
}

/* one numa_maps line's policy names host_node alone: "bind:N" (or "bind=static:N") */
static bool binds_to(const char *policy, size_t plen, int host_node)
{
	const char *colon = memchr(policy, ':', plen);
	char want[16];

	if (plen < 5 || strncmp(policy, "bind", 4) || !colon)
		return false;
	snprintf(want, sizeof(want), "%d", host_node);
	return (size_t)(policy + plen - colon - 1) == strlen(want) &&
	       !strncmp(colon + 1, want, strlen(want));
}

int zf_vm_numa_maps_bound(const char *maps, int host_node, struct zf_vm_bound *b)
{
	const char *line = maps;
	bool found = false;

	memset(b, 0, sizeof(*b));
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *end = line + strcspn(line, "\n"), *pol, *t;
		unsigned long long pages[2] = { 0, 0 }, kb = 4;
		size_t plen;

		pol = memchr(line, ' ', (size_t)(end - line));
		if (!pol)
			continue;
		pol++;
		plen = strcspn(pol, " \n");
		if (!binds_to(pol, plen, host_node))
			continue;
		if (!found)
			snprintf(b->policy, sizeof(b->policy), "%.*s", (int)plen, pol);
		found = true;
		for (t = pol + plen; t < end; t += strcspn(t, " \n")) {
			unsigned long long v;
			int node;

			t += strspn(t, " ");
			if (sscanf(t, "N%d=%llu", &node, &v) == 2)
				pages[node != host_node] += v;
			else if (sscanf(t, "kernelpagesize_kB=%llu", &v) == 1)
				kb = v;
		}
		b->on += pages[0] * kb << 10;
		b->elsewhere += pages[1] * kb << 10;
	}
	return found ? 0 : -ENOENT;
}

/* an integer member of o, or -1 */
static long long member(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

int zf_vm_qmp_threads(const json_t *cpus, const struct zf_vm_mirror *m, long *tids,
		      char *why, size_t len)
{
	size_t i, at;
	const json_t *cpu;
	int j;

	if (!json_is_array(cpus) || json_array_size(cpus) != (size_t)m->ncpus) {
		snprintf(why, len, "qemu's query-cpus-fast gave %zu CPUs, not %d",
			 json_is_array(cpus) ? json_array_size(cpus) : 0, m->ncpus);
		return -EPROTO;
	}
	for (j = 0; j < m->ncpus; j++)
		tids[j] = -1;
	json_array_foreach(cpus, i, cpu) {
		const json_t *props = json_object_get(cpu, "props");
		long long idx = member(cpu, "cpu-index"), tid = member(cpu, "thread-id");
		int s, c, t;

		if (idx < 0 || idx >= m->ncpus || tid <= 0 || tids[idx] >= 0) {
			snprintf(why, len, "qemu's query-cpus-fast: CPU %zu has cpu-index %lld and "
				 "thread-id %lld", i, idx, tid);
			return -EPROTO;
		}
		zf_vm_mirror_ids(m, (int)idx, &s, &c, &t);
		if (member(props, "socket-id") != s || member(props, "core-id") != c ||
		    member(props, "thread-id") != t) {
			snprintf(why, len, "qemu's vCPU %lld is socket %lld core %lld thread %lld, "
				 "not %d/%d/%d as planned", idx, member(props, "socket-id"),
				 member(props, "core-id"), member(props, "thread-id"), s, c, t);
			return -EPROTO;
		}
		for (at = 0; at < (size_t)m->ncpus; at++)
			if (tids[at] == tid) {
				snprintf(why, len, "vCPUs %zu and %lld share host thread %lld: "
					 "nothing to pin one to a PU", at, idx, tid);
				return -EPROTO;
			}
		tids[idx] = (long)tid;
	}
	return 0;
}

int zf_vm_readback_check(const struct zf_vm_mirror *m, const struct zf_vm_readback *rb,
			 unsigned long long node_bytes, char *why, size_t len)
{
	char want[16];
	int i;

	for (i = 0; i < m->ncpus; i++) {
		snprintf(want, sizeof(want), "%d", m->pu[i]);
		if (strcmp(rb->cpus[i].allowed, want)) {
			snprintf(why, len, "vCPU %d (host thread %ld) may run on PUs %s, not on PU "
				 "%d alone as pinned", i, rb->cpus[i].tid,
				 *rb->cpus[i].allowed ? rb->cpus[i].allowed : "(unread)", m->pu[i]);
			return -EIO;
		}
	}
	for (i = 0; i < m->nnodes; i++) {
		const struct zf_vm_bound *b = &rb->nodes[i];

		if (!*b->policy || b->elsewhere || b->on < node_bytes) {
			snprintf(why, len, "guest node %d: %s%s: %llu MiB on host node %d, %llu MiB "
				 "elsewhere, of %llu MiB", i, *b->policy ? "policy " : "",
				 *b->policy ? b->policy : "no memory bound to its host node",
				 b->on >> 20, m->host_node[i], b->elsewhere >> 20, node_bytes >> 20);
			return -EIO;
		}
	}
	return 0;
}

static json_t *vcpu_json(const struct zf_vm_mirror *m, const struct zf_vm_readback *rb, int i)
{
	int s, c, t;
	json_t *o;

	zf_vm_mirror_ids(m, i, &s, &c, &t);
	o = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "vcpu", i, "socket", s, "core", c,
		      "thread", t, "host_pu", m->pu[i], "node", m->vnode[i],
		      "host_node", m->host_node[m->vnode[i]]);
	if (o && rb && json_object_update_new(o, json_pack("{s:I, s:s}", "host_thread",
			(json_int_t)rb->cpus[i].tid, "cpus_allowed", rb->cpus[i].allowed))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *node_json(const struct zf_vm_mirror *m, const struct zf_vm_readback *rb, int k,
			 unsigned long long node_bytes)
{
	json_t *o = json_pack("{s:i, s:i, s:I}", "node", k, "host_node", m->host_node[k],
			      "bytes", (json_int_t)node_bytes);

	if (o && rb && json_object_update_new(o, json_pack("{s:s, s:I, s:I}", "policy",
			rb->nodes[k].policy, "bytes_on_host_node", (json_int_t)rb->nodes[k].on,
			"bytes_elsewhere", (json_int_t)rb->nodes[k].elsewhere))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *zf_vm_mirror_json(const struct zf_vm_mirror *m, const struct zf_vm_readback *rb,
			  unsigned long long node_bytes)
{
	json_t *vcpus = json_array(), *nodes = json_array();
	int i;

	for (i = 0; i < m->ncpus; i++)
		zf_json_push(&vcpus, vcpu_json(m, rb, i));
	for (i = 0; i < m->nnodes; i++)
		zf_json_push(&nodes, node_json(m, rb, i, node_bytes));
	return json_pack("{s:o, s:s, s:i, s:i, s:i, s:b, s:b, s:o, s:o}",
			 "placement", zf_json_text(m->placement), "host_pus", m->pus,
			 "sockets", m->sockets, "cores", m->cores, "threads", m->threads,
			 "pmu", m->pmu, "read_back", rb != NULL, "vcpus", vcpus, "nodes", nodes);
}
