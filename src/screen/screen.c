/* screen.c: the sequential bifurcation engine, a state machine that says what to build and run next. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "screen/screen-internal.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

struct screen *screen_new(const char *const *names, size_t nr,
			  const struct screen_options *opts)
{
	struct screen *s = xcalloc(1, sizeof(*s));
	const struct screen_options defaults = SCREEN_OPTIONS_INIT;
	size_t i;

	s->opts = opts ? *opts : defaults;
	/* stats_marker() and the t quantiles need three values a side. */
	if (s->opts.runs_initial < 3)
		s->opts.runs_initial = 3;
	if (s->opts.runs_step < 1)
		s->opts.runs_step = 1;
	if (s->opts.runs_max < s->opts.runs_initial)
		s->opts.runs_max = s->opts.runs_initial;
	if (!(s->opts.indifference > 0))
		s->opts.indifference = s->opts.threshold / 4;
	if (s->opts.runs_confirm < 3)
		s->opts.runs_confirm = 3;
	s->nr = nr;
	s->names = xcalloc(nr ? nr : 1, sizeof(*s->names));
	s->excluded = xcalloc(nr ? nr : 1, sizeof(*s->excluded));
	for (i = 0; i < nr; i++)
		s->names[i] = xstrdup(names[i]);
	return s;
}

void screen_free(struct screen *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++) {
		free(s->names[i]);
		free(s->excluded[i]);
	}
	free(s->names);
	free(s->excluded);
	free(s->prefer);
	free(s->edges);
	free(s->order);
	free(s->position);
	for (i = 0; i < s->nr_variants; i++) {
		struct screen_variant *v = &s->variants[i];

		free(v->name);
		free(v->options);
		free(v->values);
		free(v->failure);
		free(v->note);
	}
	free(s->variants);
	for (i = 0; i < s->nr_nodes; i++) {
		free(s->nodes[i].candidates);
		free(s->nodes[i].owned);
		free(s->nodes[i].evidence_text);
	}
	free(s->nodes);
	free(s->evidence);
	free(s->found);
	free(s->confirm);
	free(s->wants);
	free(s->in_step);
	free(s);
}

static int check_setup(struct screen *s, const char *what)
{
	if (s->phase != PHASE_SETUP)
		return error("screen: %s after the screen started", what);
	return 0;
}

int screen_prefer_order(struct screen *s, const size_t *order)
{
	unsigned char *seen;
	size_t i;
	int ret = 0;

	if (check_setup(s, "an order"))
		return -1;
	seen = xcalloc(s->nr ? s->nr : 1, 1);
	for (i = 0; i < s->nr; i++) {
		if (order[i] >= s->nr || seen[order[i]]) {
			ret = error("screen: the preferred order is not a permutation of the options");
			goto out;
		}
		seen[order[i]] = 1;
	}
	free(s->prefer);
	s->prefer = xmalloc((s->nr ? s->nr : 1) * sizeof(*s->prefer));
	memcpy(s->prefer, order, s->nr * sizeof(*order));
out:
	free(seen);
	return ret;
}

int screen_after(struct screen *s, size_t later, size_t earlier)
{
	if (check_setup(s, "a constraint"))
		return -1;
	if (later >= s->nr || earlier >= s->nr)
		return error("screen: no option %zu", later >= s->nr ? later : earlier);
	if (later == earlier)
		return error("screen: '%s' cannot come after itself", s->names[later]);
	ALLOC_GROW(s->edges, s->nr_edges + 1, s->alloc_edges);
	s->edges[s->nr_edges].later = later;
	s->edges[s->nr_edges].earlier = earlier;
	s->nr_edges++;
	return 0;
}

