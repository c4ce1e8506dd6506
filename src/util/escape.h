/* escape.h: escaping emitters for the text formats reports write: XML/HTML/SVG, CSV, Markdown. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ESCAPE_H
#define ESCAPE_H

#include <stddef.h>

struct strbuf;

/*
 * Data (variant names, config values, error messages) reaches a report
 * only through these: each appends s to sb so that a reader of the format
 * gets s back as text, never as markup.  s need not be valid UTF-8: each
 * invalid byte becomes U+FFFD, so the output always is.  NULL appends
 * nothing.
 */

/*
 * Decodes the UTF-8 character at s, of which len > 0 bytes are available.
 * Returns its length (1-4) and sets *cp; for an invalid or truncated
 * sequence, an overlong form or a surrogate returns 0 and sets *cp to
 * U+FFFD (the caller skips one byte).
 */
size_t utf8_decode(const char *s, size_t len, unsigned *cp);
/* Appends code point cp (<= 0x10FFFF, not a surrogate) as UTF-8. */
void utf8_encode(struct strbuf *sb, unsigned cp);

/*
 * For XML and HTML text and attribute values (double or single quoted):
 * & < > " ' become entities; control characters that XML 1.0 cannot carry
 * (all below U+0020 except tab, newline and carriage return) become U+FFFD.
 */
void strbuf_add_xml(struct strbuf *sb, const char *s);

/*
 * One CSV field (RFC 4180): quoted when it holds a comma, a double quote,
 * CR or LF, or starts or ends with a space; quotes inside are doubled.
 * Control characters other than tab, CR and LF (ESC included) become
 * U+FFFD.  A field that starts with = + - @, tab or CR is a formula to a
 * spreadsheet (CSV injection): it gets a leading ' (as OWASP advises), so
 * a spreadsheet shows it as text and a reader can strip the one quote.
 */
void strbuf_add_csv(struct strbuf *sb, const char *s);

/*
 * Inline Markdown (a table cell, a heading or list item's text, never the
 * start of a line): every character Markdown could read as inline markup
 * (\ ` * _ [ ] < > | # ! ~ &) is backslash-escaped, so '|' cannot end a
 * table cell and '<script>' stays text; line breaks become spaces.  An underscore between two
 * letters or digits is left alone (GFM never reads it as emphasis), so
 * CONFIG_PROVE_LOCKING stays readable.
 */
void strbuf_add_markdown(struct strbuf *sb, const char *s);

/*
 * Plain text for a terminal or an email: control characters (ESC and the
 * C1 controls U+0080-U+009F included, so no terminal escape sequence gets
 * through) and invalid bytes are written as \xNN, a byte at a time;
 * everything else as is.
 */
void strbuf_add_text(struct strbuf *sb, const char *s);
/* strbuf_add_text() for text of many lines: newlines and tabs are kept. */
void strbuf_add_text_lines(struct strbuf *sb, const char *s);
/*
 * strbuf_add_text_lines() into out[0..size) (size > 0), for callers that
 * must not allocate (usage.c's messages): always NUL-terminated, cut short
 * (never inside an escape or a character) when out is full.  Returns the
 * length written.
 */
size_t text_escape_lines(char *out, size_t size, const char *s);

/* Display width of UTF-8 text: its number of code points (no wide characters). */
size_t text_width(const char *s, size_t len);

/* Path components longer than this are cut and told apart by a hash. */
#define PATH_COMPONENT_MAX 120

/*
 * A name (a variant's, a workload's) as one path component, for the files
 * kconfperf names after it (DIR/runs/<variant>/, DIR/logs/build-<variant>.log):
 * what is not [A-Za-z0-9._=+-] becomes '_', so no '/' and no "..";
 * a long name (a cmd: workload's command line) keeps its first
 * PATH_COMPONENT_MAX - 17 bytes and "-" and 16 hex digits of its SHA-256.
 */
void path_component_add(struct strbuf *sb, const char *name);

#endif
