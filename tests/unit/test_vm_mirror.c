// SPDX-License-Identifier: GPL-2.0
/* hzfbench vm --mirror-host: the plan of a synthetic host, qemu's argv, and what is read back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/vm/mirror.h"
#include "../../harness/vm/vm.h"
#include "synthetic.h"
#include "test.h"
#include "vm_argv.h"

/* zf_vm_parse() of "vm --mirror-host ARGS -- topo", m made on synthetic's host and applied */
static int mirror(const char *synthetic, const char *args, struct zf_vm_opts *o,
		  struct zf_vm_mirror *m, char *why, size_t len)
{
	static char store[512];
	static char *argv[32];
	struct zf_topo topo;
	char *w, *save = NULL, *placement;
	int argc = 0, err;

	snprintf(store, sizeof(store), "vm --mirror-host %s -- topo", args);
	for (w = strtok_r(store, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	err = zf_vm_parse(argc, argv, o);
	if (err)
		return err;
	if (open_synthetic(&topo, synthetic))
		return -1;
	placement = zf_vm_mirror_placement(o);
	err = zf_vm_mirror_plan(&topo, placement, m, why, len);
	free(placement);
	zf_topo_close(&topo);
	return err ? err : zf_vm_mirror_apply(o, m);
}

/* what vmcmd.c sets from the host, after the plan */
static void set_pmu(struct zf_vm_mirror *m, bool on)
{
	m->pmu = on;
}

/* the host: 2 sockets of 2 SMT-2 cores, a NUMA node each */
#define TWO_SOCKETS	"pack:2 [numa] core:2 pu:2"

TEST(vm_mirror_qemu_command_line)
{
	struct zf_vm_mirror m;
	struct zf_vm_opts o;
	struct zf_vm_argv a = { 0 };
	char why[256], line[4096];

	ASSERT_EQ(mirror(TWO_SOCKETS, "--mem 2G", &o, &m, why, sizeof(why)), 0);
	EXPECT_EQ(m.ncpus, 8);
	EXPECT_EQ(m.sockets, 2);
	EXPECT_EQ(m.cores, 2);
	EXPECT_EQ(m.threads, 2);
	EXPECT_EQ(m.nnodes, 2);
	EXPECT_STREQ(m.pus, "0-7");
	EXPECT_EQ(o.smp, 8);
	EXPECT_EQ(o.sockets, 2);
	EXPECT_EQ(o.threads, 2);
	EXPECT_EQ(o.nodes, 2);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_TCG, "k", "i", "d", "/t/qmp.sock", &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_STREQ(line, "qemu-system-x86_64 -machine q35 -nodefaults -no-reboot -display none "
		     "-accel tcg,thread=multi -cpu max,vendor=GenuineIntel "
		     "-smp 8,sockets=2,cores=2,threads=2 -m 2048M "
		     "-object memory-backend-ram,size=1024M,id=mem0,host-nodes=0,policy=bind,"
		     "prealloc=on -numa node,nodeid=0,memdev=mem0,cpus=0-3 "
		     "-object memory-backend-ram,size=1024M,id=mem1,host-nodes=1,policy=bind,"
		     "prealloc=on -numa node,nodeid=1,memdev=mem1,cpus=4-7 "
		     "-kernel k -initrd i -append console=ttyS0 quiet loglevel=3 panic=-1 nopti "
		     "-serial stdio -serial file:d -monitor none "
		     "-qmp unix:/t/qmp.sock,server=on,wait=off -S");
	zf_vm_argv_free(&a);
	/* under KVM: the host's CPU, its PMU where the host has one */
	set_pmu(&m, true);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_KVM, "k", "i", "d", "/t/qmp.sock", &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(strstr(line, "-accel kvm -cpu host,pmu=on -smp 8,") != NULL);
	zf_vm_argv_free(&a);
	set_pmu(&m, false);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_KVM, "k", "i", "d", "/t/qmp.sock", &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(strstr(line, "-cpu host,pmu=off ") != NULL);
	zf_vm_argv_free(&a);
	zf_vm_mirror_free(&m);

	/* one socket's PUs: one node, the host's second */
	ASSERT_EQ(mirror(TWO_SOCKETS, "--placement node:1 --mem 1G", &o, &m, why, sizeof(why)), 0);
	EXPECT_STREQ(m.pus, "4-7");
	EXPECT_STREQ(m.placement, "node:1");
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_TCG, "k", "i", "d", "q", &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(strstr(line, "-smp 4,sockets=1,cores=2,threads=2 -m 1024M "
			   "-object memory-backend-ram,size=1024M,id=mem0,host-nodes=1,"
			   "policy=bind,prealloc=on -numa node,nodeid=0,memdev=mem0,cpus=0-3 "
			   "-kernel") != NULL);
	zf_vm_argv_free(&a);
	zf_vm_mirror_free(&m);

	/* no SMT: one thread of each core; vCPU i on the i-th of them */
	ASSERT_EQ(mirror(TWO_SOCKETS, "--cpus 0,2,4,6 --mem 1G", &o, &m, why, sizeof(why)), 0);
	EXPECT_EQ(m.threads, 1);
	EXPECT_EQ(m.cores, 2);
	EXPECT_EQ(m.pu[3], 6);
	EXPECT_EQ(m.vnode[2], 1);
	zf_vm_mirror_free(&m);
}

TEST(vm_mirror_shapes)
{
	struct zf_vm_mirror m;
	struct zf_vm_opts o;
	char why[256];

	/* two nodes a socket (sub-NUMA clustering): four guest nodes, in order */
	ASSERT_EQ(mirror("pack:2 numa:2 core:2 pu:2", "--mem 4G", &o, &m, why, sizeof(why)), 0);
	EXPECT_EQ(m.ncpus, 16);
	EXPECT_EQ(m.sockets, 2);
	EXPECT_EQ(m.cores, 4);
	EXPECT_EQ(m.nnodes, 4);
	EXPECT_EQ(m.host_node[3], 3);
	EXPECT_EQ(m.vnode[11], 2);
	EXPECT_EQ(o.nodes, 4);
	EXPECT_EQ(o.mem_bytes, 4ULL << 30);
	zf_vm_mirror_free(&m);
	/* without --mem: 1 GiB a node */
	ASSERT_EQ(mirror("pack:2 numa:2 core:2 pu:2", "", &o, &m, why, sizeof(why)), 0);
	EXPECT_EQ(o.mem_bytes, 4ULL << 30);
	zf_vm_mirror_free(&m);
	ASSERT_EQ(mirror(TWO_SOCKETS, "--placement node:0", &o, &m, why, sizeof(why)), 0);
	EXPECT_EQ(o.mem_bytes, 1ULL << 30);
	zf_vm_mirror_free(&m);

	/* a core with one of its two threads: qemu gives every core as many */
	EXPECT_EQ(mirror(TWO_SOCKETS, "--cpus 0-2", &o, &m, why, sizeof(why)), -EINVAL);
	EXPECT_TRUE(strstr(why, "core of PU 2 has 1") != NULL);
	/* sockets of unequal cores */
	EXPECT_EQ(mirror(TWO_SOCKETS, "--cpus 0-1,4-7", &o, &m, why, sizeof(why)), -EINVAL);
	EXPECT_TRUE(strstr(why, "cores chosen") != NULL);
	/* a PU the host has not */
	EXPECT_EQ(mirror(TWO_SOCKETS, "--cpus 8", &o, &m, why, sizeof(why)), -EINVAL);
	/* 320 PUs: over q35's 288; one socket's 80 fit */
	EXPECT_EQ(mirror("pack:4 [numa] core:40 pu:2", "", &o, &m, why, sizeof(why)), -EINVAL);
	EXPECT_TRUE(strstr(why, "320 PUs, over 288") != NULL);
	ASSERT_EQ(mirror("pack:4 [numa] core:40 pu:2", "--placement node:3", &o, &m, why,
			 sizeof(why)), 0);
	EXPECT_EQ(m.ncpus, 80);
	EXPECT_EQ(m.pu[0], 240);
	EXPECT_EQ(m.host_node[0], 3);
	zf_vm_mirror_free(&m);
	/* --mem that does not split over the host's nodes */
	EXPECT_EQ(mirror(TWO_SOCKETS, "--mem 129M", &o, &m, why, sizeof(why)), 2);
	zf_vm_mirror_free(&m);
}

static const char numa_maps[] =
	"55d0c0000000 default file=/usr/bin/qemu-system-x86_64 mapped=900 N0=900 "
	"kernelpagesize_kB=4\n"
	"7f0000000000 bind:1 anon=262144 dirty=262144 active=0 N1=262144 kernelpagesize_kB=4\n"
	"7f0040000000 bind:1 anon=262144 dirty=262144 N1=262000 N0=144 kernelpagesize_kB=4\n"
	"7f1000000000 bind:0 anon=524288 dirty=524288 N0=524288 kernelpagesize_kB=4\n"
	"7f2000000000 bind:10 anon=1 N10=1 kernelpagesize_kB=4\n"
	"7fff00000000 default stack anon=3 dirty=3 N0=3 kernelpagesize_kB=4\n";

TEST(vm_mirror_read_back)
{
	struct zf_vm_bound b;
	char list[64];

	ASSERT_EQ(zf_vm_status_allowed("Name:\tqemu\nCpus_allowed:\t4\nCpus_allowed_list:\t2\n"
				       "Mems_allowed:\t1\n", list, sizeof(list)), 0);
	EXPECT_STREQ(list, "2");
	ASSERT_EQ(zf_vm_status_allowed("Cpus_allowed_list:\t0-1,4\n", list, sizeof(list)), 0);
	EXPECT_STREQ(list, "0-1,4");
	EXPECT_EQ(zf_vm_status_allowed("Name:\tqemu\n", list, sizeof(list)), -ENOENT);

	/* node 1's memory in two mappings, 144 pages of it on node 0 */
	ASSERT_EQ(zf_vm_numa_maps_bound(numa_maps, 1, &b), 0);
	EXPECT_STREQ(b.policy, "bind:1");
	EXPECT_EQ(b.on, (262144ULL + 262000) << 12);
	EXPECT_EQ(b.elsewhere, 144ULL << 12);
	ASSERT_EQ(zf_vm_numa_maps_bound(numa_maps, 0, &b), 0);
	EXPECT_EQ(b.on, 2ULL << 30);
	EXPECT_EQ(b.elsewhere, 0);
	/* bind:10 is not bind:1 or bind:0 */
	ASSERT_EQ(zf_vm_numa_maps_bound(numa_maps, 10, &b), 0);
	EXPECT_EQ(b.on, 4096);
	EXPECT_EQ(zf_vm_numa_maps_bound(numa_maps, 2, &b), -ENOENT);
	EXPECT_EQ(zf_vm_numa_maps_bound("", 0, &b), -ENOENT);
}

/* query-cpus-fast's answer for a 2-vCPU, 1-socket, 2-core guest */
static json_t *cpus_json(long tid0, long tid1, int core1)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "[{\"cpu-index\": 1, \"thread-id\": %ld, \"props\": {\"socket-id\": 0, "
		 "\"core-id\": %d, \"thread-id\": 0}, \"target\": \"x86_64\"},"
		 " {\"cpu-index\": 0, \"thread-id\": %ld, \"props\": {\"socket-id\": 0, "
		 "\"core-id\": 0, \"thread-id\": 0}, \"target\": \"x86_64\"}]", tid1, core1, tid0);
	return json_loads(text, 0, NULL);
}

