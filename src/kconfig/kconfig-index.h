/* kconfig-index.h: what a kernel tree's Kconfig says about each symbol, and why a setting does not take. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KCONFIG_INDEX_H
#define KCONFIG_INDEX_H

#include <stddef.h>

#include "kconfig/kconfig-expr.h"

struct kconfig_index;
struct strbuf;
struct strvec;

/*
 * The planner asks the kernel's own Kconfig (make olddefconfig) what a
 * variant really contains; this module explains the outcome.  It reads the
 * Kconfig files of one tree for one SRCARCH, keeps every definition of every
 * symbol (file:line, type, prompt, dependencies, the enclosing if/menu/choice
 * blocks) and who selects or implies it, and evaluates their Kconfig
 * expressions (kconfig-expr.h) against a resolved .config.  It never guesses
 * values: the .config that olddefconfig wrote is the truth, this index only
 * says why.
 *
 * Names are given without the CONFIG_ prefix.  The index is read by
 * kconfig-index.c, explanations come from kconfig-explain.c and --with-deps
 * from kconfig-deps.c (kconfig-index-internal.h is what they share).
 */

/*
 * The index
 */

/*
 * Reads the Kconfig files of the tree at srctree, starting with its
 * top-level Kconfig, for srcarch (such as "x86"): source, rsource, osource
 * and orsource statements are followed in place (globs included), with
 * $(SRCARCH), $(ARCH) and $(HEADER_ARCH) standing for srcarch.  On success
 * *out is a new index the caller frees with kconfig_index_free(); returns -1
 * with an error naming the file and line for a file it cannot read or a
 * statement it cannot parse.  Help texts are skipped unread.
 */
int kconfig_index_load(struct kconfig_index **out, const char *srctree, const char *srcarch);

/* NULL is fine. */
void kconfig_index_free(struct kconfig_index *idx);

/* The tree the index was read from (its files' places are relative to it). */
const char *kconfig_index_srctree(const struct kconfig_index *idx);
/* The srcarch the index was loaded for. */
const char *kconfig_index_arch(const struct kconfig_index *idx);
/* Number of Kconfig files read, and of symbols with at least one definition. */
size_t kconfig_index_nr_files(const struct kconfig_index *idx);
size_t kconfig_index_nr_symbols(const struct kconfig_index *idx);

/* 1 when some Kconfig file of the tree defines name (config or menuconfig). */
int kconfig_index_has(const struct kconfig_index *idx, const char *name);
/* The type of name's first typed definition; KCONFIG_TYPE_NONE when undefined. */
enum kconfig_type kconfig_index_type(const struct kconfig_index *idx, const char *name);
/* 1 when some definition of name has a prompt, whatever its conditions. */
int kconfig_index_has_prompt(const struct kconfig_index *idx, const char *name);

/*
 * The index's definitions for kconfig_expr_eval() and
 * kconfig_expr_false_atoms(): types, and undefined names told from unset
 * symbols.  Valid as long as idx.
 */
const struct kconfig_symbols *kconfig_index_symbols(const struct kconfig_index *idx);

/* Appends "file:line" for each definition of name, in the order read. */
void kconfig_index_locations(struct strvec *out, const struct kconfig_index *idx,
			     const char *name);

/*
 * Appends the symbols with a "select name" (kconfig_index_selectors) or an
 * "imply name" (kconfig_index_impliers), each once, in the order read.
 * With conditions, an entry "select name if COND" appears as "SYM if COND".
 */
void kconfig_index_selectors(struct strvec *out, const struct kconfig_index *idx,
			     const char *name, int with_conditions);
void kconfig_index_impliers(struct strvec *out, const struct kconfig_index *idx,
			    const char *name, int with_conditions);

/*
 * Appends the other members of every choice name is a member of, each once,
 * in the order read (UNWINDER_FRAME_POINTER: UNWINDER_ORC, UNWINDER_GUESS).
 * A .config that sets a member to y and leaves another at y gets the one
 * Kconfig reads last; setting the others to n makes the choice name's.
 */
void kconfig_index_choice_others(struct strvec *out, const struct kconfig_index *idx,
				 const char *name);

/*
 * Explaining a setting
 */
enum kconfig_explain {
	/* Has a visible prompt and its dependencies are y: a .config can set it. */
	KCONFIG_EXPLAIN_SETTABLE,
	/* No Kconfig file of this tree and SRCARCH defines it. */
	KCONFIG_EXPLAIN_UNKNOWN,
	/* No definition has a prompt, or every prompt's own condition (its "if",
	 * an enclosing "visible if") is n: only select or a default sets it. */
	KCONFIG_EXPLAIN_HIDDEN,
	/* Every definition with a prompt has dependencies that are n. */
	KCONFIG_EXPLAIN_UNMET_DEPS,
	/* The dependencies are m: a tristate can be at most m. */
	KCONFIG_EXPLAIN_MODULE_ONLY,
	/* Settable, and a member of a choice: setting it deselects the others. */
	KCONFIG_EXPLAIN_CHOICE,
};

/* "settable", "unknown", "hidden", "unmet-deps", "module-only" or "choice". */
const char *kconfig_explain_name(enum kconfig_explain what);

/*
 * Classifies whether a .config can set name, given the resolved config that
 * get returns, and appends a one-line reason to out (without the name), such
 * as
 *   has no prompt, so only select or its default can set it; selected by PROVE_LOCKING, ...
 *   depends on DEBUG_KERNEL && HAVE_DEBUG_KMEMLEAK: DEBUG_KERNEL=n (lib/Kconfig.debug:733)
 *   inside 'if NETDEVICES': NETDEVICES=n (drivers/net/Kconfig:27); depends on ...
 * Only settability is judged, not the symbol's current value.
 */
enum kconfig_explain kconfig_index_explain(struct strbuf *out, const struct kconfig_index *idx,
					   const char *name, kconfig_get_fn get, void *data);

/*
 * Best effort for --with-deps: appends to out the visible symbols to set =y
 * so that name's dependencies and prompt become y, each after the symbols
 * its own dependencies need, and not name itself; nothing when they already
 * hold.  For a name without a prompt, the symbols that make one of its
 * defaults y (PROVE_RCU is "def_bool PROVE_LOCKING"); a selector is never
 * picked, as which one to use is the caller's choice.
 *
 * The walk meets every operand of &&, the first operand of || that can be
 * met, and recurses into symbols whose own dependencies fail.  Symbols in out
 * (those set on the way and any the caller put there) count as y, and so
 * does a hidden symbol that one of them selects or whose default they make
 * y; operands are retried until these settle, so "X = Y", which holds while
 * both are n, is met again once Y is set.
 *
 * Returns 0 on success, or 1 with the reason appended to why (which may be
 * NULL) when the dependency would need a hidden or undefined symbol, a symbol
 * disabled (a failing "!X"), a non-bool value, or a cycle; out is then left
 * as it was.  Prints nothing.
 */
int kconfig_index_deps_to_enable(struct strvec *out, const struct kconfig_index *idx,
				 const char *name, kconfig_get_fn get, void *data,
				 struct strbuf *why);

#endif
