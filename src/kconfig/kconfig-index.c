/* kconfig-index.c: read a kernel tree's Kconfig files into a symbol index, explain and find dependencies. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kconfig/kconfig-index.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/*
 * Everything an index holds lives in one arena freed at once: a 6.1 tree
 * has ~20,000 definitions and ~150,000 expression nodes, and a scan must
 * stay well under a second.
 */
struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	size_t size;
	char data[];
};

#define ARENA_CHUNK (256 * 1024)

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

static void *arena_alloc(struct kconfig_index *idx, size_t size)
{
	struct arena_chunk *c = idx->arena;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!c || c->size - c->used < size) {
		size_t want = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		c = xmalloc(sizeof(*c) + want);
		c->size = want;
		c->used = 0;
		c->next = idx->arena;
		idx->arena = c;
	}
	p = c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

static char *arena_strndup(struct kconfig_index *idx, const char *s, size_t len)
{
	char *p = arena_alloc(idx, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct ksym *find_sym(const struct kconfig_index *idx, const char *name)
{
	size_t mask = idx->table_size - 1, i;

	if (!idx->table_size)
		return NULL;
	for (i = hash_name(name) & mask; idx->table[i]; i = (i + 1) & mask)
		if (!strcmp(idx->table[i]->name, name))
			return idx->table[i];
	return NULL;
}

static void table_insert(struct ksym **table, size_t size, struct ksym *sym)
{
	size_t i;

	for (i = hash_name(sym->name) & (size - 1); table[i]; i = (i + 1) & (size - 1))
		;
	table[i] = sym;
}

/* A symbol some Kconfig file defines, not one merely referenced; idx may be NULL. */
static const struct ksym *defined_sym(const struct kconfig_index *idx, const char *name)
{
	const struct ksym *sym = idx ? find_sym(idx, name) : NULL;

	return sym && sym->nr_entries ? sym : NULL;
}

/* struct kconfig_symbols's callback, data being the index. */
static int index_defined(const char *name, enum kconfig_type *type, const void *data)
{
	const struct ksym *sym = defined_sym(data, name);

	if (!sym)
		return 0;
	*type = sym->type;
	return 1;
}

static struct ksym *intern_sym(struct kconfig_index *idx, const char *name)
{
	struct ksym *sym = find_sym(idx, name);

	if (sym)
		return sym;
	if ((idx->nr_syms + 1) * 2 > idx->table_size) {
		size_t size = idx->table_size ? idx->table_size * 2 : 4096, i;
		struct ksym **table = xcalloc(size, sizeof(*table));

		for (i = 0; i < idx->table_size; i++)
			if (idx->table[i])
				table_insert(table, size, idx->table[i]);
		free(idx->table);
		idx->table = table;
		idx->table_size = size;
	}
	sym = arena_alloc(idx, sizeof(*sym));
	sym->name = arena_strndup(idx, name, strlen(name));
	table_insert(idx->table, idx->table_size, sym);
	idx->nr_syms++;
	return sym;
}

/*
 * Loading
 */
enum target {
	TARGET_NONE,
	TARGET_ENTRY,
	TARGET_MENU,
	TARGET_CHOICE,
	TARGET_COMMENT,
};

struct loader {
	struct kconfig_index *idx;
	struct kframe *frame;		/* innermost open block */
	enum target target;		/* what attribute lines apply to */
	struct kentry *entry;
	struct kframe *target_frame;
	struct strvec open_files;	/* the source chain, for cycles */
	/* the line being parsed */
	const char *file;
	int line;
	struct kconfig_lexer lx;
	struct strbuf err;
};

#define MAX_SOURCE_DEPTH 64

static int read_kconfig(struct loader *ld, const char *relpath, int optional);

static int parse_error(struct loader *ld, const char *what)
{
	return error("%s:%d: %s", ld->file, ld->line, what);
}

/* struct kconfig_expr_arena's callback: expression nodes go with the index. */
static void *expr_alloc(size_t size, void *data)
{
	return arena_alloc(data, size);
}

/* Parses an expression from the current token up to the end or a stray word. */
static struct kconfig_expr *loader_expr(struct loader *ld)
{
	struct kconfig_expr_arena arena = { expr_alloc, ld->idx };
	struct strbuf err = STRBUF_INIT;
	struct kconfig_expr *e = kconfig_expr_parse_tokens(&ld->lx, &arena, &err);

	if (!e) {
		strbuf_reset(&ld->err);
		strbuf_addf(&ld->err, "bad expression: %s", err.buf);
	}
	strbuf_release(&err);
	return e;
}

static struct kconfig_expr *and_expr(struct kconfig_index *idx, struct kconfig_expr *a,
				     struct kconfig_expr *b)
{
	struct kconfig_expr *e;

	if (!a)
		return b;
	if (!b)
		return a;
	e = arena_alloc(idx, sizeof(*e));
	e->op = KEXPR_AND;
	e->left = a;
	e->right = b;
	return e;
}

/*
 * After an attribute's argument: nothing, or "if EXPR".  Sets *cond to the
 * expression (NULL for none); returns -1 with ld->err set on bad syntax.
 */
static int parse_if_suffix(struct loader *ld, struct kconfig_expr **cond)
{
	*cond = NULL;
	if (ld->lx.tok == KTOK_END)
		return 0;
	if (!kconfig_lex_is_word(&ld->lx, "if")) {
		strbuf_addstr(&ld->err, "unexpected text after the argument");
		return -1;
	}
	kconfig_lex_next(&ld->lx);
	*cond = loader_expr(ld);
	if (!*cond)
		return -1;
	if (ld->lx.tok != KTOK_END) {
		strbuf_addstr(&ld->err, "unexpected text after the expression");
		return -1;
	}
	return 0;
}

static int expect_end(struct loader *ld)
{
	if (ld->lx.tok == KTOK_END)
		return 0;
	strbuf_addstr(&ld->err, "unexpected text at the end of the line");
	return -1;
}

/*
 * "depends on EXPR", "visible if EXPR": the word after the keyword, then an
 * expression to the end of the line.  Returns the expression, or NULL with
 * ld->err set.
 */
static struct kconfig_expr *word_expr(struct loader *ld, const char *kw, const char *word)
{
	struct kconfig_expr *e;

	if (!kconfig_lex_is_word(&ld->lx, word)) {
		strbuf_addf(&ld->err, "'%s' without '%s'", kw, word);
		return NULL;
	}
	kconfig_lex_next(&ld->lx);
	e = loader_expr(ld);
	if (!e || expect_end(ld))
		return NULL;
	return e;
}

static enum kconfig_type type_of_keyword(const char *word)
{
	if (!strcmp(word, "bool") || !strcmp(word, "def_bool"))
		return KCONFIG_BOOL;
	if (!strcmp(word, "tristate") || !strcmp(word, "def_tristate"))
		return KCONFIG_TRISTATE;
	if (!strcmp(word, "int"))
		return KCONFIG_INT;
	if (!strcmp(word, "hex"))
		return KCONFIG_HEX;
	if (!strcmp(word, "string"))
		return KCONFIG_STRING;
	return KCONFIG_TYPE_NONE;
}

static void set_entry_type(struct loader *ld, enum kconfig_type type)
{
	struct kentry *e = ld->entry;

	e->type = type;
	if (!e->sym->type)
		e->sym->type = type;
}

/* A prompt for the current target: its text and its "if". */
static void set_prompt(struct loader *ld, const char *text, struct kconfig_expr *cond)
{
	if (ld->target == TARGET_ENTRY) {
		ld->entry->has_prompt = 1;
		ld->entry->prompt = arena_strndup(ld->idx, text, strlen(text));
		ld->entry->prompt_cond = cond;
	} else if (ld->target == TARGET_CHOICE) {
		ld->target_frame->title = arena_strndup(ld->idx, text, strlen(text));
		ld->target_frame->visible = and_expr(ld->idx, ld->target_frame->visible, cond);
	}
}

/*
 * The prompt text at the current string token and its optional "if EXPR",
 * for the current target.  Returns -1 with ld->err set on bad syntax.
 */
static int parse_prompt(struct loader *ld)
{
	struct strbuf text = STRBUF_INIT;
	struct kconfig_expr *cond;
	int ret = -1;

	strbuf_addbuf(&text, &ld->lx.text);
	kconfig_lex_next(&ld->lx);
	if (!parse_if_suffix(ld, &cond)) {
		set_prompt(ld, text.buf, cond);
		ret = 0;
	}
	strbuf_release(&text);
	return ret;
}

static void add_default(struct loader *ld, struct kconfig_expr *value, struct kconfig_expr *cond)
{
	struct kdefault *d = arena_alloc(ld->idx, sizeof(*d));
	struct kentry *e = ld->entry;

	d->value = value;
	d->cond = cond;
	if (e->last_default)
		e->last_default->next = d;
	else
		e->defaults = d;
	e->last_default = d;
}

static void add_rev(struct loader *ld, const char *target, struct kconfig_expr *cond, int select)
{
	struct ksym *sym = intern_sym(ld->idx, target);
	struct krev *rev = arena_alloc(ld->idx, sizeof(*rev));

	rev->from = ld->entry;
	rev->cond = cond;
	if (select) {
		if (sym->last_selected_by)
			sym->last_selected_by->next = rev;
		else
			sym->selected_by = rev;
		sym->last_selected_by = rev;
	} else {
		if (sym->last_implied_by)
			sym->last_implied_by->next = rev;
		else
			sym->implied_by = rev;
		sym->last_implied_by = rev;
	}
}

/* Type, def_bool, prompt, default, depends, select, imply, range, visible... */
static int parse_attribute(struct loader *ld, const char *kw)
{
	struct kconfig_lexer *lx = &ld->lx;
	struct kconfig_expr *e = NULL, *cond = NULL;
	enum kconfig_type type = type_of_keyword(kw);

	if (!strcmp(kw, "option") || !strcmp(kw, "modules") || !strcmp(kw, "optional") ||
	    !strcmp(kw, "transitional"))
		return 0;
	if (ld->target == TARGET_NONE) {
		strbuf_addf(&ld->err, "'%s' outside a config, menu or choice", kw);
		return -1;
	}
	if (!strcmp(kw, "depends")) {
		e = word_expr(ld, kw, "on");
		if (!e)
			return -1;
		if (ld->target == TARGET_ENTRY)
			ld->entry->deps = and_expr(ld->idx, ld->entry->deps, e);
		else if (ld->target == TARGET_MENU || ld->target == TARGET_CHOICE)
			ld->target_frame->dep = and_expr(ld->idx, ld->target_frame->dep, e);
		return 0;
	}
	if (!strcmp(kw, "visible")) {
		e = word_expr(ld, kw, "if");
		if (!e)
			return -1;
		if (ld->target == TARGET_MENU)
			ld->target_frame->visible = and_expr(ld->idx, ld->target_frame->visible, e);
		return 0;
	}
	if (!strcmp(kw, "prompt")) {
		if (lx->tok != KTOK_STRING) {
			strbuf_addstr(&ld->err, "'prompt' needs a quoted string");
			return -1;
		}
		return parse_prompt(ld);
	}
	if (type != KCONFIG_TYPE_NONE && kw[0] != 'd') {	/* bool "prompt" if COND */
		if (ld->target == TARGET_ENTRY)
			set_entry_type(ld, type);
		if (lx->tok == KTOK_STRING)
			return parse_prompt(ld);
		return expect_end(ld);
	}
	if (type != KCONFIG_TYPE_NONE || !strcmp(kw, "default")) {	/* def_bool, default */
		if (type != KCONFIG_TYPE_NONE && ld->target == TARGET_ENTRY)
			set_entry_type(ld, type);
		e = loader_expr(ld);
		if (!e || parse_if_suffix(ld, &cond))
			return -1;
		if (ld->target == TARGET_ENTRY)
			add_default(ld, e, cond);
		return 0;
	}
	if (!strcmp(kw, "select") || !strcmp(kw, "imply")) {
		struct strbuf name = STRBUF_INIT;

		if (lx->tok != KTOK_WORD || lx->macro) {
			strbuf_addf(&ld->err, "'%s' needs a symbol", kw);
			return -1;
		}
		strbuf_addbuf(&name, &lx->text);
		kconfig_lex_next(lx);
		if (parse_if_suffix(ld, &cond)) {
			strbuf_release(&name);
			return -1;
		}
		if (ld->target == TARGET_ENTRY)
			add_rev(ld, name.buf, cond, kw[0] == 's');
		strbuf_release(&name);
		return 0;
	}
	if (!strcmp(kw, "range"))
		return 0;	/* int and hex limits: not needed to explain */
	strbuf_addf(&ld->err, "unknown statement '%s'", kw);
	return -1;
}

static struct kframe *push_frame(struct loader *ld, enum frame_kind kind)
{
	struct kframe *f = arena_alloc(ld->idx, sizeof(*f));

	f->kind = kind;
	f->file = ld->file;
	f->line = ld->line;
	f->parent = ld->frame;
	ld->frame = f;
	return f;
}

static int pop_frame(struct loader *ld, enum frame_kind kind, const char *kw,
		     struct kframe *file_base)
{
	static const char *const opener[] = { "if", "menu", "choice" };

	if (ld->frame == file_base || ld->frame->kind != kind) {
		strbuf_addf(&ld->err, "'%s' without '%s'", kw, opener[kind]);
		return -1;
	}
	ld->frame = ld->frame->parent;
	ld->target = TARGET_NONE;
	return 0;
}

static void new_entry(struct loader *ld, const char *name)
{
	struct ksym *sym = intern_sym(ld->idx, name);
	struct kentry *e = arena_alloc(ld->idx, sizeof(*e));
	struct kframe *f;

	e->sym = sym;
	e->file = ld->file;
	e->line = ld->line;
	e->frame = ld->frame;
	if (!sym->nr_entries++)
		ld->idx->nr_defined++;
	if (sym->last_entry)
		sym->last_entry->next = e;
	else
		sym->entries = e;
	sym->last_entry = e;
	for (f = ld->frame; f; f = f->parent) {
		if (f->kind == FRAME_MENU)
			break;
		if (f->kind == FRAME_CHOICE) {
			e->choice = f;
			if (f->last_member)
				f->last_member->next_member = e;
			else
				f->members = e;
			f->last_member = e;
			break;
		}
	}
	ld->entry = e;
	ld->target = TARGET_ENTRY;
}

static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int do_source(struct loader *ld, const char *kw, const char *path)
{
	int relative = !strcmp(kw, "rsource") || !strcmp(kw, "orsource");
	int optional = kw[0] == 'o';
	struct strbuf rel = STRBUF_INIT;
	const char *slash;
	int ret = 0;

	if (strstr(path, "$(")) {
		strbuf_addf(&ld->err, "cannot expand '%s'", path);
		return -1;
	}
	slash = strrchr(ld->file, '/');
	if (relative && slash)
		strbuf_add(&rel, ld->file, slash - ld->file + 1);
	strbuf_addstr(&rel, path);
	if (has_glob(rel.buf)) {
		struct strbuf pattern = STRBUF_INIT;
		size_t top = strlen(ld->idx->srctree) + 1, i;
		glob_t g;
		int rc;

		strbuf_addf(&pattern, "%s/%s", ld->idx->srctree, rel.buf);
		rc = glob(pattern.buf, 0, NULL, &g);
		if (rc == GLOB_NOMATCH && !optional) {
			strbuf_addf(&ld->err, "no file matches '%s'", rel.buf);
			ret = -1;
		}
		for (i = 0; !rc && !ret && i < g.gl_pathc; i++) {
			const char *file = ld->file;
			int line = ld->line;

			ret = read_kconfig(ld, g.gl_pathv[i] + top, 0);
			ld->file = file;
			ld->line = line;
		}
		if (!rc)
			globfree(&g);
		strbuf_release(&pattern);
	} else {
		const char *file = ld->file;
		int line = ld->line;

		ret = read_kconfig(ld, rel.buf, optional);
		ld->file = file;
		ld->line = line;
	}
	strbuf_release(&rel);
	ld->target = TARGET_NONE;
	return ret > 0 ? -2 : ret;	/* -2: the error is already printed */
}

/*
 * One statement.  Returns 0, 1 when a help text starts, -1 with ld->err
 * set, or -2 when an error was already printed (in a sourced file).
 */
static int parse_statement(struct loader *ld, struct kframe *file_base)
{
	struct kconfig_lexer *lx = &ld->lx;
	struct strbuf kw = STRBUF_INIT;
	int ret = 0;

	if (kconfig_lex_next(lx) == KTOK_END)
		return 0;
	if (lx->tok != KTOK_WORD) {
		strbuf_addstr(&ld->err, lx->tok == KTOK_BAD ? lx->bad : "a statement must start with a keyword");
		return -1;
	}
	if (lx->macro) {
		/* "$(error-if,...)" and the like: make-style calls, not entries */
		return 0;
	}
	strbuf_addbuf(&kw, &lx->text);
	kconfig_lex_next(lx);
	if (lx->tok == KTOK_ASSIGN || lx->tok == KTOK_EQ) {
		/* a variable assignment such as "cc-option = ..." */
		goto out;
	}
	if (!strcmp(kw.buf, "config") || !strcmp(kw.buf, "menuconfig")) {
		if (lx->tok != KTOK_WORD || lx->macro) {
			strbuf_addf(&ld->err, "'%s' needs a symbol name", kw.buf);
			ret = -1;
			goto out;
		}
		new_entry(ld, lx->text.buf);
		kconfig_lex_next(lx);
		ret = expect_end(ld);
	} else if (!strcmp(kw.buf, "help") || !strcmp(kw.buf, "---help---")) {
		ret = 1;
	} else if (!strcmp(kw.buf, "choice")) {
		if (lx->tok == KTOK_WORD)
			kconfig_lex_next(lx);
		ld->target_frame = push_frame(ld, FRAME_CHOICE);
		ld->target = TARGET_CHOICE;
		ret = expect_end(ld);
	} else if (!strcmp(kw.buf, "endchoice")) {
		ret = pop_frame(ld, FRAME_CHOICE, kw.buf, file_base);
	} else if (!strcmp(kw.buf, "menu")) {
		if (lx->tok != KTOK_STRING) {
			strbuf_addstr(&ld->err, "'menu' needs a quoted title");
			ret = -1;
			goto out;
		}
		ld->target_frame = push_frame(ld, FRAME_MENU);
		ld->target_frame->title = arena_strndup(ld->idx, lx->text.buf, lx->text.len);
		ld->target = TARGET_MENU;
		kconfig_lex_next(lx);
		ret = expect_end(ld);
	} else if (!strcmp(kw.buf, "endmenu")) {
		ret = pop_frame(ld, FRAME_MENU, kw.buf, file_base);
	} else if (!strcmp(kw.buf, "if")) {
		struct kconfig_expr *e = loader_expr(ld);

		if (!e || expect_end(ld)) {
			ret = -1;
			goto out;
		}
		push_frame(ld, FRAME_IF)->dep = e;
		ld->target = TARGET_NONE;
	} else if (!strcmp(kw.buf, "endif")) {
		ret = pop_frame(ld, FRAME_IF, kw.buf, file_base);
	} else if (!strcmp(kw.buf, "comment")) {
		ld->target = TARGET_COMMENT;
	} else if (!strcmp(kw.buf, "mainmenu")) {
		ld->target = TARGET_NONE;
	} else if (!strcmp(kw.buf, "source") || !strcmp(kw.buf, "rsource") ||
		   !strcmp(kw.buf, "osource") || !strcmp(kw.buf, "orsource")) {
		struct strbuf path = STRBUF_INIT;

		if (lx->tok != KTOK_STRING) {
			strbuf_addf(&ld->err, "'%s' needs a quoted path", kw.buf);
			ret = -1;
			goto out;
		}
		strbuf_addbuf(&path, &lx->text);
		kconfig_lex_next(lx);
		ret = expect_end(ld);
		if (!ret)
			ret = do_source(ld, kw.buf, path.buf);
		strbuf_release(&path);
	} else {
		ret = parse_attribute(ld, kw.buf);
	}
out:
	strbuf_release(&kw);
	return ret;
}

/* Columns of leading blanks, tabs to the next multiple of 8, as Kconfig counts. */
static int indent_of(const char *line, const char *end)
{
	int ts = 0;

	for (; line < end && (*line == ' ' || *line == '\t'); line++)
		ts = *line == '\t' ? (ts & ~7) + 8 : ts + 1;
	return ts;
}

static int is_blank(const char *line, const char *end)
{
	for (; line < end; line++)
		if (*line != ' ' && *line != '\t' && *line != '\r')
			return 0;
	return 1;
}

static int parse_buffer(struct loader *ld, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	struct strbuf logical = STRBUF_INIT;
	struct kframe *file_base = ld->frame;
	int in_help = 0, help_ts = 0, lineno = 0, ret = 0;

	ld->target = TARGET_NONE;
	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		const char *next;
		int first;

		if (!eol)
			eol = end;
		next = eol < end ? eol + 1 : end;
		lineno++;
		if (in_help) {
			/*
			 * A help text runs until a line indented less than its
			 * first line; blank lines belong to it.
			 */
			int ts = indent_of(p, eol);

			if (is_blank(p, eol) || (ts && (!help_ts || ts >= help_ts))) {
				if (!help_ts && !is_blank(p, eol))
					help_ts = ts;
				p = next;
				continue;
			}
			in_help = 0;
		}
		/* Join backslash-continued lines into one logical line. */
		first = lineno;
		strbuf_reset(&logical);
		for (;;) {
			const char *stop = eol;

			if (stop > p && stop[-1] == '\r')
				stop--;
			if (stop > p && stop[-1] == '\\' && next < end) {
				strbuf_add(&logical, p, stop - 1 - p);
				strbuf_addch(&logical, ' ');
				p = next;
				eol = memchr(p, '\n', end - p);
				if (!eol)
					eol = end;
				next = eol < end ? eol + 1 : end;
				lineno++;
				continue;
			}
			strbuf_add(&logical, p, stop - p);
			break;
		}
		p = next;
		ld->line = first;
		ld->lx.p = logical.buf;
		strbuf_reset(&ld->err);
		ret = parse_statement(ld, file_base);
		if (ret == 1) {
			in_help = 1;
			help_ts = 0;
			ret = 0;
		} else if (ret == -1) {
			parse_error(ld, ld->err.len ? ld->err.buf : "cannot parse this line");
			goto out;
		} else if (ret < 0) {
			goto out;
		}
	}
	if (ld->frame != file_base) {
		static const char *const closer[] = { "endif", "endmenu", "endchoice" };

		ret = error("%s:%d: no '%s' before the end of the file", ld->frame->file,
			    ld->frame->line, closer[ld->frame->kind]);
		ld->frame = file_base;
	}
out:
	strbuf_release(&logical);
	return ret < 0 ? -1 : 0;
}

/* Returns 0, -1 after printing an error, or 0 for a missing optional file. */
static int read_kconfig(struct loader *ld, const char *relpath, int optional)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *name;
	int ret = -1;

	if (ld->open_files.nr >= MAX_SOURCE_DEPTH)
		return error("%s:%d: 'source' nested too deep", ld->file, ld->line);
	if (strvec_find(&ld->open_files, relpath) >= 0)
		return error("%s:%d: '%s' sources itself", ld->file, ld->line, relpath);
	strbuf_addf(&path, "%s/%s", ld->idx->srctree, relpath);
	if (optional && access(path.buf, F_OK) && errno == ENOENT) {
		ret = 0;
		goto out;
	}
	if (strbuf_read_file(&buf, path.buf, 0) < 0) {
		if (ld->file)
			error("%s:%d: cannot source '%s'", ld->file, ld->line, relpath);
		goto out;
	}
	name = arena_strndup(ld->idx, relpath, strlen(relpath));
	ld->idx->nr_files++;
	strvec_push(&ld->open_files, relpath);
	ld->file = name;
	ret = parse_buffer(ld, buf.buf, buf.len);
	strvec_pop(&ld->open_files);
out:
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

int kconfig_index_load(struct kconfig_index **out, const char *srctree, const char *srcarch)
{
	struct kconfig_index *idx = xcalloc(1, sizeof(*idx));
	struct loader ld;
	int ret;

	memset(&ld, 0, sizeof(ld));
	idx->srctree = xstrdup(srctree);
	idx->arch = xstrdup(srcarch);
	idx->syms.defined = index_defined;
	idx->syms.data = idx;
	ld.idx = idx;
	strvec_init(&ld.open_files);
	strbuf_init(&ld.lx.text, 0);
	strbuf_init(&ld.err, 0);
	ld.lx.arch = idx->arch;
	ret = read_kconfig(&ld, "Kconfig", 0);
	strvec_clear(&ld.open_files);
	strbuf_release(&ld.lx.text);
	strbuf_release(&ld.err);
	if (ret) {
		kconfig_index_free(idx);
		return -1;
	}
	*out = idx;
	return 0;
}

void kconfig_index_free(struct kconfig_index *idx)
{
	if (!idx)
		return;
	while (idx->arena) {
		struct arena_chunk *next = idx->arena->next;

		free(idx->arena);
		idx->arena = next;
	}
	free(idx->table);
	free(idx->srctree);
	free(idx->arch);
	free(idx);
}

/*
 * Queries
 */
const struct kconfig_symbols *kconfig_index_symbols(const struct kconfig_index *idx)
{
	return &idx->syms;
}

const char *kconfig_index_arch(const struct kconfig_index *idx)
{
	return idx->arch;
}

size_t kconfig_index_nr_files(const struct kconfig_index *idx)
{
	return idx->nr_files;
}

size_t kconfig_index_nr_symbols(const struct kconfig_index *idx)
{
	return idx->nr_defined;
}

int kconfig_index_has(const struct kconfig_index *idx, const char *name)
{
	return defined_sym(idx, name) != NULL;
}

enum kconfig_type kconfig_index_type(const struct kconfig_index *idx, const char *name)
{
	const struct ksym *sym = defined_sym(idx, name);

	return sym ? sym->type : KCONFIG_TYPE_NONE;
}

static int sym_has_prompt(const struct ksym *sym)
{
	const struct kentry *e;

	for (e = sym ? sym->entries : NULL; e; e = e->next)
		if (e->has_prompt)
			return 1;
	return 0;
}

int kconfig_index_has_prompt(const struct kconfig_index *idx, const char *name)
{
	return sym_has_prompt(defined_sym(idx, name));
}

void kconfig_index_locations(struct strvec *out, const struct kconfig_index *idx,
			     const char *name)
{
	const struct ksym *sym = defined_sym(idx, name);
	const struct kentry *e;

	for (e = sym ? sym->entries : NULL; e; e = e->next)
		strvec_pushf(out, "%s:%d", e->file, e->line);
}

static void list_revs(struct strvec *out, const struct krev *rev, int with_conditions)
{
	struct strbuf sb = STRBUF_INIT;

	for (; rev; rev = rev->next) {
		strbuf_addstr(&sb, rev->from->sym->name);
		if (with_conditions && rev->cond) {
			strbuf_addstr(&sb, " if ");
			kconfig_expr_print(&sb, rev->cond);
		}
		strvec_push_unique(out, sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
}

void kconfig_index_selectors(struct strvec *out, const struct kconfig_index *idx,
			     const char *name, int with_conditions)
{
	const struct ksym *sym = find_sym(idx, name);

	if (sym)
		list_revs(out, sym->selected_by, with_conditions);
}

void kconfig_index_impliers(struct strvec *out, const struct kconfig_index *idx,
			    const char *name, int with_conditions)
{
	const struct ksym *sym = find_sym(idx, name);

	if (sym)
		list_revs(out, sym->implied_by, with_conditions);
}

/*
 * Explaining
 */

/* The index and the .config that explain and deps_to_enable evaluate against. */
struct eval {
	const struct kconfig_symbols *syms;
	kconfig_get_fn get;
	void *data;
};

static void eval_init(struct eval *ev, const struct kconfig_index *idx,
		      kconfig_get_fn get, void *data)
{
	ev->syms = kconfig_index_symbols(idx);
	ev->get = get;
	ev->data = data;
}

static int eval_expr(const struct eval *ev, const struct kconfig_expr *e)
{
	return kconfig_expr_eval(e, ev->syms, ev->get, ev->data);
}
const char *kconfig_explain_name(enum kconfig_explain what)
{
	static const char *const names[] = {
		[KCONFIG_EXPLAIN_SETTABLE] = "settable",
		[KCONFIG_EXPLAIN_UNKNOWN] = "unknown",
		[KCONFIG_EXPLAIN_HIDDEN] = "hidden",
		[KCONFIG_EXPLAIN_UNMET_DEPS] = "unmet-deps",
		[KCONFIG_EXPLAIN_MODULE_ONLY] = "module-only",
		[KCONFIG_EXPLAIN_CHOICE] = "choice",
	};

	return what < ARRAY_SIZE(names) ? names[what] : "?";
}

/* An entry's dependencies: its own "depends on" and every enclosing block's. */
static int entry_deps(const struct eval *ev, const struct kentry *e)
{
	const struct kframe *f;
	int v = eval_expr(ev, e->deps), w;

	for (f = e->frame; f && v; f = f->parent) {
		w = eval_expr(ev, f->dep);
		v = w < v ? w : v;
	}
	return v;
}

/* An entry's prompt condition: its "if" and every enclosing "visible if". */
static int entry_prompt(const struct eval *ev, const struct kentry *e)
{
	const struct kframe *f;
	int v, w;

	if (!e->has_prompt)
		return KCONFIG_N;
	v = eval_expr(ev, e->prompt_cond);
	for (f = e->frame; f && v; f = f->parent) {
		w = eval_expr(ev, f->visible);
		v = w < v ? w : v;
	}
	return v;
}

/* As Kconfig: a bool, or any symbol without modules, is y where it would be m. */
static int promote(const struct eval *ev, const struct kentry *e, int v)
{
	if (v == KCONFIG_M && (e->type != KCONFIG_TRISTATE ||
			       !kconfig_tristate(ev->get("MODULES", ev->data))))
		return KCONFIG_Y;
	return v;
}

static void add_clause(struct strbuf *out, const struct eval *ev, const char *what,
		       const struct kconfig_expr *e, const char *file, int line)
{
	struct strvec atoms = STRVEC_INIT;
	size_t i;

	if (out->len)
		strbuf_addstr(out, "; ");
	strbuf_addstr(out, what);
	kconfig_expr_false_atoms(&atoms, e, ev->syms, ev->get, ev->data);
	for (i = 0; i < atoms.nr; i++)
		strbuf_addf(out, "%s%s", i ? ", " : ": ", atoms.v[i]);
	strbuf_addf(out, " (%s:%d)", file, line);
	strvec_clear(&atoms);
}

static void describe_frame(struct strbuf *what, const struct kframe *f, const struct kconfig_expr *e,
			   const char *verb)
{
	if (f->kind == FRAME_IF) {
		strbuf_addstr(what, "inside 'if ");
		kconfig_expr_print(what, e);
		strbuf_addch(what, '\'');
		return;
	}
	strbuf_addf(what, "inside %s '%s' %s ", f->kind == FRAME_MENU ? "menu" : "choice",
		    f->title ? f->title : "", verb);
	kconfig_expr_print(what, e);
}

/* The failing parts of the dependencies (want_prompt: of the prompt), outermost first. */
static void describe_frames(struct strbuf *out, const struct eval *ev, const struct kframe *f,
			    int want_prompt)
{
	struct strbuf what = STRBUF_INIT;
	const struct kconfig_expr *e;

	if (!f)
		return;
	describe_frames(out, ev, f->parent, want_prompt);
	e = want_prompt ? f->visible : f->dep;
	if (e && eval_expr(ev, e) < KCONFIG_Y) {
		describe_frame(&what, f, e, want_prompt ? "visible only if" : "which depends on");
		add_clause(out, ev, what.buf, e, f->file, f->line);
	}
	strbuf_release(&what);
}

/*
 * The failing parts of an entry's dependencies (want_prompt: of its prompt's
 * "if"), those of its blocks first.
 */
static void describe_unmet(struct strbuf *out, const struct eval *ev, const struct kentry *e,
			   int want_prompt)
{
	const struct kconfig_expr *cond = want_prompt ? e->prompt_cond : e->deps;
	struct strbuf what = STRBUF_INIT;

	describe_frames(out, ev, e->frame, want_prompt);
	if (cond && eval_expr(ev, cond) < KCONFIG_Y) {
		strbuf_addstr(&what, want_prompt ? "its prompt is shown only if " : "depends on ");
		kconfig_expr_print(&what, cond);
		add_clause(out, ev, what.buf, cond, e->file, e->line);
	}
	strbuf_release(&what);
}

/* Some symbols have hundreds of selectors (REGMAP_I2C): list the first few. */
#define MAX_LISTED 12

static void add_list(struct strbuf *out, const char *intro, const struct strvec *names)
{
	size_t i;

	for (i = 0; i < names->nr && i < MAX_LISTED; i++)
		strbuf_addf(out, "%s%s", i ? ", " : intro, names->v[i]);
	if (names->nr > MAX_LISTED)
		strbuf_addf(out, " and %zu more", names->nr - MAX_LISTED);
}

static void describe_selectors(struct strbuf *out, const struct ksym *sym)
{
	struct strvec sel = STRVEC_INIT, imp = STRVEC_INIT;

	list_revs(&sel, sym->selected_by, 1);
	list_revs(&imp, sym->implied_by, 1);
	add_list(out, "; selected by ", &sel);
	add_list(out, "; implied by ", &imp);
	if (!sel.nr)
		strbuf_addstr(out, "; nothing selects it");
	strvec_clear(&sel);
	strvec_clear(&imp);
}

static void describe_defaults(struct strbuf *out, const struct ksym *sym)
{
	struct strvec defaults = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	const struct kentry *e;
	const struct kdefault *d;

	for (e = sym->entries; e; e = e->next)
		for (d = e->defaults; d; d = d->next) {
			kconfig_expr_print(&sb, d->value);
			if (d->cond) {
				strbuf_addstr(&sb, " if ");
				kconfig_expr_print(&sb, d->cond);
			}
			strvec_push_unique(&defaults, sb.buf);
			strbuf_reset(&sb);
		}
	add_list(out, "; defaults: ", &defaults);
	strvec_clear(&defaults);
	strbuf_release(&sb);
}

static void collect_macros(struct strvec *out, const struct kconfig_expr *e)
{
	if (!e)
		return;
	if (e->op == KEXPR_MACRO && strvec_find(out, e->text) < 0)
		strvec_push(out, e->text);
	collect_macros(out, e->left);
	collect_macros(out, e->right);
}

/* Settable, as far as kconfperf can tell: say which toolchain tests it took on trust. */
static void describe_assumptions(struct strbuf *out, const struct kentry *e)
{
	struct strvec macros = STRVEC_INIT;
	const struct kframe *f;

	collect_macros(&macros, e->deps);
	collect_macros(&macros, e->prompt_cond);
	for (f = e->frame; f; f = f->parent) {
		collect_macros(&macros, f->dep);
		collect_macros(&macros, f->visible);
	}
	add_list(out, "; assuming these toolchain tests pass: ", &macros);
	strvec_clear(&macros);
}

static void describe_choice(struct strbuf *out, const struct kentry *e)
{
	const struct kentry *m;
	struct strvec names = STRVEC_INIT;
	size_t i;

	for (m = e->choice->members; m; m = m->next_member)
		if (m->sym != e->sym && strvec_find(&names, m->sym->name) < 0)
			strvec_push(&names, m->sym->name);
	strbuf_addf(out, "member of choice '%s' (%s:%d)", e->choice->title ? e->choice->title : "",
		    e->choice->file, e->choice->line);
	for (i = 0; i < names.nr; i++)
		strbuf_addf(out, "%s%s", i ? ", " : " with ", names.v[i]);
	strbuf_addstr(out, ": setting it deselects the others");
	strvec_clear(&names);
}

enum kconfig_explain kconfig_index_explain(struct strbuf *out, const struct kconfig_index *idx,
					   const char *name, kconfig_get_fn get, void *data)
{
	const struct ksym *sym = defined_sym(idx, name);
	const struct kentry *e, *best = NULL, *deps_ok = NULL;
	struct strbuf why = STRBUF_INIT;
	enum kconfig_explain ret;
	int best_v = -1;
	struct eval ev;

	if (!sym) {
		strbuf_addf(out, "no Kconfig file defines it for SRCARCH=%s", idx->arch);
		return KCONFIG_EXPLAIN_UNKNOWN;
	}
	if (!sym_has_prompt(sym)) {
		strbuf_addstr(out, "has no prompt, so only select or its default can set it");
		describe_defaults(out, sym);
		describe_selectors(out, sym);
		return KCONFIG_EXPLAIN_HIDDEN;
	}
	eval_init(&ev, idx, get, data);
	for (e = sym->entries; e; e = e->next) {
		int d, v;

		if (!e->has_prompt)
			continue;
		d = promote(&ev, e, entry_deps(&ev, e));
		v = promote(&ev, e, entry_prompt(&ev, e));
		v = v < d ? v : d;
		if (d && !deps_ok)
			deps_ok = e;
		if (v > best_v) {
			best_v = v;
			best = e;
		}
	}
	if (best_v == KCONFIG_Y) {
		if (best->choice) {
			describe_choice(out, best);
			ret = KCONFIG_EXPLAIN_CHOICE;
		} else {
			strbuf_addf(out, "has a visible prompt and its dependencies are met (%s:%d)",
				    best->file, best->line);
			ret = KCONFIG_EXPLAIN_SETTABLE;
		}
		describe_assumptions(out, best);
	} else if (best_v == KCONFIG_M) {
		describe_unmet(&why, &ev, best, 0);
		describe_unmet(&why, &ev, best, 1);
		strbuf_addf(out, "can be at most m: %s", why.buf);
		ret = KCONFIG_EXPLAIN_MODULE_ONLY;
	} else if (deps_ok) {
		describe_unmet(&why, &ev, deps_ok, 1);
		strbuf_addbuf(out, &why);
		describe_selectors(out, sym);
		ret = KCONFIG_EXPLAIN_HIDDEN;
	} else {
		for (e = sym->entries; e; e = e->next)
			if (e->has_prompt)
				describe_unmet(&why, &ev, e, 0);
		strbuf_addbuf(out, &why);
		ret = KCONFIG_EXPLAIN_UNMET_DEPS;
	}
	strbuf_release(&why);
	return ret;
}

/*
 * deps_to_enable: a depth-first walk that records what it sets, so later
 * atoms see those symbols as y, and backtracks at each ||.
 */
struct satisfy {
	const struct kconfig_index *idx;
	kconfig_get_fn get;
	void *data;
	struct strvec *out;
	size_t base;			/* out->nr when the walk started */
	struct strvec busy;		/* symbols whose dependencies are being walked */
	struct strbuf why;
	int overlay_depth;
};

#define MAX_OVERLAY_DEPTH 16

static int entry_deps_overlay(struct satisfy *s, const struct kentry *e);
static int eval_overlay(struct satisfy *s, const struct kconfig_expr *e);
static const char *overlay_get(const char *name, void *data);

/*
 * A hidden symbol's value as Kconfig computes it: the first default whose
 * condition and entry dependencies hold, at most as high as they are.
 */
static int default_value(struct satisfy *s, const struct ksym *sym)
{
	const struct kentry *e;
	const struct kdefault *d;
	int v, c;

	for (e = sym->entries; e; e = e->next)
		for (d = e->defaults; d; d = d->next) {
			c = entry_deps_overlay(s, e);
			v = eval_overlay(s, d->cond);
			c = v < c ? v : c;
			if (c == KCONFIG_N)
				continue;
			v = eval_overlay(s, d->value);
			v = v < c ? v : c;
			return v == KCONFIG_M && e->type != KCONFIG_TRISTATE ? KCONFIG_Y : v;
		}
	return KCONFIG_N;
}

/*
 * Whether a hidden symbol becomes y from what the walk has set: a symbol
 * that is (now) set selects it, or its default now is y.
 */
static int follows(struct satisfy *s, const struct ksym *sym)
{
	const struct krev *rev;
	int v = 0;

	if (sym_has_prompt(sym) || s->overlay_depth >= MAX_OVERLAY_DEPTH)
		return 0;
	s->overlay_depth++;
	for (rev = sym->selected_by; rev && !v; rev = rev->next)
		v = kconfig_tristate(overlay_get(rev->from->sym->name, s)) != KCONFIG_N &&
		    eval_overlay(s, rev->cond) != KCONFIG_N;
	if (!v)
		v = default_value(s, sym) == KCONFIG_Y;
	s->overlay_depth--;
	return v;
}

static const char *overlay_get(const char *name, void *data)
{
	struct satisfy *s = data;
	const char *v;
	const struct ksym *sym;

	if (strvec_find(s->out, name) >= 0)
		return "y";
	v = s->get(name, s->data);
	if (!s->out->nr || kconfig_tristate(v) == KCONFIG_Y)
		return v;
	sym = defined_sym(s->idx, name);
	if (sym && follows(s, sym))
		return "y";
	return s->get(name, s->data);	/* follows() may have asked for others */
}

static int eval_overlay(struct satisfy *s, const struct kconfig_expr *e)
{
	struct eval ev;

	eval_init(&ev, s->idx, overlay_get, s);
	return eval_expr(&ev, e);
}

static int entry_deps_overlay(struct satisfy *s, const struct kentry *e)
{
	struct eval ev;

	eval_init(&ev, s->idx, overlay_get, s);
	return entry_deps(&ev, e);
}

static int satisfy_expr(struct satisfy *s, const struct kconfig_expr *e);

static void restore(struct satisfy *s, size_t nr)
{
	while (s->out->nr > nr)
		strvec_pop(s->out);
}

/* The operands of a chain of &&, each of which must be made y. */
struct conjuncts {
	const struct kconfig_expr **v;
	size_t nr, alloc;
};

static void add_conjuncts(struct conjuncts *c, const struct kconfig_expr *e)
{
	if (!e)
		return;
	if (e->op == KEXPR_AND) {
		add_conjuncts(c, e->left);
		add_conjuncts(c, e->right);
		return;
	}
	ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	c->v[c->nr++] = e;
}

static void add_frame_conjuncts(struct conjuncts *c, const struct kframe *f, int prompt)
{
	if (!f)
		return;
	add_frame_conjuncts(c, f->parent, prompt);
	add_conjuncts(c, prompt ? f->visible : f->dep);
}

/*
 * Meets every conjunct, in passes: what one sets can make another hold (a
 * select of a hidden symbol), so a conjunct that fails is retried while the
 * others make progress.  What one sets can also break another that held
 * ("MMC = BRCMFMAC" holds while both are n), so the conjuncts are checked
 * again at the end and the passes rerun a few times.  Frees c's array.
 */
#define MAX_ROUNDS 4

static int satisfy_all(struct satisfy *s, struct conjuncts *c)
{
	char *done = xcalloc(c->nr ? c->nr : 1, 1);
	size_t left = c->nr, i, nr;
	struct strbuf text = STRBUF_INIT, first_why = STRBUF_INIT;
	int progress, round, ret = -1;

	for (round = 0; round < MAX_ROUNDS; round++) {
		for (progress = 1; left && progress; ) {
			progress = 0;
			strbuf_reset(&first_why);
			for (i = 0; i < c->nr; i++) {
				if (done[i])
					continue;
				nr = s->out->nr;
				if (satisfy_expr(s, c->v[i])) {
					/* report the first conjunct that cannot be met */
					if (!first_why.len)
						strbuf_addbuf(&first_why, &s->why);
					restore(s, nr);
					continue;
				}
				done[i] = 1;
				left--;
				progress = 1;
			}
		}
		if (left) {
			strbuf_reset(&s->why);
			strbuf_addbuf(&s->why, &first_why);
			goto out;
		}
		for (i = 0; i < c->nr; i++)
			if (eval_overlay(s, c->v[i]) != KCONFIG_Y) {
				done[i] = 0;
				left++;
			}
		if (!left) {
			ret = 0;
			goto out;
		}
	}
	for (i = 0; i < c->nr; i++)
		if (!done[i]) {
			strbuf_reset(&s->why);
			kconfig_expr_print(&text, c->v[i]);
			strbuf_addf(&s->why, "'%s' fails once the rest is met", text.buf);
			break;
		}
out:
	strbuf_release(&text);
	strbuf_release(&first_why);
	free(done);
	free(c->v);
	return ret;
}

/* Makes an entry's dependencies and (with prompt) its prompt y. */
static int satisfy_entry(struct satisfy *s, const struct kentry *e, int prompt)
{
	struct conjuncts c = { NULL, 0, 0 };

	add_frame_conjuncts(&c, e->frame, 0);
	add_conjuncts(&c, e->deps);
	if (prompt) {
		add_frame_conjuncts(&c, e->frame, 1);
		add_conjuncts(&c, e->prompt_cond);
	}
	return satisfy_all(s, &c);
}

static void why_hidden(struct satisfy *s, const struct ksym *sym)
{
	strbuf_addf(&s->why, "%s has no prompt", sym->name);
	if (sym->selected_by) {
		struct strvec sel = STRVEC_INIT;

		list_revs(&sel, sym->selected_by, 0);
		add_list(&s->why, " (selected by ", &sel);
		strbuf_addch(&s->why, ')');
		strvec_clear(&sel);
	}
}

static int enable_symbol(struct satisfy *s, const char *name)
{
	const struct ksym *sym;
	const struct kentry *e;
	size_t nr = s->out->nr;

	strbuf_reset(&s->why);
	if (kconfig_is_tristate_const(name)) {
		strbuf_addf(&s->why, "needs the constant '%s' to be y", name);
		return -1;
	}
	sym = defined_sym(s->idx, name);
	if (!sym) {
		strbuf_addf(&s->why, "%s is not defined for SRCARCH=%s", name, s->idx->arch);
		return -1;
	}
	if (strvec_find(&s->busy, name) >= 0) {
		strbuf_addf(&s->why, "%s depends on itself", name);
		return -1;
	}
	if (sym->type != KCONFIG_BOOL && sym->type != KCONFIG_TRISTATE) {
		strbuf_addf(&s->why, "%s is %s, not bool or tristate", name,
			    kconfig_type_name(sym->type));
		return -1;
	}
	strvec_push(&s->busy, name);
	if (!sym_has_prompt(sym)) {
		/* It turns y by itself when a default of it can be made y. */
		const struct kdefault *d;

		for (e = sym->entries; e; e = e->next)
			for (d = e->defaults; d; d = d->next) {
				struct conjuncts c = { NULL, 0, 0 };

				add_frame_conjuncts(&c, e->frame, 0);
				add_conjuncts(&c, e->deps);
				add_conjuncts(&c, d->cond);
				add_conjuncts(&c, d->value);
				if (!satisfy_all(s, &c) &&
				    kconfig_tristate(overlay_get(name, s)) == KCONFIG_Y)
					goto ok;
				restore(s, nr);
			}
		strbuf_reset(&s->why);
		why_hidden(s, sym);
		goto fail;
	}
	for (e = sym->entries; e; e = e->next) {
		if (!e->has_prompt)
			continue;
		if (!satisfy_entry(s, e, 1)) {
			strvec_push(s->out, name);
			goto ok;
		}
		restore(s, nr);
	}
fail:
	strvec_pop(&s->busy);
	return -1;
ok:
	strvec_pop(&s->busy);
	return 0;
}

static const struct kconfig_expr *comparison_symbol(const struct kconfig_expr *e)
{
	const struct kconfig_expr *sym = e->left, *val = e->right;

	if (sym->op != KEXPR_SYMBOL || kconfig_is_tristate_const(sym->text)) {
		sym = e->right;
		val = e->left;
	}
	if (sym->op != KEXPR_SYMBOL || kconfig_is_tristate_const(sym->text) ||
	    (val->op != KEXPR_SYMBOL && val->op != KEXPR_STRING) || !kconfig_is_tristate_const(val->text))
		return NULL;
	/* X = y, X = m, X != n ask for X enabled */
	if ((e->op == KEXPR_EQ && val->text[0] != 'n') || (e->op == KEXPR_NE && val->text[0] == 'n'))
		return sym;
	return NULL;
}

static int satisfy_expr(struct satisfy *s, const struct kconfig_expr *e)
{
	struct strbuf text = STRBUF_INIT, left_why = STRBUF_INIT;
	const struct kconfig_expr *sym;
	size_t nr = s->out->nr;
	int ret = -1;

	if (eval_overlay(s, e) == KCONFIG_Y)
		return 0;
	switch (e->op) {
	case KEXPR_AND: {
		struct conjuncts c = { NULL, 0, 0 };

		add_conjuncts(&c, e);
		ret = satisfy_all(s, &c);
		break;
	}
	case KEXPR_OR:
		if (!satisfy_expr(s, e->left)) {
			ret = 0;
			break;
		}
		restore(s, nr);
		strbuf_addbuf(&left_why, &s->why);
		if (!satisfy_expr(s, e->right)) {
			ret = 0;
			break;
		}
		restore(s, nr);
		kconfig_expr_print(&text, e);
		strbuf_addf(&text, "' can be met: %s; ", left_why.buf);
		strbuf_addbuf(&text, &s->why);
		strbuf_reset(&s->why);
		strbuf_addf(&s->why, "no side of '%s", text.buf);
		strbuf_reset(&text);
		break;
	case KEXPR_SYMBOL:
		ret = enable_symbol(s, e->text);
		break;
	case KEXPR_NOT:
		strbuf_reset(&s->why);
		kconfig_expr_print(&text, e);
		strbuf_addf(&s->why, "'%s' would need something disabled", text.buf);
		break;
	default:
		sym = e->op == KEXPR_EQ || e->op == KEXPR_NE ? comparison_symbol(e) : NULL;
		if (sym) {
			ret = enable_symbol(s, sym->text);
			break;
		}
		strbuf_reset(&s->why);
		kconfig_expr_print(&text, e);
		strbuf_addf(&s->why, "cannot make '%s' true by enabling symbols", text.buf);
		break;
	}
	if (!ret && eval_overlay(s, e) != KCONFIG_Y) {
		/* enabling did not help, e.g. m where y is needed */
		restore(s, nr);
		strbuf_reset(&s->why);
		kconfig_expr_print(&text, e);
		strbuf_addf(&s->why, "cannot make '%s' y", text.buf);
		ret = -1;
	}
	strbuf_release(&text);
	strbuf_release(&left_why);
	return ret;
}

int kconfig_index_deps_to_enable(struct strvec *out, const struct kconfig_index *idx,
				 const char *name, kconfig_get_fn get, void *data,
				 struct strbuf *why)
{
	struct satisfy s;
	const struct ksym *sym = defined_sym(idx, name);
	const struct kentry *e;
	int ret = 1;

	memset(&s, 0, sizeof(s));
	s.idx = idx;
	s.get = get;
	s.data = data;
	s.out = out;
	s.base = out->nr;
	strvec_init(&s.busy);
	strbuf_init(&s.why, 0);
	if (!sym) {
		strbuf_addf(&s.why, "no Kconfig file defines %s for SRCARCH=%s", name, idx->arch);
		goto done;
	}
	if (!sym_has_prompt(sym)) {
		/* No prompt to reach: only a default can make it y. */
		if (kconfig_tristate(overlay_get(name, &s)) == KCONFIG_Y || !enable_symbol(&s, name))
			ret = 0;
		goto done;
	}
	strvec_push(&s.busy, name);
	for (e = sym->entries; e; e = e->next) {
		if (!e->has_prompt)
			continue;
		if (!satisfy_entry(&s, e, 1)) {
			ret = 0;
			break;
		}
		restore(&s, s.base);
	}
done:
	if (ret && why)
		strbuf_addbuf(why, &s.why);
	strvec_clear(&s.busy);
	strbuf_release(&s.why);
	return ret;
}
