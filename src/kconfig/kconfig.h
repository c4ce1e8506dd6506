/* kconfig.h: a .config file or fragment: parse, query, edit, diff, merge, hash. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KCONFIG_H
#define KCONFIG_H

#include <stddef.h>

#include "util/sha256.h"

struct strbuf;

/*
 * A struct kconfig holds every line of one or more parsed files in order, so
 * writing an unmodified one back gives the input byte for byte (comments,
 * blank lines, CRLF line ends, a missing final newline), plus an index of its
 * symbols.  Symbol names are given WITHOUT the "CONFIG_" prefix.
 *
 * Values are kept as written, without trailing blanks (spaces, tabs, '\r'):
 * "y", "m", "n", a decimal ("-12"), a hex number ("0x1000") or a quoted
 * string ("\"a \\\"b\\\"\"", kconfig_string_value() decodes it).
 * "# CONFIG_X is not set" has the value "n", like CONFIG_X=n.
 *
 * A symbol defined twice keeps the last value; when the values differ a
 * warning names the place, as merge_config.sh would:
 *   kconfperf: warning: a.config:9: CONFIG_X redefined: previous value 'y', new value 'm'
 *
 * Bad input is reported with error() as "FILE:LINE: what was wrong" (every
 * bad line, up to 20) and the parse returns -1 leaving the kconfig unchanged.
 *
 * A kconfig is not thread-safe; the const functions may run concurrently.
 */
struct kconfig;

/* Inputs larger than this are refused (a Debian .config is ~250 KiB). */
#define KCONFIG_MAX_SIZE (16u << 20)

enum kconfig_parse_flags {
	/*
	 * The syntax of option lists (kconfperf's --options): besides what a
	 * .config holds, "CONFIG_X" and "X" mean X=y, "X=m" and "X=value" are
	 * CONFIG_X=value; blanks around a line are ignored.  Such lines are
	 * stored in .config form, so writing the kconfig gives a valid fragment.
	 */
	KCONFIG_LOOSE = 1 << 0,
};

enum kconfig_value_type {
	KCONFIG_VALUE_INVALID,
	KCONFIG_VALUE_TRISTATE,	/* y, m or n */
	KCONFIG_VALUE_DECIMAL,	/* -?[0-9]+ */
	KCONFIG_VALUE_HEX,	/* 0x[0-9a-fA-F]+ (or 0X) */
	KCONFIG_VALUE_STRING,	/* "...", \" and \\ escapes (\c means c) */
};

/* An empty kconfig; kconfig_free() frees it.  Never returns NULL. */
struct kconfig *kconfig_new(void);
/* Frees kc and everything it owns; NULL is fine. */
void kconfig_free(struct kconfig *kc);
/*
 * A deep copy of kc: the same lines, symbols and values, so writing it gives
 * kc's text and later changes to either leave the other alone.  The caller
 * frees it with kconfig_free().  Never returns NULL.
 */
struct kconfig *kconfig_dup(const struct kconfig *kc);

/*
 * Parses buf[0..len) (need not be NUL-terminated) and appends its lines to
 * kc, as if the files were concatenated (a previous missing final newline is
 * supplied).  filename is only used in messages.  Returns 0, or -1 with the
 * errors printed and kc unchanged.
 */
int kconfig_parse(struct kconfig *kc, const char *filename,
		  const char *buf, size_t len, unsigned flags);

/*
 * Parses an option list such as "PROVE_LOCKING,LOCK_STAT=y DEBUG_INFO=n"
 * (items separated by commas or blanks, quoted strings may hold both) with
 * KCONFIG_LOOSE rules and appends it to kc.  Messages name `origin`
 * ("--options") instead of a file:line.  Returns 0 or -1 (kc unchanged).
 */
int kconfig_parse_list(struct kconfig *kc, const char *origin, const char *list);

/*
 * Reads and parses the file at path into a new kconfig.  Returns 0 with *out
 * set (the caller frees it with kconfig_free()), or -1 with *out NULL.
 */
int kconfig_load(struct kconfig **out, const char *path, unsigned flags);

/*
 * The value of CONFIG_<name> as written (see above), "n" for "is not set",
 * or NULL when the symbol is absent.  The string belongs to kc and stays
 * valid until kc changes that symbol or is freed.  O(1).
 */
const char *kconfig_get(const struct kconfig *kc, const char *name);

/*
 * kconfig_get() for callbacks that take a void *kc (kconfig-index.h's
 * kconfig_get_fn): the value, or NULL when the symbol is absent or n.
 */
const char *kconfig_lookup(const char *name, void *kc);

