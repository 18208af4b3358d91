// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms read and searched: fabricated files, each case where a sample may fall. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness/run/kallsyms.h"
#include "../../harness/run/perfctr.h"
#include "test.h"

/* text written to a temp file and loaded; the load's return */
static int load_text(struct zf_kallsyms *ks, const char *text)
{
	char path[] = "/tmp/hzf-kallsyms-XXXXXX";
	int fd = mkstemp(path), err;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	err = zf_kallsyms_load(ks, path);
	unlink(path);
	return err;
}

static const char *name_at(const struct zf_kallsyms *ks, uint64_t ip)
{
	const struct zf_ksym *s = zf_kallsyms_find(ks, ip);

	return s ? s->name : "(none)";
}

static const char sample[] =
	"ffffffff81696d00 T mm_get_huge_zero_folio\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81696cf0 T __pfx_mm_get_huge_zero_folio\n"
	"ffffffff81696e60 T mm_put_huge_zero_folio\n"
	"ffffffff81697000 d huge_zero_data\n"
	"ffffffff81698000 W weak_text\n"
	"ffffffffc0a01000 t ext4_fill_super\t[ext4]\n"
	"ffffffffc0a02000 t ext4_statfs\t[ext4]\n";

TEST(kallsyms_names_a_sample_at_start_middle_and_end)
{
	struct zf_kallsyms ks;

	ASSERT_EQ(load_text(&ks, sample), 0);
	EXPECT_TRUE(!ks.hidden);
	EXPECT_EQ(ks.n, 8);	/* _text and _stext: one address, one symbol */
	EXPECT_STREQ(name_at(&ks, 0xffffffff81696d00), "mm_get_huge_zero_folio");
	EXPECT_STREQ(name_at(&ks, 0xffffffff81696d47), "mm_get_huge_zero_folio");
	EXPECT_STREQ(name_at(&ks, 0xffffffff81696e5f), "mm_get_huge_zero_folio");
	EXPECT_STREQ(name_at(&ks, 0xffffffff81696e60), "mm_put_huge_zero_folio");
	EXPECT_STREQ(name_at(&ks, 0xffffffff81696cf8), "__pfx_mm_get_huge_zero_folio");
	EXPECT_STREQ(name_at(&ks, 0xffffffff81000010), "_text");
	EXPECT_STREQ(name_at(&ks, 0xffffffff81698010), "weak_text");
	zf_kallsyms_free(&ks);
}

TEST(kallsyms_names_nothing_below_the_first_or_in_data)
{
	struct zf_kallsyms ks;

	ASSERT_EQ(load_text(&ks, sample), 0);
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0));
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0x400000));
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0xffffffff80ffffff));
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0xffffffff81697010));	/* huge_zero_data */
	zf_kallsyms_free(&ks);
}

TEST(kallsyms_keeps_a_module_apart_from_the_name)
{
	struct zf_kallsyms ks;
	const struct zf_ksym *s;

	ASSERT_EQ(load_text(&ks, sample), 0);
	s = zf_kallsyms_find(&ks, 0xffffffffc0a01234);
	ASSERT_TRUE(s);
	EXPECT_STREQ(s->name, "ext4_fill_super");
	ASSERT_TRUE(s->module);
	EXPECT_STREQ(s->module, "ext4");
	s = zf_kallsyms_find(&ks, 0xffffffffc0a02000);
	ASSERT_TRUE(s && s->module);
	EXPECT_STREQ(s->name, "ext4_statfs");
	s = zf_kallsyms_find(&ks, 0xffffffff81696d00);
	ASSERT_TRUE(s);
	EXPECT_TRUE(!s->module);
	zf_kallsyms_free(&ks);
}

