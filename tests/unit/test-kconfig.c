/* test-kconfig.c: the .config model: parsing, errors, edits, diff, merge, hash. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

/* Parses text as file "t.config"; NULL (messages in test_messages) on error. */
static struct kconfig *parse_flags(const char *text, unsigned flags)
{
	struct kconfig *kc = kconfig_new();

	test_capture_start();
	if (kconfig_parse(kc, "t.config", text, strlen(text), flags)) {
		kconfig_free(kc);
		kc = NULL;
	}
	test_capture_stop();
	return kc;
}

static struct kconfig *parse(const char *text)
{
	return parse_flags(text, 0);
}

/* The text kc writes, in a static buffer reused by the next call. */
static const char *written(const struct kconfig *kc)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	kconfig_write(kc, &sb);
	return sb.buf;
}

/* The error for a one-file input whose bad line is its last. */
static const char *error_for(const char *text, unsigned flags)
{
	struct kconfig *kc = parse_flags(text, flags);

	check(!kc);
	kconfig_free(kc);
	return test_messages.buf;
}

static void test_every_value_kind(void)
{
	struct kconfig *kc = parse(
		"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
		"CONFIG_A=y\nCONFIG_B=m\nCONFIG_C=n\n# CONFIG_D is not set\n"
		"CONFIG_E=42\nCONFIG_F=-17\nCONFIG_G=0x1000000\nCONFIG_H=0XdeadBEEF\n"
		"CONFIG_I=\"\"\nCONFIG_J=\"a \\\"quoted\\\" \\\\ string\"\n"
		"CONFIG_64BIT=y\nCONFIG_lower_case=y\nCONFIG_K=007\n\n");

	if (!check(kc))
		return;
	check_str(test_messages.buf, "");
	check_str(kconfig_get(kc, "A"), "y");
	check_str(kconfig_get(kc, "B"), "m");
	check_str(kconfig_get(kc, "C"), "n");
	check_str(kconfig_get(kc, "D"), "n");
	check_str(kconfig_get(kc, "E"), "42");
	check_str(kconfig_get(kc, "F"), "-17");
	check_str(kconfig_get(kc, "G"), "0x1000000");
	check_str(kconfig_get(kc, "H"), "0XdeadBEEF");
	check_str(kconfig_get(kc, "I"), "\"\"");
	check_str(kconfig_get(kc, "J"), "\"a \\\"quoted\\\" \\\\ string\"");
	check_str(kconfig_get(kc, "64BIT"), "y");
	check_str(kconfig_get(kc, "lower_case"), "y");
	check_str(kconfig_get(kc, "K"), "007");
	check_str(kconfig_get(kc, "LOWER_CASE"), NULL);
	check_str(kconfig_get(kc, "CONFIG_A"), NULL);
	check_str(kconfig_get(kc, "Z"), NULL);
	check_str(kconfig_get(kc, ""), NULL);
	check_int(kconfig_count(kc), ==, 13);
	kconfig_free(kc);
}

static void test_trailing_blanks_and_crlf(void)
{
	const char *text = "CONFIG_A=y \r\nCONFIG_B=\"x y\"\t\r\n# CONFIG_C is not set\r\n\r\n";
	struct kconfig *kc = parse(text);

	if (!check(kc))
		return;
	check_str(kconfig_get(kc, "A"), "y");
	check_str(kconfig_get(kc, "B"), "\"x y\"");
	check_str(kconfig_get(kc, "C"), "n");
	check_str(written(kc), text);
	kconfig_free(kc);
}

static void test_comments_that_look_like_symbols(void)
{
	struct kconfig *kc = parse("# CONFIG_A is not set, really\n#CONFIG_B is not set\n"
				   "# CONFIG_C-D is not set\n# CONFIG_E=y\n#\n");

	if (!check(kc))
		return;
	check_int(kconfig_count(kc), ==, 0);
	kconfig_free(kc);
}

