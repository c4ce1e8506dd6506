/* kconfig-deps.c: the visible symbols that meet a symbol's dependencies, for --with-deps. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig-index.h"
#include "kconfig/kconfig-index-internal.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

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

	if (ksym_has_prompt(sym) || s->overlay_depth >= MAX_OVERLAY_DEPTH)
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
	sym = kindex_defined(s->idx, name);
	if (sym && follows(s, sym))
		return "y";
	return s->get(name, s->data);	/* follows() may have asked for others */
}

static int eval_overlay(struct satisfy *s, const struct kconfig_expr *e)
{
	struct kindex_eval ev;

	kindex_eval_init(&ev, s->idx, overlay_get, s);
	return kindex_eval(&ev, e);
}

static int entry_deps_overlay(struct satisfy *s, const struct kentry *e)
{
	struct kindex_eval ev;

	kindex_eval_init(&ev, s->idx, overlay_get, s);
	return kindex_entry_deps(&ev, e);
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

		krev_list(&sel, sym->selected_by, 0);
		kindex_add_list(&s->why, " (selected by ", &sel);
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
	sym = kindex_defined(s->idx, name);
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
	if (!ksym_has_prompt(sym)) {
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
	const struct ksym *sym = kindex_defined(idx, name);
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
	if (!ksym_has_prompt(sym)) {
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