TEST(vm_mirror_qmp_and_check)
{
	int pu[2] = { 0, 1 }, vnode[2] = { 0, 0 }, host_node[1] = { 0 };
	struct zf_vm_mirror m = { .ncpus = 2, .sockets = 1, .cores = 2, .threads = 1, .pu = pu,
				  .vnode = vnode, .nnodes = 1, .host_node = host_node,
				  .pus = (char *)"0-1" };
	struct zf_vm_pinned cpus[2] = { { .tid = 100, .allowed = "0" },
					{ .tid = 101, .allowed = "1" } };
	struct zf_vm_bound nodes[1] = { { .policy = "bind:0", .on = 1ULL << 30 } };
	struct zf_vm_readback rb = { .ncpus = 2, .nnodes = 1, .cpus = cpus, .nodes = nodes };
	long tids[2];
	char why[256], *text;
	json_t *j;

	j = cpus_json(100, 101, 1);
	ASSERT_EQ(zf_vm_qmp_threads(j, &m, tids, why, sizeof(why)), 0);
	EXPECT_EQ(tids[0], 100);
	EXPECT_EQ(tids[1], 101);
	json_decref(j);
	/* qemu's core 0 where the plan has core 1 */
	j = cpus_json(100, 101, 0);
	EXPECT_EQ(zf_vm_qmp_threads(j, &m, tids, why, sizeof(why)), -EPROTO);
	EXPECT_TRUE(strstr(why, "not 0/1/0 as planned") != NULL);
	json_decref(j);
	/* TCG's single thread: nothing to pin */
	j = cpus_json(100, 100, 1);
	EXPECT_EQ(zf_vm_qmp_threads(j, &m, tids, why, sizeof(why)), -EPROTO);
	EXPECT_TRUE(strstr(why, "share host thread 100") != NULL);
	json_decref(j);
	j = json_loads("[]", 0, NULL);
	EXPECT_EQ(zf_vm_qmp_threads(j, &m, tids, why, sizeof(why)), -EPROTO);
	json_decref(j);

	EXPECT_EQ(zf_vm_readback_check(&m, &rb, 1ULL << 30, why, sizeof(why)), 0);
	j = zf_vm_mirror_json(&m, &rb, 1ULL << 30);
	text = json_dumps(j, JSON_COMPACT);
	ASSERT_TRUE(text != NULL);
	EXPECT_TRUE(strstr(text, "\"host_pu\":1,\"node\":0,\"host_node\":0,\"host_thread\":101,"
			   "\"cpus_allowed\":\"1\"") != NULL);
	EXPECT_TRUE(strstr(text, "\"policy\":\"bind:0\",\"bytes_on_host_node\":1073741824,"
			   "\"bytes_elsewhere\":0") != NULL);
	free(text);
	json_decref(j);
	/* each mismatch, in one line */
	snprintf(cpus[1].allowed, sizeof(cpus[1].allowed), "0-1");
	EXPECT_EQ(zf_vm_readback_check(&m, &rb, 1ULL << 30, why, sizeof(why)), -EIO);
	EXPECT_STREQ(why, "vCPU 1 (host thread 101) may run on PUs 0-1, not on PU 1 alone as "
		     "pinned");
	snprintf(cpus[1].allowed, sizeof(cpus[1].allowed), "1");
	rb.nodes[0].elsewhere = 2 << 20;
	EXPECT_EQ(zf_vm_readback_check(&m, &rb, 1ULL << 30, why, sizeof(why)), -EIO);
	EXPECT_STREQ(why, "guest node 0: policy bind:0: 1024 MiB on host node 0, 2 MiB elsewhere, "
		     "of 1024 MiB");
	memset(rb.nodes, 0, sizeof(*rb.nodes));
	EXPECT_EQ(zf_vm_readback_check(&m, &rb, 1ULL << 30, why, sizeof(why)), -EIO);
	EXPECT_STREQ(why, "guest node 0: no memory bound to its host node: 0 MiB on host node 0, "
		     "0 MiB elsewhere, of 1024 MiB");
}
