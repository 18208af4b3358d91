// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms, read once and searched by address: see kallsyms.h. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctorcmd.h"
#include "kallsyms.h"
#include "sysinfo.h"

void zf_kallsyms_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/proc/kallsyms", zf_doctor_root());
}

/* "ffffffff81000000 T _text" or "ffffffffc0a01000 t ext4_fill_super\t[ext4]" */
static bool parse_line(char *line, struct zf_ksym *s, char **name, char **module)
{
	char *end, *p;
	char type;

	s->addr = strtoull(line, &end, 16);
	if (end == line || (*end != ' ' && *end != '\t'))
		return false;
	p = end + strspn(end, " \t");
	type = *p;
	if (!type || (p[1] != ' ' && p[1] != '\t'))
		return false;
	p += 1 + strspn(p + 1, " \t");
	*name = strsep(&p, " \t\n");
	if (!**name)
		return false;
	*module = NULL;
	if (p) {
		p += strspn(p, " \t");
		if (*p == '[' && (end = strchr(p, ']'))) {
			*end = '\0';
			*module = p + 1;
		}
	}
	s->text = type == 't' || type == 'T' || type == 'w' || type == 'W';
	return true;
}

/* by address; at one address a text symbol first, then the file's order */
static int sym_cmp(const void *a, const void *b)
{
	const struct zf_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->text != y->text)
		return x->text ? -1 : 1;
	/* the names are offsets yet, laid out in the file's order */
	return (uintptr_t)x->name < (uintptr_t)y->name ? -1 :
	       (uintptr_t)x->name > (uintptr_t)y->name;
}

/* append s to the names buffer; its offset, or -1 */
static long names_add(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s) + 1;
	long at = (long)*len;

	if (*len + n > *cap) {
		size_t want = *cap ? *cap * 2 : 1 << 16;
		char *p;

		while (want < *len + n)
			want *= 2;
		p = realloc(*buf, want);
		if (!p)
			return -1;
		*buf = p;
		*cap = want;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	return at;
}

/* the offsets kept in name and module while the buffer grows, made pointers */
static void names_fix(struct zf_kallsyms *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++) {
		ks->sym[i].name = ks->names + (uintptr_t)ks->sym[i].name;
		if (ks->sym[i].module)
			ks->sym[i].module = ks->names + (uintptr_t)ks->sym[i].module - 1;
	}
}

static int read_symbols(struct zf_kallsyms *ks, FILE *f)
{
	size_t cap = 0, names_len = 0, names_cap = 0, linecap = 0;
	bool any_addr = false;
	char *line = NULL;
	int err = 0;

	while (getline(&line, &linecap, f) > 0) {
		struct zf_ksym s;
		char *name, *module;
		long at, mat = 0;

		if (!parse_line(line, &s, &name, &module)) {
			ks->garbage++;
			continue;
		}
		any_addr |= s.addr != 0;
		if (ks->n == cap) {
			size_t want = cap ? cap * 2 : 4096;
			struct zf_ksym *p = realloc(ks->sym, want * sizeof(*p));

			if (!p) {
				err = -ENOMEM;
				break;
			}
			ks->sym = p;
			cap = want;
		}
		at = names_add(&ks->names, &names_len, &names_cap, name);
		if (at >= 0 && module)
			mat = names_add(&ks->names, &names_len, &names_cap, module);
		if (at < 0 || mat < 0) {
			err = -ENOMEM;
			break;
		}
		/* offsets until the buffer stops moving; a module's + 1, 0 being none */
		s.name = (const char *)(uintptr_t)at;
		s.module = module ? (const char *)(uintptr_t)(mat + 1) : NULL;
		ks->sym[ks->n++] = s;
	}
	free(line);
	if (!err && ferror(f))
		err = -EIO;
	ks->hidden = !err && ks->n && !any_addr;
	return err;
}

/* one symbol an address: the first of each run of equal ones */
static void dedup(struct zf_kallsyms *ks)
{
	size_t i, k = 0;

	for (i = 0; i < ks->n; i++)
		if (!k || ks->sym[i].addr != ks->sym[k - 1].addr)
			ks->sym[k++] = ks->sym[i];
	ks->n = k;
}

int zf_kallsyms_load(struct zf_kallsyms *ks, const char *path)
{
	FILE *f = fopen(path, "re");
	int err;

	memset(ks, 0, sizeof(*ks));
	if (!f)
		return -errno;
	err = read_symbols(ks, f);
	fclose(f);
	if (err || ks->hidden) {
		bool hidden = ks->hidden;
		size_t garbage = ks->garbage;

		zf_kallsyms_free(ks);
		ks->hidden = hidden;
		ks->garbage = garbage;
		return err;
	}
	if (ks->n)	/* none read: no array, and qsort's may not be NULL */
		qsort(ks->sym, ks->n, sizeof(*ks->sym), sym_cmp);
	dedup(ks);
	names_fix(ks);
	return 0;
}

const struct zf_ksym *zf_kallsyms_find(const struct zf_kallsyms *ks, uint64_t ip)
{
	size_t lo = 0, hi = ks->n;

	/* the first symbol above ip is at lo when the loop ends */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->sym[mid].addr <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !ks->sym[lo - 1].text)
		return NULL;
	return &ks->sym[lo - 1];
}

void zf_kallsyms_free(struct zf_kallsyms *ks)
{
	free(ks->sym);
	free(ks->names);
	memset(ks, 0, sizeof(*ks));
}

bool zf_kallsyms_profile(struct zf_kallsyms *ks)
{
	char path[PATH_MAX], knob[PATH_MAX], level[32] = "?";
	int err;

	zf_kallsyms_path(path, sizeof(path));
	err = zf_kallsyms_load(ks, path);
	if (err) {
		fprintf(stderr, "hzfbench: warning: --profile: %s: %s; kernel samples are counted, "
			"not named\n", path, strerror(-err));
		return false;
	}
	if (ks->hidden) {
		snprintf(knob, sizeof(knob), "%s/proc/sys/kernel/kptr_restrict", zf_doctor_root());
		zf_read_file(knob, level, sizeof(level));
		fprintf(stderr, "hzfbench: warning: --profile: %s hides its addresses "
			"(kernel.kptr_restrict is %s); kernel samples are counted, not named: "
			"sysctl -w kernel.kptr_restrict=0, or 1 and run as root\n", path, level);
		return false;
	}
	if (!ks->n)
		fprintf(stderr, "hzfbench: warning: --profile: %s lists no symbols; kernel samples "
			"are counted, not named\n", path);
	return ks->n > 0;
}
