// SPDX-License-Identifier: GPL-2.0
/*
 * `hzfbench vm [options] -- SUBCOMMAND ...`: boot, run, bring back.
 * DIR/console.log is everything the guest's console said; DIR/vm.json says
 * which kernel, topology and accelerator ran it, and how it ended
 * ("complete": true only once the guest's files are unpacked).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interrupt.h"
#include "mirror.h"
#include "results.h"
#include "sysinfo.h"
#include "vm.h"

extern char **environ;

/* under auto, a KVM guest that has not run /init by then is taken as stalled */
#define KVM_UP_WITHIN_S		60

struct vm_state {
	struct zf_vm_opts o;
	char dir[PATH_MAX], kernel[PATH_MAX], tmp[PATH_MAX];
	enum zf_vm_accel accel;
	struct zf_vm_boot boot;		/* the last boot */
	unsigned boots;			/* qemu started, kvm's tries included */
	double before_s;		/* seconds the boots before the last took */
	const char *ending;		/* how it ended, for vm.json */
	struct zf_vm_mirror mirror;	/* --mirror-host's plan */
	struct zf_vm_readback rb;	/* and what the host said of it, once pinned */
	bool pinned;
	char qmp[PATH_MAX + 16];	/* the mirror's QMP socket */
};

static unsigned long long node_bytes(const struct vm_state *s)
{
	return s->o.mem_bytes / s->o.nodes;
}

static int write_vm_json(const struct vm_state *s, bool complete)
{
	struct zf_buf b = { 0 };
	json_t *root, *command = json_array();
	char stamp[32];
	int i, err;

	zf_utc_time(stamp, sizeof(stamp), false);
	for (i = 0; i < s->o.ncmd; i++)
		zf_json_push(&command, zf_json_text(s->o.cmd[i]));
	root = json_pack("{s:o, s:s, s:o, s:I, s:I, s:i, s:o}",
			 "vm", zf_vm_json(&s->o, s->accel, s->kernel,
					  s->boot.console.up ? s->boot.console.release : NULL),
			 "virtualized", zf_vm_accel_name(s->accel), "command", command,
			 "timeout_s", (json_int_t)s->o.timeout_s,
			 "boot_timeout_s", (json_int_t)s->o.boot_timeout_s, "boots", (int)s->boots,
			 "ending", zf_json_text(s->ending ? s->ending : "running"));
	if (root && s->o.mirror &&
	    json_object_set_new(root, "mirror", zf_vm_mirror_json(&s->mirror, s->pinned ? &s->rb :
								  NULL, node_bytes(s)))) {
		json_decref(root);
		root = NULL;
	}
	if (root && s->boot.console.done &&
	    json_object_set_new(root, "exit_status", json_integer(s->boot.console.exit_status))) {
		json_decref(root);
		root = NULL;
	}
	/* two decimals of a second, as it was printed */
	if (root && json_object_update_new(root, json_pack("{s:o, s:o, s:s, s:b}",
			"up_s", zf_json_real(round(s->boot.up_s * 100) / 100),
			"wall_s", zf_json_real(round((s->before_s + s->boot.wall_s) * 100) / 100),
			"written", stamp, "complete", complete))) {
		json_decref(root);
		root = NULL;
	}
	zf_json_dump(root, JSON_INDENT(2), &b);
	zf_buf_printf(&b, "\n");
	err = zf_buf_write(s->dir, "vm.json", &b, "vm");
	zf_buf_free(&b);
	return err;
}

