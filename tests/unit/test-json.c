/* test-json.c: unit tests for the strict JSON reader and the escaping JSON writer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/json.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/usage.h"
#include "util/wrapper.h"

static struct json *parse(const char *text)
{
	struct json *j = NULL;
	struct json_error err;

	if (json_parse(&j, text, strlen(text), &err))
		fprintf(stderr, "# %u:%u: %s\n", err.line, err.column, err.msg);
	return j;
}

/* Expects text to fail at line:column with a message containing msg. */
static void bad(const char *text, unsigned line, unsigned column, const char *msg)
{
	struct json *j = (struct json *)1;
	struct json_error err;

	check_int(json_parse(&j, text, strlen(text), &err), ==, -1);
	check(j == NULL);
	if (!check_int(err.line, ==, line) | !check_int(err.column, ==, column) |
	    !check(strstr(err.msg, msg) != NULL))
		fprintf(stderr, "# for '%s': %u:%u: %s\n", text, err.line, err.column, err.msg);
}

static void test_values(void)
{
	struct json *j = parse("{\"a\": [1, -2.5e3, true, false, null, \"s\"], \"b\": {}, "
			       "\"c\": []}");
	const struct json *a;

	if (!check(j != NULL))
		return;
	check_int(j->type, ==, JSON_OBJECT);
	check_int(j->nr, ==, 3);
	a = json_get(j, "a");
	check_int(a->type, ==, JSON_ARRAY);
	check_int(a->nr, ==, 6);
	check_double(a->items[0].number, 1, 0);
	check_double(a->items[1].number, -2500, 0);
	check_int(a->items[2].type, ==, JSON_TRUE);
	check_int(a->items[3].type, ==, JSON_FALSE);
	check_int(a->items[4].type, ==, JSON_NULL);
	check_str(a->items[5].string, "s");
	check_int(json_get(j, "b")->type, ==, JSON_OBJECT);
	check_int(json_get(j, "c")->nr, ==, 0);
	check(json_get(j, "d") == NULL);
	check(json_get(a, "a") == NULL);
	json_free(j);
	json_free(NULL);
}

static void test_positions(void)
{
	struct json *j = parse("{\n  \"k\": [\n    10,\n  \"\xc3\xa9\", 7]\n}");
	const struct json *k;

	if (!check(j != NULL))
		return;
	check_int(j->line, ==, 1);
	check_int(j->column, ==, 1);
	k = json_get(j, "k");
	check_int(k->line, ==, 2);
	check_int(k->column, ==, 8);
	check_int(k->items[0].line, ==, 3);
	check_int(k->items[0].column, ==, 5);
	/* columns count characters: the é is one */
	check_int(k->items[2].line, ==, 4);
	check_int(k->items[2].column, ==, 8);
	json_free(j);
}

static void test_strings(void)
{
	struct json *j = parse("[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20AC\", "
			       "\"\\ud83d\\ude00\", \"\xf0\x9f\x98\x80 raw\"]");

	if (!check(j != NULL))
		return;
	check_str(j->items[0].string, "a\"b\\c/d\b\f\n\r\t");
	check_int(j->items[0].len, ==, 12);
	check_str(j->items[1].string, "\xc3\xa9\xe2\x82\xac");
	check_str(j->items[2].string, "\xf0\x9f\x98\x80");
	check_str(j->items[3].string, "\xf0\x9f\x98\x80 raw");
	json_free(j);
}

static void test_numbers(void)
{
	struct json *j = parse("[0, -0, 0.5, 1e5, 1E+2, 2.5e-3, 1.9985772960000001]");

	if (!check(j != NULL))
		return;
	check_double(j->items[0].number, 0, 0);
	check(signbit(j->items[1].number));
	check_double(j->items[2].number, 0.5, 0);
	check_double(j->items[3].number, 1e5, 0);
	check_double(j->items[4].number, 100, 0);
	check_double(j->items[5].number, 0.0025, 0);
	check(j->items[6].number == 1.9985772960000001);
	json_free(j);
}

static void test_syntax_errors(void)
{
	bad("", 1, 1, "unexpected end of input");
	bad("   ", 1, 4, "unexpected end of input");
	bad("[1,]", 1, 4, "unexpected ']', expected a value");
	bad("{\"a\":1,}", 1, 8, "expected a string naming an object member");
	bad("{\"a\" 1}", 1, 6, "expected ':' after an object key");
	bad("{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' in an object");
	bad("[1 2]", 1, 4, "expected ',' or ']' in an array");
	bad("{} x", 1, 4, "unexpected 'x', expected the end of input");
	bad("{\n  \"results\": tru\n}", 2, 14, "unexpected 't', expected a value");
	bad("[nul]", 1, 2, "expected a value");
	bad("{'a': 1}", 1, 2, "a string naming an object member");
	bad("[1] // comment", 1, 5, "expected the end of input");
	bad("[NaN]", 1, 2, "unexpected 'N'");
	bad("\"abc", 1, 1, "unterminated string");
	bad("[\"a\nb\"]", 1, 4, "control character U+000A");
	bad("[\"\\x\"]", 1, 3, "invalid escape '\\x'");
	bad("[\"\\u12\"]", 1, 3, "four hex digits");
	bad("[\"\\ud800\"]", 1, 3, "without a low one");
	bad("[\"\\udc00\"]", 1, 3, "lone low surrogate");
	bad("[\"\\u0000\"]", 1, 3, "\\u0000 is not supported");
	bad("[\"\xff\"]", 1, 3, "invalid UTF-8");
	bad("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\"");
}

