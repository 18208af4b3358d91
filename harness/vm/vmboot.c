// SPDX-License-Identifier: GPL-2.0
/* hzfbench vm: fetching the kernel, writing the initramfs, running qemu. */
#define _GNU_SOURCE
#include <elf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpio.h"
#include "sysinfo.h"
#include "vm.h"

int zf_vm_which(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH"), *p, *colon;

	for (p = dirs ? dirs : "/usr/bin:/bin"; p && *p; p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		snprintf(path, len, "%.*s/%s", colon ? (int)(colon - p) : (int)strlen(p), p, name);
		if (!access(path, X_OK))
			return 0;
	}
	return -ENOENT;
}

int zf_vm_qemu_version(int *major, int *minor)
{
	/* "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)" */
	FILE *f = popen("qemu-system-x86_64 --version 2>/dev/null", "r");
	char line[256];
	const char *v = NULL;

	if (!f)
		return -errno;
	while (!v && fgets(line, sizeof(line), f))
		v = strstr(line, "version ");
	pclose(f);
	return v && sscanf(v, "version %d.%d", major, minor) == 2 ? 0 : -EIO;
}

/* kernels/ under $HZF_CACHE, $XDG_CACHE_HOME/hzfbench or ~/.cache/hzfbench */
static int cache_dir(char *dir, size_t len)
{
	const char *env = getenv("HZF_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
		   *home = getenv("HOME");

	if (env && *env)
		snprintf(dir, len, "%s/kernels", env);
	else if (xdg && *xdg)
		snprintf(dir, len, "%s/hzfbench/kernels", xdg);
	else
		snprintf(dir, len, "%s/.cache/hzfbench/kernels", home && *home ? home : "/root");
	return 0;
}

/*
 * apt-cache names the package the cloud meta-package depends on; it is
 * fetched (apt-get download: nothing installed) and unpacked once. Offline,
 * the newest kernel fetched before serves.
 */
static const char fetch_debian[] =
	"set -eu\n"
	"cache=$1\n"
	"mkdir -p \"$cache\"\n"
	"name() { apt-cache depends linux-image-cloud-amd64 2>/dev/null |\n"
	"	sed -n 's/^ *Depends: \\(linux-image-[0-9][^ ]*\\)$/\\1/p' | head -n 1; }\n"
	"pkg=$(name)\n"
	"if [ -z \"$pkg\" ] && [ \"$(id -u)\" = 0 ]; then\n"
	"	apt-get update -qq >&2 || true\n"	/* a new machine's apt has no lists yet */
	"	pkg=$(name)\n"
	"fi\n"
	"if [ -z \"$pkg\" ]; then\n"
	"	k=$(ls -1 \"$cache\"/*/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)\n"
	"	[ -n \"$k\" ] || { echo \"hzfbench: vm: apt-cache knows no linux-image-cloud-amd64"
	" and $cache holds none (apt-get update first)\" >&2; exit 1; }\n"
	"	echo \"$k\"; exit 0\n"
	"fi\n"
	"if ! ls \"$cache/$pkg\"/boot/vmlinuz-* >/dev/null 2>&1; then\n"
	"	echo \"hzfbench: vm: fetching $pkg (apt-get download) into $cache\" >&2\n"
	"	tmp=$(mktemp -d \"$cache/.fetch.XXXXXX\")\n"
	"	trap 'rm -rf \"$tmp\"' EXIT\n"
	"	(cd \"$tmp\" && apt-get download -qq -o APT::Sandbox::User=root \"$pkg\") >&2\n"
	"	dpkg-deb -x \"$tmp\"/*.deb \"$tmp/x\"\n"
	"	rm -rf \"${cache:?}/$pkg\"; mv \"$tmp/x\" \"$cache/$pkg\"\n"
	"fi\n"
	"ls -1 \"$cache/$pkg\"/boot/vmlinuz-* | head -n 1\n";

static int debian_kernel(char *path, size_t len, char *why, size_t whylen)
{
	char dir[PATH_MAX], cmd[PATH_MAX + 64];
	FILE *f;
	int status;
	size_t n;

	cache_dir(dir, sizeof(dir));
	if (strchr(dir, '\'')) {
		snprintf(why, whylen, "%s: a quote in the cache folder's name", dir);
		return -EINVAL;
	}
	/* the script goes in by environment: it holds quotes of its own */
	setenv("HZF_FETCH_SCRIPT", fetch_debian, 1);
	snprintf(cmd, sizeof(cmd), "sh -c \"$HZF_FETCH_SCRIPT\" hzf-fetch '%s'", dir);
	f = popen(cmd, "r");
	if (!f) {
		snprintf(why, whylen, "sh: %s", strerror(errno));
		return -errno;
	}
	if (!fgets(path, (int)len, f))
		path[0] = '\0';
	status = pclose(f);
	unsetenv("HZF_FETCH_SCRIPT");
	n = strlen(path);
	while (n && path[n - 1] == '\n')
		path[--n] = '\0';
	if (status || !n) {
		snprintf(why, whylen, "--kernel debian: no kernel fetched (said above)");
		return -ENOENT;
	}
	return 0;
}

/* make kernels' output: $HZF_KERNELS/NAME/bzImage, or kernels/ beside this binary */
static int variant_kernel(const char *name, char *path, size_t len)
{
	const char *env = getenv("HZF_KERNELS");
	char exe[PATH_MAX];
	int err;

	if (env && *env) {
		snprintf(path, len, "%s/%s/bzImage", env, name);
		return 0;
	}
	err = zf_exe_dir(exe, sizeof(exe));
	if (!err)
		snprintf(path, len, "%s/kernels/%s/bzImage", exe, name);
	return err;
}

int zf_vm_kernel(const struct zf_vm_opts *o, char *path, size_t len, char *why, size_t whylen)
{
	static const char *const variants[] = { "global", "mmflag", "persistent", NULL };
	const char *const *v;
	struct stat st;

	if (!strcmp(o->kernel, "debian"))
		return debian_kernel(path, len, why, whylen);
	for (v = variants; *v; v++)
		if (!strcmp(o->kernel, *v))
			break;
	if (*v) {
		int err = variant_kernel(*v, path, len);

		if (err || stat(path, &st)) {
			snprintf(why, whylen, "--kernel %s: %s: %s (make kernels builds it)",
				 o->kernel, path, strerror(err ? -err : errno));
			return -ENOENT;
		}
		return 0;
	}
	if (stat(o->kernel, &st)) {
		snprintf(why, whylen, "--kernel %s: not debian, global, mmflag, persistent or a "
			 "kernel file (%s)", o->kernel, strerror(errno));
		return -ENOENT;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "--kernel %s: not a file", o->kernel);
		return -EINVAL;
	}
	snprintf(path, len, "%s", o->kernel);
	return 0;
}

