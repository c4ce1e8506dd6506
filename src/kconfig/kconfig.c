/* kconfig.c: a .config file or fragment: parse, query, edit, write. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig-internal.h"
#include "kconfig/kconfig.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define MAX_ERRORS 20
#define EXCERPT 72	/* longest bit of a bad line quoted in a message */

/* Internal parse flags, above the public ones. */
#define LIST_ITEM (1u << 8)	/* from kconfig_parse_list(): no line numbers, no comments */

/* Where a parse is, for messages; "file:line" is only formatted when needed. */
struct parse_ctx {
	const char *filename;
	unsigned flags;
	size_t lineno;
	struct strbuf buf;
};

static const char *where(struct parse_ctx *ctx)
{
	strbuf_reset(&ctx->buf);
	if (ctx->flags & LIST_ITEM)
		strbuf_addstr(&ctx->buf, ctx->filename);
	else
		strbuf_addf(&ctx->buf, "%s:%zu", ctx->filename, ctx->lineno);
	return ctx->buf.buf;
}

struct kconfig *kconfig_new(void)
{
	return xcalloc(1, sizeof(struct kconfig));
}

void kconfig_free(struct kconfig *kc)
{
	size_t i;

	if (!kc)
		return;
	for (i = 0; i < kc->nr_lines; i++)
		free(kc->lines[i].text);
	for (i = 0; i < kc->nr_syms; i++) {
		free(kc->syms[i].name);
		free(kc->syms[i].value);
	}
	free(kc->lines);
	free(kc->syms);
	free(kc->table);
	free(kc);
}

struct kconfig *kconfig_dup(const struct kconfig *kc)
{
	struct kconfig *dup = kconfig_new();
	size_t i;

	dup->nr_lines = dup->alloc_lines = kc->nr_lines;
	dup->lines = xcalloc(kc->nr_lines ? kc->nr_lines : 1, sizeof(*dup->lines));
	for (i = 0; i < kc->nr_lines; i++) {
		dup->lines[i].text = kc->lines[i].text ? xstrdup(kc->lines[i].text) : NULL;
		dup->lines[i].sym = kc->lines[i].sym;
	}
	dup->nr_syms = dup->alloc_syms = kc->nr_syms;
	dup->syms = xcalloc(kc->nr_syms ? kc->nr_syms : 1, sizeof(*dup->syms));
	for (i = 0; i < kc->nr_syms; i++) {
		dup->syms[i] = kc->syms[i];
		dup->syms[i].name = xstrdup(kc->syms[i].name);
		dup->syms[i].value = kc->syms[i].value ? xstrdup(kc->syms[i].value) : NULL;
	}
	/* Symbol indexes are kept, so the table copies as it is. */
	dup->table_size = kc->table_size;
	if (kc->table_size) {
		dup->table = xmalloc(kc->table_size * sizeof(*dup->table));
		memcpy(dup->table, kc->table, kc->table_size * sizeof(*dup->table));
	}
	dup->count = kc->count;
	dup->missing_newline = kc->missing_newline;
	return dup;
}

static int is_name_char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static size_t name_span(const char *p, size_t len)
{
	size_t n = 0;

	while (n < len && is_name_char((unsigned char)p[n]))
		n++;
	return n;
}

