// SPDX-License-Identifier: GPL-2.0
/* The option table (harness/cli/opt.c): defaults, parsing, refusals, --help. */
#include <getopt.h>
#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../harness/cli/opt.h"
#include "test.h"

struct toy {
	unsigned long count;
	unsigned long long bytes;
	const char *mode, *name, *who;
	double ratio;
	bool loud;
};

enum { ONE = 1, TWO = 2 };

static const char *const modes[] = { "fast", "slow", "odd", NULL };

#define AT(f)	.off = offsetof(struct toy, f)

/* a meta value of its own: the name upper-cased, and nothing where there is none */
static json_t *loud_name(const void *opts)
{
	const struct toy *t = opts;
	char up[16];
	size_t i;

	if (!t->name)
		return NULL;
	for (i = 0; t->name[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)toupper((unsigned char)t->name[i]);
	up[i] = '\0';
	return json_string(up);
}

static const struct zf_opt toy_table[] = {
	{ .name = "count", .kind = ZF_OPT_ULONG, .cmds = ONE | TWO, AT(count), .min = 1, .max = 10,
	  .def = "3", .arg = "N", .help = "how many", .meta = "count" },
	{ .name = "bytes", .kind = ZF_OPT_SIZE, .cmds = ONE, AT(bytes), .def = "2M", .arg = "B",
	  .help = "a size, with a help long enough that it has to be wrapped onto a second line "
	  "and a third" },
	{ .name = "mode", .kind = ZF_OPT_WORD, .words = modes, .cmds = ONE, AT(mode), .arg = "M",
	  .help = "one of three", .meta = "mode" },
	{ .name = "name", .kind = ZF_OPT_STRING, .cmds = TWO, AT(name), .arg = "S",
	  .help = "a name" },
	{ .name = "names", .kind = ZF_OPT_STRING, .cmds = ONE, AT(name), .arg = "LIST",
	  .help = "names", .meta = "names", .meta_json = loud_name },
	{ .name = "loud", .kind = ZF_OPT_FLAG, .cmds = ONE, AT(loud), .help = "say more",
	  .meta = "loud" },
	{ .name = "ratio", .kind = ZF_OPT_DOUBLE, .cmds = ONE, AT(ratio), .dmin = 0, .dmax = 1,
	  .arg = "R", .help = "a fraction", .meta = "ratio" },
	{ .name = "who", .letter = 'w', .kind = ZF_OPT_STRING, .cmds = ONE, AT(who), .arg = "W",
	  .help = "a short option with a value" },
	ZF_OPT_TAIL(ONE | TWO),
};

static int toy_parse(unsigned int cmd, struct toy *t, const char **typed, char **argv)
{
	struct zf_opt_set set = { .opts = toy_table, .n = sizeof(toy_table) / sizeof(toy_table[0]),
				  .cmd = cmd == ONE ? "one" : "two", .cmd_bit = cmd, .usage = "" };
	int argc = 0, err;

	while (argv[argc])
		argc++;
	err = zf_opt_parse(&set, argc, argv, t);
	if (typed)
		*typed = zf_opt_typed(&set, "count");
	zf_opt_free(&set);
	return err;
}

TEST(opt_defaults_then_typed_values)
{
	char *none[] = { "one", NULL };
	char *some[] = { "one", "--count", "7", "--bytes", "1G", "--mode", "slow", "--loud", NULL };
	struct toy t = { 0 };
	const char *typed;

	ASSERT_EQ(toy_parse(ONE, &t, &typed, none), 0);
	EXPECT_EQ(t.count, 3);
	EXPECT_EQ(t.bytes, 2 << 20);
	EXPECT_TRUE(!typed && !t.mode && !t.loud);
	ASSERT_EQ(toy_parse(ONE, &t, &typed, some), 0);
	EXPECT_EQ(t.count, 7);
	EXPECT_EQ(t.bytes, 1ULL << 30);
	EXPECT_STREQ(t.mode, "slow");
	EXPECT_TRUE(typed && !strcmp(typed, "7") && t.loud);
}

TEST(opt_refusals_are_usage_errors)
{
	char *range[] = { "one", "--count", "11", NULL };
	char *word[] = { "one", "--mode", "quick", NULL };
	char *other[] = { "two", "--loud", NULL };
	char *unknown[] = { "one", "--quiet", NULL };
	char *operand[] = { "one", "extra", NULL };
	struct toy t = { 0 };

	EXPECT_EQ(toy_parse(ONE, &t, NULL, range), 2);
	EXPECT_EQ(toy_parse(ONE, &t, NULL, word), 2);
	EXPECT_EQ(toy_parse(TWO, &t, NULL, other), 2);	/* one's option, not two's */
	EXPECT_EQ(toy_parse(ONE, &t, NULL, unknown), 2);
	EXPECT_EQ(toy_parse(ONE, &t, NULL, operand), 2);
}

/* a short option takes its value (-w x, -wx); a bounded double; a missing value */
TEST(opt_short_values_doubles_and_missing_values)
{
	char *spaced[] = { "one", "-w", "x", "--ratio", "0.25", NULL };
	char *glued[] = { "one", "-wy", NULL };
	char *big[] = { "one", "--ratio", "2", NULL };
	char *nan[] = { "one", "--ratio", "nan", NULL };
	char *missing[] = { "one", "--count", NULL };
	char *missing_short[] = { "one", "-w", NULL };
	struct toy t = { 0 };

	ASSERT_EQ(toy_parse(ONE, &t, NULL, spaced), 0);
	EXPECT_TRUE(t.who && !strcmp(t.who, "x") && t.ratio == 0.25);
	ASSERT_EQ(toy_parse(ONE, &t, NULL, glued), 0);
	EXPECT_TRUE(t.who && !strcmp(t.who, "y"));
	EXPECT_EQ(toy_parse(ONE, &t, NULL, big), 2);
	EXPECT_EQ(toy_parse(ONE, &t, NULL, nan), 2);
	EXPECT_EQ(toy_parse(ONE, &t, NULL, missing), 2);
	EXPECT_EQ(toy_parse(ONE, &t, NULL, missing_short), 2);
}

/* a set that takes operands leaves them from optind on, options around them taken */
TEST(opt_operands_left_for_the_subcommand)
{
	char *argv[] = { "one", "a", "--count", "4", "b", NULL };
	struct zf_opt_set set = { .opts = toy_table, .n = sizeof(toy_table) / sizeof(toy_table[0]),
				  .cmd = "one", .cmd_bit = ONE, .usage = "", .permute = true,
				  .operands = true };
	struct toy t = { 0 };

	ASSERT_EQ(zf_opt_parse(&set, 5, argv, &t), 0);
	zf_opt_free(&set);
	EXPECT_EQ(t.count, 4);
	ASSERT_EQ(optind, 3);
	EXPECT_STREQ(argv[optind], "a");
	EXPECT_STREQ(argv[optind + 1], "b");
}

/* meta.json's options: the keys the subcommand takes, in table order, each as its kind */
TEST(opt_meta_from_the_table)
{
	struct toy t = { .count = 4, .mode = "odd", .ratio = 0.5, .loud = true };
	struct zf_opt_set one = { .opts = toy_table, .n = sizeof(toy_table) / sizeof(toy_table[0]),
				  .cmd = "one", .cmd_bit = ONE, .usage = "" };
	struct zf_opt_set two = one;
	json_t *m;
	char *text;

	m = zf_opt_meta(&one, &t);
	ASSERT_TRUE(m != NULL);
	text = json_dumps(m, JSON_COMPACT);
	EXPECT_STREQ(text, "{\"count\":4,\"mode\":\"odd\",\"loud\":true,\"ratio\":0.5}");
	free(text);
	json_decref(m);
	t.name = "x";
	m = zf_opt_meta(&one, &t);
	EXPECT_STREQ(json_string_value(json_object_get(m, "names")), "X");
	json_decref(m);
	two.cmd_bit = TWO;	/* two takes count alone of these */
	m = zf_opt_meta(&two, &t);
	EXPECT_EQ(json_object_size(m), 1);
	json_decref(m);
}

/* which table parses argv: a value peeked as the parse would take it, others passed over */
TEST(opt_peek_finds_a_value_before_the_parse)
{
	char *spaced[] = { "one", "--sink", "file", "--mo", "slow", "--count", "2", NULL };
	char *glued[] = { "one", "--mode=odd", "--mode=fast", NULL };
	char *none[] = { "one", "--count", "2", "x", NULL };
	struct zf_opt_set one = { .opts = toy_table, .n = sizeof(toy_table) / sizeof(toy_table[0]),
				  .cmd = "one", .cmd_bit = ONE, .usage = "" };
	struct zf_opt_set two = one;
	const char *v = zf_opt_peek(&one, 7, spaced, "mode");

	EXPECT_TRUE(v && !strcmp(v, "slow"));
	EXPECT_STREQ(spaced[1], "--sink");	/* argv as it was */
	EXPECT_STREQ(spaced[2], "file");
	v = zf_opt_peek(&one, 3, glued, "mode");
	EXPECT_TRUE(v && !strcmp(v, "fast"));	/* the last, as the parse keeps */
	EXPECT_TRUE(zf_opt_peek(&one, 4, none, "mode") == NULL);
	two.cmd_bit = TWO;	/* two takes no --mode */
	EXPECT_TRUE(zf_opt_peek(&two, 7, spaced, "mode") == NULL);
}

/* --nam matches name and names, one field: not ambiguous, and taken as name (two's) */
TEST(opt_abbreviation_of_one_field_is_not_ambiguous)
{
	char *abbrev[] = { "two", "--nam", "x", NULL };
	struct toy t = { 0 };

	EXPECT_EQ(toy_parse(TWO, &t, NULL, abbrev), 0);
	EXPECT_TRUE(t.name && !strcmp(t.name, "x"));
}

TEST(opt_help_lists_the_subcommands_options_in_80_columns)
{
	struct zf_opt_set set = { .opts = toy_table, .n = sizeof(toy_table) / sizeof(toy_table[0]),
				  .cmd = "two", .cmd_bit = TWO, .usage = "usage: two\n" };
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ASSERT_TRUE(out != NULL);
	zf_opt_help(&set, out);
	fclose(out);
	EXPECT_TRUE(strstr(text, "  --count N           how many (default 3)\n") != NULL);
	EXPECT_TRUE(strstr(text, "  --name S            a name\n") != NULL);
	EXPECT_TRUE(strstr(text, "  -h, --help          this text\n") != NULL);
	EXPECT_TRUE(!strstr(text, "--loud") && !strstr(text, "--bytes"));	/* one's */
	set.cmd_bit = ONE;
	free(text);
	out = open_memstream(&text, &len);
	ASSERT_TRUE(out != NULL);
	zf_opt_help(&set, out);
	fclose(out);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		EXPECT_TRUE(strlen(line) <= 80);
	free(text);
}

TEST(opt_print_defaults_one_a_line)
{
	struct zf_opt_set set = { .opts = toy_table, .n = sizeof(toy_table) / sizeof(toy_table[0]),
				  .cmd = "one", .cmd_bit = ONE, .usage = "" };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ASSERT_TRUE(out != NULL);
	zf_opt_print_defaults(&set, out);
	fclose(out);
	EXPECT_STREQ(text, "--count=3\n--bytes=2M\n");
	free(text);
}
