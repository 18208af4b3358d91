// SPDX-License-Identifier: GPL-2.0
/*
 * Each doctor probe on fabricated /proc and /sys trees: the file present
 * (ok, and warn with its fix), absent, and unreadable (a directory where the
 * file should be: root reads any file, but read() of a directory fails).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../harness/run/cpustat.h"
#include "../../harness/doctor/doctor.h"
#include "../../harness/doctor/doctor_sample.h"
#include "../../harness/doctor/doctorcmd.h"
#include "../../harness/out/json.h"
#include "../../harness/doctor/sysinfo.h"
#include "test.h"
#include "tree.h"

/* a set of PUs from a list, "0-1,4000" */
static hwloc_bitmap_t pus(const char *list)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (set && hwloc_bitmap_list_sscanf(set, list)) {
		hwloc_bitmap_free(set);
		set = NULL;
	}
	return set;
}

/* run one probe against the tree for the PUs listed; f's old text freed */
static void probe(struct tree *t, const char *name, const char *cpus, bool privileged,
		  struct zf_doctor_factor *f)
{
	hwloc_bitmap_t set = pus(cpus);
	struct zf_doctor_ctx ctx = { .root = t->root, .cpus = set, .sample_ms = 10,
				     .privileged = privileged, .self = -1 };
	struct zf_doctor_sample *s = zf_doctor_sample(&ctx);

	zf_doctor_factor_free(f);
	memset(f, 0, sizeof(*f));
	zf_doctor_probe(name)(&ctx, s, f);
	zf_doctor_sample_free(s);
	hwloc_bitmap_free(set);
}

