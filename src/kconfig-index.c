/* kconfig-index.c: read a kernel tree's Kconfig files into a symbol index, evaluate and explain. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kconfig-index.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

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
 * Lexer: one logical line at a time, as Kconfig's own lexer sees it.
 */
enum tok {
	TOK_END,
	TOK_WORD,	/* [A-Za-z0-9_-] and $(...) */
	TOK_STRING,
	TOK_AND,
	TOK_OR,
	TOK_NOT,
	TOK_EQ,
	TOK_NE,
	TOK_LT,
	TOK_LE,
	TOK_GT,
	TOK_GE,
	TOK_LPAREN,
	TOK_RPAREN,
	TOK_ASSIGN,	/* := and += */
	TOK_BAD,
};

struct lexer {
	const char *p;		/* next unread character */
	enum tok tok;
	struct strbuf text;	/* a word's or string's text, variables expanded */
	int macro;		/* text still holds a $(...) */
	const char *arch;	/* what $(SRCARCH) and friends stand for, or NULL */
	const char *bad;	/* for TOK_BAD: what is wrong */
};

static int is_word_char(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

/* Length of the $(...) at s, or 0 when its parentheses do not close. */
static size_t macro_len(const char *s)
{
	size_t i;
	int depth = 0;

	for (i = 1; s[i]; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && !--depth)
			return i + 1;
	}
	return 0;
}

/* The make variables that stand for the SRCARCH in an x86 (or any non-um) build. */
static int is_arch_var(const char *s, size_t n)
{
	static const char *const vars[] = { "$(SRCARCH)", "$(ARCH)", "$(HEADER_ARCH)" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vars); i++)
		if (n == strlen(vars[i]) && !strncmp(s, vars[i], n))
			return 1;
	return 0;
}

/*
 * Appends s[0..len) to out with $(SRCARCH), $(ARCH) and $(HEADER_ARCH)
 * replaced by arch (when not NULL); returns 1 when other $(...) remain.
 */
static int expand_vars(struct strbuf *out, const char *s, size_t len, const char *arch)
{
	const char *end = s + len;
	int left = 0;

	while (s < end) {
		size_t n;

		if (s[0] != '$' || s + 1 >= end || s[1] != '(') {
			strbuf_addch(out, *s++);
			continue;
		}
		n = macro_len(s);
		if (!n || s + n > end)
			n = end - s;
		if (arch && is_arch_var(s, n)) {
			strbuf_addstr(out, arch);
		} else {
			strbuf_add(out, s, n);
			left = 1;
		}
		s += n;
	}
	return left;
}

static enum tok lex_next(struct lexer *lx)
{
	const char *p = lx->p;

	strbuf_reset(&lx->text);
	lx->macro = 0;
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (!*p || *p == '#' || *p == '\n') {
		lx->p = p;
		return lx->tok = TOK_END;
	}
	if (is_word_char(*p) || (p[0] == '$' && p[1] == '(')) {
		const char *start = p;

		while (is_word_char(*p) || (p[0] == '$' && p[1] == '(')) {
			if (*p == '$') {
				size_t n = macro_len(p);

				if (!n) {
					lx->bad = "unterminated '$('";
					lx->p = p + strlen(p);
					return lx->tok = TOK_BAD;
				}
				p += n;
			} else {
				p++;
			}
		}
		lx->macro = expand_vars(&lx->text, start, p - start, lx->arch);
		lx->p = p;
		return lx->tok = TOK_WORD;
	}
	if (*p == '"' || *p == '\'') {
		struct strbuf raw = STRBUF_INIT;
		char quote = *p++;

		/* Backslash escapes the next character; a missing end quote is tolerated. */
		while (*p && *p != '\n' && *p != quote) {
			if (*p == '\\' && p[1] && p[1] != '\n')
				p++;
			strbuf_addch(&raw, *p++);
		}
		if (*p == quote)
			p++;
		lx->macro = expand_vars(&lx->text, raw.buf, raw.len, lx->arch);
		strbuf_release(&raw);
		lx->p = p;
		return lx->tok = TOK_STRING;
	}
	lx->p = p + 1;
	switch (*p) {
	case '&':
		if (p[1] == '&') {
			lx->p = p + 2;
			return lx->tok = TOK_AND;
		}
		break;
	case '|':
		if (p[1] == '|') {
			lx->p = p + 2;
			return lx->tok = TOK_OR;
		}
		break;
	case '!':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = TOK_NE;
		}
		return lx->tok = TOK_NOT;
	case '=':
		return lx->tok = TOK_EQ;
	case '<':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = TOK_LE;
		}
		return lx->tok = TOK_LT;
	case '>':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = TOK_GE;
		}
		return lx->tok = TOK_GT;
	case '(':
		return lx->tok = TOK_LPAREN;
	case ')':
		return lx->tok = TOK_RPAREN;
	case ':':
	case '+':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = TOK_ASSIGN;
		}
		break;
	}
	lx->bad = "unexpected character";
	return lx->tok = TOK_BAD;
}