/* the data port's tar stream, unpacked into the results folder by tar(1) */
static int unpack(struct vm_state *s, char *why, size_t whylen)
{
	char data_path[PATH_MAX + 16], tar_path[PATH_MAX + 16], *text = NULL;
	char *const argv[] = { "tar", "-x", "-f", tar_path, "-C", s->dir, NULL };
	struct zf_buf tar = { 0 };
	size_t len = 0;
	int err, status;
	pid_t pid;

	snprintf(data_path, sizeof(data_path), "%s/data", s->tmp);
	snprintf(tar_path, sizeof(tar_path), "%s/guest.tar", s->tmp);
	err = zf_read_file_alloc(data_path, &text, &len);
	if (err) {
		snprintf(why, whylen, "%s: %s", data_path, strerror(-err));
		return err;
	}
	err = zf_vm_data_decode(text, len, &tar, why, whylen);
	free(text);
	if (!err)
		err = zf_write_atomic(s->tmp, "guest.tar", tar.text ? tar.text : "", tar.len);
	zf_buf_free(&tar);
	if (err) {
		if (err != -EPROTO)
			snprintf(why, whylen, "%s: %s", tar_path, strerror(-err));
		return err;
	}
	err = posix_spawnp(&pid, "tar", NULL, NULL, argv, environ);
	if (err) {
		snprintf(why, whylen, "tar: %s", strerror(err));
		return -err;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, whylen, "tar could not unpack the guest's files into %s", s->dir);
		return -EIO;
	}
	return 0;
}

static bool kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* under tcg, a topology the installed qemu cannot emulate: -ERANGE, said in why */
static int tcg_check(const struct vm_state *s, char *why, size_t whylen)
{
	char reason[256];
	int major, minor;

	if (zf_vm_qemu_version(&major, &minor) ||
	    !zf_vm_tcg_check(&s->o, major, minor, reason, sizeof(reason)))
		return 0;
	snprintf(why, whylen, "--smp: %lu: %s", s->o.smp, reason);
	return -ERANGE;
}

/* `qemu said "ITS ERROR"; `, or "" when it said none */
static const char *qemu_words(const struct zf_vm_boot *b, char *buf, size_t len)
{
	if (!b->console.qemu_said[0])
		return "";
	snprintf(buf, len, "qemu said \"%s\"; ", b->console.qemu_said);
	return buf;
}

/* qemu is up and stopped (-S): pin, read back, let it run */
static int mirror_started(pid_t qemu, void *arg, char *why, size_t whylen)
{
	struct vm_state *s = arg;
	int err;

	s->pinned = false;
	err = zf_vm_mirror_start(&s->mirror, qemu, s->qmp, node_bytes(s),
				 zf_vm_now_s() + (double)s->o.timeout_s - s->before_s, &s->rb, why,
				 whylen);
	s->pinned = !err || err == -EIO;	/* a mismatch was read back: vm.json keeps it */
	if (err) {	/* boot_once() adds what qemu said as it went */
		char what[512];

		snprintf(what, sizeof(what), "%s", why);
		snprintf(why, whylen, "--mirror-host: %s", what);
	}
	return err;
}

/* one boot under s->accel; 0 once qemu ended, whichever way */
static int boot_once(struct vm_state *s, int log_fd, unsigned long up_within_s, char *why,
		     size_t whylen)
{
	char initrd[PATH_MAX + 16], data[PATH_MAX + 16];
	struct zf_buf script = { 0 };
	struct zf_vm_argv a = { 0 };
	struct zf_vm_started started = { .fn = mirror_started, .arg = s };
	int err;

	if (s->boots) {
		s->before_s += s->boot.wall_s;
		s->boot.wall_s = 0;
	}
	if (s->before_s >= (double)s->o.timeout_s) {
		s->boot.end = ZF_VM_TIMEOUT;
		return 0;
	}
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", s->tmp);
	snprintf(data, sizeof(data), "%s/data", s->tmp);
	zf_vm_init_script(&s->o, s->accel, s->kernel, &script);
	err = script.oom ? -ENOMEM : zf_vm_initramfs(initrd, &script, s->o.script, why, whylen);
	zf_buf_free(&script);
	if (!err)
		err = zf_vm_qemu_argv(&s->o, s->accel, s->kernel, initrd, data, s->qmp, &a);
	if (!err) {
		/* a boot after the first starts a line of its own, with its number */
		if (s->boots)
			dprintf(log_fd, "\nhzfbench vm: boot %u, ", s->boots + 1);
		else
			dprintf(log_fd, "hzfbench vm: ");
		dprintf(log_fd, "%s, %lu CPUs, %lu sockets, %lu threads a core, %lu nodes, %llu MiB%s%s"
			"\n", zf_vm_accel_name(s->accel), s->o.smp, s->o.sockets, s->o.threads,
			s->o.nodes, s->o.mem_bytes >> 20, s->o.mirror ? ", mirroring host PUs " : "",
			s->o.mirror ? s->mirror.pus : "");
		s->boots++;
		unlink(s->qmp);
		err = zf_vm_run_qemu(a.argv, log_fd, s->o.timeout_s - (unsigned long)s->before_s,
				     up_within_s, s->o.mirror ? &started : NULL, &s->boot, why,
				     whylen);
		if (err && s->o.mirror && s->boot.end == ZF_VM_DIED) {	/* mirror_started()'s */
			char words[320];
			size_t n = strlen(why);

			snprintf(why + n, whylen - n, " (%sits console: %s/console.log)",
				 qemu_words(&s->boot, words, sizeof(words)), s->dir);
		}
	} else if (err == -ENOMEM) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
	}
	zf_vm_argv_free(&a);
	return err;
}

