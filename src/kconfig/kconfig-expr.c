/* kconfig-expr.c: parse, print and evaluate Kconfig expressions, with the lexer they share with the Kconfig reader. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig-expr.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/*
 * Lexer: one logical line at a time, as Kconfig's own lexer sees it.
 */
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

enum kconfig_tok kconfig_lex_next(struct kconfig_lexer *lx)
{
	const char *p = lx->p;

	strbuf_reset(&lx->text);
	lx->macro = 0;
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (!*p || *p == '#' || *p == '\n') {
		lx->p = p;
		return lx->tok = KTOK_END;
	}
	if (is_word_char(*p) || (p[0] == '$' && p[1] == '(')) {
		const char *start = p;

		while (is_word_char(*p) || (p[0] == '$' && p[1] == '(')) {
			if (*p == '$') {
				size_t n = macro_len(p);

				if (!n) {
					lx->bad = "unterminated '$('";
					lx->p = p + strlen(p);
					return lx->tok = KTOK_BAD;
				}
				p += n;
			} else {
				p++;
			}
		}
		lx->macro = expand_vars(&lx->text, start, p - start, lx->arch);
		lx->p = p;
		return lx->tok = KTOK_WORD;
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
		return lx->tok = KTOK_STRING;
	}
	lx->p = p + 1;
	switch (*p) {
	case '&':
		if (p[1] == '&') {
			lx->p = p + 2;
			return lx->tok = KTOK_AND;
		}
		break;
	case '|':
		if (p[1] == '|') {
			lx->p = p + 2;
			return lx->tok = KTOK_OR;
		}
		break;
	case '!':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = KTOK_NE;
		}
		return lx->tok = KTOK_NOT;
	case '=':
		return lx->tok = KTOK_EQ;
	case '<':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = KTOK_LE;
		}
		return lx->tok = KTOK_LT;
	case '>':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = KTOK_GE;
		}
		return lx->tok = KTOK_GT;
	case '(':
		return lx->tok = KTOK_LPAREN;
	case ')':
		return lx->tok = KTOK_RPAREN;
	case ':':
	case '+':
		if (p[1] == '=') {
			lx->p = p + 2;
			return lx->tok = KTOK_ASSIGN;
		}
		break;
	}
	lx->bad = "unexpected character";
	return lx->tok = KTOK_BAD;
}

int kconfig_lex_is_word(const struct kconfig_lexer *lx, const char *word)
{
	return lx->tok == KTOK_WORD && !lx->macro && !strcmp(lx->text.buf, word);
}
/*
 * Expressions: recursive descent over the lexer.  Nodes come from the
 * caller's arena when it has one (an index allocates ~150,000 of them),
 * else from malloc.
 */
struct expr_parser {
	struct kconfig_lexer *lx;
	const struct kconfig_expr_arena *arena;	/* or NULL */
	struct strbuf err;
};

static struct kconfig_expr *node_new(struct expr_parser *ep, enum kconfig_expr_op op)
{
	struct kconfig_expr *e;

	e = ep->arena ? ep->arena->alloc(sizeof(*e), ep->arena->data) : xcalloc(1, sizeof(*e));
	e->op = op;
	return e;
}

/* Drops a partial tree after a syntax error (arena nodes go with the arena). */
static struct kconfig_expr *node_drop(struct expr_parser *ep, struct kconfig_expr *e)
{
	if (!ep->arena)
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
	struct kconfig_lexer *lx = ep->lx;
	struct kconfig_expr *e;

	if (lx->tok != KTOK_WORD && lx->tok != KTOK_STRING) {
		if (!ep->err.len)
			strbuf_addstr(&ep->err, lx->tok == KTOK_BAD ? lx->bad :
				      lx->tok == KTOK_END ? "expression ends too early" :
				      "expected a symbol or a string");
		return NULL;
	}
	e = node_new(ep, lx->tok == KTOK_STRING ? KEXPR_STRING :
		     lx->macro ? KEXPR_MACRO : KEXPR_SYMBOL);
	if (ep->arena) {
		e->text = ep->arena->alloc(lx->text.len + 1, ep->arena->data);
		memcpy(e->text, lx->text.buf, lx->text.len);
	} else {
		e->text = xstrndup(lx->text.buf, lx->text.len);
	}
	kconfig_lex_next(lx);
	return e;
}