static void test_value_type(void)
{
	check_int(kconfig_value_type("y"), ==, KCONFIG_VALUE_TRISTATE);
	check_int(kconfig_value_type("m"), ==, KCONFIG_VALUE_TRISTATE);
	check_int(kconfig_value_type("n"), ==, KCONFIG_VALUE_TRISTATE);
	check_int(kconfig_value_type("0"), ==, KCONFIG_VALUE_DECIMAL);
	check_int(kconfig_value_type("-5"), ==, KCONFIG_VALUE_DECIMAL);
	check_int(kconfig_value_type("0x0"), ==, KCONFIG_VALUE_HEX);
	check_int(kconfig_value_type("0XaF"), ==, KCONFIG_VALUE_HEX);
	check_int(kconfig_value_type("\"\""), ==, KCONFIG_VALUE_STRING);
	check_int(kconfig_value_type("\"\\\\\""), ==, KCONFIG_VALUE_STRING);
	check_int(kconfig_value_type(""), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("Y"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("yes"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("-"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("--1"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("1.5"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("0x"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("0xg"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("-0x1"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("\""), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("\"abc\\\""), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("\"a\"b"), ==, KCONFIG_VALUE_INVALID);
	check_int(kconfig_value_type("\"a\nb\""), ==, KCONFIG_VALUE_INVALID);
	/* A '\r' inside quotes is never at the end of a line. */
	check_int(kconfig_value_type("\"a\rb\""), ==, KCONFIG_VALUE_STRING);
	check_int(kconfig_value_type("y "), ==, KCONFIG_VALUE_INVALID);
}

static void test_string_values(void)
{
	struct strbuf sb = STRBUF_INIT;

	check_int(kconfig_string_value(&sb, "\"a \\\"b\\\" \\\\c\""), ==, 0);
	check_str(sb.buf, "a \"b\" \\c");
	strbuf_reset(&sb);
	check_int(kconfig_string_value(&sb, "\"\""), ==, 0);
	check_str(sb.buf, "");
	check_int(kconfig_string_value(&sb, "\"\\x\""), ==, 0);
	check_str(sb.buf, "x");
	strbuf_reset(&sb);
	check_int(kconfig_string_value(&sb, "y"), ==, -1);
	check_int(kconfig_string_value(&sb, "\"open"), ==, -1);
	check_int(kconfig_string_value(&sb, ""), ==, -1);
	check_int(sb.len, ==, 0);

	kconfig_quote_string(&sb, "<script>\"x\"\\</script>");
	check_str(sb.buf, "\"<script>\\\"x\\\"\\\\</script>\"");
	{
		struct strbuf back = STRBUF_INIT;

		check_int(kconfig_string_value(&back, sb.buf), ==, 0);
		check_str(back.buf, "<script>\"x\"\\</script>");
		strbuf_release(&back);
	}
	strbuf_release(&sb);
}

static void check_round_trip(const char *text)
{
	struct kconfig *kc = parse(text);

	if (!check(kc)) {
		fprintf(stderr, "# input: '%s'\n%s", text, test_messages.buf);
		return;
	}
	check_str(written(kc), text);
	kconfig_free(kc);
}

static void test_round_trip_is_byte_identical(void)
{
	check_round_trip("");
	check_round_trip("\n");
	check_round_trip("\n\n\n");
	check_round_trip("CONFIG_A=y");
	check_round_trip("CONFIG_A=y\n");
	check_round_trip("CONFIG_A=y\n\n");
	check_round_trip("# comment");
	check_round_trip("   ");
	check_round_trip("#\n# Linux/x86 6.1 Kernel Configuration\n#\nCONFIG_A=y\n"
			 "# CONFIG_B is not set\n\n#\n# General setup\n#\nCONFIG_C=\"x\"");
	check_round_trip("CONFIG_A=y\r\nCONFIG_B=m\r\n");
	check_round_trip("CONFIG_A=y\r\nCONFIG_B=m\r");
	check_round_trip("CONFIG_A=y\nCONFIG_A=m\nCONFIG_A=y\n");
	check_round_trip("# CONFIG_A is not set   \n\t\n");
	check_round_trip("CONFIG_S=\"tab\there \\\\ \\\" done\"\n");
}

static void test_round_trip_of_a_generated_config(void)
{
	struct strbuf text = STRBUF_INIT;
	struct kconfig *kc;
	int i;

	for (i = 0; i < 3000; i++) {
		if (i % 50 == 0)
			strbuf_addf(&text, "\n#\n# Menu %d\n#\n", i);
		if (i % 3 == 0)
			strbuf_addf(&text, "# CONFIG_SYM_%d is not set\n", i);
		else if (i % 7 == 0)
			strbuf_addf(&text, "CONFIG_SYM_%d=0x%x\n", i, i * 4096);
		else
			strbuf_addf(&text, "CONFIG_SYM_%d=%c\n", i, i % 2 ? 'y' : 'm');
	}
	kc = parse(text.buf);
	if (check(kc)) {
		check_str(written(kc), text.buf);
		check_int(kconfig_count(kc), ==, 3000);
		check_str(kconfig_get(kc, "SYM_2997"), "n");
		check_str(kconfig_get(kc, "SYM_7"), "0x7000");
		check_str(kconfig_get(kc, "SYM_5"), "y");
	}
	kconfig_free(kc);
	strbuf_release(&text);
}

static void test_error_bad_value(void)
{
	struct strbuf text = STRBUF_INIT;
	struct kconfig *kc = kconfig_new();
	int i;

	for (i = 0; i < 11; i++)
		strbuf_addf(&text, "CONFIG_OK_%d=y\n", i);
	strbuf_addstr(&text, "CONFIG_FOO=maybe\n");
	test_capture_start();
	check_int(kconfig_parse(kc, "options.txt", text.buf, text.len, 0), ==, -1);
	test_capture_stop();
	check_str(test_messages.buf, "error: options.txt:12: 'CONFIG_FOO=maybe' is not y, m, n, "
		  "a number or a string\n");
	/* Nothing of a bad file is kept. */
	check_int(kconfig_count(kc), ==, 0);
	check_str(written(kc), "");
	kconfig_free(kc);
	strbuf_release(&text);
}

static void test_error_messages(void)
{
	check_str(error_for("CONFIG_A=y\nCONFIG_FOO\n", 0),
		  "error: t.config:2: expected '=' after the symbol name in 'CONFIG_FOO'\n");
	check_str(error_for("CONFIG_FOO y\n", 0),
		  "error: t.config:1: expected '=' after the symbol name in 'CONFIG_FOO y'\n");
	check_str(error_for("CONFIG_S=\"abc\n", 0),
		  "error: t.config:1: unterminated string in 'CONFIG_S=\"abc'\n");
	check_str(error_for("CONFIG_S=\"abc\\\"\n", 0),
		  "error: t.config:1: unterminated string in 'CONFIG_S=\"abc\\\"'\n");
	check_str(error_for("CONFIG_S=\"abc\\\n", 0),
		  "error: t.config:1: unterminated string in 'CONFIG_S=\"abc\\'\n");
	check_str(error_for("CONFIG_S=\"a\"b\n", 0),
		  "error: t.config:1: unexpected text after the closing quote in 'CONFIG_S=\"a\"b'\n");
	check_str(error_for("FOO=y\n", 0),
		  "error: t.config:1: 'FOO=y' is not a CONFIG_ line or a comment\n");
	check_str(error_for(" CONFIG_A=y\n", 0),
		  "error: t.config:1: ' CONFIG_A=y' is not a CONFIG_ line or a comment\n");
	check_str(error_for("\n\nconfig_a=y", 0),
		  "error: t.config:3: 'config_a=y' is not a CONFIG_ line or a comment\n");
	check_str(error_for("CONFIG_FOO-BAR=y\n", 0),
		  "error: t.config:1: 'FOO-BAR' is not a valid symbol name (expected letters, "
		  "digits and '_')\n");
	check_str(error_for("CONFIG_FOO =y\n", 0),
		  "error: t.config:1: 'FOO ' is not a valid symbol name (expected letters, "
		  "digits and '_')\n");
	check_str(error_for("CONFIG_=y\n", 0),
		  "error: t.config:1: expected a symbol name before '=' in 'CONFIG_=y'\n");
	check_str(error_for("CONFIG_A=\n", 0),
		  "error: t.config:1: 'CONFIG_A=' is not y, m, n, a number or a string\n");
	check_str(error_for("CONFIG_A=0x\n", 0),
		  "error: t.config:1: 'CONFIG_A=0x' is not y, m, n, a number or a string\n");
	check_str(error_for("CONFIG_A=1.5\n", 0),
		  "error: t.config:1: 'CONFIG_A=1.5' is not y, m, n, a number or a string\n");
	check_str(error_for("CONFIG_A=y y\n", 0),
		  "error: t.config:1: 'CONFIG_A=y y' is not y, m, n, a number or a string\n");
}

static void test_error_nul_byte(void)
{
	static const char text[] = "CONFIG_A=y\nCONFIG_B=\0y\n";
	struct kconfig *kc = kconfig_new();

	test_capture_start();
	check_int(kconfig_parse(kc, "t.config", text, sizeof(text) - 1, 0), ==, -1);
	test_capture_stop();
	check_str(test_messages.buf, "error: t.config:2: line contains a NUL byte\n");
	kconfig_free(kc);
}

static void test_error_long_line_is_shortened(void)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_addstr(&text, "CONFIG_A=");
	strbuf_addchars(&text, 'x', 500);
	error_for(text.buf, 0);
	check(strstr(test_messages.buf, "'CONFIG_A=xxxxxxxx"));
	check(strstr(test_messages.buf, "x...' is not y, m, n"));
	check_int(test_messages.len, <, 200);
	strbuf_release(&text);
}

static void test_every_bad_line_is_reported(void)
{
	struct strbuf text = STRBUF_INIT;
	int i;

	error_for("CONFIG_A=1\nbad\nCONFIG_B=yes\nCONFIG_C=y\n", 0);
	check_str(test_messages.buf,
		  "error: t.config:2: 'bad' is not a CONFIG_ line or a comment\n"
		  "error: t.config:3: 'CONFIG_B=yes' is not y, m, n, a number or a string\n");

	for (i = 0; i < 30; i++)
		strbuf_addstr(&text, "junk\n");
	error_for(text.buf, 0);
	check(strstr(test_messages.buf, "t.config:20: 'junk'"));
	check(!strstr(test_messages.buf, "t.config:21:"));
	check(strstr(test_messages.buf, "error: t.config: stopping after 20 errors\n"));

	/* Exactly 20 bad lines: all reported, nothing stopped. */
	strbuf_reset(&text);
	for (i = 0; i < 20; i++)
		strbuf_addstr(&text, "junk\n");
	error_for(text.buf, 0);
	check(strstr(test_messages.buf, "t.config:20: 'junk'"));
	check(!strstr(test_messages.buf, "stopping"));
	strbuf_release(&text);
}

static void test_error_too_large(void)
{
	size_t len = KCONFIG_MAX_SIZE + 1;
	char *big = xmalloc(len);
	struct kconfig *kc = kconfig_new();

	memset(big, '\n', len);
	test_capture_start();
	check_int(kconfig_parse(kc, "big.config", big, len, 0), ==, -1);
	test_capture_stop();
	check(starts_with(test_messages.buf, "error: big.config: too large ("));
	kconfig_free(kc);
	free(big);
}

static void test_failed_parse_leaves_kconfig_unchanged(void)
{
	struct kconfig *kc = parse("CONFIG_A=y\n");
	const char *bad = "CONFIG_A=m\nCONFIG_B=y\nCONFIG_C=wrong\n";

	if (!check(kc))
		return;
	test_capture_start();
	check_int(kconfig_parse(kc, "bad.config", bad, strlen(bad), 0), ==, -1);
	test_capture_stop();
	check_str(kconfig_get(kc, "A"), "y");
	check_str(kconfig_get(kc, "B"), NULL);
	check_int(kconfig_count(kc), ==, 1);
	check_str(written(kc), "CONFIG_A=y\n");
	kconfig_free(kc);
}

static void test_redefinition(void)
{
	const char *text = "CONFIG_A=y\nCONFIG_B=y\n# c\nCONFIG_A=m\nCONFIG_B=y\n# CONFIG_A is not set\n";
	struct kconfig *kc = parse(text);
	size_t iter = 0;
	const char *name, *value;

	if (!check(kc))
		return;
	check_str(test_messages.buf,
		  "warning: t.config:4: CONFIG_A redefined: previous value 'y', new value 'm'\n"
		  "warning: t.config:6: CONFIG_A redefined: previous value 'm', new value 'n'\n");
	check_str(kconfig_get(kc, "A"), "n");
	check_str(kconfig_get(kc, "B"), "y");
	check_int(kconfig_count(kc), ==, 2);
	check_str(written(kc), text);
	/* A symbol sits where its last definition is. */
	check(kconfig_next(kc, &iter, &name, &value));
	check_str(name, "B");
	check(kconfig_next(kc, &iter, &name, &value));
	check_str(name, "A");
	check_str(value, "n");
	check(!kconfig_next(kc, &iter, &name, &value));
	kconfig_free(kc);

	/* "=n" and "is not set" are the same value: no warning. */
	kc = parse("CONFIG_A=n\n# CONFIG_A is not set\n");
	check(kc);
	check_str(test_messages.buf, "");
	kconfig_free(kc);
}

static void test_redefinition_across_files(void)
{
	struct kconfig *kc = kconfig_new();

	test_capture_start();
	check_int(kconfig_parse(kc, "a.config", "CONFIG_X=y", 10, 0), ==, 0);
	check_int(kconfig_parse(kc, "b.config", "\nCONFIG_X=\"s\"\n", 14, 0), ==, 0);
	test_capture_stop();
	check_str(test_messages.buf,
		  "warning: b.config:2: CONFIG_X redefined: previous value 'y', new value '\"s\"'\n");
	check_str(kconfig_get(kc, "X"), "\"s\"");
	/* The first file's missing newline is supplied. */
	check_str(written(kc), "CONFIG_X=y\n\nCONFIG_X=\"s\"\n");
	kconfig_free(kc);
}

static void test_iteration_in_file_order(void)
{
	struct kconfig *kc = parse("CONFIG_Z=y\n# x\nCONFIG_A=m\n# CONFIG_M is not set\n");
	struct strbuf seen = STRBUF_INIT;
	const char *name, *value;
	size_t iter = 0;

	if (!check(kc))
		return;
	while (kconfig_next(kc, &iter, &name, &value))
		strbuf_addf(&seen, "%s=%s ", name, value);
	check_str(seen.buf, "Z=y A=m M=n ");
	check(!kconfig_next(kc, &iter, &name, &value));
	kconfig_free(kc);
	strbuf_release(&seen);
}

static void test_loose_options(void)
{
	struct kconfig *kc = parse_flags(
		"# debug options\nPROVE_LOCKING\n  CONFIG_LOCK_STAT  \nDEBUG_ATOMIC_SLEEP=y\n"
		"KASAN=m\nCONFIG_FRAME_WARN=2048\n# CONFIG_DEBUG_INFO is not set\n"
		"   # CONFIG_KCOV is not set\nCMDLINE=\"quiet splash\"\nFAILSLAB=n\n\t# indented\n\n",
		KCONFIG_LOOSE);

	if (!check(kc))
		return;
	check_str(test_messages.buf, "");
	check_str(kconfig_get(kc, "PROVE_LOCKING"), "y");
	check_str(kconfig_get(kc, "LOCK_STAT"), "y");
	check_str(kconfig_get(kc, "DEBUG_ATOMIC_SLEEP"), "y");
	check_str(kconfig_get(kc, "KASAN"), "m");
	check_str(kconfig_get(kc, "FRAME_WARN"), "2048");
	check_str(kconfig_get(kc, "DEBUG_INFO"), "n");
	check_str(kconfig_get(kc, "KCOV"), "n");
	check_str(kconfig_get(kc, "CMDLINE"), "\"quiet splash\"");
	check_str(kconfig_get(kc, "FAILSLAB"), "n");
	/* Written back as a fragment any .config parser takes. */
	check_str(written(kc),
		  "# debug options\nCONFIG_PROVE_LOCKING=y\nCONFIG_LOCK_STAT=y\n"
		  "CONFIG_DEBUG_ATOMIC_SLEEP=y\nCONFIG_KASAN=m\nCONFIG_FRAME_WARN=2048\n"
		  "# CONFIG_DEBUG_INFO is not set\n# CONFIG_KCOV is not set\n"
		  "CONFIG_CMDLINE=\"quiet splash\"\n# CONFIG_FAILSLAB is not set\n# indented\n\n");
	kconfig_free(kc);

	check_str(error_for("X=maybe\n", KCONFIG_LOOSE),
		  "error: t.config:1: 'X=maybe' is not y, m, n, a number or a string\n");
	check_str(error_for("A\nfoo bar\n", KCONFIG_LOOSE),
		  "error: t.config:2: 'foo bar' is not an option (expected X, X=value or "
		  "CONFIG_X=value)\n");
	check_str(error_for("X = y\n", KCONFIG_LOOSE),
		  "error: t.config:1: 'X ' is not a valid symbol name (expected letters, "
		  "digits and '_')\n");
	check_str(error_for("CONFIG_\n", KCONFIG_LOOSE),
		  "error: t.config:1: 'CONFIG_' is not an option (expected X, X=value or "
		  "CONFIG_X=value)\n");
	check_str(error_for("=y\n", KCONFIG_LOOSE),
		  "error: t.config:1: expected a symbol name before '=' in '=y'\n");
}

static struct kconfig *parse_list(const char *list)
{
	struct kconfig *kc = kconfig_new();

	test_capture_start();
	if (kconfig_parse_list(kc, "--options", list)) {
		kconfig_free(kc);
		kc = NULL;
	}
	test_capture_stop();
	return kc;
}

static void test_option_lists(void)
{
	struct kconfig *kc = parse_list("PROVE_LOCKING,LOCK_STAT=y DEBUG_INFO=n,,"
					"\tCONFIG_KASAN=m, CMDLINE=\"a, b \\\"c\\\"\" X");

	if (!check(kc)) {
		fprintf(stderr, "%s", test_messages.buf);
		return;
	}
	check_int(kconfig_count(kc), ==, 6);
	check_str(kconfig_get(kc, "PROVE_LOCKING"), "y");
	check_str(kconfig_get(kc, "LOCK_STAT"), "y");
	check_str(kconfig_get(kc, "DEBUG_INFO"), "n");
	check_str(kconfig_get(kc, "KASAN"), "m");
	check_str(kconfig_get(kc, "CMDLINE"), "\"a, b \\\"c\\\"\"");
	check_str(kconfig_get(kc, "X"), "y");
	check_str(written(kc),
		  "CONFIG_PROVE_LOCKING=y\nCONFIG_LOCK_STAT=y\n# CONFIG_DEBUG_INFO is not set\n"
		  "CONFIG_KASAN=m\nCONFIG_CMDLINE=\"a, b \\\"c\\\"\"\nCONFIG_X=y\n");
	kconfig_free(kc);

	kc = parse_list("");
	check(kc && !kconfig_count(kc));
	kconfig_free(kc);

	check(!parse_list("A,B=maybe,C"));
	check_str(test_messages.buf,
		  "error: --options: 'B=maybe' is not y, m, n, a number or a string\n");
	check(!parse_list("A,#B"));
	check_str(test_messages.buf,
		  "error: --options: '#B' is not an option (expected X, X=value or "
		  "CONFIG_X=value)\n");
	check(!parse_list("S=\"open"));
	check_str(test_messages.buf, "error: --options: unterminated string in 'S=\"open'\n");
	check(!parse_list("A-B"));
	check_str(test_messages.buf,
		  "error: --options: 'A-B' is not an option (expected X, X=value or "
		  "CONFIG_X=value)\n");

	/* Redefinitions warn like in files. */
	kc = parse_list("A=y,A=m");
	check(kc);
	check_str(test_messages.buf, "warning: --options: CONFIG_A redefined: previous value 'y', "
		  "new value 'm'\n");
	kconfig_free(kc);
}

static void test_set(void)
{
	struct kconfig *kc = parse("# top\nCONFIG_A=y\nCONFIG_B=n\nCONFIG_C=1\n# end\n");

	if (!check(kc))
		return;
	check_int(kconfig_set(kc, "A", "m"), ==, 0);
	check_int(kconfig_set(kc, "C", "n"), ==, 0);
	check_int(kconfig_set(kc, "B", "n"), ==, 0);	/* unchanged: kept as written */
	check_int(kconfig_set(kc, "NEW", "\"s\""), ==, 0);
	check_int(kconfig_set(kc, "OFF", "n"), ==, 0);
	check_str(written(kc), "# top\nCONFIG_A=m\nCONFIG_B=n\n# CONFIG_C is not set\n# end\n"
		  "CONFIG_NEW=\"s\"\n# CONFIG_OFF is not set\n");
	check_str(kconfig_get(kc, "A"), "m");
	check_str(kconfig_get(kc, "C"), "n");
	check_int(kconfig_count(kc), ==, 5);

	test_capture_start();
	check_int(kconfig_set(kc, "BAD-NAME", "y"), ==, -1);
	check_int(kconfig_set(kc, "", "y"), ==, -1);
	check_int(kconfig_set(kc, "A", "maybe"), ==, -1);
	check_int(kconfig_set(kc, "A", "\"two\nlines\""), ==, -1);
	test_capture_stop();
	check_str(test_messages.buf,
		  "error: 'BAD-NAME' is not a valid symbol name (expected letters, digits and '_')\n"
		  "error: '' is not a valid symbol name (expected letters, digits and '_')\n"
		  "error: 'CONFIG_A=maybe' is not y, m, n, a number or a string\n"
		  "error: 'CONFIG_A=\"two\nlines\"' is not y, m, n, a number or a string\n");
	check_str(kconfig_get(kc, "A"), "m");
	kconfig_free(kc);
}

static void test_set_drops_other_definitions(void)
{
	struct kconfig *kc = parse("CONFIG_A=y\nCONFIG_B=y\nCONFIG_A=m\n");

	if (!check(kc))
		return;
	check_int(kconfig_set(kc, "A", "y"), ==, 0);
	check_str(written(kc), "CONFIG_B=y\nCONFIG_A=y\n");
	/* Re-parsing what was written gives no warning. */
	kconfig_free(kc);
	kc = parse("CONFIG_B=y\nCONFIG_A=y\n");
	check_str(test_messages.buf, "");
	kconfig_free(kc);
}

static void test_set_without_final_newline(void)
{
	struct kconfig *kc = parse("CONFIG_A=y");

	if (!check(kc))
		return;
	check_int(kconfig_set(kc, "A", "m"), ==, 0);
	check_str(written(kc), "CONFIG_A=m");
	check_int(kconfig_set(kc, "B", "y"), ==, 0);
	check_str(written(kc), "CONFIG_A=m\nCONFIG_B=y\n");
	kconfig_free(kc);
}

static void test_unset(void)
{
	struct kconfig *kc = parse("CONFIG_A=y\n# x\nCONFIG_B=m\nCONFIG_A=m\nCONFIG_C=y");

	if (!check(kc))
		return;
	check_int(kconfig_unset(kc, "A"), ==, 1);
	check_int(kconfig_unset(kc, "A"), ==, 0);
	check_int(kconfig_unset(kc, "NOPE"), ==, 0);
	check_str(kconfig_get(kc, "A"), NULL);
	check_int(kconfig_count(kc), ==, 2);
	check_str(written(kc), "# x\nCONFIG_B=m\nCONFIG_C=y");
	/* Removing the unterminated last line leaves the one before terminated (as sed). */
	check_int(kconfig_unset(kc, "C"), ==, 1);
	check_str(written(kc), "# x\nCONFIG_B=m\n");
	check_int(kconfig_set(kc, "A", "y"), ==, 0);
	check_str(written(kc), "# x\nCONFIG_B=m\nCONFIG_A=y\n");
	check_int(kconfig_count(kc), ==, 2);
	kconfig_free(kc);
}

static void test_many_symbols(void)
{
	struct kconfig *kc = kconfig_new();
	char name[32];
	int i, ok = 1;

	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "S%d", i);
		ok &= !kconfig_set(kc, name, i % 2 ? "y" : "m");
	}
	check(ok);
	check_int(kconfig_count(kc), ==, 20000);
	for (i = 0; i < 20000; i++) {
		const char *v;

		snprintf(name, sizeof(name), "S%d", i);
		v = kconfig_get(kc, name);
		ok &= v && !strcmp(v, i % 2 ? "y" : "m");
	}
	check(ok);
	check_str(kconfig_get(kc, "S20000"), NULL);
	kconfig_free(kc);
}

static const char diff_a[] =
	"CONFIG_SAME=y\nCONFIG_GONE=m\nCONFIG_CHANGED=y\nCONFIG_NUM=14\n"
	"# CONFIG_OFF is not set\nCONFIG_ALSO_GONE=\"x\"\nCONFIG_TURNS_OFF=y\nCONFIG_EQ_N=n\n";
static const char diff_b[] =
	"CONFIG_NUM=16\nCONFIG_SAME=y\nCONFIG_CHANGED=m\nCONFIG_ADDED=y\n"
	"CONFIG_OFF=y\n# CONFIG_TURNS_OFF is not set\nCONFIG_A_NEW=\"s\"\n"
	"# CONFIG_NEW_OFF is not set\n# CONFIG_EQ_N is not set\n";

static void test_diff_format(void)
{
	struct kconfig *a = parse(diff_a), *b = parse(diff_b);
	struct strbuf out = STRBUF_INIT;

	if (!check(a && b))
		goto out;
	kconfig_diff(a, b, &out, 0);
	check_str(out.buf,
		  "-ALSO_GONE \"x\"\n"
		  "-GONE m\n"
		  " CHANGED y -> m\n"
		  " NUM 14 -> 16\n"
		  " OFF n -> y\n"
		  " TURNS_OFF y -> n\n"
		  "+ADDED y\n"
		  "+A_NEW \"s\"\n"
		  "+NEW_OFF n\n");
	strbuf_reset(&out);
	kconfig_diff(a, b, &out, 1);
	check_str(out.buf,
		  "CONFIG_CHANGED=m\n"
		  "CONFIG_NUM=16\n"
		  "CONFIG_OFF=y\n"
		  "# CONFIG_TURNS_OFF is not set\n"
		  "CONFIG_ADDED=y\n"
		  "CONFIG_A_NEW=\"s\"\n"
		  "# CONFIG_NEW_OFF is not set\n");
	strbuf_reset(&out);
	kconfig_diff(a, a, &out, 0);
	check_str(out.buf, "");
out:
	strbuf_release(&out);
	kconfig_free(a);
	kconfig_free(b);
}

static void test_diff_against_empty(void)
{
	struct kconfig *a = parse("CONFIG_B=y\nCONFIG_A=m\n"), *e = kconfig_new();
	struct strbuf out = STRBUF_INIT;

	if (!check(a))
		goto out;
	kconfig_diff(a, e, &out, 0);
	check_str(out.buf, "-A m\n-B y\n");
	strbuf_reset(&out);
	kconfig_diff(e, a, &out, 0);
	check_str(out.buf, "+A m\n+B y\n");
	strbuf_reset(&out);
	kconfig_diff(a, e, &out, 1);
	check_str(out.buf, "");
out:
	strbuf_release(&out);
	kconfig_free(a);
	kconfig_free(e);
}

static void test_diff_list(void)
{
	struct kconfig *a = parse(diff_a), *b = parse(diff_b);
	struct kconfig_changes c = KCONFIG_CHANGES_INIT;

	if (!check(a && b))
		goto out;
	kconfig_diff_list(&c, a, b);
	check_int(c.nr, ==, 9);
	check_int(c.removed, ==, 2);
	check_int(c.changed, ==, 4);
	check_int(c.added, ==, 3);
	check_str(c.v[0].name, "ALSO_GONE");
	check_str(c.v[0].old_value, "\"x\"");
	check_str(c.v[0].new_value, NULL);
	check_str(c.v[2].name, "CHANGED");
	check_str(c.v[2].old_value, "y");
	check_str(c.v[2].new_value, "m");
	check_str(c.v[8].name, "NEW_OFF");
	check_str(c.v[8].old_value, NULL);
	check_str(c.v[8].new_value, "n");
	kconfig_changes_release(&c);
	check_int(c.nr, ==, 0);
	check(!c.v);
out:
	kconfig_free(a);
	kconfig_free(b);
}

/* Merges frag into base; returns the text (static) and leaves warnings in test_messages. */
static const char *merged(const char *base, const char *frag, int *redefined)
{
	static struct strbuf sb = STRBUF_INIT;
	struct kconfig *b = parse(base), *f = parse(frag);

	strbuf_reset(&sb);
	*redefined = -1;
	if (check(b && f)) {
		test_capture_start();
		*redefined = kconfig_merge(b, f, "frag.config");
		test_capture_stop();
		kconfig_write(b, &sb);
	}
	kconfig_free(b);
	kconfig_free(f);
	return sb.buf;
}

static void test_merge(void)
{
	int n;

	check_str(merged("# base\nCONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\nCONFIG_D=m\n",
			 "CONFIG_B=y\nCONFIG_C=y\n# frag\nCONFIG_A=m\nCONFIG_E=1\n", &n),
		  "# base\nCONFIG_D=m\n\nCONFIG_B=y\nCONFIG_C=y\n# frag\nCONFIG_A=m\nCONFIG_E=1\n");
	check_int(n, ==, 2);
	/* In the fragment's order; B is only redundant. */
	check_str(test_messages.buf,
		  "warning: value of CONFIG_C is redefined by fragment frag.config: "
		  "previous value '# CONFIG_C is not set', new value 'CONFIG_C=y'\n"
		  "warning: value of CONFIG_A is redefined by fragment frag.config: "
		  "previous value 'CONFIG_A=y', new value 'CONFIG_A=m'\n");
}

static void test_merge_compares_lines_not_values(void)
{
	int n;

	/* merge_config.sh compares the lines: "=n" differs from "is not set". */
	check_str(merged("CONFIG_A=n\n", "# CONFIG_A is not set\n", &n),
		  "\n# CONFIG_A is not set\n");
	check_int(n, ==, 1);
	check_str(test_messages.buf,
		  "warning: value of CONFIG_A is redefined by fragment frag.config: "
		  "previous value 'CONFIG_A=n', new value '# CONFIG_A is not set'\n");
}

static void test_merge_newlines(void)
{
	int n;

	/* merge_config.sh's `echo >>` ends an unterminated base... */
	check_str(merged("CONFIG_A=y", "CONFIG_B=y\n", &n), "CONFIG_A=y\nCONFIG_B=y\n");
	/* ...or adds a blank line; the fragment's own ending is kept. */
	check_str(merged("CONFIG_A=y\n", "CONFIG_B=y", &n), "CONFIG_A=y\n\nCONFIG_B=y");
	check_str(merged("", "CONFIG_B=y\n", &n), "\nCONFIG_B=y\n");
	check_str(merged("CONFIG_A=y\n", "", &n), "CONFIG_A=y\n\n");
	check_str(merged("", "", &n), "\n");
	/* Removing base's unterminated last line: sed leaves the previous one ended. */
	check_str(merged("CONFIG_A=y\nCONFIG_B=y", "CONFIG_B=m\n", &n),
		  "CONFIG_A=y\n\nCONFIG_B=m\n");
}

static void test_merge_crlf(void)
{
	int n;

	/* A CRLF fragment merges as its LF twin: LF ends, no '\r' in messages. */
	check_str(merged("CONFIG_A=y\nCONFIG_B=y\n",
			 "# debug\r\nCONFIG_A=y\r\nCONFIG_B=m\r\n\r\n# CONFIG_C is not set\r\n", &n),
		  "\n# debug\nCONFIG_A=y\nCONFIG_B=m\n\n# CONFIG_C is not set\n");
	check_int(n, ==, 1);
	check_str(test_messages.buf,
		  "warning: value of CONFIG_B is redefined by fragment frag.config: "
		  "previous value 'CONFIG_B=y', new value 'CONFIG_B=m'\n");
	/* A CRLF base keeps its own lines; the same value in LF is no redefinition. */
	check_str(merged("# base\r\nCONFIG_A=y\r\nCONFIG_B=y\r\n", "CONFIG_A=y\n", &n),
		  "# base\r\nCONFIG_B=y\r\n\nCONFIG_A=y\n");
	check_int(n, ==, 0);
	check_str(test_messages.buf, "");
	/* Without its final newline, a CRLF fragment still ends the same way. */
	check_str(merged("CONFIG_A=y\n", "CONFIG_B=y\r\nCONFIG_C=y\r", &n),
		  "CONFIG_A=y\n\nCONFIG_B=y\nCONFIG_C=y");
}

static void test_merge_redefinitions(void)
{
	struct kconfig *b = parse("CONFIG_A=y\nCONFIG_A=m\nCONFIG_Z=y\n");
	struct kconfig *f = parse("CONFIG_A=y\n# CONFIG_Z is not set\nCONFIG_Z=y\n");
	int n;

	if (!check(b && f))
		goto out;
	test_capture_start();
	n = kconfig_merge(b, f, "f2");
	test_capture_stop();
	check_int(n, ==, 2);
	check_str(test_messages.buf,
		  "warning: value of CONFIG_A is redefined by fragment f2: "
		  "previous value 'CONFIG_A=y CONFIG_A=m', new value 'CONFIG_A=y'\n"
		  "warning: value of CONFIG_Z is redefined by fragment f2: "
		  "previous value 'CONFIG_Z=y', new value '# CONFIG_Z is not set CONFIG_Z=y'\n");
	check_str(written(b), "\nCONFIG_A=y\n# CONFIG_Z is not set\nCONFIG_Z=y\n");
	check_str(kconfig_get(b, "Z"), "y");
	check_str(kconfig_get(b, "A"), "y");
	check_int(kconfig_count(b), ==, 2);
	/* The merged kconfig stays consistent for later edits. */
	check_int(kconfig_unset(b, "Z"), ==, 1);
	check_str(written(b), "\nCONFIG_A=y\n");
out:
	kconfig_free(b);
	kconfig_free(f);
}

static void test_merge_matches_whole_names(void)
{
	int n;

	/* merge_config.sh's sed '/CONFIG_FOO[ =]/d' would also drop MY_CONFIG_FOO. */
	check_str(merged("CONFIG_MY_CONFIG_FOO=y\nCONFIG_FOO_BAR=y\n# CONFIG_FOO mentioned\n",
			 "CONFIG_FOO=y\n", &n),
		  "CONFIG_MY_CONFIG_FOO=y\nCONFIG_FOO_BAR=y\n# CONFIG_FOO mentioned\n\nCONFIG_FOO=y\n");
	check_int(n, ==, 0);
	check_str(test_messages.buf, "");
}

static void test_merge_several_fragments(void)
{
	struct kconfig *b = parse("CONFIG_A=y\n");
	struct kconfig *f1 = parse("CONFIG_A=m\n"), *f2 = parse("CONFIG_A=y\nCONFIG_B=y\n");

	if (!check(b && f1 && f2))
		goto out;
	test_capture_start();
	kconfig_merge(b, f1, "f1");
	kconfig_merge(b, f2, "f2");
	test_capture_stop();
	check_str(written(b), "\n\nCONFIG_A=y\nCONFIG_B=y\n");
	check_str(test_messages.buf,
		  "warning: value of CONFIG_A is redefined by fragment f1: "
		  "previous value 'CONFIG_A=y', new value 'CONFIG_A=m'\n"
		  "warning: value of CONFIG_A is redefined by fragment f2: "
		  "previous value 'CONFIG_A=m', new value 'CONFIG_A=y'\n");
out:
	kconfig_free(b);
	kconfig_free(f1);
	kconfig_free(f2);
}

static void hash_of(const char *text, unsigned flags, char out[SHA256_HEX_SIZE])
{
	struct kconfig *kc = parse_flags(text, flags);

	out[0] = '\0';
	if (check(kc))
		kconfig_hash(kc, out);
	kconfig_free(kc);
}

static void test_hash(void)
{
	char h1[SHA256_HEX_SIZE], h2[SHA256_HEX_SIZE], want[SHA256_HEX_SIZE];
	static const char canonical[] = "CONFIG_A=y\nCONFIG_B=n\nCONFIG_S=\"q\\\"x\"\n";
	struct sha256 c;

	sha256_init(&c);
	sha256_update(&c, canonical, strlen(canonical));
	sha256_final_hex(&c, want);

	hash_of("CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_S=\"q\\\"x\"\n", 0, h1);
	check_str(h1, want);
	/* Order, comments, redefinitions, =n, escapes and option syntax do not matter. */
	hash_of("# hi\nCONFIG_S=\"\\q\\\"x\"\nCONFIG_B=n\n\nCONFIG_A=m\nCONFIG_A=y", 0, h2);
	check_str(h2, want);
	hash_of("A\nB=n\nS=\"q\\\"x\"", KCONFIG_LOOSE, h2);
	check_str(h2, want);
	/* Values and presence do. */
	hash_of("CONFIG_A=y\nCONFIG_S=\"q\\\"x\"\n", 0, h2);
	check(strcmp(h2, want));
	hash_of("CONFIG_A=m\n# CONFIG_B is not set\nCONFIG_S=\"q\\\"x\"\n", 0, h2);
	check(strcmp(h2, want));

	/* The empty set: sha256 of nothing. */
	hash_of("# nothing\n", 0, h1);
	check_str(h1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_dup(void)
{
	const char *text = "# c\r\nCONFIG_A=y\r\nCONFIG_A=m\n# CONFIG_B is not set\n"
			   "CONFIG_S=\"x y\"\nCONFIG_N=12";
	struct kconfig *kc = parse(text), *dup, *empty = kconfig_new(), *dup_empty;
	char h1[SHA256_HEX_SIZE], h2[SHA256_HEX_SIZE];
	struct strbuf sb = STRBUF_INIT;

	if (!check(kc))
		goto out;
	dup = kconfig_dup(kc);
	/* The same text, values, order and hash... */
	check_str(written(dup), text);
	check_str(kconfig_get(dup, "A"), "m");
	check_str(kconfig_get(dup, "B"), "n");
	check_int(kconfig_count(dup), ==, kconfig_count(kc));
	kconfig_hash(kc, h1);
	kconfig_hash(dup, h2);
	check_str(h1, h2);
	/* ...and edits to one leave the other alone, new symbols included. */
	check(!kconfig_set(dup, "A", "n"));
	check(!kconfig_set(dup, "NEW", "y"));
	check_int(kconfig_unset(kc, "S"), ==, 1);
	check_str(kconfig_get(kc, "A"), "m");
	check_str(kconfig_get(kc, "NEW"), NULL);
	check_str(kconfig_get(dup, "S"), "\"x y\"");
	check_str(kconfig_get(dup, "NEW"), "y");
	/* The missing final newline came along: an append supplies it. */
	strbuf_addstr(&sb, written(dup));
	check(ends_with(sb.buf, "CONFIG_N=12\nCONFIG_NEW=y\n"));
	kconfig_free(dup);
	/* An empty one copies too. */
	dup_empty = kconfig_dup(empty);
	check_int(kconfig_count(dup_empty), ==, 0);
	check_str(written(dup_empty), "");
	check(!kconfig_set(dup_empty, "X", "y"));
	check_str(kconfig_get(empty, "X"), NULL);
	kconfig_free(dup_empty);
out:
	strbuf_release(&sb);
	kconfig_free(empty);
	kconfig_free(kc);
}

static void test_load_and_save(void)
{
	char *path = xstrfmt("%s/x.config", test_tmpdir());
	char *missing = xstrfmt("%s/missing.config", test_tmpdir());
	struct kconfig *kc = parse("CONFIG_A=y\n# keep\nCONFIG_B=\"s\"");
	struct kconfig *back = NULL;

	if (!check(kc))
		goto out;
	check_int(kconfig_set(kc, "C", "0x10"), ==, 0);
	check_int(kconfig_save(kc, path), ==, 0);
	check_int(kconfig_load(&back, path, 0), ==, 0);
	if (check(back)) {
		check_str(written(back), "CONFIG_A=y\n# keep\nCONFIG_B=\"s\"\nCONFIG_C=0x10\n");
		check_str(kconfig_get(back, "C"), "0x10");
	}
	kconfig_free(back);
	/* *out is cleared on failure. */
	back = kc;
	test_capture_start();
	check_int(kconfig_load(&back, missing, 0), ==, -1);
	test_capture_stop();
	check(!back);
	check(strstr(test_messages.buf, "error: cannot open '"));
	check(strstr(test_messages.buf, "missing.config': No such file or directory"));
out:
	kconfig_free(kc);
	free(path);
	free(missing);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_every_value_kind);
	TEST(test_trailing_blanks_and_crlf);
	TEST(test_comments_that_look_like_symbols);
	TEST(test_value_type);
	TEST(test_string_values);
	TEST(test_round_trip_is_byte_identical);
	TEST(test_round_trip_of_a_generated_config);
	TEST(test_error_bad_value);
	TEST(test_error_messages);
	TEST(test_error_nul_byte);
	TEST(test_error_long_line_is_shortened);
	TEST(test_every_bad_line_is_reported);
	TEST(test_error_too_large);
	TEST(test_failed_parse_leaves_kconfig_unchanged);
	TEST(test_redefinition);
	TEST(test_redefinition_across_files);
	TEST(test_iteration_in_file_order);
	TEST(test_loose_options);
	TEST(test_option_lists);
	TEST(test_set);
	TEST(test_set_drops_other_definitions);
	TEST(test_set_without_final_newline);
	TEST(test_unset);
	TEST(test_many_symbols);
	TEST(test_diff_format);
	TEST(test_diff_against_empty);
	TEST(test_diff_list);
	TEST(test_merge);
	TEST(test_merge_compares_lines_not_values);
	TEST(test_merge_newlines);
	TEST(test_merge_crlf);
	TEST(test_merge_redefinitions);
	TEST(test_merge_matches_whole_names);
	TEST(test_merge_several_fragments);
	TEST(test_hash);
	TEST(test_dup);
	TEST(test_load_and_save);
	strbuf_release(&test_messages);
	return test_done();
}