static int lex_is_word(const struct lexer *lx, const char *word)
{
	return lx->tok == TOK_WORD && !lx->macro && !strcmp(lx->text.buf, word);
}

/*
 * Expressions: recursive descent over the lexer.  Nodes come from the
 * index's arena when parsing for an index, else from malloc.
 */
struct expr_parser {
	struct lexer *lx;
	struct kconfig_index *idx;	/* arena owner, or NULL */
	struct strbuf err;
};

static struct kconfig_expr *node_new(struct expr_parser *ep, enum kconfig_expr_op op)
{
	struct kconfig_expr *e;

	e = ep->idx ? arena_alloc(ep->idx, sizeof(*e)) : xcalloc(1, sizeof(*e));
	e->op = op;
	return e;
}

/* Drops a partial tree after a syntax error (arena nodes go with the arena). */
static struct kconfig_expr *node_drop(struct expr_parser *ep, struct kconfig_expr *e)
{
	if (!ep->idx)
		kconfig_expr_free(e);
	return NULL;
}

/* Joins l and r, or drops l when r failed to parse. */
static struct kconfig_expr *node_binary(struct expr_parser *ep, enum kconfig_expr_op op,
					struct kconfig_expr *l, struct kconfig_expr *r)
{
	struct kconfig_expr *e;

	if (!r)
		return node_drop(ep, l);
	e = node_new(ep, op);
	e->left = l;
	e->right = r;
	return e;
}

static struct kconfig_expr *parse_or(struct expr_parser *ep);

static struct kconfig_expr *parse_leaf(struct expr_parser *ep)
{
	struct lexer *lx = ep->lx;
	struct kconfig_expr *e;

	if (lx->tok != TOK_WORD && lx->tok != TOK_STRING) {
		if (!ep->err.len)
			strbuf_addstr(&ep->err, lx->tok == TOK_BAD ? lx->bad :
				      lx->tok == TOK_END ? "expression ends too early" :
				      "expected a symbol or a string");
		return NULL;
	}
	e = node_new(ep, lx->tok == TOK_STRING ? KEXPR_STRING :
		     lx->macro ? KEXPR_MACRO : KEXPR_SYMBOL);
	if (ep->idx)
		e->text = arena_strndup(ep->idx, lx->text.buf, lx->text.len);
	else
		e->text = xstrndup(lx->text.buf, lx->text.len);
	lex_next(lx);
	return e;
}

static struct kconfig_expr *parse_unary(struct expr_parser *ep)
{
	struct lexer *lx = ep->lx;
	struct kconfig_expr *e, *r;
	enum kconfig_expr_op op;

