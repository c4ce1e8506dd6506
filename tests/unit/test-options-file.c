/* test-options-file.c: unit tests for options files (named groups) and the designs' variants. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig.h"
#include "plan/options-file.h"
#include "plan/plan.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

static int parse(struct plan_option **out, size_t *nr, const char *text)
{
	return plan_parse_options(out, nr, "opts.txt", text, strlen(text));
}

static char *settings(const struct plan_option *opt)
{
	struct strbuf sb = STRBUF_INIT;

	plan_option_settings_text(&sb, opt);
	return strbuf_detach(&sb, NULL);
}

static void test_plain_file(void)
{
	struct plan_option *o;
	size_t nr;

	check_int(parse(&o, &nr, "# comment\nPROVE_LOCKING\nCONFIG_LOCK_STAT=m\n"
			"# CONFIG_DEBUG_INFO is not set\n"), ==, 0);
	check_int(nr, ==, 3);
	if (nr == 3) {
		check_str(o[0].label, "CONFIG_PROVE_LOCKING=y");
		check_str(o[0].name, "PROVE_LOCKING");
		check_str(o[0].value, "y");
		check(!o[0].is_group);
		check_str(o[1].label, "CONFIG_LOCK_STAT=m");
		check_str(o[2].label, "CONFIG_DEBUG_INFO=n");
	}
	plan_option_list_free(o, nr);
}

static void test_groups(void)
{
	struct plan_option *o;
	size_t nr;
	char *s;

	check_int(parse(&o, &nr,
			"CONFIG_PRINTK_TIME=y\n"
			"group lockdebug   # the lock debugging, as one variant\n"
			"\tPROVE_LOCKING\n"
			"\t# a comment inside\n"
			"\tCONFIG_DEBUG_ATOMIC_SLEEP=y\n"
			"endgroup\n"
			"LOCK_STAT\n"
			"group kasan\n"
			"KASAN\n"
			"endgroup # done\n"), ==, 0);
	check_int(nr, ==, 4);
	if (nr != 4)
		goto out;
	check_str(o[0].label, "CONFIG_PRINTK_TIME=y");
	check_str(o[1].label, "lockdebug");
	check_str(o[1].name, "lockdebug");
	check(o[1].is_group && o[1].value == NULL);
	s = settings(&o[1]);
	check_str(s, "CONFIG_PROVE_LOCKING=y\nCONFIG_DEBUG_ATOMIC_SLEEP=y\n");
	free(s);
	check_str(o[2].label, "CONFIG_LOCK_STAT=y");
	check_str(o[3].label, "kasan");
	check_int(kconfig_count(o[3].settings), ==, 1);
out:
	plan_option_list_free(o, nr);
}

static void test_holds(void)
{
	struct plan_option *o;
	struct kconfig *kc = kconfig_new();
	size_t nr;

	check_int(parse(&o, &nr, "group g\nA\nCONFIG_B=n\nC=3\nendgroup\n"), ==, 0);
	check_int(kconfig_parse(kc, "kc", "CONFIG_A=y\nCONFIG_C=3\n", 22, 0), ==, 0);
	check(nr == 1 && plan_option_holds(&o[0], kc));	/* B absent counts as n */
	check_int(kconfig_set(kc, "C", "4"), ==, 0);
	check(!plan_option_holds(&o[0], kc));
	kconfig_free(kc);
	plan_option_list_free(o, nr);
}

