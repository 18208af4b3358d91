// SPDX-License-Identifier: GPL-2.0
/* hzfbench vm: its options, qemu's command line, /init, the console's markers, the data port, cpio. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../harness/vm/cpio.h"
#include "../../harness/vm/vm.h"
#include "test.h"
#include "vm_argv.h"

/* zf_vm_parse() of a command line given as one string of words */
static int parse(const char *line, struct zf_vm_opts *o, char *store, size_t len)
{
	static char *argv[32];
	int argc = 0;
	char *w, *save = NULL;

	snprintf(store, len, "vm %s", line);
	for (w = strtok_r(store, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	return zf_vm_parse(argc, argv, o);
}

static const char *const refused[] = {
	"topo", "--", "--smp 4", "-- vm -- topo",
	"--smp 3 -- topo",				/* 2 sockets */
	"--smp 6 --sockets 3 --nodes 4 -- topo",
	"--smp 0 -- topo",
	"--smp 289 -- topo",				/* q35's most: 288 */
	"--smp 18 --nodes 9 --mem 9G -- topo",		/* 8 nodes at most */
	"--threads 0 -- topo",
	/* 4 CPUs a socket: 3 threads do not divide them; 8 nodes would split 4 cores */
	"--smp 8 --threads 3 -- topo",
	"--smp 8 --threads 2 --nodes 8 -- topo",
	"--smp 12 --sockets 1 --threads 2 --nodes 4 -- topo",	/* 3 CPUs, 1.5 cores a node */
	"--mem 300M --smp 4 --nodes 4 -- topo",
	"--mem 256M --smp 4 --nodes 4 -- topo",
	"--mem lots -- topo",
	"--accel xen -- topo",
	"--timeout 0 -- topo",
	"--bogus -- topo",
	"--kernel",
	/* the mirror takes its shape from the host, and alone chooses host PUs */
	"--mirror-host --smp 4 -- topo",
	"--mirror-host --nodes 1 -- topo",
	"--cpus 0-1 -- topo",
	"--placement compact -- topo",
	"--mirror-host --tcg single -- topo",
	"--mirror-host --placement none -- topo",
	"--mirror-host --placement bogus -- topo",
	"--mirror-host --cpus x -- topo",
	"--mirror-host --cpus 3-1 -- topo",
	"--mirror-host --placement compact --cpus 0 -- topo",
};

TEST(vm_options)
{
	struct zf_vm_opts o;
	char s[512];
	size_t i;

	ASSERT_EQ(parse("-- topo", &o, s, sizeof(s)), 0);
	EXPECT_STREQ(o.kernel, "debian");
	EXPECT_EQ(o.smp, 4);
	EXPECT_EQ(o.sockets, 2);
	EXPECT_EQ(o.threads, 1);
	EXPECT_EQ(o.nodes, 2);
	EXPECT_EQ(o.mem_bytes, 2ULL << 30);
	EXPECT_EQ(o.accel, ZF_VM_AUTO);
	EXPECT_EQ(o.timeout_s, 900);
	ASSERT_EQ(o.ncmd, 1);
	EXPECT_STREQ(o.cmd[0], "topo");

	ASSERT_EQ(parse("--kernel mmflag --smp 8 --sockets 4 --nodes 2 --mem 1G --accel tcg "
			"--timeout 60 --out r -- run --tasks 2 --out x", &o, s, sizeof(s)), 0);
	EXPECT_STREQ(o.kernel, "mmflag");
	EXPECT_EQ(o.smp, 8);
	EXPECT_EQ(o.sockets, 4);
	EXPECT_EQ(o.accel, ZF_VM_TCG);
	EXPECT_EQ(o.timeout_s, 60);
	EXPECT_STREQ(o.out, "r");
	/* the guest's own options stay the guest's, --out among them */
	ASSERT_EQ(o.ncmd, 5);
	EXPECT_STREQ(o.cmd[4], "x");

	EXPECT_EQ(parse("--help", &o, s, sizeof(s)), 1);
	/* each refused with a one-line error and the usage status */
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		int rc = parse(refused[i], &o, s, sizeof(s));

		if (rc != 2)
			fprintf(stderr, "  vm %s: %d, not 2\n", refused[i], rc);
		EXPECT_EQ(rc, 2);
	}

	/* the most: 288 CPUs, 8 nodes of whole cores */
	ASSERT_EQ(parse("--smp 288 --sockets 4 --threads 2 --nodes 8 --mem 8G -- topo", &o, s,
			sizeof(s)), 0);
	EXPECT_EQ(o.smp, 288);
	EXPECT_EQ(o.threads, 2);
	EXPECT_EQ(o.nodes, 8);
	ASSERT_EQ(parse("--smp 8 --sockets 2 --threads 2 --nodes 4 --mem 1G -- topo", &o, s,
			sizeof(s)), 0);
	EXPECT_EQ(o.nodes, 4);
}

/* zf_vm_max_apic_id() and zf_vm_tcg_check() of one topology */
static unsigned long apic_id(const char *line, int major, int *tcg, char *why, size_t whylen)
{
	struct zf_vm_opts o;
	char s[512];

	*tcg = 1;
	if (parse(line, &o, s, sizeof(s)))
		return ~0UL;
	*tcg = zf_vm_tcg_check(&o, major, 2, why, whylen);
	return zf_vm_max_apic_id(&o);
}

TEST(vm_apic_ids)
{
	char why[256] = "";
	int tcg = 1;

	/* socket, core and thread fields: 2 + 5 + 1 bits for 4 x 32 x 2 */
	EXPECT_EQ(apic_id("--smp 256 --sockets 4 --threads 2 --mem 8G --nodes 8 -- topo", 7, &tcg,
			  why, sizeof(why)), 255);
	EXPECT_EQ(tcg, -EINVAL);
	EXPECT_STREQ(why, "APIC IDs up to 255 (4 sockets, 32 cores, 2 threads) need x2APIC, "
		     "which qemu 7.2's TCG does not emulate (9.0's does, and KVM)");
	EXPECT_EQ(apic_id("--smp 256 --sockets 4 --threads 2 --mem 8G --nodes 8 -- topo", 9, &tcg,
			  why, sizeof(why)), 255);
	EXPECT_EQ(tcg, 0);
	/* 31 cores still take 5 bits, and end at 253; 255 CPUs in one socket at 254 */
	EXPECT_EQ(apic_id("--smp 248 --sockets 4 --threads 2 --nodes 4 -- topo", 7, &tcg, why,
			  sizeof(why)), 253);
	EXPECT_EQ(tcg, 0);
	EXPECT_EQ(apic_id("--smp 255 --sockets 1 --nodes 1 -- topo", 7, &tcg, why, sizeof(why)),
		  254);
	EXPECT_EQ(tcg, 0);
	EXPECT_EQ(apic_id("--smp 254 -- topo", 7, &tcg, why, sizeof(why)), 254);
	EXPECT_EQ(tcg, 0);
	EXPECT_EQ(apic_id("--smp 256 --nodes 1 -- topo", 7, &tcg, why, sizeof(why)), 255);
	EXPECT_EQ(tcg, -EINVAL);
	/* fields round up: 3 sockets of 3 cores of 3 threads are 2 + 2 + 2 bits */
	EXPECT_EQ(apic_id("--smp 27 --sockets 3 --threads 3 --nodes 1 -- topo", 7, &tcg, why,
			  sizeof(why)), 2 << 4 | 2 << 2 | 2);
	EXPECT_EQ(apic_id("--smp 1 --sockets 1 --nodes 1 -- topo", 7, &tcg, why, sizeof(why)), 0);
}

TEST(vm_qemu_command_line)
{
	struct zf_vm_opts o;
	struct zf_vm_argv a = { 0 };
	char s[512], line[2048];

	ASSERT_EQ(parse("--append nokaslr -- topo", &o, s, sizeof(s)), 0);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_TCG, "/k/bzImage", "/t/initramfs.cpio", "/t/data", NULL,
				  &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_STREQ(line, "qemu-system-x86_64 -machine q35 -nodefaults -no-reboot -display none "
		     "-accel tcg,thread=multi -cpu max,vendor=GenuineIntel "
		     "-smp 4,sockets=2,cores=2,threads=1 -m 2048M "
		     "-object memory-backend-ram,size=1024M,id=mem0 "
		     "-numa node,nodeid=0,memdev=mem0,cpus=0-1 "
		     "-object memory-backend-ram,size=1024M,id=mem1 "
		     "-numa node,nodeid=1,memdev=mem1,cpus=2-3 "
		     "-kernel /k/bzImage -initrd /t/initramfs.cpio "
		     "-append console=ttyS0 quiet loglevel=3 panic=-1 nopti nokaslr "
		     "-serial stdio -serial file:/t/data -monitor none");
	EXPECT_TRUE(a.argv[a.argc] == NULL);
	zf_vm_argv_free(&a);

	/* one node: no NUMA at all; kvm */
	ASSERT_EQ(parse("--smp 2 --sockets 1 --nodes 1 --mem 512M -- topo", &o, s, sizeof(s)), 0);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_KVM, "k", "i", "d", NULL, &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(strstr(line, "-accel kvm -cpu max -smp 2,sockets=1,cores=2,threads=1 -m 512M "
			   "-kernel k") != NULL);
	EXPECT_TRUE(strstr(line, "-numa") == NULL);
	EXPECT_TRUE(strstr(line, "nopti") == NULL);
	zf_vm_argv_free(&a);

	/* 2 threads a core, 4 nodes of one core each: a core's threads on one node */
	ASSERT_EQ(parse("--smp 8 --sockets 2 --threads 2 --nodes 4 --mem 1G -- topo", &o, s,
			sizeof(s)), 0);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_TCG, "k", "i", "d", NULL, &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(strstr(line, "-smp 8,sockets=2,cores=2,threads=2 -m 1024M "
			   "-object memory-backend-ram,size=256M,id=mem0 "
			   "-numa node,nodeid=0,memdev=mem0,cpus=0-1 "
			   "-object memory-backend-ram,size=256M,id=mem1 "
			   "-numa node,nodeid=1,memdev=mem1,cpus=2-3 "
			   "-object memory-backend-ram,size=256M,id=mem2 "
			   "-numa node,nodeid=2,memdev=mem2,cpus=4-5 "
			   "-object memory-backend-ram,size=256M,id=mem3 "
			   "-numa node,nodeid=3,memdev=mem3,cpus=6-7 -kernel k") != NULL);
	EXPECT_TRUE(strstr(line, "intel-iommu") == NULL);
	zf_vm_argv_free(&a);
}

TEST(vm_qemu_x2apic)
{
	struct zf_vm_opts o;
	struct zf_vm_argv a = { 0 };
	char s[512], line[8192];

	/* APIC IDs up to 255: x2APIC, which Linux turns on behind interrupt remapping */
	ASSERT_EQ(parse("--smp 256 --sockets 4 --threads 2 --nodes 8 --mem 8G -- topo", &o, s,
			sizeof(s)), 0);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_TCG, "k", "i", "d", NULL, &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(!strncmp(line, "qemu-system-x86_64 -machine q35 -nodefaults ", 44));
	EXPECT_TRUE(strstr(line, "-smp 256,sockets=4,cores=32,threads=2 "
			   "-device intel-iommu,intremap=on,eim=on -m 8192M ") != NULL);
	EXPECT_TRUE(strstr(line, "-numa node,nodeid=0,memdev=mem0,cpus=0-31 ") != NULL);
	EXPECT_TRUE(strstr(line, "-numa node,nodeid=7,memdev=mem7,cpus=224-255 ") != NULL);
	zf_vm_argv_free(&a);
	/* KVM remaps interrupts in qemu's half of a split irqchip */
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_KVM, "k", "i", "d", NULL, &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(!strncmp(line, "qemu-system-x86_64 -machine q35,kernel-irqchip=split ", 53));
	EXPECT_TRUE(strstr(line, "-device intel-iommu,intremap=on,eim=on") != NULL);
	zf_vm_argv_free(&a);
	/* 248 CPUs of 4 sockets end at APIC ID 253: no IOMMU */
	ASSERT_EQ(parse("--smp 248 --sockets 4 --threads 2 --nodes 4 --mem 4G -- topo", &o, s,
			sizeof(s)), 0);
	ASSERT_EQ(zf_vm_qemu_argv(&o, ZF_VM_TCG, "k", "i", "d", NULL, &a), 0);
	joined(&a, line, sizeof(line));
	EXPECT_TRUE(strstr(line, "-smp 248,sockets=4,cores=31,threads=2 -m 4096M ") != NULL);
	EXPECT_TRUE(strstr(line, "intel-iommu") == NULL);
	zf_vm_argv_free(&a);
}

TEST(vm_init_script)
{
	struct zf_vm_opts o;
	struct zf_buf script = { 0 };
	char s[512];

	ASSERT_EQ(parse("-- run --tag it's --out r", &o, s, sizeof(s)), 0);
	zf_vm_init_script(&o, ZF_VM_TCG, "/k/bz'Image", &script);
	ASSERT_TRUE(script.text != NULL);
	EXPECT_TRUE(!strncmp(script.text, "#!/bin/busybox sh\n", 18));
	/* every word single-quoted, a quote inside closed, escaped and reopened */
	EXPECT_TRUE(strstr(script.text, "\ncd /work\n/bin/hzfbench 'run' '--tag' 'it'\\''s' "
			   "'--out' 'r' </dev/null\n") != NULL);
	EXPECT_TRUE(strstr(script.text, "export HZF_VM='{\"kernel\": \"debian\", \"kernel_path\": "
			   "\"/k/bz'\\''Image\", \"kernel_release\": null, \"tcg_threads\": \"multi\", "
			   "\"accel\": \"tcg\", "
			   "\"cpus\": 4, \"sockets\": 2, \"threads\": 1, \"nodes\": 2, "
			   "\"mem_mib\": 2048}'\n") != NULL);
	/* the command's status is said after the data, then the guest powers off */
	EXPECT_TRUE(strstr(script.text, "HZF-DATA-END") < strstr(script.text, "HZF-EXIT $status"));
	EXPECT_TRUE(strstr(script.text, "poweroff -f\n") != NULL);
	zf_buf_free(&script);
	/* run.sh: the bundle's layout in bash, its own name not passed on */
	ASSERT_EQ(parse("--tcg single -- run.sh --tasks 1", &o, s, sizeof(s)), 0);
	EXPECT_TRUE(o.script && o.tcg == ZF_VM_TCG_SINGLE);
	zf_vm_init_script(&o, ZF_VM_TCG, "/k", &script);
	EXPECT_TRUE(strstr(script.text, "\ncd /opt/hzfbench\n/bin/bash ./run.sh '--tasks' '1' ") != NULL);
	EXPECT_TRUE(strstr(script.text, "\"tcg_threads\": \"single\"") != NULL);
	zf_buf_free(&script);
}

TEST(vm_console_markers)
{
	struct zf_vm_console c = { 0 };
	char lines[][64] = { "SeaBIOS (version 1.16.2)", "\033[2JHZF-UP 7.2.13-hzf\r",
			     "machine: 2 packages\r", "", "HZF-EXIT 3\r",
			     "[    5.2] reboot: Power down" };
	bool shown[6];
	int i;

	for (i = 0; i < 6; i++)
		shown[i] = zf_vm_console_line(&c, lines[i]);
	EXPECT_TRUE(!shown[0] && !shown[1] && shown[2] && shown[3] && !shown[4] && !shown[5]);
	EXPECT_STREQ(lines[2], "machine: 2 packages");	/* the carriage return gone */
	EXPECT_TRUE(c.up && c.done);
	EXPECT_EQ(c.exit_status, 3);
	EXPECT_STREQ(c.release, "7.2.13-hzf");
}

/* qemu's standard error shares the console's pipe: its first error is kept, warnings are not */
TEST(vm_console_qemu_error)
{
	struct zf_vm_console c = { 0 };
	char lines[][128] = {
		"qemu-system-x86_64: warning: host doesn't support requested feature: "
		"CPUID.80000001H:ECX.svm [bit 2]",
		"SeaBIOS (version 1.16.2)",
		"qemu-system-x86_64: error: failed to set MSR 0x10a to 0x0\r",
		"qemu-system-x86_64: ../target/i386/kvm/kvm.c:3124: kvm_buf_set_msrs: Assertion "
		"`ret == cpu->kvm_msr_buf->nmsrs' failed.",
	};
	struct zf_vm_console old = { 0 };
	char too_old[] = "qemu: linux kernel too old to load a ram disk";
	int i;

	for (i = 0; i < 2; i++)
		zf_vm_console_line(&c, lines[i]);
	EXPECT_STREQ(c.qemu_said, "");		/* a warning is not its error */
	for (; i < 4; i++)
		zf_vm_console_line(&c, lines[i]);
	EXPECT_STREQ(c.qemu_said, "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x0");
	EXPECT_TRUE(!c.up);
	zf_vm_console_line(&old, too_old);
	EXPECT_STREQ(old.qemu_said, "qemu: linux kernel too old to load a ram disk");
}

static int decode(const char *text, char *out, size_t len, char *why, size_t whylen)
{
	struct zf_buf tar = { 0 };
	int err = zf_vm_data_decode(text, strlen(text), &tar, why, whylen);

	snprintf(out, len, "%.*s", (int)tar.len, tar.text ? tar.text : "");
	zf_buf_free(&tar);
	return err;
}

TEST(vm_data_port)
{
	char out[64], why[128];

	/* "hello tar" (9 bytes) and "hi" (2, padded), in base64 */
	EXPECT_EQ(decode("noise\nHZF-DATA-BEGIN\naGVsbG8g\r\ndGFy\nHZF-DATA-END 9\n", out,
			 sizeof(out), why, sizeof(why)), 0);
	EXPECT_STREQ(out, "hello tar");
	EXPECT_EQ(decode("HZF-DATA-BEGIN\naGk=\nHZF-DATA-END 2\n", out, sizeof(out), why,
			 sizeof(why)), 0);
	EXPECT_STREQ(out, "hi");
	/* cut off, short, not base64, never started */
	EXPECT_EQ(decode("HZF-DATA-BEGIN\naGVsbG8g\n", out, sizeof(out), why, sizeof(why)),
		  -EPROTO);
	EXPECT_STREQ(why, "the guest's data stops short (no HZF-DATA-END)");
	EXPECT_EQ(decode("HZF-DATA-BEGIN\naGVsbG8g\nHZF-DATA-END 9\n", out, sizeof(out), why,
			 sizeof(why)), -EPROTO);
	EXPECT_STREQ(why, "the guest's data is 6 bytes, not the 9 it said");
	EXPECT_EQ(decode("HZF-DATA-BEGIN\naGV*bG8g\nHZF-DATA-END 6\n", out, sizeof(out), why,
			 sizeof(why)), -EPROTO);
	EXPECT_EQ(decode("HZF-DATA-BEGIN\naGk=aGk=\nHZF-DATA-END 4\n", out, sizeof(out), why,
			 sizeof(why)), -EPROTO);
	EXPECT_EQ(decode("", out, sizeof(out), why, sizeof(why)), -EPROTO);
	EXPECT_STREQ(why, "the guest sent no data (no HZF-DATA-BEGIN)");
}

/* one newc header field: the eight hex digits at index i (0: ino) */
static unsigned long field(const char *h, int i)
{
	char hex[9];

	memcpy(hex, h + 6 + (size_t)8 * (size_t)i, 8);
	hex[8] = '\0';
	return strtoul(hex, NULL, 16);
}

TEST(cpio_newc)
{
	char path[] = "/tmp/hzftest-cpio.XXXXXX", *buf = NULL, src[64];
	static const char *const names[] = { "bin", "bin/hello", "dev/console", "lib64",
					     "bin/copy", "TRAILER!!!" };
	const unsigned long modes[] = { 040755, 0100644, 020600, 0120777, 0100755, 0 };
	const unsigned long sizes[] = { 0, 5, 0, 5, 3, 0 };
	struct zf_cpio c;
	size_t off = 0;
	struct stat st;
	FILE *f;
	int fd, i;

	fd = mkstemp(path);
	ASSERT_TRUE(fd >= 0);
	snprintf(src, sizeof(src), "%s.src", path);
	f = fopen(src, "w");
	ASSERT_TRUE(f != NULL);
	fputs("abc", f);
	fclose(f);
	zf_cpio_init(&c, fd);
	zf_cpio_dir(&c, "bin", 0755);
	zf_cpio_data(&c, "bin/hello", 0644, "hello", 5);
	zf_cpio_chardev(&c, "dev/console", 0600, 5, 1);
	zf_cpio_symlink(&c, "lib64", "lib/x");
	zf_cpio_copy(&c, "bin/copy", 0755, src);
	EXPECT_EQ(zf_cpio_end(&c), 0);
	ASSERT_TRUE(!fstat(fd, &st));
	EXPECT_EQ(st.st_size, c.bytes);
	EXPECT_EQ(st.st_size % 4, 0);
	buf = malloc((size_t)st.st_size + 1);
	ASSERT_TRUE(buf && pread(fd, buf, (size_t)st.st_size, 0) == st.st_size);
	for (i = 0; i < 6; i++) {
		const char *h = buf + off;
		unsigned long namesize;

		ASSERT_TRUE(off + 110 <= (size_t)st.st_size);
		ASSERT_TRUE(!memcmp(h, "070701", 6));
		namesize = field(h, 11);
		EXPECT_STREQ(h + 110, names[i]);
		EXPECT_EQ(namesize, strlen(names[i]) + 1);
		EXPECT_EQ(field(h, 1), modes[i]);
		EXPECT_EQ(field(h, 6), sizes[i]);
		if (i == 2)
			EXPECT_TRUE(field(h, 9) == 5 && field(h, 10) == 1);
		off += (110 + namesize + 3) & ~3UL;
		if (i == 1)
			EXPECT_TRUE(!memcmp(buf + off, "hello", 5));
		if (i == 4)
			EXPECT_TRUE(!memcmp(buf + off, "abc", 3));
		off += (sizes[i] + 3) & ~3UL;
	}
	EXPECT_EQ(off, (size_t)st.st_size);
	/* a missing source is the archive's error, named */
	zf_cpio_init(&c, fd);
	zf_cpio_copy(&c, "bin/none", 0755, "/nonexistent/hzf");
	EXPECT_EQ(zf_cpio_end(&c), -ENOENT);
	EXPECT_TRUE(strstr(c.why, "/nonexistent/hzf") != NULL);
	free(buf);
	close(fd);
	unlink(path);
	unlink(src);
}
