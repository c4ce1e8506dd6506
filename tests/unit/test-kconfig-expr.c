/* test-kconfig-expr.c: Kconfig expressions: parsing, printing, tristate evaluation, false atoms. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig-expr.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "test-lib.h"
#include "util/wrapper.h"

/*
 * A .config for the lookup callback: a NULL-terminated list of
 * "NAME=value" strings, without CONFIG_.
 */
static const char *get_fake(const char *name, void *data)
{
	const char *const *p;
	size_t len = strlen(name);

	for (p = data; *p; p++)
		if (!strncmp(*p, name, len) && (*p)[len] == '=')
			return *p + len + 1;
	return NULL;
}

/* Parses and prints back, in a buffer reused by the next call. */
static const char *reprint(const char *text)
{
	static struct strbuf sb = STRBUF_INIT;
	struct kconfig_expr *e = NULL;

	strbuf_reset(&sb);
	if (kconfig_expr_parse(&e, text))
		return NULL;
	kconfig_expr_print(&sb, e);
	kconfig_expr_free(e);
	return sb.buf;
}

static int eval_text(const char *text, const struct kconfig_symbols *syms, const char *const *config)
{
	struct kconfig_expr *e = NULL;
	int v;

	if (kconfig_expr_parse(&e, text))
		return -1;
	v = kconfig_expr_eval(e, syms, get_fake, (void *)config);
	kconfig_expr_free(e);
	return v;
}

/* The false atoms, joined with "; ", in a buffer reused by the next call. */
static const char *false_atoms(const char *text, const struct kconfig_symbols *syms,
			       const char *const *config)
{
	static struct strbuf sb = STRBUF_INIT;
	struct strvec atoms = STRVEC_INIT;
	struct kconfig_expr *e = NULL;
	size_t i;

	strbuf_reset(&sb);
	if (kconfig_expr_parse(&e, text))
		return NULL;
	kconfig_expr_false_atoms(&atoms, e, syms, get_fake, (void *)config);
	for (i = 0; i < atoms.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "; " : "", atoms.v[i]);
	strvec_clear(&atoms);
	kconfig_expr_free(e);
	return sb.buf;
}

static void test_expr_precedence_and_printing(void)
{
	struct kconfig_expr *e = NULL;

	check_str(reprint("A || B && C"), "A || B && C");
	check_str(reprint("(A || B) && C"), "(A || B) && C");
	check_str(reprint("A && (B || (C && D))"), "A && (B || C && D)");
	check_str(reprint("((A))"), "A");
	check_str(reprint("!A && B"), "!A && B");
	check_str(reprint("!(A && B)"), "!(A && B)");
	check_str(reprint("!!A"), "!!A");
	check_str(reprint("A=y"), "A = y");
	check_str(reprint("NR_CPUS>=4 && X<=0x10 && Y<1 && Z>2"),
		  "NR_CPUS >= 4 && X <= 0x10 && Y < 1 && Z > 2");
	check_str(reprint("A!=\"str\""), "A != \"str\"");
	check_str(reprint("'sq' = \"q\\\"uote\""), "\"sq\" = \"q\\\"uote\"");
	check_str(reprint("$(cc-option,-fsanitize=bool) && 64BIT"),
		  "$(cc-option,-fsanitize=bool) && 64BIT");
	check_str(reprint("A || B || C"), "A || B || C");
	check_str(reprint("A # a comment"), "A");

	/* || binds loosest, then &&, then comparisons, then ! */
	if (check(!kconfig_expr_parse(&e, "A || B && C"))) {
		check_int(e->op, ==, KEXPR_OR);
		check_int(e->right->op, ==, KEXPR_AND);
		check_str(e->left->text, "A");
		kconfig_expr_free(e);
	}
	if (check(!kconfig_expr_parse(&e, "!A = y && B"))) {
		check_int(e->op, ==, KEXPR_AND);
		check_int(e->left->op, ==, KEXPR_NOT);
		check_int(e->left->left->op, ==, KEXPR_EQ);
		kconfig_expr_free(e);
	}
	if (check(!kconfig_expr_parse(&e, "$(success,true) || \"s\""))) {
		check_int(e->left->op, ==, KEXPR_MACRO);
		check_int(e->right->op, ==, KEXPR_STRING);
		check_str(e->right->text, "s");
		kconfig_expr_free(e);
	}
	/* printing parses back to the same text */
	check_str(reprint("!(A = y) && (B || !C) || D != \"x\""),
		  "!A = y && (B || !C) || D != \"x\"");
	check_str(reprint("!A = y && (B || !C) || D != \"x\""),
		  "!A = y && (B || !C) || D != \"x\"");
}

static void test_expr_parse_errors(void)
{
	static const char *const bad[] = {
		"", "A &&", "(A", "A B", "= A", "A =", "A & B", "!", "A || )", "$(foo",
	};
	struct kconfig_expr *e = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		test_capture_start();
		check_int(kconfig_expr_parse(&e, bad[i]), ==, -1);
		test_capture_stop();
		if (!check(strstr(test_messages.buf, "is not a Kconfig expression")))
			fprintf(stderr, "# input '%s': %s", bad[i], test_messages.buf);
	}
	test_capture_start();
	kconfig_expr_parse(&e, "(A");
	test_capture_stop();
	check(strstr(test_messages.buf, "missing ')'") != NULL);
}