	if (lx->tok == TOK_NOT) {
		lex_next(lx);
		e = parse_unary(ep);
		if (!e)
			return NULL;
		r = node_new(ep, KEXPR_NOT);
		r->left = e;
		return r;
	}
	if (lx->tok == TOK_LPAREN) {
		lex_next(lx);
		e = parse_or(ep);
		if (!e)
			return NULL;
		if (lx->tok != TOK_RPAREN) {
			strbuf_addstr(&ep->err, "missing ')'");
			return node_drop(ep, e);
		}
		lex_next(lx);
		return e;
	}
	e = parse_leaf(ep);
	if (!e)
		return NULL;
	switch (lx->tok) {
	case TOK_EQ: op = KEXPR_EQ; break;
	case TOK_NE: op = KEXPR_NE; break;
	case TOK_LT: op = KEXPR_LT; break;
	case TOK_LE: op = KEXPR_LE; break;
	case TOK_GT: op = KEXPR_GT; break;
	case TOK_GE: op = KEXPR_GE; break;
	default: return e;
	}
	lex_next(lx);
	return node_binary(ep, op, e, parse_leaf(ep));
}

static struct kconfig_expr *parse_and(struct expr_parser *ep)
{
	struct kconfig_expr *e = parse_unary(ep), *r;

	while (e && ep->lx->tok == TOK_AND) {
		lex_next(ep->lx);
		r = parse_unary(ep);
		e = node_binary(ep, KEXPR_AND, e, r);
	}
	return e;
}

static struct kconfig_expr *parse_or(struct expr_parser *ep)
{
	struct kconfig_expr *e = parse_and(ep), *r;

	while (e && ep->lx->tok == TOK_OR) {
		lex_next(ep->lx);
		r = parse_and(ep);
		e = node_binary(ep, KEXPR_OR, e, r);
	}
	return e;
}

void kconfig_expr_free(struct kconfig_expr *e)
{
	if (!e)
		return;
	kconfig_expr_free(e->left);
	kconfig_expr_free(e->right);
	free(e->text);
	free(e);
}

int kconfig_expr_parse(struct kconfig_expr **out, const char *text)
{
	struct lexer lx = { text, TOK_END, STRBUF_INIT, 0, NULL, NULL };
	struct expr_parser ep = { &lx, NULL, STRBUF_INIT };
	struct kconfig_expr *e;
	int ret = 0;

	lex_next(&lx);
	e = parse_or(&ep);
	if (e && lx.tok != TOK_END) {
		strbuf_addstr(&ep.err, lx.tok == TOK_BAD ? lx.bad :
			      "unexpected text after the expression");
		e = node_drop(&ep, e);
	}
	if (!e)
		ret = error("'%s' is not a Kconfig expression: %s", text, ep.err.buf);
	else
		*out = e;
	strbuf_release(&lx.text);
	strbuf_release(&ep.err);
	return ret;
}

/* Loosest first; a child binding looser than its parent needs parentheses. */
static int expr_prec(const struct kconfig_expr *e)
{
	switch (e->op) {
	case KEXPR_OR: return 1;
	case KEXPR_AND: return 2;
	case KEXPR_NOT: return 3;
	default: return 4;
	}
}

static void print_child(struct strbuf *out, const struct kconfig_expr *e, int prec)
{
	if (expr_prec(e) < prec) {
		strbuf_addch(out, '(');
		kconfig_expr_print(out, e);
		strbuf_addch(out, ')');
	} else {
		kconfig_expr_print(out, e);
	}
}

void kconfig_expr_print(struct strbuf *out, const struct kconfig_expr *e)
{
	static const char *const ops[] = {
		[KEXPR_AND] = " && ", [KEXPR_OR] = " || ",
		[KEXPR_EQ] = " = ", [KEXPR_NE] = " != ", [KEXPR_LT] = " < ",
		[KEXPR_LE] = " <= ", [KEXPR_GT] = " > ", [KEXPR_GE] = " >= ",
	};
	const char *s;

	if (!e) {
		strbuf_addch(out, 'y');
		return;
	}
	switch (e->op) {
	case KEXPR_SYMBOL:
	case KEXPR_MACRO:
		strbuf_addstr(out, e->text);
		break;
	case KEXPR_STRING:
		strbuf_addch(out, '"');
		for (s = e->text; *s; s++) {
			if (*s == '"' || *s == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *s);
		}
		strbuf_addch(out, '"');
		break;
	case KEXPR_NOT:
		strbuf_addch(out, '!');
		print_child(out, e->left, 3);
		break;
	default:
		print_child(out, e->left, expr_prec(e));
		strbuf_addstr(out, ops[e->op]);
		print_child(out, e->right, expr_prec(e));
		break;
	}
}

