/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hzfbench vm`: a subcommand run inside a qemu guest booted from an
 * initramfs of our own (busybox, this hzfbench and the libraries it was
 * loaded with). The guest's console comes back on its first serial port;
 * its working folder comes back as a tar stream in base64 on the second,
 * framed so that a cut-off transfer is told from a whole one.
 *
 * This file is the part without side effects, which the tests drive:
 * options (vmopts.c), qemu's command line, the guest's /init, the
 * console's markers and the data port's decoding (vm.c). vmboot.c fetches
 * kernels, writes the initramfs and runs qemu; vmcmd.c is the subcommand;
 * mirror.h is --mirror-host's.
 */
#ifndef HZF_VM_H
#define HZF_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "json.h"

struct zf_vm_mirror;

enum zf_vm_accel { ZF_VM_AUTO, ZF_VM_TCG, ZF_VM_KVM };
/* TCG's vCPU threads: one host thread for all, or one each (MTTCG) */
enum zf_vm_tcg { ZF_VM_TCG_MULTI, ZF_VM_TCG_SINGLE };

struct zf_vm_opts {
	const char *kernel;		/* "debian", a variant name, or a file */
	unsigned long smp, sockets, threads, nodes;	/* threads: SMT siblings of a core */
	unsigned long long mem_bytes;
	const char *mem_arg;		/* --mem as typed */
	enum zf_vm_accel accel;
	enum zf_vm_tcg tcg;		/* under TCG */
	unsigned long timeout_s;	/* the whole guest, boot to power-off */
	unsigned long boot_timeout_s;	/* to /init, each boot; 0: no limit */
	const char *out;		/* NULL: results/<UTC time>-<host> */
	const char *append;		/* more kernel command line; NULL none */
	char **cmd;			/* the subcommand and its arguments */
	int ncmd;
	bool script;			/* cmd is run.sh: the main job, in bash, in the guest */
	bool mem_typed;			/* --mem given, not its default */
	bool mirror;			/* --mirror-host: the shape comes from the host's PUs */
	const char *placement, *cpus;	/* which host PUs it mirrors; NULL: all */
	const struct zf_vm_mirror *m;	/* the mirror's plan, once made (vmopts.c takes its shape) */
};

/* where run.sh and its files are in the guest: its results/ is /work */
#define ZF_VM_SCRIPT_DIR	"opt/hzfbench"

/* q35's most CPUs in Debian 12's qemu 7.2 (pc, its default machine, takes 255) */
#define ZF_VM_MAX_CPUS		288
#define ZF_VM_MAX_NODES		8
/* an xAPIC ID is 8 bits and 255 is the broadcast: a higher one needs x2APIC */
#define ZF_VM_XAPIC_MAX_ID	254
#define ZF_VM_NODE_ALIGN	(2ULL << 20)	/* each node's memory a whole number of these */

/*
 * hzfbench vm; is_subcommand(name): name is one of the binary's subcommands,
 * asked of the guest's command before qemu is started
 */
int zf_vm_main(int argc, char **argv, bool (*is_subcommand)(const char *name));

/* options up to "--" and the command after it; 0, 1 for --help (said), or 2 (said) */
int zf_vm_parse(int argc, char **argv, struct zf_vm_opts *o);
const char *zf_vm_accel_name(enum zf_vm_accel a);
/*
 * --mirror-host: o takes m's shape (CPUs, sockets, threads, nodes) and keeps
 * m for qemu's command line; without --mem, ZF_VM_MIRROR_NODE_MEM a node.
 * 2 (said) when --mem does not split over its nodes.
 */
#define ZF_VM_MIRROR_NODE_MEM	(1ULL << 30)
int zf_vm_mirror_apply(struct zf_vm_opts *o, const struct zf_vm_mirror *m);
/* the placement --placement or --cpus (as cpus:LIST) gives, malloc()ed; NULL: all PUs */
char *zf_vm_mirror_placement(const struct zf_vm_opts *o);

/*
 * The highest APIC ID qemu gives o's CPUs: socket, core and thread in
 * fields each as wide as its count needs (qemu's x86 topology), so that
 * 4 sockets of 32 cores of 2 threads end at 255, above the xAPIC's 254.
 */
unsigned long zf_vm_max_apic_id(const struct zf_vm_opts *o);
/*
 * Whether qemu major.minor can run o under TCG: an APIC ID above 254 needs
 * x2APIC, which qemu's TCG emulates from 9.0 on. 0, or -EINVAL with why.
 */
int zf_vm_tcg_check(const struct zf_vm_opts *o, int major, int minor, char *why,
		    size_t whylen);

/* an argument vector built one string at a time; NULL-terminated */
struct zf_vm_argv {
	char **argv;
	int argc, cap;
	bool oom;
};
void zf_vm_argv_add(struct zf_vm_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * qemu's arguments (argv[0] "qemu-system-x86_64") for opts, under accel
 * (tcg or kvm), booting kernel with initrd, the data port written to
 * data_path. With a mirror (o->m), qemu starts stopped (-S) with its QMP
 * socket at qmp_path, for vmpin.c to pin it and let it go.
 * -ENOMEM, or 0; free with zf_vm_argv_free() either way.
 */
int zf_vm_qemu_argv(const struct zf_vm_opts *o, enum zf_vm_accel accel, const char *kernel,
		    const char *initrd, const char *data_path, const char *qmp_path,
		    struct zf_vm_argv *a);
void zf_vm_argv_free(struct zf_vm_argv *a);

/*
 * The JSON object the guest's meta.json keeps as "vm" (kernel, accel,
 * CPUs, sockets, threads, nodes, memory); it reaches the guest's hzfbench in
 * $HZF_VM. release: the kernel's uname -r when known, else NULL.
 */
json_t *zf_vm_json(const struct zf_vm_opts *o, enum zf_vm_accel accel, const char *kernel_path,
		   const char *release);
/* the guest's /init: a busybox sh script that runs o->cmd in /work */
void zf_vm_init_script(const struct zf_vm_opts *o, enum zf_vm_accel accel,
		       const char *kernel_path, struct zf_buf *script);

/* what the console's lines said so far */
struct zf_vm_console {
	bool up;		/* /init started: "HZF-UP <release>" */
	bool done;		/* the command ended: "HZF-EXIT <status>" */
	int exit_status;
	char release[128];	/* the guest kernel's uname -r */
	/*
	 * qemu's own first line that is not a warning ("qemu-system-x86_64:
	 * error: failed to set MSR 0x10a to 0x0", "qemu: linux kernel too old
	 * to load a ram disk"): its error, when it ends before /init; "" none
	 */
	char qemu_said[256];
};
/*
 * One console line (without its newline). Returns true when the line is
 * the command's own output, to be shown; markers, firmware and kernel
 * messages before /init and after the command are only logged. qemu's
 * standard error is on the same pipe: its first error is kept.
 */
bool zf_vm_console_line(struct zf_vm_console *c, char *line);

/*
 * The data port's text: "HZF-DATA-BEGIN", base64 lines, "HZF-DATA-END
 * <bytes>". The decoded tar stream goes to *tar; -EPROTO with why when the
 * frame is missing, cut off, not base64 or not the size it says.
 */
int zf_vm_data_decode(const char *text, size_t len, struct zf_buf *tar, char *why,
		      size_t whylen);

/* vmboot.c: what touches the machine */

/*
 * The kernel o->kernel names, as a file: for "debian", the cloud kernel
 * package apt-cache names, fetched once into the cache folder; for a
 * variant, make kernels' build/kernels/NAME/bzImage; else the file itself.
 */
int zf_vm_kernel(const struct zf_vm_opts *o, char *path, size_t len, char *why, size_t whylen);
/*
 * the initramfs: busybox (static), this hzfbench, its libraries, and script
 * as /init; with_run_sh, also bash (bash-static) and ZF_VM_SCRIPT_DIR laid
 * out as make dist's bundle (run.sh, bin/hzfbench, plots/, tools/perf-wrap.sh,
 * BUNDLE) from the tree this hzfbench was built in, its results/ a link to /work
 */
int zf_vm_initramfs(const char *path, const struct zf_buf *script, bool with_run_sh,
		    char *why, size_t whylen);

enum zf_vm_end { ZF_VM_FINISHED, ZF_VM_TIMEOUT, ZF_VM_NOT_UP, ZF_VM_DIED };
struct zf_vm_boot {
	enum zf_vm_end end;
	int qemu_status;		/* wait status, for ZF_VM_DIED */
	double up_s, wall_s;		/* to "HZF-UP", and to qemu's exit */
	struct zf_vm_console console;
};
/*
 * Run qemu: its console goes to log_fd whole and the command's own lines
 * to stdout. Stopped (SIGKILL) after timeout_s, or after up_within_s
 * without /init starting (0: no such limit).
 */
struct zf_vm_started {
	/* called once qemu is forked, before its console is read: non-zero stops it */
	int (*fn)(pid_t qemu, void *arg, char *why, size_t whylen);
	void *arg;
};
int zf_vm_run_qemu(char **argv, int log_fd, unsigned long timeout_s,
		   unsigned long up_within_s, const struct zf_vm_started *started,
		   struct zf_vm_boot *b, char *why, size_t whylen);
/* seconds on CLOCK_MONOTONIC: the boots' clock, and the mirror's deadline */
double zf_vm_now_s(void);
/* a file named on $PATH, as a path; -ENOENT when none */
int zf_vm_which(const char *name, char *path, size_t len);
/* the version of qemu-system-x86_64 on $PATH, from its --version; -EIO when it says none */
int zf_vm_qemu_version(int *major, int *minor);

#endif
