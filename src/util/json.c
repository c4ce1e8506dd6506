/* json.c: a small strict JSON reader (a tree, with caps) and an escaping JSON writer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

struct parser {
	const char *p, *end;
	unsigned line, column;
	int depth;
	struct json_error *err;
};

static int fail_at(struct parser *ps, unsigned line, unsigned column, const char *fmt, ...)
	__attribute__((__format__(__printf__, 4, 5)));

static int fail_at(struct parser *ps, unsigned line, unsigned column, const char *fmt, ...)
{
	va_list ap;

	ps->err->line = line;
	ps->err->column = column;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

#define fail(ps, ...) fail_at((ps), (ps)->line, (ps)->column, __VA_ARGS__)

/* Moves past n bytes, keeping line and column (in characters) current. */
static void advance(struct parser *ps, size_t n)
{
	while (n--) {
		unsigned char c = *ps->p++;

		if (c == '\n') {
			ps->line++;
			ps->column = 1;
		} else if ((c & 0xC0) != 0x80) {
			ps->column++;
		}
	}
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		advance(ps, 1);
}

/* Moves past c if it comes next; returns whether it did. */
static int skip_char(struct parser *ps, char c)
{
	if (ps->p >= ps->end || *ps->p != c)
		return 0;
	advance(ps, 1);
	return 1;
}

static int unexpected(struct parser *ps, const char *expected)
{
	unsigned char c;

	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of input, expected %s", expected);
	c = *ps->p;
	if (c > 0x20 && c < 0x7f)
		return fail(ps, "unexpected '%c', expected %s", c, expected);
	return fail(ps, "unexpected byte 0x%02x, expected %s", c, expected);
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A \u escape at ps->p (pointing at the backslash), surrogate pairs joined. */
static int parse_unicode_escape(struct parser *ps, unsigned *cp)
{
	unsigned hi, lo;

	if (ps->end - ps->p < 6 || hex4(ps->p + 2, &hi))
		return fail(ps, "bad \\u escape: expected four hex digits");
	if (hi >= 0xDC00 && hi <= 0xDFFF)
		return fail(ps, "bad \\u escape: lone low surrogate \\u%04x", hi);
	if (hi >= 0xD800 && hi <= 0xDBFF) {
		if (ps->end - ps->p < 12 || ps->p[6] != '\\' || ps->p[7] != 'u' ||
		    hex4(ps->p + 8, &lo) || lo < 0xDC00 || lo > 0xDFFF)
			return fail(ps, "bad \\u escape: high surrogate \\u%04x without "
				    "a low one", hi);
		*cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
		advance(ps, 12);
		return 0;
	}
	if (!hi)
		return fail(ps, "\\u0000 is not supported in strings");
	*cp = hi;
	advance(ps, 6);
	return 0;
}

static int parse_string(struct parser *ps, char **out, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned line = ps->line, column = ps->column;

	advance(ps, 1);		/* the opening quote */
	for (;;) {
		unsigned char c;
		unsigned cp;
		size_t n;

		if (ps->p >= ps->end) {
			fail_at(ps, line, column, "unterminated string");
			goto fail;
		}
		c = *ps->p;
		if (c == '"') {
			advance(ps, 1);
			break;
		}
		if (c < 0x20) {
			fail(ps, "control character U+%04X in a string (write it as \\u%04x)",
			     c, c);
			goto fail;
		}
		if (c != '\\') {
			n = utf8_decode(ps->p, ps->end - ps->p, &cp);
			if (!n) {
				fail(ps, "invalid UTF-8 in a string");
				goto fail;
			}
			strbuf_add(&sb, ps->p, n);
			advance(ps, n);
			continue;
		}
		if (ps->end - ps->p < 2) {
			fail_at(ps, line, column, "unterminated string");
			goto fail;
		}
		switch (ps->p[1]) {
		case '"': case '\\': case '/':
			strbuf_addch(&sb, ps->p[1]);
			break;
		case 'b':
			strbuf_addch(&sb, '\b');
			break;
		case 'f':
			strbuf_addch(&sb, '\f');
			break;
		case 'n':
			strbuf_addch(&sb, '\n');
			break;
		case 'r':
			strbuf_addch(&sb, '\r');
			break;
		case 't':
			strbuf_addch(&sb, '\t');
			break;
		case 'u':
			if (parse_unicode_escape(ps, &cp))
				goto fail;
			utf8_encode(&sb, cp);
			continue;
		default:
			if ((unsigned char)ps->p[1] > 0x20 && (unsigned char)ps->p[1] < 0x7f)
				fail(ps, "invalid escape '\\%c' in a string", ps->p[1]);
			else
				fail(ps, "invalid escape in a string");
			goto fail;
		}
		advance(ps, 2);
	}
	*len = sb.len;
	*out = strbuf_detach(&sb, NULL);
	return 0;
fail:
	strbuf_release(&sb);
	return -1;
}

static int is_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static int parse_number(struct parser *ps, struct json *out)
{
	const char *s = ps->p, *q = ps->p;
	char *copy;

	if (q < ps->end && *q == '-')
		q++;
	if (!is_digit(q, ps->end))
		return unexpected(ps, "a value");
	if (*q == '0') {
		q++;
		if (is_digit(q, ps->end)) {
			advance(ps, q - s);
			return fail(ps, "leading zeros are not allowed in numbers");
		}
	} else {
		while (is_digit(q, ps->end))
			q++;
	}
	if (q < ps->end && *q == '.') {
		q++;
		if (!is_digit(q, ps->end)) {
			advance(ps, q - s);
			return fail(ps, "expected a digit after the decimal point");
		}
		while (is_digit(q, ps->end))
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (!is_digit(q, ps->end)) {
			advance(ps, q - s);
			return fail(ps, "expected a digit in the exponent");
		}
		while (is_digit(q, ps->end))
			q++;
	}
	copy = xstrndup(s, q - s);
	errno = 0;
	out->number = strtod(copy, NULL);
	free(copy);
	if (!isfinite(out->number))
		return fail(ps, "number out of range");
	out->type = JSON_NUMBER;
	advance(ps, q - s);
	return 0;
}

static int parse_literal(struct parser *ps, const char *word, enum json_type type,
			 struct json *out)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return unexpected(ps, "a value");
	out->type = type;
	advance(ps, n);
	return 0;
}

