/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench vm --mirror-host`: a guest the shape of the host's PUs it runs
 * on. Its sockets, cores, SMT threads and NUMA nodes are those of the host
 * PUs chosen (hwloc); vCPU i's thread is pinned to host PU i; each guest
 * node's memory is bound to its host node and preallocated. What the host
 * then says of each thread and each node's memory is read back and kept.
 *
 * mirror.c is the part without side effects (the plan, the parsers of what
 * is read back, its JSON); vmpin.c talks to qemu and the host.
 */
#ifndef HZF_VM_MIRROR_H
#define HZF_VM_MIRROR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "json.h"
#include "topo.h"

/* qemu's MAX_NODES */
#define ZF_VM_MIRROR_MAX_NODES	128

struct zf_vm_mirror {
	char *placement;	/* what chose the host PUs, as given; NULL: all of them */
	char *pus;		/* the host PUs, as a list ("0-15,32-47") */
	int ncpus;		/* vCPUs, one per host PU */
	int sockets, cores, threads;	/* cores of a socket, threads of a core */
	int *pu;		/* vCPU i's host PU (OS index), qemu's order */
	int *vnode;		/* vCPU i's guest node */
	int nnodes;
	int *host_node;		/* guest node k's host NUMA node (OS index) */
	bool pmu;		/* under KVM: -cpu host passes the host's PMU through */
};

/*
 * The mirror of placement's PUs (all of topo's when NULL): -EINVAL with
 * why (one line, naming the placement) when qemu cannot take their shape.
 */
int zf_vm_mirror_plan(struct zf_topo *topo, const char *placement, struct zf_vm_mirror *m,
		      char *why, size_t len);
void zf_vm_mirror_free(struct zf_vm_mirror *m);
/* vCPU i's socket, core and thread ids, as qemu numbers them */
void zf_vm_mirror_ids(const struct zf_vm_mirror *m, int i, int *socket, int *core,
		      int *thread);

/* what was read back of one vCPU and one guest node */
struct zf_vm_pinned {
	long tid;		/* its qemu thread */
	char allowed[64];	/* Cpus_allowed_list, as the host says it */
};
struct zf_vm_bound {
	char policy[32];	/* numa_maps' policy of its memory ("bind:1") */
	unsigned long long on, elsewhere;	/* bytes on its host node, and off it */
};
struct zf_vm_readback {
	int ncpus, nnodes;
	struct zf_vm_pinned *cpus;
	struct zf_vm_bound *nodes;
};
void zf_vm_readback_free(struct zf_vm_readback *rb);

/* Cpus_allowed_list from a /proc/PID/task/TID/status text: 0, or -ENOENT */
int zf_vm_status_allowed(const char *status, char *list, size_t len);
/*
 * The memory /proc/PID/numa_maps binds to host_node alone ("bind:N"):
 * bytes on that node and on others, and the policy seen; -ENOENT when no
 * mapping is bound to it.
 */
int zf_vm_numa_maps_bound(const char *maps, int host_node, struct zf_vm_bound *b);
/*
 * query-cpus-fast's "return" array: tids[i] gets the thread of cpu-index i,
 * each CPU's props checked against m's ids. -EPROTO with why.
 */
int zf_vm_qmp_threads(const json_t *cpus, const struct zf_vm_mirror *m, long *tids,
		      char *why, size_t len);
/*
 * Whether the read back matches the plan, node_bytes of memory a node:
 * -EIO with why (one line, the first mismatch) when not
 */
int zf_vm_readback_check(const struct zf_vm_mirror *m, const struct zf_vm_readback *rb,
			 unsigned long long node_bytes, char *why, size_t len);
/* vm.json's "mirror": the plan, with what was read back when rb is not NULL */
json_t *zf_vm_mirror_json(const struct zf_vm_mirror *m, const struct zf_vm_readback *rb,
			  unsigned long long node_bytes);

/*
 * vmpin.c: talk to a qemu started with -S and -qmp unix:qmp_path: pin each
 * vCPU thread, read back the pinning and the memory binding, and let the
 * guest run (cont). 0, or -errno with why; deadline_s on CLOCK_MONOTONIC.
 */
int zf_vm_mirror_start(const struct zf_vm_mirror *m, pid_t qemu, const char *qmp_path,
		       unsigned long long node_bytes, double deadline_s,
		       struct zf_vm_readback *rb, char *why, size_t len);
/* whether this host counts hardware events (so -cpu host can pass its PMU on) */
bool zf_vm_host_pmu(void);

#endif