/* the libraries this process was loaded with, by their paths (the vDSO has none) */
static int add_library(struct dl_phdr_info *info, size_t size, void *data)
{
	struct zf_buf *list = data;

	(void)size;
	if (info->dlpi_name && info->dlpi_name[0] == '/')
		zf_buf_printf(list, "%s\n", info->dlpi_name);
	return 0;
}

/* each folder above path, once, in order */
static void add_parents(struct zf_cpio *c, struct zf_buf *made, const char *path)
{
	char dir[PATH_MAX], key[PATH_MAX + 2];
	const char *slash;

	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		snprintf(key, sizeof(key), "\n%s\n", dir);
		if (!*dir || (made->text && strstr(made->text, key)))
			continue;
		zf_cpio_dir(c, dir, 0755);
		zf_buf_printf(made, "%s%s\n", made->len ? "" : "\n", dir);
	}
}

/* busybox must need no loader: the initramfs holds only hzfbench's libraries */
static int static_elf(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, err = 0;

	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		err = -ENOEXEC;
	for (i = 0; !err && i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize)) !=
		    sizeof(ph))
			err = -ENOEXEC;
		else if (ph.p_type == PT_INTERP)
			err = -ELIBBAD;
	}
	close(fd);
	return err;
}

/* run.sh and what it reads, laid out as make dist's bundle under ZF_VM_SCRIPT_DIR */
static int add_run_sh(struct zf_cpio *c, char *why, size_t whylen)
{
	static const char *const dirs[] = { "opt", ZF_VM_SCRIPT_DIR, ZF_VM_SCRIPT_DIR "/bin",
					    ZF_VM_SCRIPT_DIR "/plots", ZF_VM_SCRIPT_DIR "/tools",
					    NULL };
	static const char bundle[] = "hzfbench in hzfbench vm's guest\n"
				     "needs: what the guest's initramfs holds\n";
	char exe[PATH_MAX], top[PATH_MAX], src[PATH_MAX + 64], dst[PATH_MAX + 64], bash[PATH_MAX];
	const char *const *d;
	struct dirent *e;
	DIR *plots;

	if (zf_vm_which("bash-static", bash, sizeof(bash))) {
		snprintf(why, whylen, "run.sh: bash-static: not found (apt-get install bash-static)");
		return -ENOENT;
	}
	if (zf_exe_dir(exe, sizeof(exe)) ||
	    snprintf(top, sizeof(top), "%s/..", exe) >= (int)sizeof(top) ||
	    snprintf(src, sizeof(src), "%s/run.sh", top) < 0 || access(src, R_OK)) {
		snprintf(why, whylen, "run.sh: not beside this hzfbench's folder (%s/..): run "
			 "the hzfbench of a source tree or of make dist's bundle", exe);
		return -ENOENT;
	}
	for (d = dirs; *d; d++)
		zf_cpio_dir(c, *d, 0755);
	zf_cpio_copy(c, "bin/bash", 0755, bash);
	zf_cpio_copy(c, ZF_VM_SCRIPT_DIR "/run.sh", 0755, src);
	zf_cpio_copy(c, ZF_VM_SCRIPT_DIR "/bin/hzfbench", 0755, "/proc/self/exe");
	zf_cpio_data(c, ZF_VM_SCRIPT_DIR "/BUNDLE", 0644, bundle, sizeof(bundle) - 1);
	zf_cpio_symlink(c, ZF_VM_SCRIPT_DIR "/results", "/work");
	snprintf(src, sizeof(src), "%s/tools/perf-wrap.sh", top);
	zf_cpio_copy(c, ZF_VM_SCRIPT_DIR "/tools/perf-wrap.sh", 0755, src);
	snprintf(src, sizeof(src), "%s/plots", top);
	plots = opendir(src);
	while (plots && (e = readdir(plots))) {
		size_t n = strlen(e->d_name);

		if (n < 4 || strcmp(e->d_name + n - 3, ".gp"))
			continue;
		snprintf(src, sizeof(src), "%s/plots/%s", top, e->d_name);
		snprintf(dst, sizeof(dst), ZF_VM_SCRIPT_DIR "/plots/%s", e->d_name);
		zf_cpio_copy(c, dst, 0644, src);
	}
	if (plots)
		closedir(plots);
	return 0;
}