/*
 * Sets CONFIG_<name> to value (as it would be written: "y", "0x10",
 * "\"text\"").  An existing symbol's line is rewritten in place (its other
 * definitions are dropped); a new one is appended.  "n" is written as
 * "# CONFIG_X is not set".  Returns 0, or -1 with an error for an invalid
 * name or value.
 */
int kconfig_set(struct kconfig *kc, const char *name, const char *value);

/* Removes every line defining CONFIG_<name>.  Returns 1 if it was there, else 0. */
int kconfig_unset(struct kconfig *kc, const char *name);

/* Number of distinct symbols present. */
size_t kconfig_count(const struct kconfig *kc);

/*
 * Iterates over the symbols in file order (the order of the lines that give
 * their values):
 *
 *	size_t iter = 0;
 *	const char *name, *value;
 *
 *	while (kconfig_next(kc, &iter, &name, &value))
 *		...
 *
 * Returns 1 and sets name and value (owned by kc), or 0 at the end.  kc must
 * not change during the iteration.
 */
int kconfig_next(const struct kconfig *kc, size_t *iter,
		 const char **name, const char **value);

/* Appends the file's text to out. */
void kconfig_write(const struct kconfig *kc, struct strbuf *out);
/* Writes the file's text to path atomically; 0 or -1 with an error. */
int kconfig_save(const struct kconfig *kc, const char *path);

/* The kind of a value as written; KCONFIG_VALUE_INVALID for anything else. */
enum kconfig_value_type kconfig_value_type(const char *value);
/*
 * Appends the decoded text of a quoted string value to out.  Returns 0, or
 * -1 (out unchanged, nothing printed) if value is not a valid string.
 */
int kconfig_string_value(struct strbuf *out, const char *value);
/* Appends s as a quoted string value ('"' and '\' escaped) to out. */
void kconfig_quote_string(struct strbuf *out, const char *s);

/*
 * Appends exactly what the kernel's scripts/diffconfig prints for A B:
 * "-X value" for symbols only in a, " X old -> new" for changed ones, then
 * "+X value" for symbols only in b, each group sorted by name.  With
 * merge_style (diffconfig -m), changed and added symbols are printed as
 * .config lines instead ("CONFIG_X=v" or "# CONFIG_X is not set").
 */
void kconfig_diff(const struct kconfig *a, const struct kconfig *b,
		  struct strbuf *out, int merge_style);

/* One difference between two kconfigs. */
struct kconfig_change {
	char *name;
	char *old_value;	/* NULL when the symbol was added */
	char *new_value;	/* NULL when the symbol was removed */
};

/* The differences in kconfig_diff()'s order: removed, changed, added. */
struct kconfig_changes {
	struct kconfig_change *v;
	size_t nr;
	size_t removed, changed, added;
};
#define KCONFIG_CHANGES_INIT { NULL, 0, 0, 0, 0 }

/* Fills out (which must be KCONFIG_CHANGES_INIT) with what changed from a to b. */
void kconfig_diff_list(struct kconfig_changes *out,
		       const struct kconfig *a, const struct kconfig *b);
/* Frees the changes and their strings; leaves c as KCONFIG_CHANGES_INIT. */
void kconfig_changes_release(struct kconfig_changes *c);

/*
 * Merges fragment frag into base as `scripts/kconfig/merge_config.sh -m base
 * frag` does: every line of base that defines a symbol frag defines is
 * removed (with a warning when the lines differ:
 *   value of CONFIG_X is redefined by fragment F: previous value 'CONFIG_X=y', new value 'CONFIG_X=m'),
 * a newline is added (a blank line, unless base lacked its final newline),
 * and frag's lines are appended.  Returns the number of symbols redefined
 * with a different line.  Unlike merge_config.sh, lines are matched by the
 * symbol they define, never by a substring (CONFIG_FOO does not remove
 * CONFIG_MY_CONFIG_FOO, nor a comment that mentions it), and a CRLF line
 * end is not part of a line: frag's lines are appended with LF ends (as
 * Kconfig reads them), and "CONFIG_X=y\r\n" in one file and "CONFIG_X=y\n" in
 * the other are the same line, not a redefinition.
 */
int kconfig_merge(struct kconfig *base, const struct kconfig *frag, const char *fragname);

/*
 * A stable identity of the effective settings: sha256 (hex) of the sorted
 * "CONFIG_X=value\n" lines, with strings re-quoted canonically.  Comments,
 * order, redefinitions and "=n" versus "is not set" do not change it; an
 * absent symbol and "n" differ.
 */
void kconfig_hash(const struct kconfig *kc, char out[SHA256_HEX_SIZE]);

#endif