static struct kconfig_expr *parse_unary(struct expr_parser *ep)
{
	struct kconfig_lexer *lx = ep->lx;
	struct kconfig_expr *e, *r;
	enum kconfig_expr_op op;

	if (lx->tok == KTOK_NOT) {
		kconfig_lex_next(lx);
		e = parse_unary(ep);
		if (!e)
			return NULL;
		r = node_new(ep, KEXPR_NOT);
		r->left = e;
		return r;
	}
	if (lx->tok == KTOK_LPAREN) {
		kconfig_lex_next(lx);
		e = parse_or(ep);
		if (!e)
			return NULL;
		if (lx->tok != KTOK_RPAREN) {
			strbuf_addstr(&ep->err, "missing ')'");
			return node_drop(ep, e);
		}
		kconfig_lex_next(lx);
		return e;
	}
	e = parse_leaf(ep);
	if (!e)
		return NULL;
	switch (lx->tok) {
	case KTOK_EQ: op = KEXPR_EQ; break;
	case KTOK_NE: op = KEXPR_NE; break;
	case KTOK_LT: op = KEXPR_LT; break;
	case KTOK_LE: op = KEXPR_LE; break;
	case KTOK_GT: op = KEXPR_GT; break;
	case KTOK_GE: op = KEXPR_GE; break;
	default: return e;
	}
	kconfig_lex_next(lx);
	return node_binary(ep, op, e, parse_leaf(ep));
}

static struct kconfig_expr *parse_and(struct expr_parser *ep)
{
	struct kconfig_expr *e = parse_unary(ep), *r;

	while (e && ep->lx->tok == KTOK_AND) {
		kconfig_lex_next(ep->lx);
		r = parse_unary(ep);
		e = node_binary(ep, KEXPR_AND, e, r);
	}
	return e;
}

static struct kconfig_expr *parse_or(struct expr_parser *ep)
{
	struct kconfig_expr *e = parse_and(ep), *r;