/*
 * The boots: kvm first under auto where it opens, tcg when kvm never came
 * up. A kernel that has not started /init within --boot-timeout is stopped
 * and booted once more: a 64-CPU tcg guest that comes up in 15 s once sat
 * 90 minutes with nothing on its console.
 */
static int boot(struct vm_state *s, int log_fd, char *why, size_t whylen)
{
	bool try_kvm = s->o.accel == ZF_VM_KVM || (s->o.accel == ZF_VM_AUTO && kvm_usable());
	unsigned long within = s->o.boot_timeout_s;
	unsigned long kvm_within = within && within < KVM_UP_WITHIN_S ? within : KVM_UP_WITHIN_S;
	char words[320];
	int err, again;

	if (s->o.accel == ZF_VM_KVM && !kvm_usable()) {
		snprintf(why, whylen, "--accel kvm: /dev/kvm: %s", strerror(errno));
		return -ENODEV;
	}
	if (try_kvm && s->o.accel == ZF_VM_AUTO) {
		s->accel = ZF_VM_KVM;
		err = boot_once(s, log_fd, kvm_within, why, whylen);
		/* qemu under kvm gone before it could be pinned: as any death before /init */
		if (err && s->o.mirror && !s->pinned && s->boot.end == ZF_VM_DIED)
			err = 0;
		if (err || s->boot.console.up ||
		    (s->boot.end != ZF_VM_NOT_UP && s->boot.end != ZF_VM_DIED))
			return err;
		if (s->boot.end == ZF_VM_NOT_UP)
			fprintf(stderr, "hzfbench: vm: kvm: no sign of /init after %lu s (nested "
				"virtualisation?): trying tcg\n", kvm_within);
		else
			fprintf(stderr, "hzfbench: vm: kvm: qemu stopped before /init (%sits "
				"console: %s/console.log): trying tcg\n",
				qemu_words(&s->boot, words, sizeof(words)), s->dir);
	}
	s->accel = try_kvm && s->o.accel == ZF_VM_KVM ? ZF_VM_KVM : ZF_VM_TCG;
	if (s->accel == ZF_VM_TCG) {
		err = tcg_check(s, why, whylen);
		if (err)
			return err;
	}
	for (again = 1;; again--) {
		err = boot_once(s, log_fd, within, why, whylen);
		if (err || !again || s->boot.end != ZF_VM_NOT_UP)
			return err;
		fprintf(stderr, "hzfbench: vm: %s: no sign of /init after --boot-timeout %lu s "
			"(its console: %s/console.log): stopped, booting once more\n",
			zf_vm_accel_name(s->accel), within, s->dir);
	}
}

