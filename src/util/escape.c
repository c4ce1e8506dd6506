/* escape.c: escaping emitters for the text formats reports write: XML/HTML/SVG, CSV, Markdown. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <string.h>

#include "util/escape.h"
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

/* Appends s with invalid UTF-8 replaced, nothing else changed. */
static void add_valid_utf8(struct strbuf *sb, const char *s, size_t len)
{
	size_t i = 0, n;
	unsigned cp;

	while ((n = next_char(s + i, len - i, &cp))) {
		if (cp == 0xFFFD)
			utf8_encode(sb, cp);
		else
			strbuf_add(sb, s + i, n);
		i += n;
	}
}

void strbuf_add_csv(struct strbuf *sb, const char *s)
{
	size_t len = s ? strlen(s) : 0, i, start;

	if (!len)
		return;
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[len - 1] != ' ') {
		add_valid_utf8(sb, s, len);
		return;
	}
	strbuf_addch(sb, '"');
	for (i = start = 0; i < len; i++) {
		if (s[i] != '"')
			continue;
		add_valid_utf8(sb, s + start, i + 1 - start);
		strbuf_addch(sb, '"');
		start = i + 1;
	}
	add_valid_utf8(sb, s + start, len - start);
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

void strbuf_add_text(struct strbuf *sb, const char *s)
{
	size_t len = s ? strlen(s) : 0, i = 0, n;
	unsigned cp;

	while (i < len) {
		n = utf8_decode(s + i, len - i, &cp);
		if (!n || cp < 0x20 || cp == 0x7f) {
			strbuf_addf(sb, "\\x%02x", (unsigned char)s[i]);
			i++;
			continue;
		}
		strbuf_add(sb, s + i, n);
		i += n;
	}
}

size_t text_width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}