	while (e && ep->lx->tok == KTOK_OR) {
		kconfig_lex_next(ep->lx);
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
	struct kconfig_lexer lx = { text, KTOK_END, STRBUF_INIT, 0, NULL, NULL };
	struct expr_parser ep = { &lx, NULL, STRBUF_INIT };
	struct kconfig_expr *e;
	int ret = 0;

	kconfig_lex_next(&lx);
	e = parse_or(&ep);
	if (e && lx.tok != KTOK_END) {
		strbuf_addstr(&ep.err, lx.tok == KTOK_BAD ? lx.bad :
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

struct kconfig_expr *kconfig_expr_parse_tokens(struct kconfig_lexer *lx,
					       const struct kconfig_expr_arena *arena,
					       struct strbuf *err)
{
	struct expr_parser ep = { lx, arena, STRBUF_INIT };
	struct kconfig_expr *e = parse_or(&ep);

	if (!e)
		strbuf_addbuf(err, &ep.err);
	strbuf_release(&ep.err);
	return e;
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
	const struct kconfig_symbols *syms;	/* or NULL */
	kconfig_get_fn get;
	void *data;
	struct strbuf scratch[2];	/* unquoted string values of a comparison */
};

int kconfig_is_tristate_const(const char *s)
{
	return (s[0] == 'y' || s[0] == 'm' || s[0] == 'n') && !s[1];
}

int kconfig_tristate(const char *v)
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

/* Whether some Kconfig file defines name, and its type: always 0 without syms. */
static int defined(const struct eval *ev, const char *name, enum kconfig_type *type)
{
	*type = KCONFIG_TYPE_NONE;
	return ev->syms && ev->syms->defined(name, type, ev->syms->data);
}

static int eval_symbol(struct eval *ev, const char *name)
{
	if (kconfig_is_tristate_const(name)) {
		if (name[0] == 'm')	/* Kconfig rewrites m as m && MODULES */
			return kconfig_tristate(ev->get("MODULES", ev->data)) ? KCONFIG_M : KCONFIG_N;
		return name[0] == 'y' ? KCONFIG_Y : KCONFIG_N;
	}
	return kconfig_tristate(ev->get(name, ev->data));
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
	enum kconfig_type sym_type;
	const char *v;

	*type = KCONFIG_TYPE_NONE;
	if (e->op == KEXPR_STRING) {
		*type = KCONFIG_STRING;
		return e->text;
	}
	if (e->op == KEXPR_MACRO)
		return e->text;
	if (kconfig_is_tristate_const(e->text)) {
		*type = KCONFIG_TRISTATE;
		return e->op == KEXPR_SYMBOL && e->text[0] == 'm' &&
		       eval_symbol(ev, "m") == KCONFIG_N ? "n" : e->text;
	}
	v = ev->get(e->text, ev->data);
	if (defined(ev, e->text, &sym_type)) {
		*type = sym_type;
		if (v)
			return sym_type == KCONFIG_STRING ? unquote(sb, v) : v;
		return sym_type == KCONFIG_BOOL || sym_type == KCONFIG_TRISTATE ? "n" : "";
	}
	if (v) {
		if (kconfig_is_tristate_const(v))
			*type = KCONFIG_TRISTATE;
		return unquote(sb, v);
	}
	/* Kconfig gives an undefined name its own text as value: 64, 0x1000. */
	if (ev->syms || looks_numeric(e->text))
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
		return kconfig_is_tristate_const(e->text) ? eval_symbol(ev, e->text) : KCONFIG_N;
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

static void eval_init(struct eval *ev, const struct kconfig_symbols *syms,
		      kconfig_get_fn get, void *data)
{
	ev->syms = syms;
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

int kconfig_expr_eval(const struct kconfig_expr *e, const struct kconfig_symbols *syms,
		      kconfig_get_fn get, void *data)
{
	struct eval ev;
	int v;

	eval_init(&ev, syms, get, data);
	v = eval_expr(&ev, e);
	eval_release(&ev);
	return v;
}

/*
 * Atoms: why an expression is below y, or above n for what a failing "!"
 * negates (collect_atoms()).
 */
/* Pushes "NAME=value"; returns 0 for a number, which is no symbol. */
static int push_symbol_value(struct eval *ev, struct strvec *out, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	enum kconfig_type type;
	const char *v;
	int sym;

	if (kconfig_is_tristate_const(name)) {
		if (name[0] == 'm')
			strbuf_addstr(&sb, "MODULES=n");
		else
			strbuf_addstr(&sb, name);
		strvec_push_unique(out, sb.buf);
		strbuf_release(&sb);
		return 1;
	}
	v = ev->get(name, ev->data);
	sym = defined(ev, name, &type);
	if (!v && !sym && looks_numeric(name))
		return 0;
	if (ev->syms && !sym) {
		strbuf_addf(&sb, "%s=%s (undefined)", name, v ? v : "n");
	} else if (!v && sym && type != KCONFIG_BOOL && type != KCONFIG_TRISTATE &&
		   type != KCONFIG_TYPE_NONE) {
		strbuf_addf(&sb, "%s is unset", name);
	} else {
		strbuf_addf(&sb, "%s=%s", name, v ? v : "n");
	}
	strvec_push_unique(out, sb.buf);
	strbuf_release(&sb);
	return 1;
}

static void collect_leaves(struct eval *ev, struct strvec *out, const struct kconfig_expr *e)
{
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	if (e->left->op == KEXPR_SYMBOL && !kconfig_is_tristate_const(e->left->text))
		found |= push_symbol_value(ev, out, e->left->text);
	if (e->right->op == KEXPR_SYMBOL && !kconfig_is_tristate_const(e->right->text))
		found |= push_symbol_value(ev, out, e->right->text);
	if (!found) {
		kconfig_expr_print(&sb, e);
		strvec_push_unique(out, sb.buf);
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
		strvec_push_unique(out, sb.buf);
		strbuf_reset(&sb);
		break;
	default:
		collect_leaves(ev, out, e);
		break;
	}
	strbuf_release(&sb);
}

void kconfig_expr_false_atoms(struct strvec *out, const struct kconfig_expr *e,
			      const struct kconfig_symbols *syms,
			      kconfig_get_fn get, void *data)
{
	struct eval ev;

	eval_init(&ev, syms, get, data);
	collect_atoms(&ev, out, e, KCONFIG_N);
	eval_release(&ev);
}

const char *kconfig_type_name(enum kconfig_type type)
{
	static const char *const names[] = {
		"untyped", "bool", "tristate", "int", "hex", "string",
	};

	return type < ARRAY_SIZE(names) ? names[type] : "untyped";
}
