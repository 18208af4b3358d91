/* SPDX-License-Identifier: GPL-2.0 */
/* What the results need to say about the machine and kernel they came from. */
#ifndef HZF_SYSINFO_H
#define HZF_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

struct zf_sysinfo {
	char host[256];
	char cpu_model[256];
	char machine[72];
	char kernel_release[128];
	char kernel_version[256];
	/* the selected value of each THP knob; "" where it cannot be read */
	char thp_enabled[32], thp_defrag[32], thp_use_zero_page[16];
	/* CONFIG_PERSISTENT_HUGE_ZERO_FOLIO: "y", "n", or "unknown" */
	char persistent_huge_zero_folio[16];
	char kernel_config_source[272];	/* where it was read, or "" */
	/* how the running kernel counts: global, mmflag, persistent or unknown */
	char kernel_strategy[16];
	long online_cpus;
};

void zf_sysinfo_read(struct zf_sysinfo *si);

/* the THP sysfs folder: $HZF_THP_DIR (for tests) or /sys/kernel/mm/transparent_hugepage */
const char *zf_thp_dir(void);
/*
 * The strategy a kernel of this release and CONFIG_PERSISTENT_HUGE_ZERO_FOLIO
 * value ("y", "n", "unknown") uses: persistent when set; mmflag from 4.9
 * (seed 007); global before.
 */
const char *zf_kernel_strategy(const char *release, const char *persistent);
/* 0 when real huge zero faults can happen; else -EINVAL and the sysfs file to change */
int zf_thp_usable(const struct zf_sysinfo *si, char *why, size_t len);

/* the whole of a small file, NUL-terminated and without a final newline; -errno */
int zf_read_file(const char *path, char *buf, size_t len);
/*
 * The whole of a file of any size (a /proc file too, whose size says 0),
 * NUL-terminated, malloc()ed into *text, its length in *len (may be NULL);
 * -errno, -EFBIG past 64 MiB
 */
int zf_read_file_alloc(const char *path, char **text, size_t *len);
/*
 * text written to an existing file (a sysfs or procfs knob) in one write();
 * -errno, -EIO when the kernel took less. Async-signal-safe: open, write, close.
 */
int zf_write_file(const char *path, const char *text);
/* the folder this binary is in (/proc/self/exe's); -errno */
int zf_exe_dir(char *dir, size_t len);
/* "always [madvise] never" -> "madvise"; the text itself when there is no [] */
void zf_sysfs_choice(const char *text, char *out, size_t len);
/* "y", "n" or "unknown" for CONFIG_<name> in a kernel .config text */
const char *zf_kconfig_value(const char *config, const char *name);
/* the kB of a "NAME:   1234 kB" line of /proc/PID/status text; -ENOENT absent, -EINVAL not kB */
int zf_status_kb(const char *text, const char *name, uint64_t *kb);
/*
 * This process's peak resident memory, its threads' with it: VmHWM of
 * /proc/self/status, in kB; -errno where it cannot be read
 */
int zf_peak_rss_kb(uint64_t *kb);

#endif
