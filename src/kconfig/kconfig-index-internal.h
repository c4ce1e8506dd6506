/* kconfig-index-internal.h: the index's data, shared by its loader, explainer and --with-deps solver. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KCONFIG_INDEX_INTERNAL_H
#define KCONFIG_INDEX_INTERNAL_H

#include <stddef.h>

#include "kconfig/kconfig-index.h"

struct strbuf;
struct strvec;

/*
 * Private to the three files of the kconfig-index module, whose contract is
 * kconfig-index.h: kconfig-index.c loads the index and answers the queries,
 * kconfig-explain.c says why a setting does or does not take, and
 * kconfig-deps.c finds the symbols --with-deps sets.  Symbols, entries,
 * blocks and expressions live in the index's arena; none of it changes once
 * kconfig_index_load() returns.
 */
struct arena_chunk;

/* A "select T [if C]" or "imply T [if C]", listed on T. */
struct krev {
	struct kentry *from;
	struct kconfig_expr *cond;	/* NULL: unconditional */
	struct krev *next;
};

/* A "default VALUE [if COND]" (or def_bool VALUE [if COND]). */
struct kdefault {
	struct kconfig_expr *value;
	struct kconfig_expr *cond;
	struct kdefault *next;
};

enum frame_kind { FRAME_IF, FRAME_MENU, FRAME_CHOICE };

/* An enclosing if/endif, menu/endmenu or choice/endchoice block. */
struct kframe {
	enum frame_kind kind;
	const char *file;
	int line;
	const char *title;		/* menu title or choice prompt, or NULL */
	struct kconfig_expr *dep;	/* "if EXPR" or the block's "depends on" */
	struct kconfig_expr *visible;	/* "visible if", or the choice prompt's "if" */
	struct kframe *parent;
	struct kentry *members;		/* choice only: its configs, in order */
	struct kentry *last_member;
};

/* One config or menuconfig entry: a symbol can have several. */
struct kentry {
	struct ksym *sym;
	const char *file;
	int line;
	enum kconfig_type type;
	int has_prompt;
	const char *prompt;
	struct kconfig_expr *prompt_cond;	/* the prompt's "if", or NULL */
	struct kconfig_expr *deps;		/* its "depends on" lines, ANDed */
	struct kframe *frame;			/* innermost enclosing block */
	struct kframe *choice;			/* the choice it is a member of */
	struct kdefault *defaults, *last_default;
	struct kentry *next;			/* next definition of sym */
	struct kentry *next_member;		/* next member of choice */
};

struct ksym {
	const char *name;
	enum kconfig_type type;
	size_t nr_entries;
	struct kentry *entries, *last_entry;
	struct krev *selected_by, *last_selected_by;
	struct krev *implied_by, *last_implied_by;
};

struct kconfig_index {
	char *srctree;
	char *arch;
	struct arena_chunk *arena;
	struct ksym **table;		/* open addressing, power-of-two size */
	size_t table_size;
	size_t nr_syms;			/* defined or merely referenced */
	size_t nr_defined;
	size_t nr_files;
	struct kconfig_symbols syms;	/* for kconfig_expr_eval() */
};

/*
 * Lookups and lists
 */

/* Any symbol of idx, defined or merely referenced; NULL when idx never names it. */
struct ksym *kindex_find(const struct kconfig_index *idx, const char *name);
/* A symbol some Kconfig file defines (not one merely referenced), or NULL; idx may be NULL. */
const struct ksym *kindex_defined(const struct kconfig_index *idx, const char *name);
/* 1 when some definition of sym has a prompt, whatever its conditions; sym may be NULL. */
int ksym_has_prompt(const struct ksym *sym);
/*
 * Appends the symbol each "select"/"imply" of the list rev comes from, each
 * once, in the order read; with_conditions, "SYM if COND" for a conditional one.
 */
void krev_list(struct strvec *out, const struct krev *rev, int with_conditions);

/* Some symbols have hundreds of selectors (REGMAP_I2C): a list names the first few. */
#define KINDEX_MAX_LISTED 12
/*
 * Appends intro and names ", "-separated, at most KINDEX_MAX_LISTED of them
 * and then " and N more"; nothing at all when names is empty.
 */
void kindex_add_list(struct strbuf *out, const char *intro, const struct strvec *names);

/*
 * Evaluating against a .config
 */

/* The index and the .config that explain and deps_to_enable evaluate against. */
struct kindex_eval {
	const struct kconfig_symbols *syms;
	kconfig_get_fn get;
	void *data;
};

void kindex_eval_init(struct kindex_eval *ev, const struct kconfig_index *idx,
		      kconfig_get_fn get, void *data);
/* kconfig_expr_eval() with the index's symbols: KCONFIG_N, _M or _Y; a NULL e is y. */
int kindex_eval(const struct kindex_eval *ev, const struct kconfig_expr *e);
/* An entry's dependencies: the lowest of its own "depends on" and every enclosing block's. */
int kindex_entry_deps(const struct kindex_eval *ev, const struct kentry *e);

#endif