TEST(kallsyms_all_zero_is_hidden)
{
	struct zf_kallsyms ks;

	ASSERT_EQ(load_text(&ks, "0000000000000000 T _text\n"
				 "0000000000000000 T mm_get_huge_zero_folio\n"
				 "0000000000000000 t ext4_statfs\t[ext4]\n"), 0);
	EXPECT_TRUE(ks.hidden);
	EXPECT_EQ(ks.n, 0);
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0));
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0xffffffff81696d00));
	zf_kallsyms_free(&ks);
}

TEST(kallsyms_empty_and_garbage_name_nothing)
{
	struct zf_kallsyms ks;

	ASSERT_EQ(load_text(&ks, ""), 0);
	EXPECT_TRUE(!ks.hidden);
	EXPECT_EQ(ks.n, 0);
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0xffffffff81696d00));
	zf_kallsyms_free(&ks);

	ASSERT_EQ(load_text(&ks, "not a symbol\n"
				 "ffffffff81000000\n"
				 "ffffffff81000000 T\n"
				 "ffffffff81000000 TT name\n"
				 "zzzz T name\n"
				 "\n"
				 "ffffffff81696d00 T mm_get_huge_zero_folio\n"), 0);
	EXPECT_EQ(ks.garbage, 6);
	EXPECT_EQ(ks.n, 1);
	EXPECT_STREQ(name_at(&ks, 0xffffffff81696d10), "mm_get_huge_zero_folio");
	zf_kallsyms_free(&ks);
}

TEST(kallsyms_missing_file_is_an_errno)
{
	struct zf_kallsyms ks;

	EXPECT_TRUE(zf_kallsyms_load(&ks, "/nonexistent/kallsyms") < 0);
	EXPECT_EQ(ks.n, 0);
	EXPECT_TRUE(!zf_kallsyms_find(&ks, 0xffffffff81696d00));
}

TEST(kallsyms_of_this_machine_loads)
{
	struct zf_kallsyms ks;
	char path[256];

	zf_kallsyms_path(path, sizeof(path));
	if (zf_kallsyms_load(&ks, path))
		SKIP("no /proc/kallsyms here");
	if (ks.hidden) {
		zf_kallsyms_free(&ks);
		SKIP("kallsyms hidden (kptr_restrict)");
	}
	EXPECT_TRUE(ks.n > 1000);
	EXPECT_EQ(ks.garbage, 0);
	zf_kallsyms_free(&ks);
}

/* the functions a sample counts as the kernel's get or put, in every kernel's names */
TEST(kernel_role_of_each_kernels_get_and_put)
{
	EXPECT_EQ(zf_kernel_role("get_huge_zero_page"), ZF_KERNEL_GET);		/* before 6.10 */
	EXPECT_EQ(zf_kernel_role("get_huge_zero_folio"), ZF_KERNEL_GET);
	EXPECT_EQ(zf_kernel_role("mm_get_huge_zero_folio"), ZF_KERNEL_GET);
	EXPECT_EQ(zf_kernel_role("map_get_huge_zero_folio"), ZF_KERNEL_GET);	/* global.patch */
	EXPECT_EQ(zf_kernel_role("put_huge_zero_page"), ZF_KERNEL_PUT);
	EXPECT_EQ(zf_kernel_role("mm_put_huge_zero_folio"), ZF_KERNEL_PUT);
	EXPECT_EQ(zf_kernel_role("map_put_huge_zero_folio"), ZF_KERNEL_PUT);
	EXPECT_EQ(zf_kernel_role("do_huge_pmd_anonymous_page"), 0);
	/* gcc's parts of them: the cold path, a copy with fewer arguments */
	EXPECT_EQ(zf_kernel_role("get_huge_zero_folio.cold"), ZF_KERNEL_GET);
	EXPECT_EQ(zf_kernel_role("put_huge_zero_folio.isra.0"), ZF_KERNEL_PUT);
	EXPECT_EQ(zf_kernel_role("get_huge_zero_folios"), 0);
	EXPECT_EQ(zf_kernel_role("get_huge_zero"), 0);
	EXPECT_EQ(zf_kernel_role(""), 0);
}
