/* test-kconfig-help.c: unit tests for the cost claims of Kconfig help texts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "kconfig/kconfig-help.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"

/* Linux 6.1's own help texts (the tests run from the top directory). */
#define COST_KCONFIG "tests/fixtures/kconfig-help/Kconfig.cost"

/* The line of "config NAME" or "menuconfig NAME" in the fixture. */
static int line_of(const char *name)
{
	char buf[256], want[128], want_menu[128];
	FILE *fp = fopen(COST_KCONFIG, "r");
	int n = 0;

	snprintf(want, sizeof(want), "config %s\n", name);
	snprintf(want_menu, sizeof(want_menu), "menuconfig %s\n", name);
	while (fp && fgets(buf, sizeof(buf), fp)) {
		n++;
		if (!strcmp(buf, want) || !strcmp(buf, want_menu)) {
			fclose(fp);
			return n;
		}
	}
	if (fp)
		fclose(fp);
	return -1;
}

/* The claims of name's help, joined by " | ". */
static void claims_of(struct strbuf *out, const char *name)
{
	struct strbuf help = STRBUF_INIT;
	struct strvec claims = STRVEC_INIT;
	size_t i;

	check_int(kconfig_help_text(&help, COST_KCONFIG, line_of(name)), ==, 1);
	kconfig_cost_claims(&claims, help.buf);
	for (i = 0; i < claims.nr; i++)
		strbuf_addf(out, "%s%s", i ? " | " : "", claims.v[i]);
	strbuf_release(&help);
	strvec_clear(&claims);
}

static void test_help_text_is_dedented_and_ends_with_its_entry(void)
{
	struct strbuf help = STRBUF_INIT;

	check_int(kconfig_help_text(&help, COST_KCONFIG, line_of("KASAN_INLINE")), ==, 1);
	check(!strncmp(help.buf, "Makes the compiler directly insert", 34));
	check(strstr(help.buf, "endchoice") == NULL);
	check(help.buf[help.len - 1] == '\n');
	strbuf_reset(&help);
	check_int(kconfig_help_text(&help, COST_KCONFIG, 4), ==, 0);	/* "choice" has none */
	test_capture_start();
	check_int(kconfig_help_text(&help, "/nonexistent/Kconfig", 1), ==, -1);
	test_capture_stop();
	strbuf_release(&help);
}

static void test_claims_of_linux_6_1(void)
{
	struct strbuf sb = STRBUF_INIT;

	claims_of(&sb, "KASAN_GENERIC");
	check_str(sb.buf, "Consumes about 1/8th of available memory at kernel start and adds an "
		  "overhead of ~50% for dynamic allocations. | The performance slowdown is ~x3.");
	strbuf_reset(&sb);
	claims_of(&sb, "KASAN_INLINE");
	check_str(sb.buf, "Faster than KASAN_OUTLINE (gives ~x2 boost for some workloads), but "
		  "makes the kernel's .text size much bigger.");
	strbuf_reset(&sb);
	claims_of(&sb, "INIT_ON_FREE_DEFAULT_ON");
	check_str(sb.buf, "Most cases see 3-5% impact. | Some synthetic workloads have measured as "
		  "high as 8%.");
	strbuf_reset(&sb);
	claims_of(&sb, "KFENCE");
	check_str(sb.buf, "KFENCE is designed to have negligible cost to permit enabling it in "
		  "production environments.");
	strbuf_reset(&sb);
	claims_of(&sb, "ZERO_CALL_USED_REGS");
	check_str(sb.buf, "This has a less than 1% performance impact on most workloads.");
	strbuf_reset(&sb);
	claims_of(&sb, "UNWINDER_FRAME_POINTER");
	check_str(sb.buf, "The unwinder itself is fast and it uses less RAM than the ORC unwinder, "
		  "but the kernel text size will grow by ~3% and the kernel's overall performance "
		  "will degrade by roughly 5-10%.");
	strbuf_reset(&sb);
	/* "will introduce an overhead": no size, no claim */
	claims_of(&sb, "DEBUG_KMEMLEAK");
	check_str(sb.buf, "");
	strbuf_release(&sb);
}

static void test_sentences_and_quantities(void)
{
	struct strvec v = STRVEC_INIT;

	kconfig_cost_claims(&v, "Slows it down, e.g. by 2x on x86_64.\nNo cost.\n\n"
			    "Performance on x86_64 differs\n\nA 10 percent overhead!  "
			    "Nothing here 5%.");
	if (check_int(v.nr, ==, 2)) {
		check_str(v.v[0], "Slows it down, e.g. by 2x on x86_64.");
		check_str(v.v[1], "A 10 percent overhead!");
	}
	strvec_clear(&v);
	kconfig_cost_claims(&v, "");
	kconfig_cost_claims(&v, NULL);
	check_int(v.nr, ==, 0);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_help_text_is_dedented_and_ends_with_its_entry);
	TEST(test_claims_of_linux_6_1);
	TEST(test_sentences_and_quantities);
	return test_done();
}