int screen_exclude(struct screen *s, size_t i, const char *reason)
{
	if (check_setup(s, "an exclusion"))
		return -1;
	if (i >= s->nr)
		return error("screen: no option %zu", i);
	free(s->excluded[i]);
	s->excluded[i] = xstrdup(reason ? reason : "excluded");
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The variant with these options (positions in screen order, sorted,
 * distinct), created when there is none yet; takes ownership of pos.
 */
static size_t get_variant(struct screen *s, size_t *pos, size_t nr, const char *name)
{
	struct screen_variant *v;
	size_t i, k;

	for (i = 0; i < s->nr_variants; i++) {
		v = &s->variants[i];
		if (v->nr_options != nr)
			continue;
		for (k = 0; k < nr; k++)
			if (s->position[v->options[k]] != pos[k])
				break;
		if (k == nr) {
			free(pos);
			return i;
		}
	}
	ALLOC_GROW(s->variants, s->nr_variants + 1, s->alloc_variants);
	v = &s->variants[s->nr_variants];
	memset(v, 0, sizeof(*v));
	v->name = xstrdup(name);
	v->nr_options = nr;
	v->options = pos;
	for (k = 0; k < nr; k++)
		v->options[k] = s->order[pos[k]];
	/* A prefix P_k holds exactly positions 0..k-1. */
	v->prefix = (!nr || pos[nr - 1] == nr - 1) ? nr : SCREEN_NONE;
	return s->nr_variants++;
}

static size_t get_prefix(struct screen *s, size_t k)
{
	size_t *pos = xmalloc((k ? k : 1) * sizeof(*pos));
	struct strbuf name = STRBUF_INIT;
	size_t i, v;

	for (i = 0; i < k; i++)
		pos[i] = i;
	if (!k)
		strbuf_addstr(&name, "baseline");
	else if (k == s->nr_order)
		strbuf_addstr(&name, "all");
	else
		strbuf_addf(&name, "first %zu", k);
	v = get_variant(s, pos, k, name.buf);
	strbuf_release(&name);
	return v;
}

static void want_runs(struct screen *s, size_t v, size_t runs)
{
	if (s->variants[v].want < runs)
		s->variants[v].want = runs;
}

static size_t add_node(struct screen *s, size_t lo, size_t hi, size_t parent)
{
	struct screen_node *n;

	ALLOC_GROW(s->nodes, s->nr_nodes + 1, s->alloc_nodes);
	n = &s->nodes[s->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->lo = lo;
	n->hi = hi;
	n->parent = parent;
	n->child[0] = n->child[1] = SCREEN_NONE;
	n->depth = parent == SCREEN_NONE ? 0 : s->nodes[parent].depth + 1;
	n->decision = SCREEN_PENDING;
	n->attributed = SCREEN_NONE;
	n->cost = n->cost_lo = n->cost_hi = NAN;
	n->from = get_prefix(s, lo);
	n->to = get_prefix(s, hi);
	/* Fresh runs of both ends, taken together: older runs saw another host. */
	n->from_start = s->variants[n->from].nr_values;
	n->to_start = s->variants[n->to].nr_values;
	want_runs(s, n->from, n->from_start + s->opts.runs_initial);
	want_runs(s, n->to, n->to_start + s->opts.runs_initial);
	return s->nr_nodes++;
}

int screen_start(struct screen *s)
{
	if (check_setup(s, "screen_start()"))
		return -1;
	if (screen_sort_options(s))
		return -1;
	s->phase = PHASE_SCREEN;
	if (!s->nr_order) {
		s->phase = PHASE_DONE;
		return 0;
	}
	add_node(s, 0, s->nr_order, SCREEN_NONE);
	return 0;
}

static int satisfied(const struct screen_variant *v)
{
	return v->failed || v->nr_values >= v->want;
}

static struct stats_options stats_opts(const struct screen *s)
{
	struct stats_options o = STATS_OPTIONS_INIT;

	o.confidence = s->opts.confidence;
	o.alpha = s->opts.alpha;
	/* So that a '*' marker says "beyond the threshold", not just "beyond noise". */
	o.noise = s->opts.threshold;
	o.higher_is_better = s->opts.higher_is_better;
	return o;
}

/* The comparison's change as a cost: positive when worse. */
static void set_cost(const struct screen *s, const struct stats_comparison *c,
		     double *cost, double *lo, double *hi)
{
	if (s->opts.higher_is_better) {
		*cost = -c->change;
		*lo = -c->change_hi;
		*hi = -c->change_lo;
	} else {
		*cost = c->change;
		*lo = c->change_lo;
		*hi = c->change_hi;
	}
}

/* Splits node i at position mid (lo < mid < hi): two children, P_mid the one new variant. */
static void split_at(struct screen *s, size_t i, size_t mid)
{
	size_t left, right;

	s->nodes[i].decision = SCREEN_SPLIT;
	left = add_node(s, s->nodes[i].lo, mid, i);
	right = add_node(s, mid, s->nodes[i].hi, i);
	/* add_node() may have moved the array. */
	s->nodes[i].child[0] = left;
	s->nodes[i].child[1] = right;
}

static void found(struct screen *s, size_t pos)
{
	ALLOC_GROW(s->found, s->nr_found + 1, s->alloc_found);
	/* A position until the confirmation sorts them and turns them into options. */
	s->found[s->nr_found++] = pos;
}

static void important(struct screen *s, size_t i, enum screen_why why)
{
	struct screen_node *n = &s->nodes[i];
	size_t lo = n->lo, hi = n->hi;

	n->why = why;
	if (hi - lo == 1 && why == SCREEN_WHY_CAP_WIDE) {
		n->decision = SCREEN_UNDECIDED;
		return;
	}
	if (hi - lo == 1) {
		n->decision = SCREEN_FOUND;
		found(s, lo);
		return;
	}
	if (s->opts.attribute && why != SCREEN_WHY_CAP_WIDE && why != SCREEN_WHY_CONTRADICTED &&
	    !n->evidence) {
		/* pending until screen_set_evidence() */
		n->evidence = 1;
		n->split_why = why;
		return;
	}
	split_at(s, i, lo + (hi - lo) / 2);
}

/* A node whose evidence came: see "Attribution" in screen.h. */
static void decide_on_evidence(struct screen *s, size_t i)
{
	struct screen_node *n = &s->nodes[i];

	n->why = n->split_why;
	if (n->nr_candidates == 1) {
		n->decision = SCREEN_FOUND;
		n->why = SCREEN_WHY_ATTRIBUTED;
		n->attributed = n->candidates[0];
		found(s, n->attributed);
	} else if (n->nr_candidates >= 2) {
		/* the first candidate of the second half starts the right child */
		split_at(s, i, n->candidates[n->nr_candidates / 2]);
	} else {
		split_at(s, i, n->lo + (n->hi - n->lo) / 2);
	}
}

/* Applies the decision rule of screen.h to a pending node whose runs are in. */
static void evaluate(struct screen *s, size_t i)
{
	struct screen_node *n = &s->nodes[i];
	const struct screen_variant *from = &s->variants[n->from];
	const struct screen_variant *to = &s->variants[n->to];
	struct stats_options so = stats_opts(s);
	double thr = s->opts.threshold;
	size_t fewer;
	int bounded;

	if (from->failed || to->failed) {
		n->decision = SCREEN_UNRESOLVED;
		n->why = SCREEN_WHY_FAILED;
		return;
	}
	n->looks++;
	stats_compare(&n->cmp, from->values + n->from_start, from->nr_values - n->from_start,
		      to->values + n->to_start, to->nr_values - n->to_start, &so);
	set_cost(s, &n->cmp, &n->cost, &n->cost_lo, &n->cost_hi);
	bounded = n->cmp.ci.state == STATS_CI_BOUNDED;

	if (bounded && n->cost_lo > thr && n->cmp.welch.p < s->opts.alpha) {
		important(s, i, SCREEN_WHY_ABOVE);
		return;
	}
	if (bounded && n->cost_hi < thr) {
		n->decision = SCREEN_DROPPED;
		n->why = SCREEN_WHY_BELOW;
		return;
	}
	fewer = n->cmp.n_base < n->cmp.n_variant ? n->cmp.n_base : n->cmp.n_variant;
	if (fewer < s->opts.runs_max) {
		size_t target = fewer + s->opts.runs_step;

		if (target > s->opts.runs_max)
			target = s->opts.runs_max;
		want_runs(s, n->from, n->from_start + target);
		want_runs(s, n->to, n->to_start + target);
		return;
	}
	if (bounded && n->cost_hi - n->cost_lo <= 2 * s->opts.indifference) {
		if (n->cost >= thr) {
			important(s, i, SCREEN_WHY_CAP_ABOVE);
		} else {
			n->decision = SCREEN_DROPPED;
			n->why = SCREEN_WHY_CAP_BELOW;
		}
		return;
	}
	important(s, i, SCREEN_WHY_CAP_WIDE);
}

/*
 * Marks in in[] (by position) option opt and everything it must come
 * after, through excluded options too (they are not marked).  Each
 * option's edges are walked once, so the stack holds at most nr_edges + 1.
 */
static void add_closure(struct screen *s, unsigned char *in, size_t opt)
{
	size_t *stack = xmalloc((s->nr_edges + 1) * sizeof(*stack)), nr = 0, e;
	unsigned char *seen = xcalloc(s->nr, 1);

	stack[nr++] = opt;
	while (nr) {
		size_t o = stack[--nr];

		if (seen[o])
			continue;
		seen[o] = 1;
		if (s->position[o] != SCREEN_NONE)
			in[s->position[o]] = 1;
		for (e = 0; e < s->nr_edges; e++)
			if (s->edges[e].later == o)
				stack[nr++] = s->edges[e].earlier;
	}
	free(seen);
	free(stack);
}

static size_t *positions_of(const struct screen *s, const unsigned char *in, size_t *nr)
{
	size_t *pos = xmalloc((s->nr_order ? s->nr_order : 1) * sizeof(*pos)), i;

	*nr = 0;
	for (i = 0; i < s->nr_order; i++)
		if (in[i])
			pos[(*nr)++] = i;
	return pos;
}

static size_t confirmation_variant(struct screen *s, const size_t *opts, size_t k,
				   const char *name)
{
	unsigned char *in = xcalloc(s->nr_order ? s->nr_order : 1, 1);
	size_t *pos, nr, i, v;

	for (i = 0; i < k; i++)
		add_closure(s, in, opts[i]);
	pos = positions_of(s, in, &nr);
	v = get_variant(s, pos, nr, name);
	free(in);
	return v;
}

static void start_confirmation(struct screen *s)
{
	size_t i, n;

	/* found[] holds positions, in the order the leaves were decided. */
	if (s->nr_found)
		qsort(s->found, s->nr_found, sizeof(*s->found), cmp_size);
	for (i = 0; i < s->nr_found; i++)
		s->found[i] = s->order[s->found[i]];
	s->phase = PHASE_CONFIRM;
	if (!s->opts.confirm || !s->nr_found)
		return;
	n = s->nr_found + (s->nr_found >= 2);
	s->confirm = xcalloc(n, sizeof(*s->confirm));
	for (i = 0; i < s->nr_found; i++) {
		struct screen_confirmation *c = &s->confirm[i];
		char *name = xstrfmt("%s alone", s->names[s->found[i]]);
		size_t k;

		c->option = s->found[i];
		c->node = SCREEN_NONE;
		for (k = 0; k < s->nr_nodes; k++)
			if (s->nodes[k].decision == SCREEN_FOUND &&
			    screen_node_option(s, &s->nodes[k]) == c->option)
				c->node = k;
		c->variant = confirmation_variant(s, &c->option, 1, name);
		free(name);
	}
	if (s->nr_found >= 2) {
		struct screen_confirmation *c = &s->confirm[s->nr_found];

		c->option = SCREEN_NONE;
		c->node = SCREEN_NONE;
		c->variant = confirmation_variant(s, s->found, s->nr_found, "all found");
	}
	s->nr_confirm = n;
	/* As for groups: fresh runs of the baseline and of each confirmation, together. */
	s->base_start = s->variants[get_prefix(s, 0)].nr_values;
	want_runs(s, get_prefix(s, 0), s->base_start + s->opts.runs_confirm);
	for (i = 0; i < n; i++) {
		struct screen_confirmation *c = &s->confirm[i];

		c->start = s->variants[c->variant].nr_values;
		want_runs(s, c->variant, c->start + s->opts.runs_confirm);
	}
}

/* Each confirmation against the baseline, q by Benjamini-Hochberg over them all. */
static void compare_confirmations(struct screen *s, const struct screen_variant *base)
{
	struct stats_options so = stats_opts(s);
	struct stats_comparison *c = xcalloc(s->nr_confirm ? s->nr_confirm : 1, sizeof(*c));
	size_t i;

	for (i = 0; i < s->nr_confirm; i++) {
		const struct screen_variant *v = &s->variants[s->confirm[i].variant];
		size_t start = s->confirm[i].start;

		stats_compare(&c[i], base->values + s->base_start,
			      base->failed ? 0 : base->nr_values - s->base_start,
			      v->values + start, v->failed ? 0 : v->nr_values - start, &so);
	}
	stats_adjust(c, s->nr_confirm, &so);
	for (i = 0; i < s->nr_confirm; i++) {
		struct screen_confirmation *conf = &s->confirm[i];

		conf->cmp = c[i];
		set_cost(s, &conf->cmp, &conf->cost, &conf->cost_lo, &conf->cost_hi);
	}
	free(c);
}

/* The runs of v from start on (the confirmation's own). */
static void describe_variant(struct stats_summary *out, const struct screen_variant *v,
			     size_t start)
{
	stats_describe(out, v->values + start, v->nr_values - start, NULL);
}

/*
 * An attributed option measured alone must account for its group: when
 * the group cost more than the option alone by more than the threshold,
 * intervals apart, another member did cost something, and the group is
 * split after all.  Returns how many groups were reopened; their options
 * leave the found ones and the confirmations start again later.
 */
static size_t reopen_contradicted(struct screen *s)
{
	size_t i, k, reopened = 0;

	compare_confirmations(s, &s->variants[get_prefix(s, 0)]);
	for (i = 0; i < s->nr_confirm; i++) {
		const struct screen_confirmation *c = &s->confirm[i];
		struct screen_node *n;

		if (c->node == SCREEN_NONE || isnan(c->cost_hi))
			continue;
		n = &s->nodes[c->node];
		if (n->why != SCREEN_WHY_ATTRIBUTED ||
		    !(n->cost_lo - c->cost_hi > s->opts.threshold))
			continue;
		for (k = 0; k < s->nr_found; k++)
			if (s->found[k] == c->option)
				break;
		memmove(s->found + k, s->found + k + 1, (s->nr_found - k - 1) * sizeof(*s->found));
		s->nr_found--;
		n->decision = SCREEN_PENDING;
		n->why = SCREEN_WHY_CONTRADICTED;
		n->attributed = SCREEN_NONE;
		split_at(s, c->node, n->lo + (n->hi - n->lo) / 2);
		s->nodes[c->node].why = SCREEN_WHY_CONTRADICTED;
		reopened++;
	}
	if (!reopened)
		return 0;
	/* back to positions, as the screen phase keeps them */
	for (k = 0; k < s->nr_found; k++)
		s->found[k] = s->position[s->found[k]];
	free(s->confirm);
	s->confirm = NULL;
	s->nr_confirm = 0;
	s->phase = PHASE_SCREEN;
	return reopened;
}

static void finish_confirmation(struct screen *s)
{
	const struct screen_variant *base = &s->variants[get_prefix(s, 0)];
	struct stats_options so = stats_opts(s);
	struct stats_summary sb, sall, *alone;
	size_t i;

	compare_confirmations(s, base);
	if (s->nr_found < 2 || base->failed)
		return;
	for (i = 0; i < s->nr_confirm; i++)
		if (s->variants[s->confirm[i].variant].failed)
			return;
	alone = xcalloc(s->nr_found, sizeof(*alone));
	describe_variant(&sb, base, s->base_start);
	for (i = 0; i < s->nr_found; i++)
		describe_variant(&alone[i], &s->variants[s->confirm[i].variant],
				 s->confirm[i].start);
	describe_variant(&sall, &s->variants[s->confirm[s->nr_found].variant],
			 s->confirm[s->nr_found].start);
	stats_multiplicative(&s->interaction, &sb, &sall, alone, s->nr_found, &so);
	s->has_interaction = 1;
	free(alone);
}

/* Runs still missing, as wants; 1 when there are any. */
static int collect_wants(struct screen *s)
{
	size_t i;

	s->nr_wants = 0;
	ALLOC_GROW(s->in_step, s->nr_variants, s->alloc_in_step);
	for (i = 0; i < s->nr_variants; i++) {
		struct screen_variant *v = &s->variants[i];
		struct screen_want *w;

		s->in_step[i] = 0;
		if (satisfied(v))
			continue;
		ALLOC_GROW(s->wants, s->nr_wants + 1, s->alloc_wants);
		w = &s->wants[s->nr_wants++];
		w->variant = i;
		w->runs = v->want;
		w->build = !v->nr_values;
		s->in_step[i] = 1;
	}
	return s->nr_wants > 0;
}

int screen_next(struct screen *s, struct screen_step *out)
{
	memset(out, 0, sizeof(*out));
	if (s->phase == PHASE_SETUP)
		return error("screen: screen_next() before screen_start()");
	for (;;) {
		size_t i, nr;
		int pending = 0;

		if (s->phase == PHASE_DONE) {
			s->nr_wants = 0;
			out->done = 1;
			return 0;
		}
		if (collect_wants(s)) {
			out->wants = s->wants;
			out->nr = s->nr_wants;
			return 0;
		}
		if (s->phase == PHASE_CONFIRM) {
			if (s->opts.attribute && reopen_contradicted(s))
				continue;
			finish_confirmation(s);
			s->phase = PHASE_DONE;
			continue;
		}
		/*
		 * Every want is met: each pending node can be evaluated.
		 * Children created here wait for their new variant.
		 */
		nr = s->nr_nodes;
		for (i = 0; i < nr; i++) {
			if (s->nodes[i].decision != SCREEN_PENDING)
				continue;
			if (s->nodes[i].evidence == 2)
				decide_on_evidence(s, i);
			else if (!s->nodes[i].evidence)
				evaluate(s, i);
		}
		s->nr_evidence = 0;
		for (i = 0; i < s->nr_nodes; i++) {
			pending |= s->nodes[i].decision == SCREEN_PENDING;
			if (s->nodes[i].decision == SCREEN_PENDING && s->nodes[i].evidence == 1) {
				ALLOC_GROW(s->evidence, s->nr_evidence + 1, s->alloc_evidence);
				s->evidence[s->nr_evidence++] = i;
			}
		}
		if (s->nr_evidence) {
			out->evidence = s->evidence;
			out->nr_evidence = s->nr_evidence;
			return 0;
		}
		if (!pending)
			start_confirmation(s);
	}
}

int screen_set_evidence(struct screen *s, size_t node, const size_t *candidates, size_t nr,
			const double *owned, const char *text)
{
	struct screen_node *n;
	size_t k;

	if (node >= s->nr_nodes || s->nodes[node].evidence != 1)
		return error("screen: node %zu did not ask for evidence", node);
	n = &s->nodes[node];
	free(n->candidates);
	n->candidates = xmalloc((nr ? nr : 1) * sizeof(*n->candidates));
	for (k = 0; k < nr; k++) {
		size_t pos = candidates[k] < s->nr ? s->position[candidates[k]] : SCREEN_NONE;

		if (pos == SCREEN_NONE || pos < n->lo || pos >= n->hi)
			return error("screen: '%s' is not a member of group %zu",
				     candidates[k] < s->nr ? s->names[candidates[k]] : "?", node);
		n->candidates[k] = pos;
	}
	if (nr)
		qsort(n->candidates, nr, sizeof(*n->candidates), cmp_size);
	n->nr_candidates = nr;
	free(n->owned);
	n->owned = xmalloc((n->hi - n->lo) * sizeof(*n->owned));
	for (k = 0; k < n->hi - n->lo; k++)
		n->owned[k] = owned ? owned[k] : NAN;
	free(n->evidence_text);
	n->evidence_text = text ? xstrdup(text) : NULL;
	n->evidence = 2;
	return 0;
}

int screen_add_run(struct screen *s, size_t variant, double value)
{
	struct screen_variant *v;

	if (variant >= s->nr_variants || variant >= s->alloc_in_step || !s->in_step[variant])
		return error("screen: variant %zu was not asked for", variant);
	v = &s->variants[variant];
	if (v->failed)
		return error("screen: variant '%s' failed", v->name);
	if (v->nr_values >= v->want)
		return error("screen: variant '%s' already has the %zu runs asked for",
			     v->name, v->want);
	if (!isfinite(value) || value <= 0)
		return error("screen: a run of '%s' gave %g, not a positive number",
			     v->name, value);
	ALLOC_GROW(v->values, v->nr_values + 1, v->alloc_values);
	v->values[v->nr_values++] = value;
	return 0;
}

int screen_variant_failed(struct screen *s, size_t variant, const char *why)
{
	struct screen_variant *v;

	if (variant >= s->nr_variants)
		return error("screen: no variant %zu", variant);
	v = &s->variants[variant];
	v->failed = 1;
	free(v->failure);
	v->failure = xstrdup(why ? why : "failed");
	return 0;
}

int screen_variant_note(struct screen *s, size_t variant, const char *note)
{
	struct screen_variant *v;

	if (variant >= s->nr_variants)
		return error("screen: no variant %zu", variant);
	v = &s->variants[variant];
	free(v->note);
	v->note = xstrdup(note);
	return 0;
}

const struct screen_options *screen_get_options(const struct screen *s)
{
	return &s->opts;
}

size_t screen_nr_options(const struct screen *s)
{
	return s->nr;
}

const char *screen_option_name(const struct screen *s, size_t i)
{
	return i < s->nr ? s->names[i] : NULL;
}

const char *screen_excluded(const struct screen *s, size_t i)
{
	return i < s->nr ? s->excluded[i] : NULL;
}

const size_t *screen_order(const struct screen *s, size_t *nr)
{
	*nr = s->nr_order;
	return s->order;
}

size_t screen_nr_variants(const struct screen *s)
{
	return s->nr_variants;
}

const struct screen_variant *screen_variant(const struct screen *s, size_t v)
{
	return v < s->nr_variants ? &s->variants[v] : NULL;
}

size_t screen_node_option(const struct screen *s, const struct screen_node *n)
{
	if (n->decision != SCREEN_FOUND)
		return SCREEN_NONE;
	return s->order[n->attributed != SCREEN_NONE ? n->attributed : n->lo];
}

size_t screen_nr_nodes(const struct screen *s)
{
	return s->nr_nodes;
}

const struct screen_node *screen_node(const struct screen *s, size_t i)
{
	return i < s->nr_nodes ? &s->nodes[i] : NULL;
}

size_t screen_builds(const struct screen *s)
{
	return s->nr_variants;
}

size_t screen_runs(const struct screen *s)
{
	size_t i, runs = 0;

	for (i = 0; i < s->nr_variants; i++)
		runs += s->variants[i].nr_values;
	return runs;
}

size_t screen_nr_found(const struct screen *s)
{
	return s->nr_found;
}

size_t screen_found(const struct screen *s, size_t i)
{
	if (i >= s->nr_found)
		return SCREEN_NONE;
	/* Before confirmation found[] holds positions, after it options. */
	return s->phase >= PHASE_CONFIRM ? s->found[i] : s->order[s->found[i]];
}

size_t screen_nr_unresolved(const struct screen *s)
{
	size_t i, nr = 0;

	for (i = 0; i < s->nr_nodes; i++)
		if (s->nodes[i].decision == SCREEN_UNRESOLVED)
			nr += s->nodes[i].hi - s->nodes[i].lo;
	return nr;
}

size_t screen_nr_confirmations(const struct screen *s)
{
	return s->phase == PHASE_DONE ? s->nr_confirm : 0;
}

const struct screen_confirmation *screen_confirmation(const struct screen *s, size_t i)
{
	return i < screen_nr_confirmations(s) ? &s->confirm[i] : NULL;
}

const struct stats_interaction *screen_interaction(const struct screen *s)
{
	return s->phase == PHASE_DONE && s->has_interaction ? &s->interaction : NULL;
}

const char *screen_decision_name(enum screen_decision d)
{
	switch (d) {
	case SCREEN_PENDING:
		return "pending";
	case SCREEN_SPLIT:
		return "split";
	case SCREEN_FOUND:
		return "found";
	case SCREEN_DROPPED:
		return "dropped";
	case SCREEN_UNDECIDED:
		return "undecided";
	case SCREEN_UNRESOLVED:
		return "unresolved";
	}
	return "?";
}

const char *screen_why_text(enum screen_why why)
{
	switch (why) {
	case SCREEN_WHY_NONE:
		return "";
	case SCREEN_WHY_ABOVE:
		return "interval above the threshold";
	case SCREEN_WHY_BELOW:
		return "interval below the threshold";
	case SCREEN_WHY_CAP_ABOVE:
		return "at the run cap, near the threshold, estimate above";
	case SCREEN_WHY_CAP_BELOW:
		return "at the run cap, near the threshold, estimate below";
	case SCREEN_WHY_CAP_WIDE:
		return "at the run cap and still uncertain";
	case SCREEN_WHY_FAILED:
		return "a variant it needs failed";
	case SCREEN_WHY_ATTRIBUTED:
		return "above the threshold, in code only one member can have changed";
	case SCREEN_WHY_CONTRADICTED:
		return "attributed, but the option alone costs less: split after all";
	}
	return "?";
}

void screen_option_verdict(const struct screen *s, size_t option, struct screen_verdict *out)
{
	size_t pos = option < s->nr ? s->position[option] : SCREEN_NONE, i;

	out->kind = SCREEN_VERDICT_PENDING;
	out->node = SCREEN_NONE;
	out->attributed = 0;
	out->value = out->lo = out->hi = NAN;
	if (option >= s->nr || s->excluded[option]) {
		out->kind = SCREEN_VERDICT_EXCLUDED;
		return;
	}
	if (pos == SCREEN_NONE)
		return;
	/* the deepest decided node that holds it decides: nodes come after their parents */
	for (i = 0; i < s->nr_nodes; i++) {
		const struct screen_node *n = &s->nodes[i];

		if (pos < n->lo || pos >= n->hi || n->decision == SCREEN_PENDING ||
		    n->decision == SCREEN_SPLIT)
			continue;
		out->node = i;
		out->value = n->cost;
		out->lo = n->cost_lo;
		out->hi = n->cost_hi;
		switch (n->decision) {
		case SCREEN_FOUND:
			if (n->attributed == SCREEN_NONE || n->attributed == pos) {
				out->kind = SCREEN_VERDICT_FOUND;
				out->attributed = n->attributed == pos;
			} else {
				out->kind = SCREEN_VERDICT_CLEARED;
				out->attributed = 1;
				out->value = n->owned ? n->owned[pos - n->lo] : NAN;
				out->lo = out->hi = NAN;
			}
			break;
		case SCREEN_DROPPED:
			out->kind = SCREEN_VERDICT_BELOW;
			break;
		case SCREEN_UNDECIDED:
			out->kind = SCREEN_VERDICT_UNDECIDED;
			break;
		case SCREEN_UNRESOLVED:
			out->kind = SCREEN_VERDICT_UNRESOLVED;
			break;
		default:
			break;
		}
	}
}

const char *screen_verdict_name(enum screen_verdict_kind kind)
{
	switch (kind) {
	case SCREEN_VERDICT_PENDING:
		return "pending";
	case SCREEN_VERDICT_FOUND:
		return "found";
	case SCREEN_VERDICT_BELOW:
		return "below";
	case SCREEN_VERDICT_CLEARED:
		return "cleared";
	case SCREEN_VERDICT_UNDECIDED:
		return "undecided";
	case SCREEN_VERDICT_UNRESOLVED:
		return "unresolved";
	case SCREEN_VERDICT_EXCLUDED:
		return "excluded";
	}
	return "?";
}
