/* kconfig-index.c: read a kernel tree's Kconfig files into a symbol index and answer queries on it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kconfig/kconfig-index.h"
#include "kconfig/kconfig-index-internal.h"
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

struct ksym *kindex_find(const struct kconfig_index *idx, const char *name)
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

const struct ksym *kindex_defined(const struct kconfig_index *idx, const char *name)
{
	const struct ksym *sym = idx ? kindex_find(idx, name) : NULL;

	return sym && sym->nr_entries ? sym : NULL;
}

/* struct kconfig_symbols's callback, data being the index. */
static int index_defined(const char *name, enum kconfig_type *type, const void *data)
{
	const struct ksym *sym = kindex_defined(data, name);

	if (!sym)
		return 0;
	*type = sym->type;
	return 1;
}

static struct ksym *intern_sym(struct kconfig_index *idx, const char *name)
{
	struct ksym *sym = kindex_find(idx, name);

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
/* One Kconfig file: the largest of 6.1, arch/x86/Kconfig, is 100 KiB. */
#define KCONFIG_FILE_MAX ((size_t)16 << 20)

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
	if (strbuf_read_file_max(&buf, path.buf, KCONFIG_FILE_MAX) < 0) {
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
	return kindex_defined(idx, name) != NULL;
}

enum kconfig_type kconfig_index_type(const struct kconfig_index *idx, const char *name)
{
	const struct ksym *sym = kindex_defined(idx, name);

	return sym ? sym->type : KCONFIG_TYPE_NONE;
}

int ksym_has_prompt(const struct ksym *sym)
{
	const struct kentry *e;

	for (e = sym ? sym->entries : NULL; e; e = e->next)
		if (e->has_prompt)
			return 1;
	return 0;
}

int kconfig_index_has_prompt(const struct kconfig_index *idx, const char *name)
{
	return ksym_has_prompt(kindex_defined(idx, name));
}

void kconfig_index_locations(struct strvec *out, const struct kconfig_index *idx,
			     const char *name)
{
	const struct ksym *sym = kindex_defined(idx, name);
	const struct kentry *e;

	for (e = sym ? sym->entries : NULL; e; e = e->next)
		strvec_pushf(out, "%s:%d", e->file, e->line);
}

void krev_list(struct strvec *out, const struct krev *rev, int with_conditions)
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
	const struct ksym *sym = kindex_find(idx, name);

	if (sym)
		krev_list(out, sym->selected_by, with_conditions);
}

void kconfig_index_impliers(struct strvec *out, const struct kconfig_index *idx,
			    const char *name, int with_conditions)
{
	const struct ksym *sym = kindex_find(idx, name);

	if (sym)
		krev_list(out, sym->implied_by, with_conditions);
}

void kconfig_index_choice_others(struct strvec *out, const struct kconfig_index *idx,
				 const char *name)
{
	const struct ksym *sym = kindex_find(idx, name);
	const struct kentry *e, *m;

	for (e = sym ? sym->entries : NULL; e; e = e->next)
		for (m = e->choice ? e->choice->members : NULL; m; m = m->next_member)
			if (m->sym != sym && strvec_find(out, m->sym->name) < 0)
				strvec_push(out, m->sym->name);
}

/*
 * Shared by kconfig-explain.c and kconfig-deps.c
 */
void kindex_add_list(struct strbuf *out, const char *intro, const struct strvec *names)
{
	size_t i;

	for (i = 0; i < names->nr && i < KINDEX_MAX_LISTED; i++)
		strbuf_addf(out, "%s%s", i ? ", " : intro, names->v[i]);
	if (names->nr > KINDEX_MAX_LISTED)
		strbuf_addf(out, " and %zu more", names->nr - KINDEX_MAX_LISTED);
}

void kindex_eval_init(struct kindex_eval *ev, const struct kconfig_index *idx,
		      kconfig_get_fn get, void *data)
{
	ev->syms = kconfig_index_symbols(idx);
	ev->get = get;
	ev->data = data;
}

int kindex_eval(const struct kindex_eval *ev, const struct kconfig_expr *e)
{
	return kconfig_expr_eval(e, ev->syms, ev->get, ev->data);
}

int kindex_entry_deps(const struct kindex_eval *ev, const struct kentry *e)
{
	const struct kframe *f;
	int v = kindex_eval(ev, e->deps), w;

	for (f = e->frame; f && v; f = f->parent) {
		w = kindex_eval(ev, f->dep);
		v = w < v ? w : v;
	}
	return v;
}

const char *kconfig_index_srctree(const struct kconfig_index *idx)
{
	return idx->srctree;
}