static void json_release(struct json *j);
static int parse_value(struct parser *ps, struct json *out);

static int parse_array(struct parser *ps, struct json *out)
{
	size_t alloc = 0;

	out->type = JSON_ARRAY;
	advance(ps, 1);
	skip_space(ps);
	if (skip_char(ps, ']'))
		return 0;
	for (;;) {
		/* counted first, so that a failure frees what the item holds */
		ALLOC_GROW(out->items, out->nr + 1, alloc);
		out->nr++;
		if (parse_value(ps, &out->items[out->nr - 1]))
			return -1;
		skip_space(ps);
		if (skip_char(ps, ','))
			continue;
		if (skip_char(ps, ']'))
			return 0;
		return unexpected(ps, "',' or ']' in an array");
	}
}

static int parse_object(struct parser *ps, struct json *out)
{
	size_t alloc = 0, alloc_keys = 0, i;

	out->type = JSON_OBJECT;
	advance(ps, 1);
	skip_space(ps);
	if (skip_char(ps, '}'))
		return 0;
	for (;;) {
		unsigned line, column;
		char *key;
		size_t len;

		skip_space(ps);
		if (ps->p >= ps->end || *ps->p != '"')
			return unexpected(ps, "a string naming an object member");
		line = ps->line;
		column = ps->column;
		if (parse_string(ps, &key, &len))
			return -1;
		for (i = 0; i < out->nr; i++)
			if (!strcmp(out->keys[i], key)) {
				free(key);
				return fail_at(ps, line, column, "duplicate key \"%s\"",
					       out->keys[i]);
			}
		ALLOC_GROW(out->keys, out->nr + 1, alloc_keys);
		ALLOC_GROW(out->items, out->nr + 1, alloc);
		out->keys[out->nr] = key;
		memset(&out->items[out->nr], 0, sizeof(out->items[0]));
		skip_space(ps);
		out->nr++;	/* counted now, so that a failure frees the key */
		if (!skip_char(ps, ':'))
			return unexpected(ps, "':' after an object key");
		if (parse_value(ps, &out->items[out->nr - 1]))
			return -1;
		skip_space(ps);
		if (skip_char(ps, ','))
			continue;
		if (skip_char(ps, '}'))
			return 0;
		return unexpected(ps, "',' or '}' in an object");
	}
}