/*
 * Evaluation
 */
struct eval {
	const struct kconfig_index *idx;
	kconfig_get_fn get;
	void *data;
	struct strbuf scratch[2];	/* unquoted string values of a comparison */
};

static int is_tristate_const(const char *s)
{
	return (s[0] == 'y' || s[0] == 'm' || s[0] == 'n') && !s[1];
}

static int tristate_of(const char *v)
{
	if (!v)
		return KCONFIG_N;
	if (!strcmp(v, "y"))
		return KCONFIG_Y;
	if (!strcmp(v, "m"))
		return KCONFIG_M;
	return KCONFIG_N;
}

/* Whether s reads as a number, the way Kconfig's expr_parse_string() checks. */
static int parse_number(const char *s, enum kconfig_type type, long long *sv,
			unsigned long long *uv, int *is_unsigned)
{
	char *tail;

	errno = 0;
	*is_unsigned = 0;
	if (type == KCONFIG_HEX) {
		*uv = strtoull(s, &tail, 16);
		*is_unsigned = 1;
	} else if (type == KCONFIG_INT) {
		*sv = strtoll(s, &tail, 10);
	} else {
		*sv = strtoll(s, &tail, 0);
	}
	return !errno && !*tail && tail > s && isxdigit((unsigned char)tail[-1]);
}

static int looks_numeric(const char *s)
{
	long long sv;
	unsigned long long uv;
	int u;

	return parse_number(s, KCONFIG_TYPE_NONE, &sv, &uv, &u);
}

static const struct ksym *defined_sym(const struct kconfig_index *idx, const char *name)
{
	const struct ksym *sym = idx ? find_sym(idx, name) : NULL;

	return sym && sym->nr_entries ? sym : NULL;
}

static int eval_symbol(struct eval *ev, const char *name)
{
	if (is_tristate_const(name)) {
		if (name[0] == 'm')	/* Kconfig rewrites m as m && MODULES */
			return tristate_of(ev->get("MODULES", ev->data)) ? KCONFIG_M : KCONFIG_N;
		return name[0] == 'y' ? KCONFIG_Y : KCONFIG_N;
	}
	return tristate_of(ev->get(name, ev->data));
}

/* Strips the quotes and backslashes of a .config string value. */
static const char *unquote(struct strbuf *sb, const char *v)
{
	size_t len = strlen(v);

	if (len < 2 || v[0] != '"' || v[len - 1] != '"')
		return v;
	strbuf_reset(sb);
	for (v++, len -= 2; len; v++, len--) {
		if (*v == '\\' && len > 1) {
			v++;
			len--;
		}
		strbuf_addch(sb, *v);
	}
	return sb->buf;
}

/* The string value of a comparison operand, and its type. */
static const char *operand_value(struct eval *ev, const struct kconfig_expr *e,
				 struct strbuf *sb, enum kconfig_type *type)
{
	const struct ksym *sym;
	const char *v;

	*type = KCONFIG_TYPE_NONE;
	if (e->op == KEXPR_STRING) {
		*type = KCONFIG_STRING;
		return e->text;
	}
	if (e->op == KEXPR_MACRO)
		return e->text;
	if (is_tristate_const(e->text)) {
		*type = KCONFIG_TRISTATE;
		return e->op == KEXPR_SYMBOL && e->text[0] == 'm' &&
		       eval_symbol(ev, "m") == KCONFIG_N ? "n" : e->text;
	}
	v = ev->get(e->text, ev->data);
	sym = defined_sym(ev->idx, e->text);
	if (sym) {
		*type = sym->type;
		if (v)
			return sym->type == KCONFIG_STRING ? unquote(sb, v) : v;
		return sym->type == KCONFIG_BOOL || sym->type == KCONFIG_TRISTATE ? "n" : "";
	}
	if (v) {
		if (is_tristate_const(v))
			*type = KCONFIG_TRISTATE;
		return unquote(sb, v);
	}
	/* Kconfig gives an undefined name its own text as value: 64, 0x1000. */
	if (ev->idx || looks_numeric(e->text))
		return e->text;
	*type = KCONFIG_TRISTATE;
	return "n";
}

