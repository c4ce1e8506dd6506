/* kconfig-expr.h: Kconfig expressions: parse, print, and evaluate them against a .config. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KCONFIG_EXPR_H
#define KCONFIG_EXPR_H

#include "util/strbuf.h"

struct strvec;

/*
 * The "depends on", "if", "default" and "select ... if" expressions of
 * Kconfig, with Kconfig's tristate logic.  This module knows nothing of a
 * kernel tree: what it needs to know about the symbols beyond their values
 * (whether a Kconfig file defines them, and their types) comes through a
 * struct kconfig_symbols, which kconfig-index.h supplies for a loaded tree.
 *
 * Names are given without the CONFIG_ prefix.
 */

/* Tristate values, ordered: && is min, || is max, ! is 2 - x. */
#define KCONFIG_N 0
#define KCONFIG_M 1
#define KCONFIG_Y 2

/*
 * Looks up a symbol's value in a resolved .config: returns the raw text after
 * "CONFIG_NAME=" ("y", "m", "123", "0x10", "\"str\"" with its quotes), or NULL
 * when the symbol is not in the .config or "is not set".  NULL counts as n.
 * The string must stay valid until the next call.
 */
typedef const char *(*kconfig_get_fn)(const char *name, void *data);

/* KCONFIG_Y for the value "y", KCONFIG_M for "m", KCONFIG_N for anything else and NULL. */
int kconfig_tristate(const char *value);

/* 1 when s is one of the constants y, m and n. */
int kconfig_is_tristate_const(const char *s);

enum kconfig_type {
	KCONFIG_TYPE_NONE,	/* undefined, or defined without a type */
	KCONFIG_BOOL,
	KCONFIG_TRISTATE,
	KCONFIG_INT,
	KCONFIG_HEX,
	KCONFIG_STRING,
};

/* "bool", "tristate", "int", "hex", "string" or "untyped". */
const char *kconfig_type_name(enum kconfig_type type);

/*
 * The symbols' definitions, as evaluation needs them: defined(name, &type,
 * data) returns 1 and sets type (KCONFIG_TYPE_NONE when untyped) when some
 * Kconfig file defines name, else 0.  kconfig_index_symbols() gives the one
 * of a loaded tree.  A callback rather than the index itself, so that this
 * module stays below kconfig-index and can be used and tested without a tree.
 */
struct kconfig_symbols {
	int (*defined)(const char *name, enum kconfig_type *type, const void *data);
	const void *data;
};

/*
 * Expressions
 *
 * A parsed Kconfig expression is a tree of these.  Leaves are KEXPR_SYMBOL
 * (a symbol name, the constants y/m/n, or a number such as 64 or 0x1000),
 * KEXPR_STRING (a quoted string, stored unquoted) and KEXPR_MACRO (an
 * unexpanded "$(...)" such as "$(cc-option,-fsanitize=bool)"; kconfperf
 * cannot run the toolchain tests these stand for, so a macro evaluates to y
 * in a boolean context and to its own text in a comparison).  Comparisons
 * have leaves on both sides, as in Kconfig's grammar.
 */
enum kconfig_expr_op {
	KEXPR_SYMBOL,
	KEXPR_STRING,
	KEXPR_MACRO,
	KEXPR_NOT,	/* left */
	KEXPR_AND,	/* left, right */
	KEXPR_OR,
	KEXPR_EQ,	/* left, right: leaves */
	KEXPR_NE,
	KEXPR_LT,
	KEXPR_LE,
	KEXPR_GT,
	KEXPR_GE,
};

struct kconfig_expr {
	enum kconfig_expr_op op;
	struct kconfig_expr *left;
	struct kconfig_expr *right;
	char *text;		/* leaves only */
};

/*
 * Parses Kconfig expression text ("X86_64 && (A || !B)", "NR_CPUS > 1",
 * "FOO = \"bar\"").  Precedence, loosest first: ||, &&, comparison, !.  On
 * success *out is a new tree the caller frees with kconfig_expr_free();
 * returns -1 with an error printed when text is not an expression.
 */
int kconfig_expr_parse(struct kconfig_expr **out, const char *text);

/* Frees a tree from kconfig_expr_parse(); NULL is fine. */
void kconfig_expr_free(struct kconfig_expr *e);

/*
 * Appends e as Kconfig text with only the parentheses precedence needs:
 * "A && (B || C)", "!(A && B)", "NR_CPUS > 1", "FOO = \"bar\"".  A NULL e
 * (no dependency) prints as "y".
 */