int zf_vm_initramfs(const char *path, const struct zf_buf *script, bool with_run_sh,
		    char *why, size_t whylen)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "tmp", "work", NULL };
	struct zf_buf libs = { 0 }, made = { 0 };
	bool said;
	char busybox[PATH_MAX], *line, *next;
	const char *const *d;
	struct zf_cpio c;
	int fd, err;

	if (zf_vm_which("busybox", busybox, sizeof(busybox))) {
		snprintf(why, whylen, "busybox: not found (apt-get install busybox-static)");
		return -ENOENT;
	}
	err = static_elf(busybox);
	if (err) {
		snprintf(why, whylen, "%s: %s", busybox, err == -ELIBBAD ?
			 "dynamically linked (apt-get install busybox-static)" : strerror(-err));
		return err;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	zf_cpio_init(&c, fd);
	for (d = dirs; *d; d++) {
		zf_cpio_dir(&c, *d, 0755);
		zf_buf_printf(&made, "%s%s\n", made.len ? "" : "\n", *d);
	}
	zf_cpio_chardev(&c, "dev/console", 0600, 5, 1);
	zf_cpio_copy(&c, "bin/busybox", 0755, busybox);
	zf_cpio_copy(&c, "bin/hzfbench", 0755, "/proc/self/exe");
	dl_iterate_phdr(add_library, &libs);
	for (line = libs.text; line && *line; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		add_parents(&c, &made, line + 1);
		zf_cpio_copy(&c, line + 1, 0755, line);
	}
	zf_cpio_data(&c, "init", 0755, script->text, script->len);
	said = with_run_sh && add_run_sh(&c, why, whylen);	/* why is said */
	err = said ? -ENOENT : libs.oom || made.oom ? -ENOMEM : zf_cpio_end(&c);
	if (!err && close(fd))
		err = -errno;
	else if (err)
		close(fd);
	if (err && !said)
		snprintf(why, whylen, "initramfs %s: %s", path, c.err ? c.why : strerror(-err));
	zf_buf_free(&libs);
	zf_buf_free(&made);
	return err;
}

