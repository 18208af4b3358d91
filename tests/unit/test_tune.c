// SPDX-License-Identifier: GPL-2.0
/*
 * doctor --tune's plan (tune.c) on fabricated trees: what it would write,
 * and what --reset would write back, without writing anything. The writes
 * and the state file are tests/trust.sh's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../harness/doctor/tune.h"
#include "test.h"

/* ROOT/rel := text, folders made as needed */
static void put(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void rm_tree(const char *root)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "  could not remove %s\n", root);
}

/* the entry of t for path, or NULL */
static const struct zf_tune_file *entry(const struct zf_tune *t, const char *path)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].path, path))
			return &t->f[i];
	return NULL;
}

TEST(tune_want_choice_plain_absent_and_already)
{
	char root[] = "/tmp/hzf-tune-XXXXXX";
	struct zf_tune t = { 0 };
	const struct zf_tune_file *f;

	ASSERT_TRUE(mkdtemp(root) != NULL);
	t.root = root;
	put(root, "/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
	put(root, "/proc/sys/kernel/numa_balancing", "1\n");
	put(root, "/proc/sys/kernel/nmi_watchdog", "0\n");
	zf_tune_want(&t, "/sys/kernel/mm/transparent_hugepage/enabled", "madvise", true);
	zf_tune_want(&t, "/proc/sys/kernel/numa_balancing", "0", false);
	zf_tune_want(&t, "/proc/sys/kernel/nmi_watchdog", "0", false);	/* already */
	zf_tune_want(&t, "/proc/sys/kernel/absent", "0", false);	/* no such knob */
	EXPECT_EQ(t.oom, 0);
	EXPECT_EQ(t.n, 2);
	/* a choice file: its whole text kept, its chosen word written back */
	f = entry(&t, "/sys/kernel/mm/transparent_hugepage/enabled");
	ASSERT_TRUE(f != NULL);
	EXPECT_STREQ(f->was, "always madvise [never]\n");
	EXPECT_STREQ(f->restore, "never");
	EXPECT_STREQ(f->now, "madvise");
	/* a plain one: written back byte for byte */
	f = entry(&t, "/proc/sys/kernel/numa_balancing");
	ASSERT_TRUE(f != NULL);
	EXPECT_STREQ(f->was, "1\n");
	EXPECT_STREQ(f->restore, "1\n");
	EXPECT_STREQ(f->now, "0");
	zf_tune_free(&t);
	rm_tree(root);
}

TEST(tune_plan_irqs_off_the_pus_looked_at_on_1024_pus)
{
	char root[] = "/tmp/hzf-tune-XXXXXX", path[128];
	hwloc_bitmap_t cpus = hwloc_bitmap_alloc(), all = hwloc_bitmap_alloc();
	struct zf_tune_ask ask = { .cpus = cpus, .all = all };
	struct zf_tune t = { 0 };
	const struct zf_tune_file *f;
	int i;

	ASSERT_TRUE(mkdtemp(root) != NULL && cpus && all);
	t.root = root;
	hwloc_bitmap_set_range(all, 0, 1023);
	hwloc_bitmap_set_range(cpus, 0, 511);
	put(root, "/proc/irq/7/smp_affinity_list", "0-1023\n");	/* on both halves */
	put(root, "/proc/irq/8/smp_affinity_list", "600\n");		/* off them already */
	put(root, "/proc/irq/9/smp_affinity_list", "511\n");
	put(root, "/proc/sys/kernel/perf_event_paranoid", "1\n");	/* the doctor's ok */
	for (i = 0; i < 1024; i += 1023) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", i);
		put(root, path, "powersave\n");
	}
	zf_tune_plan(&t, &ask);
	EXPECT_EQ(t.oom, 0);
	/* cpu0's governor (cpu1023 is not looked at), irq 7 and 9 */
	EXPECT_EQ(t.n, 3);
	EXPECT_TRUE(entry(&t, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") != NULL);
	EXPECT_TRUE(entry(&t, "/sys/devices/system/cpu/cpu1023/cpufreq/scaling_governor") == NULL);
	EXPECT_TRUE(entry(&t, "/proc/irq/8/smp_affinity_list") == NULL);
	f = entry(&t, "/proc/irq/9/smp_affinity_list");
	ASSERT_TRUE(f != NULL);
	EXPECT_STREQ(f->now, "512-1023");
	EXPECT_STREQ(f->restore, "511\n");
	/* the kernel's order: 7 before 9 */
	EXPECT_TRUE(f == &t.f[2] && !strcmp(t.f[1].path, "/proc/irq/7/smp_affinity_list"));
	zf_tune_free(&t);
	hwloc_bitmap_free(cpus);
	hwloc_bitmap_free(all);
	rm_tree(root);
}
