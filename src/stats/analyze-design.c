/* analyze-design.c: the designs' own checks: multiplicativity (all against its options alone) and cumulative steps. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "stats/analyze.h"
#include "stats/analyze-parts.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define NONE SIZE_MAX

static const struct stats_summary *summary_of(const struct analyze_table *t, size_t row,
					      const struct stats_summary *empty)
{
	return row == NONE ? empty : &t->rows[row].summary;
}

static int is_kind(const struct analyze_model *m, size_t i, const char *kind)
{
	return i != NONE && m->variants[i].v.kind && !strcmp(m->variants[i].v.kind, kind);
}

/*
 * Whether an oat variant stays out of the product: a no-op, or the same
 * kernel as another oat variant, which is in it.
 */
static int left_out(const struct analyze_model *m, size_t i)
{
	const struct analyze_variant *av = &m->variants[i];

	if (av->state == ANALYZE_NO_OP)
		return 1;
	return av->state == ANALYZE_SAME_AS && (av->twin == NONE || is_kind(m, av->twin, "oat"));
}

/* The option a loo variant leaves out: "all-CONFIG_X=y" leaves out CONFIG_X=y. */
static size_t alone_variant(const struct analyze_model *m, size_t loo)
{
	const char *name = m->variants[loo].short_name, *opt;
	size_t i;

	if (!skip_prefix(name, "all-", &opt))
		return NONE;
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (av->v.kind && !strcmp(av->v.kind, "oat") && !strcmp(av->short_name, opt) &&
		    av->source == m->variants[loo].source)
			return i;
	}
	return NONE;
}

void analyze_design_interactions(const struct analyze_model *m, struct analyze_table *t,
				 const struct analyze_options *opts)
{
	struct stats_options so = opts->stats;
	struct stats_summary empty, *alone = NULL;
	const struct stats_summary *base;
	size_t all = NONE, all_row, i, k = 0, alloc = 0, alloc_al = 0;

	so.higher_is_better = t->higher_is_better;
	stats_describe(&empty, NULL, 0, NULL);
	if (t->baseline == NONE)
		return;
	for (i = 0; i < m->nr_variants && all == NONE; i++)
		if (is_kind(m, i, "all") && m->variants[i].source == t->source)
			all = i;
	if (all == NONE)
		return;
	base = &t->rows[t->baseline].summary;
	all_row = analyze_row_of(t, all);

	for (i = 0; i < m->nr_variants; i++) {
		if (!is_kind(m, i, "oat") || m->variants[i].source != t->source)
			continue;
		if (left_out(m, i)) {
			t->product_left_out++;
			continue;
		}
		ALLOC_GROW(alone, k + 1, alloc);
		t->product_rows = xrealloc(t->product_rows, alloc * sizeof(*t->product_rows));
		t->product_variants = xrealloc(t->product_variants,
					       alloc * sizeof(*t->product_variants));
		t->product_rows[k] = analyze_row_of(t, i);
		t->product_variants[k] = i;
		alone[k++] = *summary_of(t, analyze_row_of(t, i), &empty);
	}
	if (k >= 2) {
		t->has_product = 1;
		t->product_k = k;
		stats_multiplicative(&t->product, base, summary_of(t, all_row, &empty),
				     alone, k, &so);
	}
	free(alone);

	for (i = 0; i < m->nr_variants; i++) {
		struct analyze_added_last *al;
		size_t o;

		if (!is_kind(m, i, "loo") || m->variants[i].source != t->source)
			continue;
		o = alone_variant(m, i);
		if (o == NONE)
			continue;
		ALLOC_GROW(t->added_last, t->nr_added_last + 1, alloc_al);
		al = &t->added_last[t->nr_added_last++];
		memset(al, 0, sizeof(*al));
		al->option = xstrdup(m->variants[o].short_name);
		al->loo_row = analyze_row_of(t, i);
		al->alone_row = NONE;
		if (analyze_measured(m, i) == analyze_measured(m, all)) {
			al->kind = ANALYZE_AL_SAME_AS_ALL;
			al->loo_row = NONE;
			if (m->variants[o].state != ANALYZE_NO_OP)
				al->alone_row = analyze_row_of(t, o);
		} else if (m->variants[o].state == ANALYZE_NO_OP) {
			const struct analyze_row *lr = al->loo_row == NONE ? NULL :
				&t->rows[al->loo_row];
			const struct analyze_row *ar = all_row == NONE ? NULL : &t->rows[all_row];

			al->kind = ANALYZE_AL_ALONE_NOOP;
			stats_compare(&al->cmp, lr ? lr->values : NULL, lr ? lr->n : 0,
				      ar ? ar->values : NULL, ar ? ar->n : 0, &so);
		} else {
			al->kind = ANALYZE_AL_MODEL;
			al->alone_row = analyze_row_of(t, o);
			stats_added_last(&al->ia, base, summary_of(t, al->alone_row, &empty),
					 summary_of(t, all_row, &empty),
					 summary_of(t, al->loo_row, &empty), &so);
		}
	}
}

/*
 * The row a step is measured against (analyze.h, "Cumulative steps"):
 * the step before it, the baseline's for the first and for a step before
 * that is a no-op; NONE when that step has no row.
 */
static size_t step_before(const struct analyze_model *m, const struct analyze_table *t,
			  size_t prev_variant)
{
	if (prev_variant == NONE || m->variants[prev_variant].state == ANALYZE_NO_OP)
		return t->baseline;
	return analyze_row_of(t, prev_variant);
}

void analyze_design_steps(const struct analyze_model *m, struct analyze_table *t,
			  const struct analyze_options *opts)
{
	struct stats_options so = opts->stats;
	struct stats_comparison *family;
	size_t i, r, nf = 0, prev = NONE, number = 0;

	so.higher_is_better = t->higher_is_better;
	family = xcalloc(t->nr_rows ? t->nr_rows : 1, sizeof(*family));
	for (i = 0; i < m->nr_variants; i++) {
		struct analyze_row *row;
		const struct analyze_row *before;
		size_t b;

		if (!is_kind(m, i, "cumulative"))
			continue;
		number++;
		r = analyze_row_of(t, i);
		b = step_before(m, t, prev);
		prev = i;
		if (r == NONE)
			continue;
		row = &t->rows[r];
		row->step_number = number;
		row->step_prev = b;
		t->nr_steps++;
		if (b == NONE)
			continue;
		before = &t->rows[b];
		if (analyze_measured(m, t->rows[b].variant) == analyze_measured(m, i)) {
			row->step = ANALYZE_STEP_SAME;
			continue;
		}
		if (!row->n || !before->n)
			continue;
		stats_compare(&row->step_cmp, before->values, before->n, row->values, row->n, &so);
		row->step = ANALYZE_STEP_COMPARED;
		family[nf++] = row->step_cmp;
	}
	stats_adjust(family, nf, &so);
	for (r = nf = 0; r < t->nr_rows; r++)
		if (t->rows[r].step == ANALYZE_STEP_COMPARED)
			t->rows[r].step_cmp = family[nf++];
	free(family);
}
