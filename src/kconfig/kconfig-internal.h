/* kconfig-internal.h: the .config model's data, shared by its parser/editor and its diff/merge. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KCONFIG_INTERNAL_H
#define KCONFIG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Private to the two files of the kconfig module, whose contract is
 * kconfig.h: kconfig.c parses, queries, edits and writes a .config, and
 * kconfig-diff.c compares two (diffconfig), merges a fragment into a base
 * (merge_config.sh) and hashes one.  Both work on these structures.
 */

#define NO_SYM SIZE_MAX

struct parse_ctx;

struct kconfig_line {
	char *text;	/* without its '\n'; NULL once the line is removed */
	size_t sym;	/* the symbol it defines, or NO_SYM */
};

struct kconfig_sym {
	char *name;
	size_t name_len;
	uint64_t hash;
	char *value;	/* NULL while no line defines it */
	size_t line;	/* the line that gives the value */
	size_t ndefs;	/* lines that define it */
};

struct kconfig {
	struct kconfig_line *lines;
	size_t nr_lines, alloc_lines;
	/* Symbols are never removed, so table indexes stay valid. */
	struct kconfig_sym *syms;
	size_t nr_syms, alloc_syms;
	/* Open addressing, linear probing: symbol index + 1, 0 when empty. */
	uint32_t *table;
	size_t table_size;	/* a power of two, at least twice nr_syms */
	size_t count;		/* symbols with a value */
	int missing_newline;	/* the last line has no '\n' */
};

/* One input line, classified before anything is changed. */
struct parsed_line {
	const char *text;	/* the raw line, without '\n' */
	size_t len;
	const char *name;	/* NULL for comments and blank lines */
	size_t name_len;
	const char *value;
	size_t value_len;
	int normalize;		/* store "CONFIG_X=v" rather than the raw text */
	size_t lineno;
};

/* The table slot holding name (len bytes, hash its hash), or the empty one where it would go. */
size_t kconfig_find_slot(const struct kconfig *kc, const char *name, size_t len,
			 uint64_t hash);
/* The index of symbol name (len bytes) in kc->syms, or NO_SYM. */
size_t kconfig_sym_index(const struct kconfig *kc, const char *name, size_t len);
/* Appends a line (taking text) defining symbol sym (or NO_SYM); returns its index. */
size_t kconfig_add_line(struct kconfig *kc, char *text, size_t sym);
/* The index of the last line not removed, or NO_SYM. */
size_t kconfig_last_live_line(const struct kconfig *kc);
/* Removes every line defining symbol idx except `keep` (NO_SYM: all). */
void kconfig_remove_definitions(struct kconfig *kc, size_t idx, size_t keep);
/*
 * Appends a line (taking text) that defines pl's name=value; with ctx (a
 * parse's place, for the message), warns about a changed value.
 */
void kconfig_define(struct kconfig *kc, const struct parsed_line *pl, char *text,
		    struct parse_ctx *ctx);

#endif