static int finish(struct vm_state *s, int log_fd)
{
	char why[PATH_MAX + 256], words[320];
	int err;

	switch (s->boot.end) {
	case ZF_VM_TIMEOUT:
		s->ending = "timeout";
		fprintf(stderr, "hzfbench: vm: the guest was still running after --timeout %lu s: "
			"stopped (its console: %s/console.log)\n", s->o.timeout_s, s->dir);
		return 124;
	case ZF_VM_NOT_UP:
		s->ending = "no boot";
		fprintf(stderr, "hzfbench: vm: the kernel did not start /init within --boot-timeout "
			"%lu s, %u boots: stopped (its console: %s/console.log)\n",
			s->o.boot_timeout_s, s->boots, s->dir);
		return 1;
	case ZF_VM_DIED:
		s->ending = s->boot.console.up ? "guest died" : "no boot";
		fprintf(stderr, "hzfbench: vm: %s before its command ended (qemu %s %d; %sits "
			"console: %s/console.log)\n", s->boot.console.up ? "the guest stopped" :
			"the kernel did not start /init", WIFSIGNALED(s->boot.qemu_status) ?
			"killed by signal" : "exit", WIFSIGNALED(s->boot.qemu_status) ?
			WTERMSIG(s->boot.qemu_status) : WEXITSTATUS(s->boot.qemu_status),
			qemu_words(&s->boot, words, sizeof(words)), s->dir);
		return 1;
	case ZF_VM_FINISHED:
		break;
	}
	err = unpack(s, why, sizeof(why));
	if (err) {
		s->ending = "data lost";
		fprintf(stderr, "hzfbench: vm: %s\n", why);
		return 1;
	}
	s->ending = "finished";
	dprintf(log_fd, "hzfbench vm: exit %d\n", s->boot.console.exit_status);
	fprintf(stderr, "hzfbench: vm: %s under %s, %lu CPUs in %lu nodes: exit %d after %.1f s "
		"(up in %.1f s); files in %s\n", s->boot.console.release, zf_vm_accel_name(s->accel),
		s->o.smp, s->o.nodes, s->boot.console.exit_status, s->before_s + s->boot.wall_s,
		s->boot.up_s, s->dir);
	return s->boot.console.exit_status;
}

/* each scratch file, then the scratch folder itself */
static void scratch_paths(const char *tmp, void (*each)(const char *path))
{
	static const char *const names[] = { "initramfs.cpio", "data", "guest.tar", "qmp.sock",
					     NULL };
	const char *const *n;
	char path[PATH_MAX + 32];

	for (n = names; *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, *n);
		each(path);
	}
	each(tmp);
}

static void remove_path(const char *path)
{
	if (unlink(path))
		rmdir(path);
}

static void remove_tmp(const char *tmp)
{
	scratch_paths(tmp, remove_path);
}

/* Ctrl-C: qemu dies with us (PR_SET_PDEATHSIG); the scratch goes, vm.json stays incomplete */
static void catch_signals(const char *dir, const char *tmp)
{
	scratch_paths(tmp, zf_interrupt_scratch);
	zf_interrupt_catch(dir, "vm.json");
}

/* --mirror-host: the host's shape over the PUs chosen; 0, or an exit status (said) */
static int mirror_plan(struct vm_state *s)
{
	char why[512], *placement = zf_vm_mirror_placement(&s->o);
	const char *label = s->o.cpus ? "--cpus" : s->o.placement ? "--placement" : NULL;
	struct zf_topo topo;
	int err;

	err = zf_topo_open_here(&topo, why, sizeof(why));
	if (!err) {
		err = zf_vm_mirror_plan(&topo, placement, &s->mirror, why, sizeof(why));
		zf_topo_close(&topo);
	}
	free(placement);
	if (err) {
		fprintf(stderr, "hzfbench: vm: --mirror-host: %s%s%s%s%s\n", label ? label : "",
			label ? " " : "", label ? (s->o.cpus ? s->o.cpus : s->o.placement) : "",
			label ? ": " : "", why);
		return err == -ENOMEM ? 1 : 2;
	}
	s->mirror.pmu = zf_vm_host_pmu();
	return zf_vm_mirror_apply(&s->o, &s->mirror);
}