void kconfig_expr_print(struct strbuf *out, const struct kconfig_expr *e);

/*
 * Evaluates e with Kconfig's tristate logic: n=0, m=1, y=2, && = min,
 * || = max, !x = 2 - x, a comparison is y or n.  As in Kconfig, the constant
 * m means "m && MODULES", a symbol of another type than bool or tristate is
 * n in a boolean context, and comparisons compare as numbers when both sides
 * are numbers (hex for hex symbols) and as strings otherwise.  syms, when
 * not NULL, supplies the symbols' types and tells undefined names (which
 * Kconfig compares by their own text, like the number 64) from unset
 * symbols; without it a name the .config lacks is n unless it reads as a
 * number.  A NULL e is y.
 */
int kconfig_expr_eval(const struct kconfig_expr *e, const struct kconfig_symbols *syms,
		      kconfig_get_fn get, void *data);

/*
 * Appends to out the atoms that hold e below y, each with the value that
 * makes it so: "DEBUG_KERNEL=n", "B=y" for a "!B" that fails, "NR_CPUS=1" for
 * a failing "NR_CPUS > 1", "FOO=n (undefined)" for a name syms does not
 * define (only when syms is not NULL).  Under && only the failing side is
 * searched, under || every side; duplicates are dropped.  Nothing is
 * appended when e evaluates to y.
 */
void kconfig_expr_false_atoms(struct strvec *out, const struct kconfig_expr *e,
			      const struct kconfig_symbols *syms,
			      kconfig_get_fn get, void *data);

/*
 * Tokens, for kconfig-index's reader of whole Kconfig files, which parses
 * statements with the same lexer and hands expressions to
 * kconfig_expr_parse_tokens().
 *
 * The lexer reads one logical line at a time, as Kconfig's own lexer sees
 * it; "#" starts a comment that ends the line.
 */
enum kconfig_tok {
	KTOK_END,	/* end of line or a comment */
	KTOK_WORD,	/* [A-Za-z0-9_-] and $(...) */
	KTOK_STRING,	/* "..." or '...', backslash escapes the next character */
	KTOK_AND,
	KTOK_OR,
	KTOK_NOT,
	KTOK_EQ,
	KTOK_NE,
	KTOK_LT,
	KTOK_LE,
	KTOK_GT,
	KTOK_GE,
	KTOK_LPAREN,
	KTOK_RPAREN,
	KTOK_ASSIGN,	/* := and += */
	KTOK_BAD,
};

/*
 * The caller sets p to the line, text to an initialized strbuf it releases
 * when done, and arch (or NULL); kconfig_lex_next() fills in the rest.
 */
struct kconfig_lexer {
	const char *p;		/* next unread character */
	enum kconfig_tok tok;	/* the current token */
	struct strbuf text;	/* a word's or string's text, variables expanded */
	int macro;		/* text still holds a $(...) */
	const char *arch;	/* what $(SRCARCH), $(ARCH), $(HEADER_ARCH) stand for, or NULL */
	const char *bad;	/* for KTOK_BAD: what is wrong */
};

/* Reads the next token into lx->tok (and lx->text) and returns it. */
enum kconfig_tok kconfig_lex_next(struct kconfig_lexer *lx);

/* 1 when the current token is the plain word word ("if", "on"), not a macro. */
int kconfig_lex_is_word(const struct kconfig_lexer *lx, const char *word);

/*
 * Where kconfig_expr_parse_tokens() takes its nodes and leaf texts from:
 * alloc(size, data) returns zeroed memory that its owner frees all at once,
 * partial trees left by a syntax error included.
 */
struct kconfig_expr_arena {
	void *(*alloc)(size_t size, void *data);
	void *data;
};

/*
 * Parses an expression starting at lx's current token and stops at the
 * first token that cannot continue it, which stays current: the caller
 * decides what may follow ("if COND" after a default's value, the end of
 * the line).  Nodes come from arena, or from malloc when arena is NULL (free
 * the tree with kconfig_expr_free()).  Returns NULL on a syntax error, with
 * the reason appended to err.  Prints nothing.
 */
struct kconfig_expr *kconfig_expr_parse_tokens(struct kconfig_lexer *lx,
					       const struct kconfig_expr_arena *arena,
					       struct strbuf *err);

#endif