static int parse_value(struct parser *ps, struct json *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	skip_space(ps);
	out->line = ps->line;
	out->column = ps->column;
	if (ps->p >= ps->end)
		return unexpected(ps, "a value");
	switch (*ps->p) {
	case '{':
	case '[':
		if (ps->depth >= JSON_MAX_DEPTH)
			return fail(ps, "arrays and objects nested deeper than %d",
				    JSON_MAX_DEPTH);
		ps->depth++;
		ret = *ps->p == '{' ? parse_object(ps, out) : parse_array(ps, out);
		ps->depth--;
		return ret;
	case '"':
		out->type = JSON_STRING;
		return parse_string(ps, &out->string, &out->len);
	case 't':
		return parse_literal(ps, "true", JSON_TRUE, out);
	case 'f':
		return parse_literal(ps, "false", JSON_FALSE, out);
	case 'n':
		return parse_literal(ps, "null", JSON_NULL, out);
	default:
		return parse_number(ps, out);
	}
}

int json_parse(struct json **out, const char *text, size_t len, struct json_error *err)
{
	struct parser ps = { text, text + len, 1, 1, 0, err };
	struct json *root = xcalloc(1, sizeof(*root));

	*out = NULL;
	memset(err, 0, sizeof(*err));
	if (len > JSON_MAX_SIZE) {
		fail(&ps, "input larger than %zu MiB", JSON_MAX_SIZE >> 20);
		goto fail;
	}
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		ps.p += 3;
	if (parse_value(&ps, root))
		goto fail;
	skip_space(&ps);
	if (ps.p < ps.end) {
		unexpected(&ps, "the end of input after the JSON value");
		goto fail;
	}
	*out = root;
	return 0;
fail:
	json_free(root);
	return -1;
}

int json_parse_file(struct json **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_error err;
	int ret = -1;

	*out = NULL;
	if (strbuf_read_file_max(&sb, path, JSON_MAX_SIZE) < 0)
		goto out;
	if (json_parse(out, sb.buf, sb.len, &err))
		error("%s:%u:%u: %s", path, err.line, err.column, err.msg);
	else
		ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

static void json_release(struct json *j)
{
	size_t i;

	for (i = 0; i < j->nr; i++) {
		json_release(&j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->string);
}

void json_free(struct json *j)
{
	if (!j)
		return;
	json_release(j);
	free(j);
}

const struct json *json_get(const struct json *j, const char *key)
{
	size_t i;

	if (!j || j->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < j->nr; i++)
		if (!strcmp(j->keys[i], key))
			return &j->items[i];
	return NULL;
}

const char *json_type_name(enum json_type type)
{
	switch (type) {
	case JSON_NULL:
		return "null";
	case JSON_FALSE:
	case JSON_TRUE:
		return "a boolean";
	case JSON_NUMBER:
		return "a number";
	case JSON_STRING:
		return "a string";
	case JSON_ARRAY:
		return "an array";
	case JSON_OBJECT:
		return "an object";
	}
	return "?";
}

void json_quote(struct strbuf *sb, const char *s)
{
	size_t len = s ? strlen(s) : 0, i = 0, n;
	unsigned cp;

	strbuf_addch(sb, '"');
	while (i < len) {
		n = utf8_decode(s + i, len - i, &cp);
		if (!n)
			n = 1;
		switch (cp) {
		case '"':
			strbuf_addstr(sb, "\\\"");
			break;
		case '\\':
			strbuf_addstr(sb, "\\\\");
			break;
		case '\n':
			strbuf_addstr(sb, "\\n");
			break;
		case '\r':
			strbuf_addstr(sb, "\\r");
			break;
		case '\t':
			strbuf_addstr(sb, "\\t");
			break;
		case '<': case '>': case '&': case 0x2028: case 0x2029:
			strbuf_addf(sb, "\\u%04x", cp);
			break;
		default:
			if (cp < 0x20)
				strbuf_addf(sb, "\\u%04x", cp);
			else
				utf8_encode(sb, cp);
		}
		i += n;
	}
	strbuf_addch(sb, '"');
}

void json_add_number(struct strbuf *sb, double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v)) {
		strbuf_addstr(sb, "null");
		return;
	}
	/* The shortest of %.15g..%.17g that reads back as v. */
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	strbuf_addstr(sb, buf);
}

void jw_init(struct json_writer *jw, struct strbuf *out, int pretty)
{
	memset(jw, 0, sizeof(*jw));
	jw->out = out;
	jw->pretty = pretty;
}

