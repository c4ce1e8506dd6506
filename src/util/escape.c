/* escape.c: escaping emitters for the text formats reports write: XML/HTML/SVG, CSV, Markdown. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <string.h>

#include "util/escape.h"
#include "util/sha256.h"
#include "util/strbuf.h"

size_t utf8_decode(const char *s, size_t len, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[0], min;
	size_t n, i;

	*cp = 0xFFFD;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		c &= 0x1F;
		min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		c &= 0x0F;
		min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (u[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

void utf8_encode(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, 0xC0 | (cp >> 6));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, 0xE0 | (cp >> 12));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3F));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	} else {
		strbuf_addch(sb, 0xF0 | (cp >> 18));
		strbuf_addch(sb, 0x80 | ((cp >> 12) & 0x3F));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3F));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	}
}

/*
 * Walks s one character at a time; invalid bytes come back as U+FFFD with
 * length 1.  Returns the length consumed, 0 at the end.
 */
static size_t next_char(const char *s, size_t len, unsigned *cp)
{
	size_t n;

	if (!len)
		return 0;
	n = utf8_decode(s, len, cp);
	return n ? n : 1;
}

void strbuf_add_xml(struct strbuf *sb, const char *s)
{
	size_t len = s ? strlen(s) : 0, i = 0, n;
	unsigned cp;

	while ((n = next_char(s + i, len - i, &cp))) {
		switch (cp) {
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		default:
			if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
				cp = 0xFFFD;
			if (cp == 0xFFFD || n > 1)
				utf8_encode(sb, cp);
			else
				strbuf_addch(sb, cp);
		}
		i += n;
	}
}

/* A C0 control other than tab, CR and LF, DEL, or a C1 control. */
static int is_csv_control(unsigned cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\r' && cp != '\n') ||
	       (cp >= 0x7f && cp <= 0x9f);
}

/* s[0..len) with invalid UTF-8 and controls replaced, quotes doubled when quoted. */
static void add_csv_chars(struct strbuf *sb, const char *s, size_t len, int quoted)
{
	size_t i = 0, n;
	unsigned cp;

	while ((n = next_char(s + i, len - i, &cp))) {
		if (cp == 0xFFFD || is_csv_control(cp))
			utf8_encode(sb, 0xFFFD);
		else
			strbuf_add(sb, s + i, n);
		if (quoted && cp == '"')
			strbuf_addch(sb, '"');
		i += n;
	}
}

void strbuf_add_csv(struct strbuf *sb, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	int quoted;

	if (!len)
		return;
	quoted = strpbrk(s, ",\"\r\n") || s[0] == ' ' || s[len - 1] == ' ';
	if (quoted)
		strbuf_addch(sb, '"');
	if (strchr("=+-@\t\r", s[0]))
		strbuf_addch(sb, '\'');
	add_csv_chars(sb, s, len, quoted);
	if (quoted)
		strbuf_addch(sb, '"');
}

static int is_word(int c)
{
	return c > 0 && c < 0x80 && isalnum(c);
}

void strbuf_add_markdown(struct strbuf *sb, const char *s)
{
	size_t len = s ? strlen(s) : 0, i = 0, n;
	unsigned cp;

	while ((n = next_char(s + i, len - i, &cp))) {
		if (cp == '\n' || cp == '\r' || cp == '\t') {
			strbuf_addch(sb, ' ');
		} else if (cp < 0x20) {
			utf8_encode(sb, 0xFFFD);
		} else if (cp == '_' && i && is_word(s[i - 1]) && is_word(s[i + 1])) {
			strbuf_addch(sb, '_');
		} else if (cp < 0x80 && strchr("\\`*_[]<>|#!~&", (int)cp)) {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, cp);
		} else if (cp == 0xFFFD || n > 1) {
			utf8_encode(sb, cp);
		} else {
			strbuf_addch(sb, cp);
		}
		i += n;
	}
}

/*
 * How many bytes of s[0..len) the next character takes, and whether a
 * terminal must see them escaped (*unsafe): an invalid byte, a C0 or C1
 * control or DEL; with keep_lines, newline and tab are safe.
 */
static size_t next_text_char(const char *s, size_t len, int keep_lines, int *unsafe)
{
	unsigned cp;
	size_t n = utf8_decode(s, len, &cp);

	*unsafe = !n || ((cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) &&
			 !(keep_lines && (cp == '\n' || cp == '\t')));
	return n ? n : 1;
}

static void add_text(struct strbuf *sb, const char *s, int keep_lines)
{
	size_t len = s ? strlen(s) : 0, i = 0, k, n;
	int unsafe;

	while (i < len) {
		n = next_text_char(s + i, len - i, keep_lines, &unsafe);
		if (unsafe)
			for (k = 0; k < n; k++)
				strbuf_addf(sb, "\\x%02x", (unsigned char)s[i + k]);
		else
			strbuf_add(sb, s + i, n);
		i += n;
	}
}

void strbuf_add_text(struct strbuf *sb, const char *s)
{
	add_text(sb, s, 0);
}

void strbuf_add_text_lines(struct strbuf *sb, const char *s)
{
	add_text(sb, s, 1);
}

size_t text_escape_lines(char *out, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = s ? strlen(s) : 0, i = 0, o = 0, k, n;
	int unsafe;

	while (i < len) {
		n = next_text_char(s + i, len - i, 1, &unsafe);
		if (o + (unsafe ? 4 * n : n) >= size)
			break;
		for (k = 0; k < n; k++) {
			unsigned char c = (unsigned char)s[i + k];

			if (!unsafe) {
				out[o++] = (char)c;
				continue;
			}
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
		i += n;
	}
	out[o] = '\0';
	return o;
}

size_t text_width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

void path_component_add(struct strbuf *sb, const char *name)
{
	const char *p;
	size_t start = sb->len;

	if (!strcmp(name, ".") || !strcmp(name, "..") || !*name)
		strbuf_addch(sb, '_');
	for (p = name; *p; p++)
		strbuf_addch(sb, strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789._=+-", *p) ? *p : '_');
	if (sb->len - start > PATH_COMPONENT_MAX) {
		struct sha256 c;
		char hex[SHA256_HEX_SIZE];

		sha256_init(&c);
		sha256_update(&c, name, strlen(name));
		sha256_final_hex(&c, hex);
		strbuf_setlen(sb, start + PATH_COMPONENT_MAX - 17);
		strbuf_addf(sb, "-%.16s", hex);
	}
}