static void test_expr_tristate(void)
{
	static const char *const cfg[] = { "A=y", "B=m", "MODULES=y", "S=\"str\"", "N=5", NULL };
	static const char *const nomod[] = { "A=y", NULL };

	check_int(eval_text("A && B", NULL, cfg), ==, KCONFIG_M);
	check_int(eval_text("A || C", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("B || C", NULL, cfg), ==, KCONFIG_M);
	check_int(eval_text("!B", NULL, cfg), ==, KCONFIG_M);
	check_int(eval_text("!C", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("!A", NULL, cfg), ==, KCONFIG_N);
	check_int(eval_text("C", NULL, cfg), ==, KCONFIG_N);
	check_int(eval_text("y", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("n", NULL, cfg), ==, KCONFIG_N);
	check_int(eval_text("\"y\"", NULL, cfg), ==, KCONFIG_Y);
	/* a string or int symbol is n in a boolean context */
	check_int(eval_text("S || N", NULL, cfg), ==, KCONFIG_N);
	/* m is "m && MODULES" */
	check_int(eval_text("m", NULL, cfg), ==, KCONFIG_M);
	check_int(eval_text("m", NULL, nomod), ==, KCONFIG_N);
	check_int(eval_text("A && m", NULL, nomod), ==, KCONFIG_N);
	/* toolchain tests are assumed to pass */
	check_int(eval_text("$(cc-option,-foo)", NULL, cfg), ==, KCONFIG_Y);
	check_int(kconfig_expr_eval(NULL, NULL, get_fake, (void *)cfg), ==, KCONFIG_Y);
	check_int(eval_text("(A || C) && !(B && C)", NULL, cfg), ==, KCONFIG_Y);
}

static void test_expr_comparisons(void)
{
	static const char *const cfg[] = {
		"A=y", "B=m", "MODULES=y", "NR=8", "H=0x10", "S=\"hello \\\"w\\\"\"", NULL,
	};

	check_int(eval_text("NR > 4", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("NR < 10", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("NR >= 9", NULL, cfg), ==, KCONFIG_N);
	check_int(eval_text("NR <= 8", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("NR = 8", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("NR != 8", NULL, cfg), ==, KCONFIG_N);
	/* numbers compare as numbers, not text: 8 < 10 */
	check_int(eval_text("NR < 10", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("H = 16", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("H > 0xf", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("S = \"hello \\\"w\\\"\"", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("S != \"hello\"", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("A = y", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("B = m", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("B != n", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("B = A", NULL, cfg), ==, KCONFIG_N);
	/* tristates order n < m < y */
	check_int(eval_text("B < A", NULL, cfg), ==, KCONFIG_Y);
	/* an unset bool is n */
	check_int(eval_text("UNSET = n", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("UNSET = OTHER_UNSET", NULL, cfg), ==, KCONFIG_Y);
	/* text that is not a number cannot be ordered */
	check_int(eval_text("S < 3", NULL, cfg), ==, KCONFIG_N);
}

static void test_false_atoms(void)
{
	static const char *const cfg[] = { "X86_64=y", "Y=y", "NR=8", "M=m", "MODULES=y", NULL };
	static const char *const nomod[] = { NULL };

	check_str(false_atoms("X86_64 && (A || B)", NULL, cfg), "A=n; B=n");
	check_str(false_atoms("A && !X86_64", NULL, cfg), "A=n; X86_64=y");
	check_str(false_atoms("NR > 16 && X86_64", NULL, cfg), "NR=8");
	check_str(false_atoms("!(X86_64 && Y)", NULL, cfg), "X86_64=y; Y=y");
	check_str(false_atoms("!(A || X86_64)", NULL, cfg), "X86_64=y");
	check_str(false_atoms("X86_64 || A", NULL, cfg), "");
	check_str(false_atoms("M && X86_64", NULL, cfg), "M=m");
	check_str(false_atoms("A && (A || B)", NULL, cfg), "A=n; B=n");
	check_str(false_atoms("m", NULL, nomod), "MODULES=n");
	check_str(false_atoms("A = y || n", NULL, cfg), "A=n; n");
	check_str(false_atoms("\"abc\" = \"abd\"", NULL, cfg), "\"abc\" = \"abd\"");
	/* A negated macro (a toolchain test taken as passing) used to crash. */
	check_str(false_atoms("!$(cc-option,-fx)", NULL, cfg), "$(cc-option,-fx)");
	check_str(false_atoms("A || !$(cc-option,-fx)", NULL, cfg), "A=n; $(cc-option,-fx)");
}
/* A tree that defines A (bool), H (hex) and NR (int): what kconfig-index supplies. */
static int fake_defined(const char *name, enum kconfig_type *type,
			const void *data UNUSED)
{
	if (!strcmp(name, "A"))
		*type = KCONFIG_BOOL;
	else if (!strcmp(name, "H"))
		*type = KCONFIG_HEX;
	else if (!strcmp(name, "NR"))
		*type = KCONFIG_INT;
	else
		return 0;
	return 1;
}

static void test_expr_symbols(void)
{
	static const struct kconfig_symbols syms = { fake_defined, NULL };
	static const char *const cfg[] = { "A=y", "H=10", NULL };

	/* a hex symbol's value reads as hex: 0x10 is not 10 */
	check_int(eval_text("H = 10", NULL, cfg), ==, KCONFIG_Y);
	check_int(eval_text("H = 10", &syms, cfg), ==, KCONFIG_N);
	check_int(eval_text("H = 16", &syms, cfg), ==, KCONFIG_Y);
	/* only the symbols tell undefined names from unset ones */
	check_str(false_atoms("A && FOO", NULL, cfg), "FOO=n");
	check_str(false_atoms("A && FOO", &syms, cfg), "FOO=n (undefined)");
	check_str(false_atoms("NR > 1", &syms, cfg), "NR is unset");
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_expr_precedence_and_printing);
	TEST(test_expr_parse_errors);
	TEST(test_expr_tristate);
	TEST(test_expr_comparisons);
	TEST(test_false_atoms);
	TEST(test_expr_symbols);
	return test_done();
}