/* Each bad file, and the message it must give. */
static void test_mistakes(void)
{
	static const struct { const char *text, *message; } cases[] = {
		{ "A\ngroup\nB\nendgroup\n", "opts.txt:2: 'group' needs a name" },
		{ "group a\nB\n", "opts.txt:1: group 'a' has no endgroup" },
		{ "group a\nB\ngroup b\nC\nendgroup\n",
		  "opts.txt:3: a group inside group 'a' (line 1): groups do not nest" },
		{ "A\nendgroup\n", "opts.txt:2: 'endgroup' without a group" },
		{ "A\ngroup a\n# nothing\nendgroup\n", "opts.txt:2: group 'a' is empty" },
		{ "group a\nB\nendgroup\ngroup a\nC\nendgroup\n",
		  "opts.txt:4: group 'a' again (the first is at line 1)" },
		{ "group a b\nB\nendgroup\n", "opts.txt:1: a group has one name" },
		{ "group all\nB\nendgroup\n", "opts.txt:1: 'all' cannot name a group" },
		{ "group baseline\nB\nendgroup\n", "opts.txt:1: 'baseline' cannot name a group" },
		{ "group all-x\nB\nendgroup\n", "opts.txt:1: 'all-x' cannot name a group" },
		{ "group CONFIG_X\nB\nendgroup\n", "opts.txt:1: 'CONFIG_X' cannot name a group" },
		{ "group a=b\nB\nendgroup\n", "opts.txt:1: group name 'a=b' may hold letters" },
		{ "group -a\nB\nendgroup\n", "opts.txt:1: group name '-a' may hold letters" },
		{ "group a\nB\nendgroup\ngroup b\nCONFIG_B=m\nendgroup\n",
		  "opts.txt:5: CONFIG_B is in group 'a' already (line 2)" },
		{ "B\ngroup a\nB\nendgroup\n",
		  "opts.txt:3: CONFIG_B is an option of its own already (line 1), so it cannot "
		  "be in group 'a' too" },
		{ "group a\nB\nendgroup\nCONFIG_B=y\n", "opts.txt:4: CONFIG_B is in group 'a' already" },
		{ "group a\nB=maybe\nendgroup\n", "opts.txt:2: 'B=maybe' is not y, m, n" },
		{ "endgroup a\n", "opts.txt:1: 'endgroup' takes nothing after it" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct plan_option *o = (struct plan_option *)1;
		size_t nr = 9;

		test_capture_start();
		check_int(parse(&o, &nr, cases[i].text), ==, -1);
		test_capture_stop();
		check(o == NULL && nr == 0);
		if (!check(strstr(test_messages.buf, cases[i].message) != NULL))
			fprintf(stderr, "# case %zu said: %s\n", i, test_messages.buf);
		/* a bad group line is one mistake: its endgroup is not a second (issue 25) */
		if (starts_with(cases[i].message, "opts.txt:1:") && strstr(cases[i].text, "endgroup\n") &&
		    !check(strstr(test_messages.buf, "without a group") == NULL))
			fprintf(stderr, "# case %zu said: %s\n", i, test_messages.buf);
	}
}

/* A symbol given twice outside groups keeps its last value, as before groups. */
static void test_duplicates_outside_groups(void)
{
	struct plan_option *o;
	size_t nr;

	test_capture_start();
	check_int(parse(&o, &nr, "A\nB\nCONFIG_A=m\ngroup g\nC\nendgroup\n"), ==, 0);
	test_capture_stop();
	check_int(nr, ==, 3);
	if (nr == 3) {
		check_str(o[0].label, "CONFIG_B=y");
		check_str(o[1].label, "CONFIG_A=m");
		check_str(o[2].label, "g");
	}
	plan_option_list_free(o, nr);
}

/* The variants of the designs, without resolving them. */
static void variants(struct plan *p, const char *text, unsigned designs)
{
	memset(p, 0, sizeof(*p));
	strbuf_init(&p->harness, 0);
	check_int(parse(&p->options, &p->nr_options, text), ==, 0);
	plan_make_variants(p, designs, 0, NULL);
}

static const char *options_of(const struct plan_variant *v, struct strbuf *sb)
{
	size_t i;

	strbuf_reset(sb);
	for (i = 0; i < v->options.nr; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", v->options.v[i]);
	return sb->buf;
}

static void test_cumulative_design(void)
{
	struct plan p;
	struct strbuf sb = STRBUF_INIT, req = STRBUF_INIT;
	unsigned d;

	check_int(plan_parse_designs(&d, "cumulative"), ==, 0);
	check_int(d, ==, PLAN_CUMULATIVE);
	check_int(plan_parse_designs(&d, "oat,all,cumulative"), ==, 0);
	check_int(d, ==, PLAN_OAT | PLAN_ALL | PLAN_CUMULATIVE);
	test_capture_start();
	check_int(plan_parse_designs(&d, "cumulativ"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "expected oat, all, loo or cumulative") != NULL);

	variants(&p, "PRINTK_TIME\ngroup lockdebug\nPROVE_LOCKING\nDEBUG_ATOMIC_SLEEP\nendgroup\n"
		 "LOCK_STAT\n", PLAN_OAT | PLAN_ALL | PLAN_CUMULATIVE);
	check_int(p.nr_variants, ==, 8);
	if (p.nr_variants == 8) {
		check_str(p.variants[0].name, "baseline");
		check_str(p.variants[2].name, "lockdebug");
		check_str(p.variants[2].kind, "oat");
		check_str(options_of(&p.variants[2], &sb), "lockdebug");
		kconfig_write(p.variants[2].requested, &req);
		check_str(req.buf, "CONFIG_PROVE_LOCKING=y\nCONFIG_DEBUG_ATOMIC_SLEEP=y\n");
		check_str(p.variants[4].name, "all");
		/* steps last: the first is same-as its oat variant, the last same-as all */
		check_str(p.variants[5].name, "+CONFIG_PRINTK_TIME=y");
		check_str(p.variants[5].kind, "cumulative");
		check_str(options_of(&p.variants[5], &sb), "CONFIG_PRINTK_TIME=y");
		check_str(p.variants[6].name, "+lockdebug");
		check_str(options_of(&p.variants[6], &sb), "CONFIG_PRINTK_TIME=y lockdebug");
		check_str(p.variants[7].name, "+CONFIG_LOCK_STAT=y");
		check_str(options_of(&p.variants[7], &sb),
			  "CONFIG_PRINTK_TIME=y lockdebug CONFIG_LOCK_STAT=y");
		strbuf_reset(&req);
		kconfig_write(p.variants[7].requested, &req);
		check_str(req.buf, "CONFIG_PRINTK_TIME=y\nCONFIG_PROVE_LOCKING=y\n"
			  "CONFIG_DEBUG_ATOMIC_SLEEP=y\nCONFIG_LOCK_STAT=y\n");
	}
	plan_release(&p);
	/* cumulative alone; one option makes no steps (it is the oat variant) */
	variants(&p, "A\nB\n", PLAN_CUMULATIVE);
	check_int(p.nr_variants, ==, 3);
	if (p.nr_variants == 3)
		check_str(p.variants[2].name, "+CONFIG_B=y");
	plan_release(&p);
	variants(&p, "A\n", PLAN_CUMULATIVE);
	check_int(p.nr_variants, ==, 2);
	if (p.nr_variants == 2)
		check_str(p.variants[1].kind, "oat");
	plan_release(&p);
	strbuf_release(&sb);
	strbuf_release(&req);
}

static void test_groups_text(void)
{
	struct plan p;
	struct strbuf sb = STRBUF_INIT;

	variants(&p, "A\ngroup g\nB\nC=m\nendgroup\ngroup h\nD\nendgroup\n", PLAN_OAT);
	plan_groups_text(&sb, &p);
	check_str(sb.buf, "g CONFIG_B=y\ng CONFIG_C=m\nh CONFIG_D=y\n");
	plan_release(&p);
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_plain_file);
	TEST(test_groups);
	TEST(test_holds);
	TEST(test_mistakes);
	TEST(test_duplicates_outside_groups);
	TEST(test_cumulative_design);
	TEST(test_groups_text);
	return test_done();
}