static void test_number_errors(void)
{
	bad("[01]", 1, 3, "leading zeros");
	bad("[1.]", 1, 4, "digit after the decimal point");
	bad("[.5]", 1, 2, "unexpected '.'");
	bad("[+1]", 1, 2, "unexpected '+'");
	bad("[-]", 1, 2, "expected a value");
	bad("[1e]", 1, 4, "digit in the exponent");
	bad("[1e400]", 1, 2, "number out of range");
}

static void test_limits(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json *j = NULL;
	struct json_error err;
	int i;

	for (i = 0; i < JSON_MAX_DEPTH; i++)
		strbuf_addch(&sb, '[');
	for (i = 0; i < JSON_MAX_DEPTH; i++)
		strbuf_addch(&sb, ']');
	check_int(json_parse(&j, sb.buf, sb.len, &err), ==, 0);
	json_free(j);
	strbuf_reset(&sb);
	for (i = 0; i < JSON_MAX_DEPTH + 1; i++)
		strbuf_addch(&sb, '[');
	check_int(json_parse(&j, sb.buf, sb.len, &err), ==, -1);
	check(strstr(err.msg, "nested deeper than 64") != NULL);
	check_int(err.column, ==, JSON_MAX_DEPTH + 1);
	/* the size cap is checked before a byte is read */
	check_int(json_parse(&j, "", JSON_MAX_SIZE + 1, &err), ==, -1);
	check(strstr(err.msg, "larger than 64 MiB") != NULL);
	/* a byte order mark is skipped */
	check_int(json_parse(&j, "\xEF\xBB\xBF[]", 5, &err), ==, 0);
	json_free(j);
	strbuf_release(&sb);
}

static char msg[512];

static void sink(const char *kind, const char *m, void *data UNUSED)
{
	snprintf(msg, sizeof(msg), "%s: %s", kind, m);
}

static void test_parse_file(void)
{
	char *path = xstrfmt("%s/bad.json", test_tmpdir());
	struct strbuf sb = STRBUF_INIT;
	struct json *j;

	strbuf_addstr(&sb, "{\n  \"results\": [\n    {\"command\": \"x\",}\n  ]\n}\n");
	check_int(strbuf_write_file(&sb, path), ==, 0);
	set_message_sink(sink, NULL);
	check_int(json_parse_file(&j, path), ==, -1);
	set_message_sink(NULL, NULL);
	check(j == NULL);
	if (!check(strstr(msg, "bad.json:3:21: unexpected '}'") != NULL))
		fprintf(stderr, "# %s\n", msg);
	free(path);

	path = xstrfmt("%s/missing.json", test_tmpdir());
	set_message_sink(sink, NULL);
	check_int(json_parse_file(&j, path), ==, -1);
	set_message_sink(NULL, NULL);
	check(strstr(msg, "cannot open") != NULL && strstr(msg, "missing.json") != NULL);
	free(path);
	strbuf_release(&sb);
}

static void test_writer_pretty(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;

	jw_init(&jw, &sb, 1);
	jw_object_begin(&jw);
	jw_object_inline_begin_array(&jw, "results");
	jw_array_inline_begin_object(&jw);
	jw_object_string(&jw, "command", "a");
	jw_object_inline_begin_array(&jw, "times");
	jw_array_double(&jw, 1.5);
	jw_array_double(&jw, NAN);
	jw_end(&jw);
	jw_object_inline_begin_array(&jw, "empty");
	jw_end(&jw);
	jw_object_inline_begin_object(&jw, "nothing");
	jw_end(&jw);
	jw_object_intmax(&jw, "n", -3);
	jw_object_intmax(&jw, "big", INTMAX_MAX);
	jw_object_bool(&jw, "ok", 1);
	jw_object_string(&jw, "none", NULL);
	jw_object_null(&jw, "null");
	jw_object_double(&jw, "inf", INFINITY);
	jw_end(&jw);
	jw_end(&jw);
	jw_end(&jw);
	check_str(sb.buf,
		  "{\n"
		  "  \"results\": [\n"
		  "    {\n"
		  "      \"command\": \"a\",\n"
		  "      \"times\": [\n"
		  "        1.5,\n"
		  "        null\n"
		  "      ],\n"
		  "      \"empty\": [],\n"
		  "      \"nothing\": {},\n"
		  "      \"n\": -3,\n"
		  "      \"big\": 9223372036854775807,\n"
		  "      \"ok\": true,\n"
		  "      \"none\": null,\n"
		  "      \"null\": null,\n"
		  "      \"inf\": null\n"
		  "    }\n"
		  "  ]\n"
		  "}\n");
	strbuf_release(&sb);
}