double zf_vm_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* complete lines of pending go to the console reader; a part line stays */
static void take_lines(struct zf_buf *pending, struct zf_vm_boot *b)
{
	char *start = pending->text, *nl;
	size_t used;

	while ((nl = memchr(start, '\n', pending->len - (size_t)(start - pending->text)))) {
		*nl = '\0';
		if (zf_vm_console_line(&b->console, start)) {
			fputs(start, stdout);
			fputc('\n', stdout);
			fflush(stdout);
		}
		start = nl + 1;
	}
	used = (size_t)(start - pending->text);
	memmove(pending->text, start, pending->len - used);
	pending->len -= used;
	/* a line longer than this is no marker: let it go */
	if (pending->len > 65536)
		pending->len = 0;
}

int zf_vm_run_qemu(char **argv, int log_fd, unsigned long timeout_s,
		   unsigned long up_within_s, const struct zf_vm_started *started,
		   struct zf_vm_boot *b, char *why, size_t whylen)
{
	struct zf_buf pending = { 0 };
	double start = zf_vm_now_s();
	int pipefd[2], status = 0, devnull;
	char chunk[16384];
	bool eof = false;
	pid_t pid;

	memset(b, 0, sizeof(*b));
	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -errno;
	}
	if (!pid) {
		/* qemu dies with us, whatever kills us */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		execvp(argv[0], argv);
		dprintf(2, "hzfbench: vm: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	if (started && started->fn) {
		int err = started->fn(pid, started->arg, why, whylen);

		if (err) {
			ssize_t n;

			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			/* what qemu said before it went (why it ended, often): the log, and its error */
			while ((n = read(pipefd[0], chunk, sizeof(chunk))) > 0 ||
			       (n < 0 && errno == EINTR)) {
				if (n <= 0)
					continue;
				if (write(log_fd, chunk, (size_t)n) != n) {
					/* the log is a copy: its error is still read */
				}
				zf_buf_append(&pending, chunk, (size_t)n);
				take_lines(&pending, b);
			}
			zf_buf_append(&pending, "\n", 1);	/* a last line without its newline */
			take_lines(&pending, b);
			zf_buf_free(&pending);
			close(pipefd[0]);
			b->end = ZF_VM_DIED;
			b->qemu_status = status;
			b->wall_s = zf_vm_now_s() - start;
			return err;
		}
		start = zf_vm_now_s();	/* the boot's clock starts when the guest may run */
	}
	for (;;) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		double left = start + (double)timeout_s - zf_vm_now_s();
		ssize_t n;

		if (!b->console.up && up_within_s && zf_vm_now_s() - start > (double)up_within_s) {
			b->end = ZF_VM_NOT_UP;
			break;
		}
		if (left <= 0) {
			b->end = ZF_VM_TIMEOUT;
			break;
		}
		if (poll(&p, 1, left > 1 ? 1000 : (int)(left * 1000) + 1) < 0 && errno != EINTR) {
			b->end = ZF_VM_DIED;	/* we cannot watch it: it goes */
			break;
		}
		if (!(p.revents & (POLLIN | POLLHUP)))
			continue;
		n = read(pipefd[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			b->end = b->console.done ? ZF_VM_FINISHED : ZF_VM_DIED;
			eof = true;
			break;
		}
		if (write(log_fd, chunk, (size_t)n) != n) {
			/* the log is a copy: the guest's command goes on */
		}
		zf_buf_append(&pending, chunk, (size_t)n);
		take_lines(&pending, b);
		if (b->console.up && !b->up_s)
			b->up_s = zf_vm_now_s() - start;
	}
	if (!eof)	/* stopped, or not watched any more: qemu goes */
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	b->wall_s = zf_vm_now_s() - start;
	b->qemu_status = status;
	if (b->end == ZF_VM_DIED && b->console.done)
		b->end = ZF_VM_FINISHED;
	zf_buf_free(&pending);
	return 0;
}