TEST(doctor_cpufreq_governors_driver_absent_and_unreadable)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "cpufreq", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_TRUE(strstr(f.value, "no cpufreq for PUs 0-1") != NULL);
	put(&t, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put(&t, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "acpi-cpufreq\n");
	put(&t, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put(&t, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_driver", "acpi-cpufreq\n");
	probe(&t, "cpufreq", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	EXPECT_STREQ(f.value, "driver acpi-cpufreq on PUs 0-1; governor performance on PUs 0-1");
	EXPECT_STREQ(f.fix, "");
	put(&t, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "schedutil\n");
	probe(&t, "cpufreq", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "governor schedutil on PUs 1") != NULL);
	EXPECT_STREQ(f.fix, "cpupower -c 0-1 frequency-set -g performance");
	/* one PU's file unreadable, the other's performance: not ok */
	drop(&t, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor");
	put(&t, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", NULL);
	probe(&t, "cpufreq", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_TRUE(strstr(f.value, "no cpufreq on PUs 1") != NULL);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_boost_global_intel_per_policy_and_none)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "boost", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/sys/devices/system/cpu/cpu0/cpufreq/boost", "1\n");
	put(&t, "/sys/devices/system/cpu/cpu1/cpufreq/boost", "0\n");
	probe(&t, "boost", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "on for 1 of 2 PUs") != NULL);
	put(&t, "/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	probe(&t, "boost", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	put(&t, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	probe(&t, "boost", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.fix, "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
	put(&t, "/sys/devices/system/cpu/cpufreq/boost", "1\n");
	probe(&t, "boost", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.fix, "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
	put(&t, "/sys/devices/system/cpu/cpufreq/boost", "0\n");
	probe(&t, "boost", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_smt_siblings_in_the_placement)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "smt", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/sys/devices/system/cpu/smt/active", NULL);
	probe(&t, "smt", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_TRUE(strstr(f.value, "Is a directory") != NULL);
	drop(&t, "/sys/devices/system/cpu/smt/active");
	put(&t, "/sys/devices/system/cpu/smt/active", "0\n");
	probe(&t, "smt", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	put(&t, "/sys/devices/system/cpu/smt/active", "1\n");
	put(&t, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0-1\n");
	put(&t, "/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-1\n");
	put(&t, "/sys/devices/system/cpu/cpu2/topology/thread_siblings_list", "2-3\n");
	probe(&t, "smt", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "PUs 0 and 1 of the placement share a core") != NULL);
	probe(&t, "smt", "0,2", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_hypervisor_flag_names_and_absence)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "hypervisor", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme sse2 hypervisor lahf_lm\n");
	put(&t, "/sys/class/dmi/id/sys_vendor", "QEMU\n");
	put(&t, "/sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n");
	probe(&t, "hypervisor", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "QEMU Standard PC") != NULL);
	EXPECT_TRUE(f.fix[0] != '\0');
	/* "hypervisor" inside another flag's name is not the flag */
	put(&t, "/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme hypervisorx sse2\n");
	probe(&t, "hypervisor", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	put(&t, "/proc/cpuinfo", "processor\t: 0\nFeatures\t: fp asimd\n");
	probe(&t, "hypervisor", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/sys/hypervisor/type", "xen\n");
	probe(&t, "hypervisor", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "xen (/sys/hypervisor/type)") != NULL);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_thp_enabled_defrag_zero_page)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "thp", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put(&t, "/sys/kernel/mm/transparent_hugepage/defrag",
	    "always defer defer+madvise [madvise] never\n");
	put(&t, "/sys/kernel/mm/transparent_hugepage/use_zero_page", "1\n");
	probe(&t, "thp", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	EXPECT_TRUE(!strncmp(f.value, "enabled madvise, defrag madvise, use_zero_page 1", 48));
	put(&t, "/sys/kernel/mm/transparent_hugepage/use_zero_page", "0\n");
	probe(&t, "thp", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.fix, "echo 1 > /sys/kernel/mm/transparent_hugepage/use_zero_page");
	put(&t, "/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
	probe(&t, "thp", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "enabled never") != NULL);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_sysctls_numa_balancing_paranoid_nmi_watchdog)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "numa_balancing", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_TRUE(strstr(f.value, "/proc/sys/kernel/numa_balancing") != NULL);
	put(&t, "/proc/sys/kernel/numa_balancing", "1\n");
	probe(&t, "numa_balancing", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.fix, "sysctl -w kernel.numa_balancing=0");
	put(&t, "/proc/sys/kernel/numa_balancing", "0\n");
	probe(&t, "numa_balancing", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	put(&t, "/proc/sys/kernel/numa_balancing", "zero\n");
	probe(&t, "numa_balancing", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);

	put(&t, "/proc/sys/kernel/perf_event_paranoid", "2\n");
	probe(&t, "perf_event_paranoid", "0-1", false, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.fix, "sysctl -w kernel.perf_event_paranoid=1");
	probe(&t, "perf_event_paranoid", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	EXPECT_STREQ(f.value, "2 (root: not limited by it)");

	put(&t, "/proc/sys/kernel/nmi_watchdog", NULL);
	probe(&t, "nmi_watchdog", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	drop(&t, "/proc/sys/kernel/nmi_watchdog");
	put(&t, "/proc/sys/kernel/nmi_watchdog", "1\n");
	probe(&t, "nmi_watchdog", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.fix, "sysctl -w kernel.nmi_watchdog=0");
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_isolation_and_clocksource)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "isolation", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/sys/devices/system/cpu/isolated", "1-3\n");
	put(&t, "/sys/devices/system/cpu/nohz_full", "(null)\n");
	probe(&t, "isolation", "1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	EXPECT_TRUE(strstr(f.value, "isolated 1-3, nohz_full none") != NULL);
	probe(&t, "isolation", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "PUs 0 not isolated") != NULL);
	EXPECT_TRUE(strstr(f.fix, "isolcpus=0 ") != NULL);

	probe(&t, "clocksource", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	probe(&t, "clocksource", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	put(&t, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");
	put(&t, "/sys/devices/system/clocksource/clocksource0/available_clocksource",
	    "tsc hpet acpi_pm \n");
	probe(&t, "clocksource", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.fix, "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource");
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

/* a /proc/PID/task/TID/stat line: state and last CPU (field 39) as given */
static void put_task(struct tree *t, int pid, const char *comm, char state, int cpu)
{
	char rel[128], text[512];

	snprintf(rel, sizeof(rel), "/proc/%d/task/%d/stat", pid, pid);
	snprintf(text, sizeof(text), "%d (%s) %c 1 %d %d 0 -1 4194560 100 0 0 0 50 5 0 0 20 0 1 0 "
		 "1000 10000000 300 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 0\n",
		 pid, comm, state, pid, pid, cpu);
	put(t, rel, text);
}

TEST(doctor_load_names_a_task_runnable_on_the_placement)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	probe(&t, "load", "0-1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	put(&t, "/proc/loadavg", "1.02 0.50 0.20 2/300 4242\n");
	put_task(&t, 4242, "sh) (hog", 'R', 1);
	put_task(&t, 4243, "sleeper", 'S', 1);
	put_task(&t, 4244, "elsewhere", 'R', 0);
	probe(&t, "load", "1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "load average 1.02") != NULL);
	EXPECT_TRUE(strstr(f.value, "sh) (hog (pid 4242, PU 1)") != NULL);
	EXPECT_TRUE(strstr(f.value, "sleeper") == NULL && strstr(f.value, "elsewhere") == NULL);
	put_task(&t, 4242, "sh) (hog", 'S', 1);
	probe(&t, "load", "1", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_steal_from_two_proc_stat_texts)
{
	static const char a[] = "cpu  100 0 100 700 0 0 0 100 0 0\n"
				"cpu0 50 0 50 350 0 0 0 50 0 0\ncpu1 50 0 50 350 0 0 0 50 0 0\n";
	static const char b[] = "cpu  200 0 200 1300 100 0 0 200 0 0\n"
				"cpu0 100 0 100 650 50 0 0 100 0 0\ncpu1 100 0 100 650 50 0 0 100 0 0\n";
	static const char old[] = "cpu  100 0 100 700\ncpu0 100 0 100 700\n";
	struct zf_cpustat x, y, z;
	double steal, idle;
	int cpu1[] = { 1 }, cpu7[] = { 7 };

	ASSERT_EQ(zf_cpustat_parse(a, &x), 0);
	ASSERT_EQ(zf_cpustat_parse(b, &y), 0);
	EXPECT_EQ(x.ncpus, 2);
	EXPECT_EQ(zf_cpustat_share(&x, &y, NULL, 0, &steal, &idle), 0);
	EXPECT_TRUE(fabs(steal - 10.0) < 1e-9);	/* 100 of 1000 ticks */
	EXPECT_TRUE(fabs(idle - 70.0) < 1e-9);	/* idle 600 + iowait 100 */
	EXPECT_EQ(zf_cpustat_share(&x, &y, cpu1, 1, &steal, &idle), 0);
	EXPECT_TRUE(fabs(steal - 10.0) < 1e-9);
	EXPECT_EQ(zf_cpustat_share(&x, &y, cpu7, 1, &steal, &idle), -ENOENT);
	EXPECT_EQ(zf_cpustat_share(&x, &x, NULL, 0, &steal, &idle), -ENODATA);
	EXPECT_TRUE(isnan(steal));
	/* a kernel without the steal field: idle said, steal not */
	ASSERT_EQ(zf_cpustat_parse(old, &z), 0);
	EXPECT_EQ(zf_cpustat_share(&z, &y, NULL, 0, &steal, &idle), -ENODATA);
	EXPECT_TRUE(isnan(steal) && !isnan(idle));
	zf_cpustat_free(&z);
	EXPECT_EQ(zf_cpustat_parse("intr 5\ncpu0 1 2 3 4\n", &z), -EINVAL);
	EXPECT_TRUE(z.cpu == NULL);
	zf_cpustat_free(&x);
	zf_cpustat_free(&y);
}

TEST(doctor_steal_unknown_when_no_time_passed_and_json_parses)
{
	static const char stat[] = "cpu  1 0 1 7 0 0 0 1 0 0\ncpu0 1 0 1 7 0 0 0 1 0 0\n";
	hwloc_bitmap_t cpu0 = pus("0");
	struct zf_doctor_ctx ctx = { .cpus = cpu0, .sample_ms = 10, .self = -1 };
	struct zf_doctor *d;
	struct zf_buf b = { 0 };
	char out[64];
	struct tree t = { "" };
	int i;

	ASSERT_TRUE(cpu0 != NULL);
	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put(&t, "/proc/stat", stat);	/* a fabricated file does not move */
	ctx.root = t.root;
	d = zf_doctor_run(&ctx);
	hwloc_bitmap_free(cpu0);
	ASSERT_TRUE(d != NULL);
	EXPECT_EQ(d->n, 12);
	for (i = 0; i < d->n; i++) {
		if (!strcmp(d->f[i].name, "steal")) {
			EXPECT_EQ(d->f[i].status, ZF_DOCTOR_UNKNOWN);
		} else {
			/* nothing else is in the tree: never ok for what could not be read */
			EXPECT_TRUE(d->f[i].status != ZF_DOCTOR_OK);
		}
	}
	zf_doctor_json(d, &b);
	ASSERT_TRUE(b.text != NULL);
	EXPECT_EQ(zf_json_validate(b.text), 0);
	EXPECT_EQ(zf_json_get(b.text, "cpus", out, sizeof(out)), 0);
	EXPECT_STREQ(out, "0");
	EXPECT_EQ(zf_json_get(b.text, "ok", out, sizeof(out)), 0);
	EXPECT_STREQ(out, "0");
	zf_buf_free(&b);
	zf_doctor_free(d);
	tree_free(&t);
}

TEST(doctor_steal_names_the_pus_proc_stat_has_no_line_for)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put(&t, "/proc/stat", "cpu  2 0 2 14 0 0 0 2 0 0\ncpu0 1 0 1 7 0 0 0 1 0 0\n"
	    "cpu2 1 0 1 7 0 0 0 1 0 0\n");
	probe(&t, "steal", "0-3", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_STREQ(f.value, "/proc/stat has no line for PUs 1,3");
	probe(&t, "steal", "0,2", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_TRUE(strstr(f.value, "no time counted") != NULL);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(proc_stat_state)
{
	char comm[32], state;
	int cpu;

	EXPECT_EQ(zf_proc_stat_state("1 (a) b) R 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0 0 0 "
				     "0 0 0 0 0 0 0 0 0 0 0 0 3 0", &state, &cpu, comm,
				     sizeof(comm)), 0);
	EXPECT_EQ(state, 'R');
	EXPECT_EQ(cpu, 3);
	EXPECT_STREQ(comm, "a) b");
	EXPECT_EQ(zf_proc_stat_state("1 (short) R 0 1", &state, &cpu, comm, sizeof(comm)), -EINVAL);
	EXPECT_EQ(zf_proc_stat_state("no parens", &state, &cpu, comm, sizeof(comm)), -EINVAL);
}

/* ROOT/sys/x := text, read back as a CPU list and written as one; "error" when it is none */
static void cpulist_round_trip(struct tree *t, const char *text, char **out)
{
	struct zf_doctor_ctx ctx = { .root = t->root };
	hwloc_bitmap_t set;

	put(t, "/sys/x", text);
	*out = zf_doctor_read_cpulist(&ctx, "/sys/x", &set) ? strdup("error") : zf_doctor_list(set);
	hwloc_bitmap_free(set);
}

TEST(doctor_cpulist_read_and_written_whole)
{
	static const char *const cases[][2] = {
		{ "0-3,8,10\n", "0-3,8,10" }, { "\n", "none" }, { "(null)\n", "none" },
		{ "8,0-3,2,10", "0-3,8,10" }, { "4095\n", "4095" },
		{ "0-1023,2048-4095\n", "0-1023,2048-4095" },
		{ "-1\n", "error" }, { "0x10", "error" }, { "0-\n", "error" }, { "1,a", "error" },
		{ " 7", "error" },
	};
	struct tree t = { "" };
	struct zf_buf every = { 0 };
	char *list;
	size_t i;
	int cpu;

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpulist_round_trip(&t, cases[i][0], &list);
		ASSERT_TRUE(list != NULL);
		EXPECT_STREQ(list, cases[i][1]);
		free(list);
	}
	/* every other CPU of 4,096: a list of 2,048 items, over 9,000 bytes, none lost */
	for (cpu = 0; cpu < 4096; cpu += 2)
		zf_buf_printf(&every, "%s%d", cpu ? "," : "", cpu);
	zf_buf_printf(&every, "\n");
	ASSERT_TRUE(every.text != NULL && every.len > 9000);
	cpulist_round_trip(&t, every.text, &list);
	ASSERT_TRUE(list != NULL);
	every.text[every.len - 1] = '\0';
	EXPECT_STREQ(list, every.text);
	free(list);
	zf_buf_free(&every);
	tree_free(&t);
}

/* ---- machines of 1,024 and 4,096 PUs: every list read and said whole ---- */

/* ncpus PUs' cpufreq in the tree: acpi-cpufreq, governor performance, boost off */
static void put_cpufreq(struct tree *t, int ncpus)
{
	static const char *const files[][2] = {
		{ "scaling_governor", "performance\n" }, { "scaling_driver", "acpi-cpufreq\n" },
		{ "boost", "0\n" },
	};
	char rel[128];
	size_t i;
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu,
				 files[i][0]);
			put(t, rel, files[i][1]);
		}
	}
}

/* SMT on, ncpus PUs in pairs sharing a core (2k and 2k+1) */
static void put_siblings(struct tree *t, int ncpus)
{
	char rel[128], text[32];
	int cpu;

	put(t, "/sys/devices/system/cpu/smt/active", "1\n");
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 cpu);
		snprintf(text, sizeof(text), "%d-%d\n", cpu & ~1, cpu | 1);
		put(t, rel, text);
	}
}

/* /proc/stat with a line for each of ncpus PUs */
static void put_stat(struct tree *t, int ncpus)
{
	struct zf_buf stat = { 0 };
	int cpu;

	zf_buf_printf(&stat, "cpu  %d 0 %d %d 0 0 0 %d 0 0\n", ncpus, ncpus, 7 * ncpus, ncpus);
	for (cpu = 0; cpu < ncpus; cpu++)
		zf_buf_printf(&stat, "cpu%d 1 0 1 7 0 0 0 1 0 0\n", cpu);
	put(t, "/proc/stat", stat.text);
	zf_buf_free(&stat);
}

/* "first,first+2,...,<last" then more: a list with no ranges to shorten it */
static char *every_other(int first, int last, const char *more)
{
	struct zf_buf b = { 0 };
	int cpu;

	for (cpu = first; cpu < last; cpu += 2)
		zf_buf_printf(&b, "%s%d", cpu > first ? "," : "", cpu);
	zf_buf_printf(&b, "%s", more);
	return b.text;
}

TEST(doctor_4096_pus_cpufreq_boost_smt_name_a_pu_above_256)
{
	/* 2,048 PUs listed one by one, and the same with 4001 */
	char *even = every_other(0, 4096, ""), *even_4001 = every_other(0, 4096, ",4001");
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };

	ASSERT_TRUE(even && even_4001);
	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put_cpufreq(&t, 4096);
	put_siblings(&t, 4096);
	probe(&t, "cpufreq", "0-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	EXPECT_STREQ(f.value, "driver acpi-cpufreq on PUs 0-4095; governor performance on PUs 0-4095");
	put(&t, "/sys/devices/system/cpu/cpu4000/cpufreq/scaling_governor", "powersave\n");
	drop(&t, "/sys/devices/system/cpu/cpu4001/cpufreq/scaling_governor");	/* offline */
	probe(&t, "cpufreq", "0-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.value, "driver acpi-cpufreq on PUs 0-4000,4002-4095; governor performance on "
		     "PUs 0-3999,4002-4095; governor powersave on PUs 4000; no cpufreq on PUs 4001");
	EXPECT_STREQ(f.fix, "cpupower -c 0-4095 frequency-set -g performance");
	probe(&t, "cpufreq", even, true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	/* the fix names every one */
	EXPECT_TRUE(strstr(f.fix, "-c 0,2,4,") && strstr(f.fix, ",3998,4000,4002,") &&
		    strstr(f.fix, ",4094 frequency-set"));

	probe(&t, "boost", "0-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	put(&t, "/sys/devices/system/cpu/cpu4095/cpufreq/boost", "1\n");
	probe(&t, "boost", "0-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "on for 1 of 4096 PUs") != NULL);

	/* SMT siblings 2k and 2k+1: only 4000 and 4001 share a core */
	probe(&t, "smt", even_4001, true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "PUs 4000 and 4001 of the placement share a core") != NULL);
	probe(&t, "smt", even, true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	zf_doctor_factor_free(&f);
	free(even);
	free(even_4001);
	tree_free(&t);
}

TEST(doctor_4096_pus_isolation_steal_load_name_a_pu_above_256)
{
	struct zf_doctor_factor f = { 0 };
	struct tree t = { "" };
	char comm[16];
	int i;

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put_stat(&t, 4096);
	put(&t, "/proc/loadavg", "0.00 0.00 0.00 1/300 4242\n");
	put(&t, "/sys/devices/system/cpu/isolated", "1-3999,4001-4095\n");
	put(&t, "/sys/devices/system/cpu/nohz_full", "1-3999,4001-4095\n");
	probe(&t, "isolation", "1000-3999,4001-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_OK);
	probe(&t, "isolation", "1000-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_STREQ(f.value, "PUs 4000 not isolated (isolated 1-3999,4001-4095, nohz_full "
		     "1-3999,4001-4095): other tasks, timers and interrupts run there");
	EXPECT_STREQ(f.fix, "boot with isolcpus=4000 nohz_full=4000 rcu_nocbs=4000, keeping a CPU "
		     "for the system");

	/* every PU's line found (a fabricated file does not move: no time counted) */
	probe(&t, "steal", "0-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_TRUE(strstr(f.value, "no time counted") != NULL);
	put(&t, "/proc/stat", "cpu  1 0 1 7 0 0 0 1 0 0\ncpu0 1 0 1 7 0 0 0 1 0 0\n"
	    "cpu3999 1 0 1 7 0 0 0 1 0 0\ncpu4095 1 0 1 7 0 0 0 1 0 0\n");
	probe(&t, "steal", "0,3999-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_UNKNOWN);
	EXPECT_STREQ(f.value, "/proc/stat has no line for PUs 4000-4094");

	/* 40 tasks runnable on PUs 4000-4039: each named */
	for (i = 0; i < 40; i++) {
		snprintf(comm, sizeof(comm), "hog%d", i);
		put_task(&t, 5000 + i, comm, 'R', 4000 + i);
	}
	put_task(&t, 6000, "elsewhere", 'R', 300);
	probe(&t, "load", "1000-4095", true, &f);
	EXPECT_EQ(f.status, ZF_DOCTOR_WARN);
	EXPECT_TRUE(strstr(f.value, "runnable on PUs 1000-4095 in 5 looks") != NULL);
	EXPECT_TRUE(strstr(f.value, "hog0 (pid 5000, PU 4000)") != NULL);
	EXPECT_TRUE(strstr(f.value, "hog39 (pid 5039, PU 4039)") != NULL);
	EXPECT_TRUE(strstr(f.value, "elsewhere") == NULL);
	zf_doctor_factor_free(&f);
	tree_free(&t);
}

TEST(doctor_4096_pus_the_pus_looked_at_printed_whole)
{
	struct zf_doctor_ctx ctx = { .sample_ms = 10, .self = -1 };
	struct zf_buf b = { 0 };
	struct tree t = { "" };
	struct zf_doctor *d;
	char *even, *printed = NULL, *want = NULL;
	size_t len;
	FILE *f;

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put_stat(&t, 4096);
	ctx.root = t.root;
	even = every_other(0, 4096, "");
	ctx.cpus = pus(even);
	ASSERT_TRUE(ctx.cpus != NULL);
	d = zf_doctor_run(&ctx);
	hwloc_bitmap_free((hwloc_bitmap_t)ctx.cpus);
	ASSERT_TRUE(d != NULL);
	EXPECT_STREQ(d->cpus, even);
	f = open_memstream(&printed, &len);
	ASSERT_TRUE(f != NULL);
	zf_doctor_print(d, f, false);
	fclose(f);
	ASSERT_TRUE(asprintf(&want, "factor               status   what was read (PUs %s)\n",
			     even) > 0);
	EXPECT_TRUE(!strncmp(printed, want, strlen(want)));
	zf_doctor_json(d, &b);
	ASSERT_TRUE(b.text != NULL);
	EXPECT_EQ(zf_json_validate(b.text), 0);
	EXPECT_TRUE(strstr(b.text, even) != NULL);
	zf_buf_free(&b);
	free(want);
	free(printed);
	free(even);
	zf_doctor_free(d);
	tree_free(&t);
}

/* fd (stdout or stderr) into ROOT/name from now on; the old one, to give back to put_back() */
static int redirect(struct tree *t, int fd, const char *name)
{
	char path[128];
	int file, saved;

	snprintf(path, sizeof(path), "%s/%s", t->root, name);
	file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (file < 0)
		return -1;
	saved = dup(fd);
	dup2(file, fd);
	close(file);
	return saved;
}

static void put_back(int fd, int saved)
{
	if (saved < 0)
		return;
	dup2(saved, fd);
	close(saved);
}

/* ROOT/name's text (malloc()ed), or NULL */
static char *slurp(struct tree *t, const char *name)
{
	char path[128], *text;

	snprintf(path, sizeof(path), "%s/%s", t->root, name);
	return zf_read_file_alloc(path, &text, NULL) ? NULL : text;
}

/*
 * `hzfbench doctor --json --sample-ms 1 [--placement P] [--tasks N]` on a
 * synthetic machine, the tree as HZF_SYSROOT: its exit status, and what it
 * printed, *out and *err (malloc()ed)
 */
static int doctor_cmd(struct tree *t, const char *synthetic, const char *placement,
		      const char *tasks, char **out, char **err)
{
	char *argv[] = { "doctor", "--json", "--sample-ms", "1", "--placement", (char *)placement,
			 "--tasks", (char *)tasks, NULL };
	int saved_out, saved_err, rc;

	fflush(stdout);
	fflush(stderr);
	saved_out = redirect(t, STDOUT_FILENO, "out");
	saved_err = redirect(t, STDERR_FILENO, "err");
	setenv("HWLOC_SYNTHETIC", synthetic, 1);
	setenv("HZF_SYSROOT", t->root, 1);
	rc = zf_doctor_main(tasks ? 8 : 6, argv);
	unsetenv("HWLOC_SYNTHETIC");
	unsetenv("HZF_SYSROOT");
	fflush(stdout);
	fflush(stderr);
	put_back(STDOUT_FILENO, saved_out);
	put_back(STDERR_FILENO, saved_err);
	*out = slurp(t, "out");
	*err = slurp(t, "err");
	return rc;
}

#define PU1024 "pack:4 [numa] core:128 pu:2"

TEST(doctor_placement_and_tasks_on_1024_pus)
{
	struct tree t = { "" };
	char *json = NULL, *err = NULL, *want = NULL, *listed = NULL;

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	put_cpufreq(&t, 1024);
	put_siblings(&t, 1024);
	put(&t, "/sys/devices/system/cpu/cpu1000/cpufreq/scaling_governor", "powersave\n");
	put(&t, "/sys/devices/system/cpu/cpu100/cpufreq/scaling_governor", "ondemand\n");

	/* every PU by default: the governor of PU 1000 named */
	EXPECT_EQ(doctor_cmd(&t, PU1024, "compact", NULL, &json, &err), 0);
	ASSERT_TRUE(json != NULL);
	EXPECT_EQ(zf_json_validate(json), 0);
	EXPECT_TRUE(strstr(json, "\"cpus\": \"0-1023\"") != NULL);
	EXPECT_TRUE(strstr(json, "governor performance on PUs 0-99,101-999,1001-1023; governor "
			   "ondemand on PUs 100; governor powersave on PUs 1000") != NULL);
	EXPECT_TRUE(strstr(json, "PUs 0 and 1 of the placement share a core") != NULL);
	free(json);
	free(err);

	/*
	 * node 3's 128 cores first, then 72 SMT siblings: 768-912 and every
	 * other PU up to 1022; 100 is not looked at, 1000 is
	 */
	listed = every_other(914, 1023, "");
	ASSERT_TRUE(listed != NULL);
	ASSERT_TRUE(asprintf(&want, "\"cpus\": \"768-912,%s\"", listed) > 0);
	EXPECT_EQ(doctor_cmd(&t, PU1024, "node:3", "200", &json, &err), 0);
	ASSERT_TRUE(json != NULL);
	EXPECT_TRUE(strstr(json, want) != NULL);
	EXPECT_TRUE(strstr(json, "governor powersave on PUs 1000") != NULL);
	EXPECT_TRUE(strstr(json, "ondemand") == NULL);
	EXPECT_TRUE(strstr(json, "PUs 768 and 769 of the placement share a core") != NULL);
	free(json);
	free(err);
	free(want);
	free(listed);

	/* one PU a core: no SMT warning */
	EXPECT_EQ(doctor_cmd(&t, PU1024, "scatter", "512", &json, &err), 0);
	ASSERT_TRUE(json != NULL);
	EXPECT_TRUE(strstr(json, "no two of the placement's PUs share a core") != NULL);
	free(json);
	free(err);

	/* unbound tasks, however many: every PU looked at */
	EXPECT_EQ(doctor_cmd(&t, PU1024, "none", "100000", &json, &err), 0);
	ASSERT_TRUE(json != NULL);
	EXPECT_TRUE(strstr(json, "\"cpus\": \"0-1023\"") != NULL);
	free(json);
	free(err);

	/* more tasks than PUs: refused by the placement, not by a cap of its own */
	EXPECT_EQ(doctor_cmd(&t, PU1024, "compact", "1025", &json, &err), 2);
	ASSERT_TRUE(err != NULL);
	EXPECT_TRUE(!strncmp(err, "hzfbench: --tasks: 1025: ", 25) && strstr(err, "1024 PUs"));
	free(json);
	free(err);

	/* 512 PUs listed one by one, too few for 600 tasks: the error quotes them whole */
	listed = every_other(0, 1024, "");
	ASSERT_TRUE(listed != NULL && asprintf(&want, "cpus:%s", listed) > 0);
	EXPECT_EQ(doctor_cmd(&t, PU1024, want, "600", &json, &err), 2);
	ASSERT_TRUE(err != NULL);
	EXPECT_TRUE(strstr(err, listed) && strstr(err, "512 PUs"));
	free(want);
	free(listed);
	free(json);
	free(err);
	tree_free(&t);
}

TEST(doctor_tasks_beyond_4096_on_8192_pus)
{
	struct tree t = { "" };
	char *json = NULL, *err = NULL;

	tree_make(&t);
	ASSERT_TRUE(t.root[0]);
	EXPECT_EQ(doctor_cmd(&t, "pack:16 numa:2 core:128 pu:2", "cpus:0-8191", "5000", &json,
			     &err), 0);
	ASSERT_TRUE(json != NULL);
	EXPECT_TRUE(strstr(json, "\"cpus\": \"0-4999\"") != NULL);
	EXPECT_TRUE(strstr(json, "no cpufreq for PUs 0-4999") != NULL);
	free(json);
	free(err);
	tree_free(&t);
}
