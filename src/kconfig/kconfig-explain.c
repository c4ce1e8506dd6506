/* kconfig-explain.c: why a .config can or cannot set a symbol, in one line (kconfig_index_explain()). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "kconfig/kconfig-index.h"
#include "kconfig/kconfig-index-internal.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

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

/* An entry's prompt condition: its "if" and every enclosing "visible if". */
static int entry_prompt(const struct kindex_eval *ev, const struct kentry *e)
{
	const struct kframe *f;
	int v, w;

	if (!e->has_prompt)
		return KCONFIG_N;
	v = kindex_eval(ev, e->prompt_cond);
	for (f = e->frame; f && v; f = f->parent) {
		w = kindex_eval(ev, f->visible);
		v = w < v ? w : v;
	}
	return v;
}

/* As Kconfig: a bool, or any symbol without modules, is y where it would be m. */
static int promote(const struct kindex_eval *ev, const struct kentry *e, int v)
{
	if (v == KCONFIG_M && (e->type != KCONFIG_TRISTATE ||
			       !kconfig_tristate(ev->get("MODULES", ev->data))))
		return KCONFIG_Y;
	return v;
}

static void add_clause(struct strbuf *out, const struct kindex_eval *ev, const char *what,
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
static void describe_frames(struct strbuf *out, const struct kindex_eval *ev, const struct kframe *f,
			    int want_prompt)
{
	struct strbuf what = STRBUF_INIT;
	const struct kconfig_expr *e;

	if (!f)
		return;
	describe_frames(out, ev, f->parent, want_prompt);
	e = want_prompt ? f->visible : f->dep;
	if (e && kindex_eval(ev, e) < KCONFIG_Y) {
		describe_frame(&what, f, e, want_prompt ? "visible only if" : "which depends on");
		add_clause(out, ev, what.buf, e, f->file, f->line);
	}
	strbuf_release(&what);
}

/*
 * The failing parts of an entry's dependencies (want_prompt: of its prompt's
 * "if"), those of its blocks first.
 */
static void describe_unmet(struct strbuf *out, const struct kindex_eval *ev, const struct kentry *e,
			   int want_prompt)
{
	const struct kconfig_expr *cond = want_prompt ? e->prompt_cond : e->deps;
	struct strbuf what = STRBUF_INIT;

	describe_frames(out, ev, e->frame, want_prompt);
	if (cond && kindex_eval(ev, cond) < KCONFIG_Y) {
		strbuf_addstr(&what, want_prompt ? "its prompt is shown only if " : "depends on ");
		kconfig_expr_print(&what, cond);
		add_clause(out, ev, what.buf, cond, e->file, e->line);
	}
	strbuf_release(&what);
}

static void describe_selectors(struct strbuf *out, const struct ksym *sym)
{
	struct strvec sel = STRVEC_INIT, imp = STRVEC_INIT;

	krev_list(&sel, sym->selected_by, 1);
	krev_list(&imp, sym->implied_by, 1);
	kindex_add_list(out, "; selected by ", &sel);
	kindex_add_list(out, "; implied by ", &imp);
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
	kindex_add_list(out, "; defaults: ", &defaults);
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
	kindex_add_list(out, "; assuming these toolchain tests pass: ", &macros);
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
	const struct ksym *sym = kindex_defined(idx, name);
	const struct kentry *e, *best = NULL, *deps_ok = NULL;
	struct strbuf why = STRBUF_INIT;
	enum kconfig_explain ret;
	int best_v = -1;
	struct kindex_eval ev;

	if (!sym) {
		strbuf_addf(out, "no Kconfig file defines it for SRCARCH=%s", idx->arch);
		return KCONFIG_EXPLAIN_UNKNOWN;
	}
	if (!ksym_has_prompt(sym)) {
		strbuf_addstr(out, "has no prompt, so only select or its default can set it");
		describe_defaults(out, sym);
		describe_selectors(out, sym);
		return KCONFIG_EXPLAIN_HIDDEN;
	}
	kindex_eval_init(&ev, idx, get, data);
	for (e = sym->entries; e; e = e->next) {
		int d, v;

		if (!e->has_prompt)
			continue;
		d = promote(&ev, e, kindex_entry_deps(&ev, e));
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