static void test_writer_compact(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;

	jw_init(&jw, &sb, 0);
	jw_array_begin(&jw);
	jw_array_double(&jw, INFINITY);
	jw_array_null(&jw);
	jw_array_string(&jw, NULL);
	jw_array_bool(&jw, 1);
	jw_array_intmax(&jw, 7);
	jw_array_inline_begin_object(&jw);
	jw_object_bool(&jw, "k", 0);
	jw_object_inline_begin_array(&jw, "a");
	jw_array_inline_begin_array(&jw);
	jw_end(&jw);
	jw_end(&jw);
	jw_end(&jw);
	jw_end(&jw);
	check_str(sb.buf, "[null,null,null,true,7,{\"k\":false,\"a\":[[]]}]");
	strbuf_release(&sb);
}

/*
 * Misuse is a bug the writer catches: a member outside an object, an
 * element outside an array, jw_end() with nothing open, a second root, a
 * member at the root, nesting deeper than JSON_MAX_DEPTH.
 * Each runs in a child, which must die of SIGABRT.
 */
static int writer_aborts(int what)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return 0;
	if (!pid) {
		struct strbuf sb = STRBUF_INIT;
		struct json_writer jw;

		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		jw_init(&jw, &sb, 0);
		switch (what) {
		case 0:
			jw_array_begin(&jw);
			jw_object_string(&jw, "key", "no object");
			break;
		case 1:
			jw_object_begin(&jw);
			jw_array_string(&jw, "no array");
			break;
		case 2:
			jw_end(&jw);
			break;
		case 3:
			jw_object_begin(&jw);
			jw_end(&jw);
			jw_object_begin(&jw);
			break;
		case 4:
			jw_object_double(&jw, "root", 1);
			break;
		case 5:
			jw_array_begin(&jw);
			for (int i = 0; i < JSON_MAX_DEPTH; i++)
				jw_array_inline_begin_array(&jw);
			break;
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void test_writer_misuse(void)
{
	int i;

	for (i = 0; i < 6; i++)
		if (!check(writer_aborts(i)))
			fprintf(stderr, "# misuse %d did not abort\n", i);
}

static void test_quote(void)
{
	struct strbuf sb = STRBUF_INIT;

	json_quote(&sb, "<script>\"q\" & \\ \n\t\x01 \xe2\x80\xa8 \xff \xc3\xa9");
	check_str(sb.buf, "\"\\u003cscript\\u003e\\\"q\\\" \\u0026 \\\\ \\n\\t\\u0001 \\u2028 "
		  "\xef\xbf\xbd \xc3\xa9\"");
	strbuf_release(&sb);
}

static void test_numbers_round_trip(void)
{
	static const double v[] = {
		0.1, 1.9985772960000001, 2.9254599470000002, 1e300, 5e-324, -0.0, 123456789,
	};
	static const char *const want[] = {
		"0.1", "1.9985772960000001", "2.9254599470000002", "1e+300", "4.94065645841247e-324",
		"-0", "123456789",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		struct strbuf sb = STRBUF_INIT;

		json_add_number(&sb, v[i]);
		check_str(sb.buf, want[i]);
		check(strtod(sb.buf, NULL) == v[i]);
		strbuf_release(&sb);
	}
}

/* What the writer writes, the reader reads back unchanged. */
static void test_round_trip(void)
{
	static const char *const strings[] = {
		"", "plain", "CONFIG_CMDLINE=\"<script>alert('x')</script>\"",
		"tab\there\nnewline \x7f \xe2\x80\xa9 \xf0\x9f\x98\x80", "back\\slash \"quoted\"",
	};
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	struct json *j;
	size_t i;

	jw_init(&jw, &sb, 1);
	jw_array_begin(&jw);
	for (i = 0; i < ARRAY_SIZE(strings); i++)
		jw_array_string(&jw, strings[i]);
	jw_end(&jw);
	j = parse(sb.buf);
	if (check(j != NULL) && check_int(j->nr, ==, ARRAY_SIZE(strings)))
		for (i = 0; i < j->nr; i++)
			check_str(j->items[i].string, strings[i]);
	json_free(j);
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_values);
	TEST(test_positions);
	TEST(test_strings);
	TEST(test_numbers);
	TEST(test_syntax_errors);
	TEST(test_number_errors);
	TEST(test_limits);
	TEST(test_parse_file);
	TEST(test_writer_pretty);
	TEST(test_writer_compact);
	TEST(test_writer_misuse);
	TEST(test_quote);
	TEST(test_numbers_round_trip);
	TEST(test_round_trip);
	return test_done();
}
