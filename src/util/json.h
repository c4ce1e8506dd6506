/* json.h: a small strict JSON reader (a tree, with caps) and an escaping JSON writer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * Reading: RFC 8259, strictly.  No comments, trailing commas, single quotes,
 * NaN/Infinity, leading zeros or '+'; strings must be valid UTF-8 without
 * raw control characters, and \u escapes must pair surrogates.  A UTF-8
 * byte order mark at the start is skipped.  Two further limits keep a
 * hostile file from costing much: at most JSON_MAX_DEPTH nested arrays and
 * objects, and at most JSON_MAX_SIZE bytes of input.  Strings may not hold
 * U+0000 (values are C strings) and an object may not repeat a key.
 *
 * Every value records where it starts (line and column from 1, the column
 * counting characters, not bytes), so a caller can point at a value that
 * parses but is wrong for it.
 */
#define JSON_MAX_DEPTH 64
#define JSON_MAX_SIZE ((size_t)64 << 20)

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type type;
	unsigned line, column;
	double number;		/* JSON_NUMBER: finite */
	char *string;		/* JSON_STRING: NUL-terminated UTF-8 */
	size_t len;		/* its length in bytes */
	struct json *items;	/* JSON_ARRAY: elements; JSON_OBJECT: member values */
	char **keys;		/* JSON_OBJECT: keys[i] names items[i] */
	size_t nr;
};

struct json_error {
	unsigned line, column;
	char msg[160];
};

/*
 * Parses len bytes of text.  Returns 0 and sets *out to the tree (free it
 * with json_free()), or -1 with *out NULL and err saying what and where.
 * Prints nothing.
 */
int json_parse(struct json **out, const char *text, size_t len, struct json_error *err);

/*
 * Reads and parses the file at path.  On failure prints
 * "PATH:LINE:COLUMN: MESSAGE" (or why the file cannot be read) and returns -1.
 */
int json_parse_file(struct json **out, const char *path);

/* Frees a tree from json_parse(); NULL is fine. */
void json_free(struct json *j);

/* The member called key of an object, or NULL (also when j is not an object). */
const struct json *json_get(const struct json *j, const char *key);

/* "null", "a number", "a string", "an array"...: for messages. */
const char *json_type_name(enum json_type type);

/*
 * Writing: a json_writer appends one document to a strbuf, as git's
 * json-writer does.  The root is opened with jw_object_begin() or
 * jw_array_begin(); inside an object every member is written by one call
 * that takes its key and its value (jw_object_string(jw, key, v) and
 * friends), so a key can never be written without its value; inside an
 * array the jw_array_*() calls write elements.  A nested object or array
 * is opened with jw_object_inline_begin_*(jw, key) in an object or
 * jw_array_inline_begin_*(jw) in an array, and every container is closed
 * with jw_end().  The writer adds commas, indentation (with pretty, two
 * spaces per level, as hyperfine's export; the root's end adds a newline)
 * and escaping.  Strings are escaped for JSON and also made safe to embed
 * in HTML: < > & and U+2028/U+2029 are written as \u escapes, invalid
 * UTF-8 as U+FFFD.  A NULL string is written as null; numbers that are
 * NaN or infinite are written as null, the others in the shortest form
 * that reads back as the same double.
 *
 * Calling a jw_object_*() function outside an object, a jw_array_*() one
 * outside an array, opening a second root, nesting deeper than
 * JSON_MAX_DEPTH or closing more than was opened is a bug in the caller:
 * the writer says so on stderr and aborts.
 */
struct json_writer {
	struct strbuf *out;
	int pretty;
	int depth;
	int done;
	unsigned char has_items[JSON_MAX_DEPTH + 1];
	unsigned char is_object[JSON_MAX_DEPTH + 1];
};

void jw_init(struct json_writer *jw, struct strbuf *out, int pretty);
/* The root of the document. */
void jw_object_begin(struct json_writer *jw);
void jw_array_begin(struct json_writer *jw);
/* Closes the innermost open object or array. */
void jw_end(struct json_writer *jw);

/* Members of the innermost object: the key and its value. */
void jw_object_string(struct json_writer *jw, const char *key, const char *value);
void jw_object_double(struct json_writer *jw, const char *key, double value);
void jw_object_intmax(struct json_writer *jw, const char *key, intmax_t value);
void jw_object_bool(struct json_writer *jw, const char *key, int value);
void jw_object_null(struct json_writer *jw, const char *key);
/* A member whose value is an object or array, left open for its contents. */
void jw_object_inline_begin_object(struct json_writer *jw, const char *key);
void jw_object_inline_begin_array(struct json_writer *jw, const char *key);

/* Elements of the innermost array. */
void jw_array_string(struct json_writer *jw, const char *value);
void jw_array_double(struct json_writer *jw, double value);
void jw_array_intmax(struct json_writer *jw, intmax_t value);
void jw_array_bool(struct json_writer *jw, int value);
void jw_array_null(struct json_writer *jw);
void jw_array_inline_begin_object(struct json_writer *jw);
void jw_array_inline_begin_array(struct json_writer *jw);

/* Appends s as a quoted, escaped JSON string (the escaping described above). */
void json_quote(struct strbuf *sb, const char *s);
/* Appends v as jw_object_double() writes it. */
void json_add_number(struct strbuf *sb, double v);

#endif