static NORETURN void jw_bug(const char *what)
{
	fprintf(stderr, "kconfperf: BUG: json writer: %s\n", what);
	abort();
}

static void newline(struct json_writer *jw)
{
	if (!jw->pretty)
		return;
	strbuf_addch(jw->out, '\n');
	strbuf_addchars(jw->out, ' ', 2 * jw->depth);
}

/* Before a member or element: a comma and a line break when it follows another. */
static void next_item(struct json_writer *jw)
{
	if (jw->has_items[jw->depth])
		strbuf_addch(jw->out, ',');
	jw->has_items[jw->depth] = 1;
	newline(jw);
}

/* Before a member's value: its key. */
static void member(struct json_writer *jw, const char *key)
{
	if (!jw->depth || !jw->is_object[jw->depth])
		jw_bug("an object member outside an object");
	next_item(jw);
	json_quote(jw->out, key);
	strbuf_addstr(jw->out, jw->pretty ? ": " : ":");
}

static void element(struct json_writer *jw)
{
	if (!jw->depth || jw->is_object[jw->depth])
		jw_bug("an array element outside an array");
	next_item(jw);
}

/* Opens a container whose key or comma, if any, is written. */
static void open_container(struct json_writer *jw, int object)
{
	if (jw->depth >= JSON_MAX_DEPTH)
		jw_bug("nested too deep");
	strbuf_addch(jw->out, object ? '{' : '[');
	jw->depth++;
	jw->has_items[jw->depth] = 0;
	jw->is_object[jw->depth] = (unsigned char)object;
}

static void open_root(struct json_writer *jw, int object)
{
	if (jw->depth || jw->done)
		jw_bug("a second root");
	open_container(jw, object);
}

void jw_object_begin(struct json_writer *jw)
{
	open_root(jw, 1);
}

void jw_array_begin(struct json_writer *jw)
{
	open_root(jw, 0);
}

void jw_end(struct json_writer *jw)
{
	int had, object;

	if (!jw->depth)
		jw_bug("jw_end() with nothing open");
	had = jw->has_items[jw->depth];
	object = jw->is_object[jw->depth];
	jw->depth--;
	if (had)
		newline(jw);
	strbuf_addch(jw->out, object ? '}' : ']');
	if (!jw->depth) {
		jw->done = 1;
		if (jw->pretty)
			strbuf_addch(jw->out, '\n');
	}
}

static void add_string(struct json_writer *jw, const char *s)
{
	if (s)
		json_quote(jw->out, s);
	else
		strbuf_addstr(jw->out, "null");
}

void jw_object_string(struct json_writer *jw, const char *key, const char *value)
{
	member(jw, key);
	add_string(jw, value);
}

void jw_object_double(struct json_writer *jw, const char *key, double value)
{
	member(jw, key);
	json_add_number(jw->out, value);
}

void jw_object_intmax(struct json_writer *jw, const char *key, intmax_t value)
{
	member(jw, key);
	strbuf_addf(jw->out, "%jd", value);
}

void jw_object_bool(struct json_writer *jw, const char *key, int value)
{
	member(jw, key);
	strbuf_addstr(jw->out, value ? "true" : "false");
}

void jw_object_null(struct json_writer *jw, const char *key)
{
	member(jw, key);
	strbuf_addstr(jw->out, "null");
}

void jw_object_inline_begin_object(struct json_writer *jw, const char *key)
{
	member(jw, key);
	open_container(jw, 1);
}

void jw_object_inline_begin_array(struct json_writer *jw, const char *key)
{
	member(jw, key);
	open_container(jw, 0);
}

void jw_array_string(struct json_writer *jw, const char *value)
{
	element(jw);
	add_string(jw, value);
}

void jw_array_double(struct json_writer *jw, double value)
{
	element(jw);
	json_add_number(jw->out, value);
}

void jw_array_intmax(struct json_writer *jw, intmax_t value)
{
	element(jw);
	strbuf_addf(jw->out, "%jd", value);
}

void jw_array_bool(struct json_writer *jw, int value)
{
	element(jw);
	strbuf_addstr(jw->out, value ? "true" : "false");
}

void jw_array_null(struct json_writer *jw)
{
	element(jw);
	strbuf_addstr(jw->out, "null");
}

void jw_array_inline_begin_object(struct json_writer *jw)
{
	element(jw);
	open_container(jw, 1);
}

void jw_array_inline_begin_array(struct json_writer *jw)
{
	element(jw);
	open_container(jw, 0);
}