static int valid_name(const char *name)
{
	size_t len = strlen(name);

	return len && name_span(name, len) == len;
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_xdigit(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

enum string_error { STRING_OK, STRING_UNTERMINATED, STRING_TRAILING };

/* Checks a quoted string value that starts with '"'. */
static enum string_error check_string(const char *v, size_t len)
{
	size_t i;

	for (i = 1; i < len; i++) {
		if (v[i] == '\\') {
			if (++i >= len)
				return STRING_UNTERMINATED;
		} else if (v[i] == '"') {
			return i == len - 1 ? STRING_OK : STRING_TRAILING;
		}
	}
	return STRING_UNTERMINATED;
}

static enum kconfig_value_type value_type(const char *v, size_t len)
{
	size_t i = 0;

	if (!len)
		return KCONFIG_VALUE_INVALID;
	if (len == 1 && (*v == 'y' || *v == 'm' || *v == 'n'))
		return KCONFIG_VALUE_TRISTATE;
	if (*v == '"')
		return check_string(v, len) == STRING_OK ? KCONFIG_VALUE_STRING : KCONFIG_VALUE_INVALID;
	if (len > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		for (i = 2; i < len && is_xdigit((unsigned char)v[i]); i++)
			;
		return i == len ? KCONFIG_VALUE_HEX : KCONFIG_VALUE_INVALID;
	}
	if (*v == '-')
		i++;
	if (i == len)
		return KCONFIG_VALUE_INVALID;
	for (; i < len && is_digit((unsigned char)v[i]); i++)
		;
	return i == len ? KCONFIG_VALUE_DECIMAL : KCONFIG_VALUE_INVALID;
}

enum kconfig_value_type kconfig_value_type(const char *value)
{
	/* A value never spans lines: a written '\n' would split it. */
	if (strchr(value, '\n'))
		return KCONFIG_VALUE_INVALID;
	return value_type(value, strlen(value));
}

int kconfig_string_value(struct strbuf *out, const char *value)
{
	size_t len = strlen(value), i;

	if (!len || value[0] != '"' || check_string(value, len) != STRING_OK)
		return -1;
	for (i = 1; i < len - 1; i++) {
		if (value[i] == '\\')
			i++;
		strbuf_addch(out, value[i]);
	}
	return 0;
}

void kconfig_quote_string(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

/* The FNV-1a hash of a name; cheap and good enough for symbol names. */
static uint64_t hash_name(const char *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The slot holding name, or the empty slot where it would go. */
size_t kconfig_find_slot(const struct kconfig *kc, const char *name, size_t len,
			 uint64_t hash)
{
	size_t mask = kc->table_size - 1;
	size_t i = hash & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t s = kc->table[i];
		const struct kconfig_sym *sym;

		if (!s)
			return i;
		sym = &kc->syms[s - 1];
		if (sym->hash == hash && sym->name_len == len && !memcmp(sym->name, name, len))
			return i;
	}
}

size_t kconfig_sym_index(const struct kconfig *kc, const char *name, size_t len)
{
	uint32_t s;

	if (!kc->table_size)
		return NO_SYM;
	s = kc->table[kconfig_find_slot(kc, name, len, hash_name(name, len))];
	return s ? s - 1 : NO_SYM;
}

/* Makes room for `more` new symbols without rehashing. */
static void reserve_syms(struct kconfig *kc, size_t more)
{
	uint32_t *old = kc->table;
	size_t old_size = kc->table_size, size = old_size ? old_size : 256, i;

	ALLOC_GROW(kc->syms, kc->nr_syms + more, kc->alloc_syms);
	while (size < 2 * (kc->nr_syms + more))
		size *= 2;
	if (size == old_size)
		return;
	kc->table_size = size;
	kc->table = xcalloc(size, sizeof(*kc->table));
	for (i = 0; i < old_size; i++) {
		const struct kconfig_sym *sym;

		if (!old[i])
			continue;
		sym = &kc->syms[old[i] - 1];
		kc->table[kconfig_find_slot(kc, sym->name, sym->name_len, sym->hash)] = old[i];
	}
	free(old);
}

static size_t lookup_or_add(struct kconfig *kc, const char *name, size_t len)
{
	uint64_t hash = hash_name(name, len);
	struct kconfig_sym *sym;
	size_t slot, idx;

	reserve_syms(kc, 1);
	slot = kconfig_find_slot(kc, name, len, hash);
	if (kc->table[slot])
		return kc->table[slot] - 1;
	/* KCONFIG_MAX_SIZE keeps nr_syms far below UINT32_MAX. */
	idx = kc->nr_syms++;
	sym = &kc->syms[idx];
	sym->name = xstrndup(name, len);
	sym->name_len = len;
	sym->hash = hash;
	sym->value = NULL;
	sym->line = NO_SYM;
	sym->ndefs = 0;
	kc->table[slot] = (uint32_t)(idx + 1);
	return idx;
}

/* Appends a line (taking text); a previous missing newline is supplied. */
size_t kconfig_add_line(struct kconfig *kc, char *text, size_t sym)
{
	ALLOC_GROW(kc->lines, kc->nr_lines + 1, kc->alloc_lines);
	kc->lines[kc->nr_lines].text = text;
	kc->lines[kc->nr_lines].sym = sym;
	kc->missing_newline = 0;
	return kc->nr_lines++;
}

size_t kconfig_last_live_line(const struct kconfig *kc)
{
	size_t i = kc->nr_lines;

	while (i > 0)
		if (kc->lines[--i].text)
			return i;
	return NO_SYM;
}

/*
 * Removes a line.  Like sed deleting the last line of a file, removing the
 * unterminated last line leaves the one before it terminated.
 */
static void remove_line(struct kconfig *kc, size_t i)
{
	struct kconfig_line *l = &kc->lines[i];

	if (kc->missing_newline && kconfig_last_live_line(kc) == i)
		kc->missing_newline = 0;
	if (l->sym != NO_SYM) {
		struct kconfig_sym *s = &kc->syms[l->sym];

		if (!--s->ndefs) {
			free(s->value);
			s->value = NULL;
			s->line = NO_SYM;
			kc->count--;
		}
	}
	free(l->text);
	l->text = NULL;
	l->sym = NO_SYM;
}

/* Removes every line defining symbol idx except `keep` (NO_SYM: all). */
void kconfig_remove_definitions(struct kconfig *kc, size_t idx, size_t keep)
{
	struct kconfig_sym *s = &kc->syms[idx];
	size_t i;

	if (s->ndefs == 1 && s->line != keep) {
		remove_line(kc, s->line);
		return;
	}
	for (i = 0; i < kc->nr_lines && s->ndefs > (keep != NO_SYM); i++)
		if (kc->lines[i].sym == idx && i != keep)
			remove_line(kc, i);
}

/* The .config line for name=value: "n" is written as "is not set". */
static char *render(const char *name, size_t name_len, const char *value, size_t value_len)
{
	if (value_len == 1 && *value == 'n')
		return xstrfmt("# CONFIG_%.*s is not set", (int)name_len, name);
	return xstrfmt("CONFIG_%.*s=%.*s", (int)name_len, name, (int)value_len, value);
}

/* Appends a line (taking text) that defines name=value; warns about a changed value. */
void kconfig_define(struct kconfig *kc, const struct parsed_line *pl, char *text,
		    struct parse_ctx *ctx)
{
	size_t idx = lookup_or_add(kc, pl->name, pl->name_len);
	struct kconfig_sym *s = &kc->syms[idx];

	if (s->value) {
		if (ctx && (strncmp(s->value, pl->value, pl->value_len) ||
			      s->value[pl->value_len]))
			warning("%s: CONFIG_%s redefined: previous value '%s', new value '%.*s'",
				where(ctx), s->name, s->value, (int)pl->value_len, pl->value);
		free(s->value);
	} else {
		kc->count++;
	}
	s->value = xstrndup(pl->value, pl->value_len);
	s->ndefs++;
	s->line = kconfig_add_line(kc, text, idx);
}

/* For messages: the line, shortened if long. */
static int excerpt_len(size_t len)
{
	return len > EXCERPT ? EXCERPT - 3 : (int)len;
}

static const char *excerpt_dots(size_t len)
{
	return len > EXCERPT ? "..." : "";
}

#define EXCERPT_ARGS(p, len) excerpt_len(len), (p), excerpt_dots(len)

/*
 * Classifies one line (without its '\n').  Returns 0, or -1 with an error
 * printed.
 */
static int classify(struct parsed_line *pl, struct parse_ctx *ctx)
{
	unsigned flags = ctx->flags;
	const char *p = pl->text, *end = pl->text + pl->len;
	const char *eq;
	size_t n;
	int prefixed;

	pl->name = NULL;
	pl->normalize = 0;
	if (memchr(p, '\0', pl->len))
		return error("%s: line contains a NUL byte", where(ctx));
	while (end > p && is_blank((unsigned char)end[-1]))
		end--;
	if (flags & KCONFIG_LOOSE)
		while (p < end && is_blank((unsigned char)*p))
			p++;
	if (p == end) {
		if (flags & LIST_ITEM)
			return error("%s: empty option", where(ctx));
		return 0;
	}

	if (*p == '#') {
		const char *q = p, *name;

		if (flags & LIST_ITEM)
			return error("%s: '%.*s%s' is not an option (expected X, X=value or CONFIG_X=value)",
				     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
		/* "# CONFIG_X is not set"; any other comment is just a comment. */
		if (end - q < 9 || memcmp(q, "# CONFIG_", 9))
			return 0;
		name = q + 9;
		n = name_span(name, (size_t)(end - name));
		if (!n || (size_t)(end - name - n) != 11 || memcmp(name + n, " is not set", 11))
			return 0;
		pl->name = name;
		pl->name_len = n;
		pl->value = "n";
		pl->value_len = 1;
		pl->normalize = (flags & KCONFIG_LOOSE) && p != pl->text;
		return 0;
	}

	prefixed = (size_t)(end - p) >= 7 && !memcmp(p, "CONFIG_", 7);
	if (!prefixed && !(flags & KCONFIG_LOOSE))
		return error("%s: '%.*s%s' is not a CONFIG_ line or a comment",
			     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
	pl->name = prefixed ? p + 7 : p;
	n = name_span(pl->name, (size_t)(end - pl->name));
	pl->name_len = n;
	eq = pl->name + n;
	if (eq == end && (flags & KCONFIG_LOOSE) && n) {
		pl->value = "y";
		pl->value_len = 1;
		pl->normalize = 1;
		return 0;
	}
	if (eq == end || (*eq != '=' && !memchr(eq, '=', (size_t)(end - eq)))) {
		if (flags & KCONFIG_LOOSE)
			return error("%s: '%.*s%s' is not an option (expected X, X=value or CONFIG_X=value)",
				     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
		return error("%s: expected '=' after the symbol name in '%.*s%s'",
			     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
	}
	if (*eq != '=') {
		eq = memchr(eq, '=', (size_t)(end - eq));
		return error("%s: '%.*s%s' is not a valid symbol name (expected letters, digits and '_')",
			     where(ctx), EXCERPT_ARGS(pl->name, (size_t)(eq - pl->name)));
	}
	if (!n)
		return error("%s: expected a symbol name before '=' in '%.*s%s'",
			     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
	pl->value = eq + 1;
	pl->value_len = (size_t)(end - pl->value);
	pl->normalize = (flags & KCONFIG_LOOSE) &&
		(!prefixed || p != pl->text || end != pl->text + pl->len);
	if (pl->value_len && *pl->value == '"') {
		switch (check_string(pl->value, pl->value_len)) {
		case STRING_UNTERMINATED:
			return error("%s: unterminated string in '%.*s%s'",
				     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
		case STRING_TRAILING:
			return error("%s: unexpected text after the closing quote in '%.*s%s'",
				     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
		default:
			break;
		}
	}
	if (value_type(pl->value, pl->value_len) == KCONFIG_VALUE_INVALID)
		return error("%s: '%.*s%s' is not y, m, n, a number or a string",
			     where(ctx), EXCERPT_ARGS(p, (size_t)(end - p)));
	return 0;
}

static int parse(struct kconfig *kc, const char *filename, const char *buf,
		 size_t len, unsigned flags)
{
	struct parsed_line *pl = NULL;
	size_t nr = 0, alloc = 0, pos = 0, i;
	struct parse_ctx ctx = { filename, flags, 0, STRBUF_INIT };
	int errors = 0, ret = 0;

	if (len > KCONFIG_MAX_SIZE) {
		ret = error("%s: too large (%zu bytes, at most %u)", filename, len,
			    KCONFIG_MAX_SIZE);
		goto out;
	}
	/* First classify every line, so that bad input changes nothing. */
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		if (errors == MAX_ERRORS) {
			error("%s: stopping after %d errors", filename, MAX_ERRORS);
			break;
		}
		ALLOC_GROW(pl, nr + 1, alloc);
		pl[nr].text = buf + pos;
		pl[nr].len = end - pos;
		pl[nr].lineno = nr + 1;
		ctx.lineno = nr + 1;
		if (classify(&pl[nr], &ctx))
			errors++;
		nr++;
		pos = nl ? end + 1 : len;
	}
	if (errors) {
		ret = -1;
		goto out;
	}

	reserve_syms(kc, nr);
	ALLOC_GROW(kc->lines, kc->nr_lines + nr, kc->alloc_lines);

	for (i = 0; i < nr; i++) {
		const struct parsed_line *l = &pl[i];

		if (!l->name) {
			size_t skip = 0;

			/* Option lists may indent comments; a .config may not. */
			if (flags & KCONFIG_LOOSE)
				while (skip < l->len && is_blank((unsigned char)l->text[skip]))
					skip++;
			kconfig_add_line(kc, xstrndup(l->text + skip, l->len - skip), NO_SYM);
			continue;
		}
		ctx.lineno = l->lineno;
		kconfig_define(kc, l, l->normalize ?
		       render(l->name, l->name_len, l->value, l->value_len) :
		       xstrndup(l->text, l->len), &ctx);
	}
	if (len && buf[len - 1] != '\n')
		kc->missing_newline = 1;
out:
	strbuf_release(&ctx.buf);
	free(pl);
	return ret;
}

int kconfig_parse(struct kconfig *kc, const char *filename, const char *buf,
		  size_t len, unsigned flags)
{
	return parse(kc, filename, buf, len, flags & KCONFIG_LOOSE);
}

int kconfig_parse_list(struct kconfig *kc, const char *origin, const char *list)
{
	struct strbuf items = STRBUF_INIT;
	const char *p = list;
	int ret;

	/* One item per line; separators inside a quoted string are kept. */
	while (*p) {
		int quoted = 0;

		while (*p == ',' || is_blank((unsigned char)*p) || *p == '\n')
			p++;
		if (!*p)
			break;
		for (; *p; p++) {
			if (quoted && *p == '\\' && p[1]) {
				strbuf_addch(&items, *p++);
			} else if (*p == '"') {
				quoted = !quoted;
			} else if (!quoted && (*p == ',' || is_blank((unsigned char)*p) ||
					       *p == '\n')) {
				break;
			} else if (*p == '\n') {
				break;	/* an unterminated string ends at the line */
			}
			strbuf_addch(&items, *p);
		}
		strbuf_addch(&items, '\n');
	}
	ret = parse(kc, origin, items.buf, items.len, KCONFIG_LOOSE | LIST_ITEM);
	strbuf_release(&items);
	return ret;
}

int kconfig_load(struct kconfig **out, const char *path, unsigned flags)
{
	struct strbuf sb = STRBUF_INIT;
	struct kconfig *kc = NULL;
	int ret = -1;

	*out = NULL;
	if (strbuf_read_file_max(&sb, path, KCONFIG_MAX_SIZE) < 0)
		goto out;
	kc = kconfig_new();
	if (kconfig_parse(kc, path, sb.buf, sb.len, flags))
		goto out;
	*out = kc;
	kc = NULL;
	ret = 0;
out:
	kconfig_free(kc);
	strbuf_release(&sb);
	return ret;
}

const char *kconfig_get(const struct kconfig *kc, const char *name)
{
	size_t idx = kconfig_sym_index(kc, name, strlen(name));

	return idx == NO_SYM ? NULL : kc->syms[idx].value;
}

const char *kconfig_lookup(const char *name, void *kc)
{
	const char *v = kconfig_get(kc, name);

	return v && strcmp(v, "n") ? v : NULL;
}

int kconfig_set(struct kconfig *kc, const char *name, const char *value)
{
	struct parsed_line pl;
	size_t idx;

	if (!valid_name(name))
		return error("'%s' is not a valid symbol name (expected letters, digits and '_')",
			     name);
	if (kconfig_value_type(value) == KCONFIG_VALUE_INVALID)
		return error("'CONFIG_%s=%s' is not y, m, n, a number or a string", name, value);

	idx = kconfig_sym_index(kc, name, strlen(name));
	if (idx != NO_SYM && kc->syms[idx].value) {
		struct kconfig_sym *s = &kc->syms[idx];

		if (s->ndefs > 1)
			kconfig_remove_definitions(kc, idx, s->line);
		if (strcmp(s->value, value)) {
			free(kc->lines[s->line].text);
			kc->lines[s->line].text = render(name, strlen(name), value, strlen(value));
			free(s->value);
			s->value = xstrdup(value);
		}
		return 0;
	}
	pl.name = name;
	pl.name_len = strlen(name);
	pl.value = value;
	pl.value_len = strlen(value);
	kconfig_define(kc, &pl, render(pl.name, pl.name_len, pl.value, pl.value_len), NULL);
	return 0;
}

int kconfig_unset(struct kconfig *kc, const char *name)
{
	size_t idx = kconfig_sym_index(kc, name, strlen(name));

	if (idx == NO_SYM || !kc->syms[idx].value)
		return 0;
	kconfig_remove_definitions(kc, idx, NO_SYM);
	return 1;
}

size_t kconfig_count(const struct kconfig *kc)
{
	return kc->count;
}

int kconfig_next(const struct kconfig *kc, size_t *iter,
		 const char **name, const char **value)
{
	size_t i;

	for (i = *iter; i < kc->nr_lines; i++) {
		size_t idx = kc->lines[i].sym;

		if (idx != NO_SYM && kc->syms[idx].line == i) {
			*name = kc->syms[idx].name;
			*value = kc->syms[idx].value;
			*iter = i + 1;
			return 1;
		}
	}
	*iter = kc->nr_lines;
	return 0;
}

void kconfig_write(const struct kconfig *kc, struct strbuf *out)
{
	size_t last = kconfig_last_live_line(kc), i;

	for (i = 0; i < kc->nr_lines; i++) {
		if (!kc->lines[i].text)
			continue;
		strbuf_addstr(out, kc->lines[i].text);
		if (i != last || !kc->missing_newline)
			strbuf_addch(out, '\n');
	}
}

int kconfig_save(const struct kconfig *kc, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	kconfig_write(kc, &sb);
	ret = strbuf_write_file(&sb, path);
	strbuf_release(&sb);
	return ret;
}