static int vm_run(struct vm_state *s, int argc, char **argv,
		  bool (*is_subcommand)(const char *name))
{
	char why[PATH_MAX + 256], qemu[PATH_MAX], log_path[PATH_MAX + 16];
	const char *tmpdir = getenv("TMPDIR");
	int rc, err, log_fd;

	rc = zf_vm_parse(argc, argv, &s->o);
	if (rc)
		return rc == 1 ? 0 : rc;
	/* the guest's command, asked here: not after a boot of minutes under TCG */
	if (!s->o.script && !is_subcommand(s->o.cmd[0])) {
		fprintf(stderr, "hzfbench: vm: %s: not a subcommand (hzfbench --help)\n",
			s->o.cmd[0]);
		return 2;
	}
	if (s->o.mirror) {
		rc = mirror_plan(s);
		if (rc)
			return rc;
	}
	s->accel = s->o.accel == ZF_VM_KVM ? ZF_VM_KVM : ZF_VM_TCG;
	if (zf_vm_which("qemu-system-x86_64", qemu, sizeof(qemu))) {
		fprintf(stderr, "hzfbench: vm: qemu-system-x86_64: not found (apt-get install "
			"qemu-system-x86)\n");
		return 1;
	}
	if ((s->o.accel == ZF_VM_TCG || (s->o.accel == ZF_VM_AUTO && !kvm_usable())) &&
	    tcg_check(s, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: vm: %s\n", why);
		return 2;
	}
	err = zf_vm_kernel(&s->o, s->kernel, sizeof(s->kernel), why, sizeof(why));
	if (err) {
		fprintf(stderr, "hzfbench: vm: %s\n", why);
		return err == -EINVAL || err == -ENOENT ? 2 : 1;
	}
	err = zf_results_dir(s->o.out, s->dir, sizeof(s->dir), why, sizeof(why));
	if (err) {
		fprintf(stderr, "hzfbench: vm: --out: %s: %s\n", s->o.out ? s->o.out : s->dir, why);
		return 2;	/* as every --out refused: nothing ran */
	}
	snprintf(s->tmp, sizeof(s->tmp), "%s/hzfbench-vm.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(s->tmp)) {
		fprintf(stderr, "hzfbench: vm: %s: %s\n", s->tmp, strerror(errno));
		return 1;
	}
	snprintf(s->qmp, sizeof(s->qmp), "%s/qmp.sock", s->tmp);
	snprintf(log_path, sizeof(log_path), "%s/console.log", s->dir);
	log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (log_fd < 0 || write_vm_json(s, false)) {
		if (log_fd < 0)
			fprintf(stderr, "hzfbench: vm: %s: %s\n", log_path, strerror(errno));
		remove_tmp(s->tmp);
		return 1;
	}
	catch_signals(s->dir, s->tmp);
	err = boot(s, log_fd, why, sizeof(why));
	if (err) {
		fprintf(stderr, "hzfbench: vm: %s\n", why);
		/* a pinning or binding the host did not keep: vm.json says which */
		s->ending = err == -EIO && s->pinned ? "mirror mismatch" : "not started";
		rc = err == -ERANGE ? 2 : 1;
	} else {
		rc = finish(s, log_fd);
	}
	close(log_fd);
	if (write_vm_json(s, s->ending && !strcmp(s->ending, "finished")))
		rc = rc ? rc : 1;
	remove_tmp(s->tmp);
	return rc;
}

int zf_vm_main(int argc, char **argv, bool (*is_subcommand)(const char *name))
{
	struct vm_state s = { 0 };
	int rc = vm_run(&s, argc, argv, is_subcommand);

	zf_vm_readback_free(&s.rb);
	zf_vm_mirror_free(&s.mirror);
	return rc;
}