static int eval_compare(struct eval *ev, const struct kconfig_expr *e)
{
	enum kconfig_type t1, t2;
	const char *s1 = operand_value(ev, e->left, &ev->scratch[0], &t1);
	const char *s2 = operand_value(ev, e->right, &ev->scratch[1], &t2);
	long long l1 = 0, l2 = 0;
	unsigned long long u1 = 0, u2 = 0;
	int k1 = 0, k2 = 0, uns1 = 0, uns2 = 0, res;

	if (t1 == KCONFIG_BOOL || t1 == KCONFIG_TRISTATE) {
		l1 = !strcmp(s1, "n") ? 0 : !strcmp(s1, "m") ? 1 : !strcmp(s1, "y") ? 2 : -1;
		k1 = 1;
	} else if (t1 != KCONFIG_STRING || t2 != KCONFIG_STRING) {
		k1 = parse_number(s1, t1, &l1, &u1, &uns1);
	}
	if (t2 == KCONFIG_BOOL || t2 == KCONFIG_TRISTATE) {
		l2 = !strcmp(s2, "n") ? 0 : !strcmp(s2, "m") ? 1 : !strcmp(s2, "y") ? 2 : -1;
		k2 = 1;
	} else if (t1 != KCONFIG_STRING || t2 != KCONFIG_STRING) {
		k2 = parse_number(s2, t2, &l2, &u2, &uns2);
	}
	if (t1 == KCONFIG_STRING && t2 == KCONFIG_STRING) {
		res = strcmp(s1, s2);
	} else if (!k1 || !k2) {
		if (e->op != KEXPR_EQ && e->op != KEXPR_NE)
			return KCONFIG_N;	/* Kconfig: "cannot compare" */
		res = strcmp(s1, s2);
	} else if (uns1 || uns2) {
		if (!uns1)
			u1 = (unsigned long long)l1;
		if (!uns2)
			u2 = (unsigned long long)l2;
		res = (u1 > u2) - (u1 < u2);
	} else {
		res = (l1 > l2) - (l1 < l2);
	}
	switch (e->op) {
	case KEXPR_EQ: return res == 0 ? KCONFIG_Y : KCONFIG_N;
	case KEXPR_NE: return res != 0 ? KCONFIG_Y : KCONFIG_N;
	case KEXPR_LT: return res < 0 ? KCONFIG_Y : KCONFIG_N;
	case KEXPR_LE: return res <= 0 ? KCONFIG_Y : KCONFIG_N;
	case KEXPR_GT: return res > 0 ? KCONFIG_Y : KCONFIG_N;
	default: return res >= 0 ? KCONFIG_Y : KCONFIG_N;
	}
}

static int eval_expr(struct eval *ev, const struct kconfig_expr *e)
{
	int l, r;

	if (!e)
		return KCONFIG_Y;
	switch (e->op) {
	case KEXPR_SYMBOL:
		return eval_symbol(ev, e->text);
	case KEXPR_STRING:
		return is_tristate_const(e->text) ? eval_symbol(ev, e->text) : KCONFIG_N;
	case KEXPR_MACRO:
		return KCONFIG_Y;	/* a toolchain test we cannot run */
	case KEXPR_NOT:
		return KCONFIG_Y - eval_expr(ev, e->left);
	case KEXPR_AND:
		l = eval_expr(ev, e->left);
		if (l == KCONFIG_N)
			return l;
		r = eval_expr(ev, e->right);
		return l < r ? l : r;
	case KEXPR_OR:
		l = eval_expr(ev, e->left);
		if (l == KCONFIG_Y)
			return l;
		r = eval_expr(ev, e->right);
		return l > r ? l : r;
	default:
		return eval_compare(ev, e);
	}
}

