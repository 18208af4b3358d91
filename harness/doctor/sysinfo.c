// SPDX-License-Identifier: GPL-2.0
/* Machine and kernel facts for meta.json: see sysinfo.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "sysinfo.h"

const char *zf_thp_dir(void)
{
	const char *dir = getenv("HZF_THP_DIR");

	return dir && *dir ? dir : "/sys/kernel/mm/transparent_hugepage";
}

const char *zf_kernel_strategy(const char *release, const char *persistent)
{
	int major = 0, minor = 0;
	long version;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return "unknown";
	version = major * 1000L + minor;
	if (!strcmp(persistent, "y"))
		return "persistent";
	if (version < 4009)
		return "global";
	/* PERSISTENT_HUGE_ZERO_FOLIO exists from 6.18: without the config, either */
	if (!strcmp(persistent, "n") || version < 6018)
		return "mmflag";
	return "unknown";
}

int zf_thp_usable(const struct zf_sysinfo *si, char *why, size_t len)
{
	if (strcmp(si->thp_enabled, "always") && strcmp(si->thp_enabled, "madvise")) {
		snprintf(why, len, "THP is %s in %s/enabled: echo madvise > %s/enabled, or --set-thp madvise",
			 si->thp_enabled[0] ? si->thp_enabled : "unreadable", zf_thp_dir(),
			 zf_thp_dir());
		return -EINVAL;
	}
	if (strcmp(si->thp_use_zero_page, "1")) {
		snprintf(why, len, "the huge zero page is off (%s/use_zero_page is %s): echo 1 > %s/use_zero_page, or --set-thp madvise",
			 zf_thp_dir(), si->thp_use_zero_page[0] ? si->thp_use_zero_page : "unreadable",
			 zf_thp_dir());
		return -EINVAL;
	}
	return 0;
}

int zf_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

int zf_write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int zf_read_file_alloc(const char *path, char **text, size_t *len)
{
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap), *bigger;
	/* O_NONBLOCK: a FIFO put where a file was would hold the open forever */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err = 0;
	struct stat st;
	ssize_t got;

	*text = NULL;
	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	if (fstat(fd, &st) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		err = -EINVAL;	/* not a file to read: no reader waits on one */
		goto out;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	for (;;) {
		if (n + 1 >= cap) {
			bigger = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
			if (!bigger) {
				/* past 64 MiB: no file hzfbench reads is that big (/dev/zero is) */
				err = cap < (64u << 20) ? -ENOMEM : -EFBIG;
				goto out;
			}
			buf = bigger;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			goto out;
		}
		if (!got)
			break;
		n += got;
	}
	buf[n] = '\0';
	*text = buf;
	if (len)
		*len = n;
	buf = NULL;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

void zf_sysfs_choice(const char *text, char *out, size_t len)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(out, len, "%s", text);
}

const char *zf_kconfig_value(const char *config, const char *name)
{
	char set[128], unset[128];
	const char *line;

	snprintf(set, sizeof(set), "CONFIG_%s=", name);
	snprintf(unset, sizeof(unset), "# CONFIG_%s is not set", name);
	for (line = config; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!strncmp(line, set, strlen(set)))
			return line[strlen(set)] == 'y' ? "y" : "n";
		if (!strncmp(line, unset, strlen(unset)))
			return "n";
	}
	return "unknown";
}

int zf_status_kb(const char *text, const char *name, uint64_t *kb)
{
	size_t n = strlen(name);
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long long v;
		const char *p;
		char *end;

		if (strncmp(line, name, n) || line[n] != ':')
			continue;
		p = line + n + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = strtoull(p, &end, 10);
		if (strncmp(end, " kB", 3))
			return -EINVAL;
		*kb = v;
		return 0;
	}
	return -ENOENT;
}

int zf_peak_rss_kb(uint64_t *kb)
{
	char text[8192];
	int err = zf_read_file("/proc/self/status", text, sizeof(text));

	return err ? err : zf_status_kb(text, "VmHWM", kb);
}

/* /proc/config.gz or /boot/config-RELEASE, whole, malloc()ed */
static char *read_kernel_config(const char *release, char *source, size_t len)
{
	char path[256];
	size_t cap = 1 << 20, used = 0;
	char *text = malloc(cap);
	gzFile gz;
	int n;

	if (!text)
		return NULL;
	snprintf(path, sizeof(path), "/proc/config.gz");
	gz = gzopen(path, "rb");
	if (!gz) {
		snprintf(path, sizeof(path), "/boot/config-%s", release);
		gz = gzopen(path, "rb");	/* zlib reads plain files too */
	}
	if (!gz) {
		free(text);
		return NULL;
	}
	while ((n = gzread(gz, text + used, cap - used - 1)) > 0) {
		used += n;
		if (used + 1 == cap) {
			char *bigger = realloc(text, cap * 2);

			if (!bigger)
				break;
			text = bigger;
			cap *= 2;
		}
	}
	gzclose(gz);
	text[used] = '\0';
	snprintf(source, len, "%s", path);
	return text;
}

static void read_cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(out, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, "model name", 10))
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	fclose(f);
}

static void read_thp(const char *knob, char *out, size_t len)
{
	char path[PATH_MAX], text[256];

	snprintf(path, sizeof(path), "%s/%s", zf_thp_dir(), knob);
	if (zf_read_file(path, text, sizeof(text)))
		out[0] = '\0';
	else
		zf_sysfs_choice(text, out, len);
}

void zf_sysinfo_read(struct zf_sysinfo *si)
{
	struct utsname u;
	char *config;

	memset(si, 0, sizeof(*si));
	if (!uname(&u)) {
		snprintf(si->host, sizeof(si->host), "%s", u.nodename);
		snprintf(si->machine, sizeof(si->machine), "%s", u.machine);
		snprintf(si->kernel_release, sizeof(si->kernel_release), "%s", u.release);
		snprintf(si->kernel_version, sizeof(si->kernel_version), "%s", u.version);
	}
	read_cpu_model(si->cpu_model, sizeof(si->cpu_model));
	read_thp("enabled", si->thp_enabled, sizeof(si->thp_enabled));
	read_thp("defrag", si->thp_defrag, sizeof(si->thp_defrag));
	read_thp("use_zero_page", si->thp_use_zero_page, sizeof(si->thp_use_zero_page));
	config = read_kernel_config(si->kernel_release, si->kernel_config_source,
				    sizeof(si->kernel_config_source));
	snprintf(si->persistent_huge_zero_folio, sizeof(si->persistent_huge_zero_folio), "%s",
		 config ? zf_kconfig_value(config, "PERSISTENT_HUGE_ZERO_FOLIO") : "unknown");
	free(config);
	snprintf(si->kernel_strategy, sizeof(si->kernel_strategy), "%s",
		 zf_kernel_strategy(si->kernel_release, si->persistent_huge_zero_folio));
	si->online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
}

int zf_exe_dir(char *dir, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	snprintf(dir, len, "%s", exe);
	return 0;
}