static void eval_init(struct eval *ev, const struct kconfig_index *idx,
		      kconfig_get_fn get, void *data)
{
	ev->idx = idx;
	ev->get = get;
	ev->data = data;
	strbuf_init(&ev->scratch[0], 0);
	strbuf_init(&ev->scratch[1], 0);
}

static void eval_release(struct eval *ev)
{
	strbuf_release(&ev->scratch[0]);
	strbuf_release(&ev->scratch[1]);
}

int kconfig_expr_eval(const struct kconfig_expr *e, const struct kconfig_index *idx,
		      kconfig_get_fn get, void *data)
{
	struct eval ev;
	int v;

	eval_init(&ev, idx, get, data);
	v = eval_expr(&ev, e);
	eval_release(&ev);
	return v;
}

/*
 * Atoms: why an expression is below y, or above n for what a failing "!"
 * negates (collect_atoms()).
 */
static void push_unique(struct strvec *out, struct strbuf *sb)
{
	if (strvec_find(out, sb->buf) < 0)
		strvec_push(out, sb->buf);
	strbuf_reset(sb);
}

/* Pushes "NAME=value"; returns 0 for a number, which is no symbol. */
static int push_symbol_value(struct eval *ev, struct strvec *out, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const struct ksym *sym;
	const char *v;

	if (is_tristate_const(name)) {
		if (name[0] == 'm')
			strbuf_addstr(&sb, "MODULES=n");
		else
			strbuf_addstr(&sb, name);
		push_unique(out, &sb);
		strbuf_release(&sb);
		return 1;
	}
	v = ev->get(name, ev->data);
	sym = defined_sym(ev->idx, name);
	if (!v && !sym && looks_numeric(name))
		return 0;
	if (ev->idx && !sym) {
		strbuf_addf(&sb, "%s=%s (undefined)", name, v ? v : "n");
	} else if (!v && sym && sym->type != KCONFIG_BOOL && sym->type != KCONFIG_TRISTATE &&
		   sym->type != KCONFIG_TYPE_NONE) {
		strbuf_addf(&sb, "%s is unset", name);
	} else {
		strbuf_addf(&sb, "%s=%s", name, v ? v : "n");
	}
	push_unique(out, &sb);
	strbuf_release(&sb);
	return 1;
}

static void collect_leaves(struct eval *ev, struct strvec *out, const struct kconfig_expr *e)
{
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	if (e->left->op == KEXPR_SYMBOL && !is_tristate_const(e->left->text))
		found |= push_symbol_value(ev, out, e->left->text);
	if (e->right->op == KEXPR_SYMBOL && !is_tristate_const(e->right->text))
		found |= push_symbol_value(ev, out, e->right->text);
	if (!found) {
		kconfig_expr_print(&sb, e);
		push_unique(out, &sb);
	}
	strbuf_release(&sb);
}

/*
 * Appends the atoms that make e evaluate to `blame` (n when looking for
 * what fails, y when a negation fails because its operand holds), each
 * once.  Under ! the blame flips.
 */
static void collect_atoms(struct eval *ev, struct strvec *out, const struct kconfig_expr *e,
			  int blame)
{
	struct strbuf sb = STRBUF_INIT;
	int v;

	if (!e)
		return;
	v = eval_expr(ev, e);
	if (blame == KCONFIG_N ? v == KCONFIG_Y : v == KCONFIG_N)
		return;
	switch (e->op) {
	case KEXPR_AND:
	case KEXPR_OR:
		collect_atoms(ev, out, e->left, blame);
		collect_atoms(ev, out, e->right, blame);
		break;
	case KEXPR_NOT:
		collect_atoms(ev, out, e->left, blame == KCONFIG_N ? KCONFIG_Y : KCONFIG_N);
		break;
	case KEXPR_SYMBOL:
		push_symbol_value(ev, out, e->text);
		break;
	case KEXPR_STRING:
	case KEXPR_MACRO:
		kconfig_expr_print(&sb, e);
		push_unique(out, &sb);
		break;
	default:
		collect_leaves(ev, out, e);
		break;
	}
	strbuf_release(&sb);
}

void kconfig_expr_false_atoms(struct strvec *out, const struct kconfig_expr *e,
			      const struct kconfig_index *idx,
			      kconfig_get_fn get, void *data)
{
	struct eval ev;

	eval_init(&ev, idx, get, data);
	collect_atoms(&ev, out, e, KCONFIG_N);
	eval_release(&ev);
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
	struct lexer lx;
	struct strbuf err;
};

#define MAX_SOURCE_DEPTH 64

static int read_kconfig(struct loader *ld, const char *relpath, int optional);

static int parse_error(struct loader *ld, const char *what)
{
	return error("%s:%d: %s", ld->file, ld->line, what);
}

/* Parses an expression from the current token up to the end or a stray word. */
static struct kconfig_expr *loader_expr(struct loader *ld)
{
	struct expr_parser ep = { &ld->lx, ld->idx, STRBUF_INIT };
	struct kconfig_expr *e = parse_or(&ep);

	if (!e) {
		strbuf_reset(&ld->err);
		strbuf_addf(&ld->err, "bad expression: %s", ep.err.buf);
	}
	strbuf_release(&ep.err);
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
	if (ld->lx.tok == TOK_END)
		return 0;
	if (!lex_is_word(&ld->lx, "if")) {
		strbuf_addstr(&ld->err, "unexpected text after the argument");
		return -1;
	}
	lex_next(&ld->lx);
	*cond = loader_expr(ld);
	if (!*cond)
		return -1;
	if (ld->lx.tok != TOK_END) {
		strbuf_addstr(&ld->err, "unexpected text after the expression");
		return -1;
	}
	return 0;
}

static int expect_end(struct loader *ld)
{
	if (ld->lx.tok == TOK_END)
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

	if (!lex_is_word(&ld->lx, word)) {
		strbuf_addf(&ld->err, "'%s' without '%s'", kw, word);
		return NULL;
	}
	lex_next(&ld->lx);
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
	lex_next(&ld->lx);
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
	struct lexer *lx = &ld->lx;
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
		if (lx->tok != TOK_STRING) {
			strbuf_addstr(&ld->err, "'prompt' needs a quoted string");
			return -1;
		}
		return parse_prompt(ld);
	}
	if (type != KCONFIG_TYPE_NONE && kw[0] != 'd') {	/* bool "prompt" if COND */
		if (ld->target == TARGET_ENTRY)
			set_entry_type(ld, type);
		if (lx->tok == TOK_STRING)
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

		if (lx->tok != TOK_WORD || lx->macro) {
			strbuf_addf(&ld->err, "'%s' needs a symbol", kw);
			return -1;
		}
		strbuf_addbuf(&name, &lx->text);
		lex_next(lx);
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
	struct lexer *lx = &ld->lx;
	struct strbuf kw = STRBUF_INIT;
	int ret = 0;

	if (lex_next(lx) == TOK_END)
		return 0;
	if (lx->tok != TOK_WORD) {
		strbuf_addstr(&ld->err, lx->tok == TOK_BAD ? lx->bad : "a statement must start with a keyword");
		return -1;
	}
	if (lx->macro) {
		/* "$(error-if,...)" and the like: make-style calls, not entries */
		return 0;
	}
	strbuf_addbuf(&kw, &lx->text);
	lex_next(lx);
	if (lx->tok == TOK_ASSIGN || lx->tok == TOK_EQ) {
		/* a variable assignment such as "cc-option = ..." */
		goto out;
	}
	if (!strcmp(kw.buf, "config") || !strcmp(kw.buf, "menuconfig")) {
		if (lx->tok != TOK_WORD || lx->macro) {
			strbuf_addf(&ld->err, "'%s' needs a symbol name", kw.buf);
			ret = -1;
			goto out;
		}
		new_entry(ld, lx->text.buf);
		lex_next(lx);
		ret = expect_end(ld);
	} else if (!strcmp(kw.buf, "help") || !strcmp(kw.buf, "---help---")) {
		ret = 1;
	} else if (!strcmp(kw.buf, "choice")) {
		if (lx->tok == TOK_WORD)
			lex_next(lx);
		ld->target_frame = push_frame(ld, FRAME_CHOICE);
		ld->target = TARGET_CHOICE;
		ret = expect_end(ld);
	} else if (!strcmp(kw.buf, "endchoice")) {
		ret = pop_frame(ld, FRAME_CHOICE, kw.buf, file_base);
	} else if (!strcmp(kw.buf, "menu")) {
		if (lx->tok != TOK_STRING) {
			strbuf_addstr(&ld->err, "'menu' needs a quoted title");
			ret = -1;
			goto out;
		}
		ld->target_frame = push_frame(ld, FRAME_MENU);
		ld->target_frame->title = arena_strndup(ld->idx, lx->text.buf, lx->text.len);
		ld->target = TARGET_MENU;
		lex_next(lx);
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

		if (lx->tok != TOK_STRING) {
			strbuf_addf(&ld->err, "'%s' needs a quoted path", kw.buf);
			ret = -1;
			goto out;
		}
		strbuf_addbuf(&path, &lx->text);
		lex_next(lx);
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
const char *kconfig_type_name(enum kconfig_type type)
{
	static const char *const names[] = {
		"untyped", "bool", "tristate", "int", "hex", "string",
	};

	return type < ARRAY_SIZE(names) ? names[type] : "untyped";
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
		push_unique(out, &sb);
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
static int entry_deps(struct eval *ev, const struct kentry *e)
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
static int entry_prompt(struct eval *ev, const struct kentry *e)
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
static int promote(struct eval *ev, const struct kentry *e, int v)
{
	if (v == KCONFIG_M && (e->type != KCONFIG_TRISTATE ||
			       !tristate_of(ev->get("MODULES", ev->data))))
		return KCONFIG_Y;
	return v;
}

static void add_clause(struct strbuf *out, struct eval *ev, const char *what,
		       const struct kconfig_expr *e, const char *file, int line)
{
	struct strvec atoms = STRVEC_INIT;
	size_t i;

	if (out->len)
		strbuf_addstr(out, "; ");
	strbuf_addstr(out, what);
	collect_atoms(ev, &atoms, e, KCONFIG_N);
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
static void describe_frames(struct strbuf *out, struct eval *ev, const struct kframe *f,
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
static void describe_unmet(struct strbuf *out, struct eval *ev, const struct kentry *e,
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
			push_unique(&defaults, &sb);
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
	eval_release(&ev);
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
		v = tristate_of(overlay_get(rev->from->sym->name, s)) != KCONFIG_N &&
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
	if (!s->out->nr || tristate_of(v) == KCONFIG_Y)
		return v;
	sym = defined_sym(s->idx, name);
	if (sym && follows(s, sym))
		return "y";
	return s->get(name, s->data);	/* follows() may have asked for others */
}

static int eval_overlay(struct satisfy *s, const struct kconfig_expr *e)
{
	struct eval ev;
	int v;

	eval_init(&ev, s->idx, overlay_get, s);
	v = eval_expr(&ev, e);
	eval_release(&ev);
	return v;
}

static int entry_deps_overlay(struct satisfy *s, const struct kentry *e)
{
	struct eval ev;
	int v;

	eval_init(&ev, s->idx, overlay_get, s);
	v = entry_deps(&ev, e);
	eval_release(&ev);
	return v;
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
	if (is_tristate_const(name)) {
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
				    tristate_of(overlay_get(name, s)) == KCONFIG_Y)
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

	if (sym->op != KEXPR_SYMBOL || is_tristate_const(sym->text)) {
		sym = e->right;
		val = e->left;
	}
	if (sym->op != KEXPR_SYMBOL || is_tristate_const(sym->text) ||
	    (val->op != KEXPR_SYMBOL && val->op != KEXPR_STRING) || !is_tristate_const(val->text))
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
		if (tristate_of(overlay_get(name, &s)) == KCONFIG_Y || !enable_symbol(&s, name))
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
