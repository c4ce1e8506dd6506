/* report-build.c: the report's document built from the analysis, one function per section. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "report/report-doc.h"
#include "report/report-sections.h"
#include "report/report-util.h"
#include "report/report-where.h"
#include "run/meter.h"
#include "store/shard-merge.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

/*
 * Per workload and metric a section: its facts, the table of variants
 * (baseline, all, cumulative steps in order, then costliest first), the
 * legend, the A/A control, the chart (html), the multiplicativity check,
 * added last, failed runs, short rows, variants still to come, runs in two
 * clusters, and with several sources each source against the first.  A
 * parameter series is one table for all its members (html keeps each
 * member's own section too).  Then, once: the named groups, the variants
 * not measured and why, a patched source's builds, the environment.
 */

static enum doc_tone tone_of(char marker, int cost)
{
	if (marker == '*')
		return cost > 0 ? DOC_COST : DOC_GAIN;
	if (marker == '~')
		return DOC_NOISE;
	return DOC_PLAIN;
}

/*
 * A cell shaded by an effect (html): as deep as the effect against full
 * (a change of full percent or more is the deepest), so an option x kernel
 * grid reads at a glance.  Not significant: no shade.
 */
static void shade(struct doc_cell *c, double change, int cost, char marker, double full)
{
	double a = fabs(change) / full;

	if (!isfinite(change) || (marker != '*' && marker != '~') || !cost)
		return;
	c->tone = cost > 0 ? DOC_COST : DOC_GAIN;
	c->shade = 0.12 + 0.6 * (a > 1 ? 1 : a);
}

static void metric_fact(struct doc_section *s, const char *metric, const char *unit,
			int higher, const char *about, const char *tail)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, metric);
	if (*unit)
		strbuf_addf(&sb, " (%s)", unit);
	strbuf_addf(&sb, ", %s is better: %s%s", higher ? "higher" : "lower", about, tail);
	doc_fact(s, "metric", sb.buf);
	strbuf_release(&sb);
}

static void table_facts(struct doc_section *s, const struct analyze_model *m,
			const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT, tail = STRBUF_INIT;

	doc_fact(s, "workload", t->workload);
	if (t->iterations)
		strbuf_addf(&tail, " (up to %zu iterations)", t->iterations);
	metric_fact(s, t->metric, t->unit, t->higher_is_better, report_metric_about(t), tail.buf);
	report_add_runs(&sb, t);
	strbuf_addf(&sb, ", %zu in all", t->runs);
	if (t->failed)
		strbuf_addf(&sb, "; %zu failed run%s excluded", t->failed, t->failed == 1 ? "" : "s");
	if (t->missing)
		strbuf_addf(&sb, "; %zu without this metric", t->missing);
	doc_fact(s, "runs", sb.buf);
	strbuf_reset(&sb);
	if (t->warmups)
		strbuf_addf(&sb, "%zu, excluded", t->warmups);
	doc_fact(s, "warm-ups", t->warmups ? sb.buf : "none recorded");
	doc_fact(s, "accel", *t->accel ? t->accel : NULL);
	doc_fact(s, "clock", t->clock_text);
	if (m->conditions.boot)
		doc_fact(s, "boot", m->conditions.boot);
	strbuf_reset(&sb);
	if (*m->sources[t->source].label) {
		analyze_describe_source(&sb, &m->sources[t->source]);
		doc_fact(s, "source", sb.buf);
	} else {
		/* "6.1.192 (arm64)": an arch other than x86_64 (older plans stored none) is named */
		const struct conditions *c = &m->conditions;

		if (c->kernel_version)
			strbuf_addstr(&sb, c->kernel_version);
		if (sb.len && c->arch && strcmp(c->arch, "x86_64"))
			strbuf_addf(&sb, " (%s)", c->arch);
		doc_fact(s, "kernel", sb.len ? sb.buf : NULL);
	}
	doc_fact(s, "host", m->conditions.host);
	/* merged from shards (kconfperf merge): which, and the cross-host A/A check */
	strbuf_reset(&sb);
	shard_standing(&sb, &m->facts, NULL);
	if (sb.len)
		doc_fact(s, "shards", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&tail);
}

enum { C_NAME, C_RUNS, C_MEAN, C_SD, C_MEDIAN, C_CHANGE, C_CI, C_Q, C_MARK, C_STEP, C_NOTE,
       C_SIZE };

static void summary_cols(struct doc_table *dt, const struct analyze_model *m,
			 const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc_col *c;

	doc_col(dt, "Variant", DOC_COL_NAME);
	doc_col(dt, "Runs", DOC_COL_NUM)->formats = DOC_TABLES;
	doc_col(dt, "Mean", DOC_COL_NUM)->gap = 3;
	c = doc_col(dt, "SD", DOC_COL_NUM);
	c->gap = 1;
	c->bare_prefix = "± ";
	doc_col(dt, "Median", DOC_COL_NUM)->formats = DOC_HTML;
	c = doc_col(dt, "Change", DOC_COL_NUM);
	c->gap = 2;
	c->bare_prefix = "(";
	c->bare_suffix = ")";
	strbuf_addf(&sb, "%g%% CI", m->opts.stats.confidence * 100);
	doc_col(dt, sb.buf, DOC_COL_TEXT)->gap = 2;
	doc_col(dt, "q (BH)", DOC_COL_NUM)->formats = DOC_TABLES;
	doc_col(dt, "", DOC_COL_MARK)->gap = 1;
	c = doc_col(dt, "Step against the step before", DOC_COL_TEXT);
	c->gap = 2;
	c->elide = 1;
	c->bare_prefix = "step ";
	if (!t->nr_steps)
		c->formats = 0;
	c = doc_col(dt, "", DOC_COL_TEXT);
	c->gap = 2;
	c->elide = 1;
	c->formats = DOC_TEXT;
	doc_col(dt, "bzImage", DOC_COL_NUM)->formats = DOC_HTML;
	strbuf_release(&sb);
}

static void value_with_unit(struct strbuf *sb, double v, int decimals, const char *unit)
{
	strbuf_reset(sb);
	report_add_value(sb, v, decimals);
	if (*unit)
		strbuf_addf(sb, " %s", unit);
}

/* The name cell: the group's members (html) and the twin whose runs it shares. */
static void name_cell(struct doc_row *dr, const struct analyze_model *m,
		      const struct analyze_row *r)
{
	const struct analyze_variant *av = analyze_row_variant(m, r);
	const struct analyze_group *g = strcmp(av->v.kind, "oat") ? NULL :
		analyze_group(m, av->v.name);
	struct doc_cell *c = doc_cell(dr, C_NAME, "%s", av->v.name);
	struct strbuf sb = STRBUF_INIT;

	if (g) {
		strbuf_addstr(&sb, "group: ");
		report_add_members(&sb, g);
		doc_cell_note(c, sb.buf, "group", DOC_HTML);
		strbuf_reset(&sb);
	}
	report_add_same_as(&sb, m, r);
	doc_cell_note(c, sb.buf, "same-as", DOC_TABLES);
	doc_cell(dr, C_NOTE, "%s", sb.buf);
	strbuf_release(&sb);
}

static void summary_row(struct doc_table *dt, const struct analyze_model *m,
			const struct analyze_table *t, size_t i, int decimals)
{
	const struct analyze_row *r = &t->rows[i];
	const struct analyze_variant *av = analyze_row_variant(m, r);
	struct doc_row *dr = doc_row(dt);
	struct strbuf sb = STRBUF_INIT;
	enum doc_tone tone = r->compared ? tone_of(r->cmp.marker, r->cmp.cost) : DOC_PLAIN;
	struct doc_cell *c;

	dr->emph = r->is_baseline;
	name_cell(dr, m, r);
	doc_cell(dr, C_RUNS, "%zu", r->n);
	value_with_unit(&sb, r->summary.mean, decimals, t->unit);
	doc_cell(dr, C_MEAN, "%s", sb.buf);
	value_with_unit(&sb, r->summary.sd, decimals, t->unit);
	doc_cell(dr, C_SD, "%s", sb.buf);
	value_with_unit(&sb, r->summary.median, decimals, t->unit);
	doc_cell(dr, C_MEDIAN, "%s", sb.buf);
	strbuf_reset(&sb);
	report_add_step(&sb, r);
	if (sb.len) {
		c = doc_cell(dr, C_STEP, "%s", sb.buf);
		c->mark = *report_step_marker(r);
		if (r->step == ANALYZE_STEP_COMPARED)
			c->tone = tone_of(r->step_cmp.marker, r->step_cmp.cost);
	}
	strbuf_reset(&sb);
	if (r->is_baseline && av->has_build && av->build.bzimage_size > 0)
		report_add_bytes(&sb, (double)av->build.bzimage_size, 0);
	else if (av->has_size_delta)
		report_add_bytes(&sb, (double)av->size_delta, 1);
	doc_cell(dr, C_SIZE, "%s", sb.buf);
	if (r->compared) {
		strbuf_reset(&sb);
		stats_format_change(&sb, r->cmp.change, 1);
		doc_cell(dr, C_CHANGE, "%s", sb.buf)->tone = tone;
		strbuf_reset(&sb);
		stats_format_ci(&sb, &r->cmp, 1);
		doc_cell(dr, C_CI, "%s", sb.buf);
		if (isnan(r->cmp.q))
			doc_cell(dr, C_Q, "n/a");
		else
			doc_cell(dr, C_Q, "%.3g", r->cmp.q);
		c = doc_cell(dr, C_MARK, "%s", report_marker(t, i));
		c->tone = tone;
	}
	strbuf_release(&sb);
}

static void product(struct doc_section *s, const struct analyze_model *m,
		    const struct analyze_table *t)
{
	const struct stats_interaction *p = &t->product;
	static const char *const labels[] = {
		"predicted (product of alone)", "measured all", "measured / predicted",
	};
	const double *ratios[] = {
		&p->predicted, &p->measured, &p->ratio,
	};
	const double *los[] = { &p->predicted_lo, &p->measured_lo, &p->ratio_lo };
	const double *his[] = { &p->predicted_hi, &p->measured_hi, &p->ratio_hi };
	struct strbuf title = STRBUF_INIT, sb = STRBUF_INIT;
	struct doc_table *dt;
	struct doc_col *c;
	size_t i;

	if (!t->has_product)
		return;
	strbuf_addf(&title, "multiplicativity: %zu options measured alone against all",
		    t->product_k);
	if (t->product_left_out)
		strbuf_addf(&title, " (%zu no-op or duplicate left out)", t->product_left_out);
	report_add_product_blockers(&sb, m, t);
	if (p->marker == '?' && sb.len) {
		struct doc_block *b = doc_add_para(s, DOC_NOTES, "not yet: too few runs of %s",
						   sb.buf);

		b->indent_text = 2;
		doc_block_title(b, DOC_WORD, "%s", title.buf);
		goto out;
	}
	dt = doc_add_table(s, NULL);
	dt->indent_text = 2;
	doc_block_title(doc_last_block(s), DOC_WORD, "%s", title.buf);
	doc_col(dt, "", DOC_COL_TEXT);
	c = doc_col(dt, "change", DOC_COL_TEXT);
	c->gap = 2;
	c->ragged = 1;
	doc_col(dt, "", DOC_COL_TEXT)->bare_prefix = ": ";
	for (i = 0; i < ARRAY_SIZE(labels); i++) {
		struct doc_row *r = doc_row(dt);

		doc_cell(r, 0, "%s", labels[i]);
		strbuf_reset(&sb);
		report_add_ratio_interval(&sb, *ratios[i], *los[i], *his[i]);
		doc_cell(r, 1, "%s", sb.buf);
		if (i + 1 == ARRAY_SIZE(labels))
			doc_cell(r, 2, "%s", analyze_interaction_verdict(p))->mark =
				p->marker == '*' ? '*' : 0;
	}
out:
	strbuf_release(&title);
	strbuf_release(&sb);
}

static void added_last(struct doc_section *s, const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc_table *dt;
	size_t i;

	if (!t->nr_added_last)
		return;
	dt = doc_add_table(s, NULL);
	dt->indent_text = 2;
	doc_block_title(doc_last_block(s), DOC_WORD,
			"added last (all against all without it), beside alone:");
	doc_col(dt, "option", DOC_COL_NAME);
	doc_col(dt, "alone, added last (all against all without it)", DOC_COL_TEXT)->gap = 2;
	for (i = 0; i < t->nr_added_last; i++) {
		const struct analyze_added_last *al = &t->added_last[i];
		struct doc_row *r = doc_row(dt);

		strbuf_reset(&sb);
		switch (al->kind) {
		case ANALYZE_AL_MODEL:
			strbuf_addstr(&sb, "alone ");
			report_add_ratio_interval(&sb, al->ia.predicted, al->ia.predicted_lo,
						  al->ia.predicted_hi);
			strbuf_addstr(&sb, ", added last ");
			report_add_ratio_interval(&sb, al->ia.measured, al->ia.measured_lo,
						  al->ia.measured_hi);
			strbuf_addf(&sb, ": %s%s", analyze_interaction_verdict(&al->ia),
				    al->ia.marker == '*' ? " *" : "");
			break;
		case ANALYZE_AL_ALONE_NOOP:
			strbuf_addstr(&sb, "alone a no-op, added last ");
			stats_format_change(&sb, al->cmp.change, 1);
			strbuf_addch(&sb, ' ');
			stats_format_ci(&sb, &al->cmp, 1);
			if (strchr("*~?", al->cmp.marker) && al->cmp.marker)
				strbuf_addf(&sb, " %c", al->cmp.marker);
			break;
		case ANALYZE_AL_SAME_AS_ALL:
			strbuf_addstr(&sb, "added last: nothing (all without it is the same "
				      "kernel: other options turn it on)");
			break;
		}
		doc_cell(r, 0, "%s", al->option);
		doc_cell(r, 1, "%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void bimodal(struct doc_section *s, const struct analyze_model *m,
		    const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc_block *b;
	const char *p, *nl;

	report_add_bimodal(&sb, m, t);
	if (!sb.len)
		goto out;
	b = doc_add_block(s, DOC_PRE, DOC_NOTES);
	b->text_label = "note";
	for (p = sb.buf; (nl = strchr(p, '\n')); p = nl + 1)
		doc_line(b, "%.*s", (int)(nl - p), p);
out:
	strbuf_release(&sb);
}

/* Failed runs, rows with too few runs, variants not run yet, runs in two clusters. */
static void notes(struct doc_section *s, const struct analyze_model *m,
		  const struct analyze_table *t)
{
	struct strbuf few = STRBUF_INIT, pending = STRBUF_INIT, what = STRBUF_INIT;
	struct doc_block *failed = NULL;
	size_t i;

	for (i = 0; i < t->nr_notes; i++) {
		const struct analyze_note *n = &t->notes[i];
		const struct analyze_row *r = &t->rows[n->row];
		const char *name = analyze_row_variant(m, r)->v.name;

		switch (n->kind) {
		case ANALYZE_NOTE_FAILED:
			if (!failed) {
				failed = doc_add_block(s, DOC_LIST, DOC_NOTES);
				failed->indent_text = 2;
				doc_block_title(failed, DOC_WORD, "failed runs (excluded):");
			}
			strbuf_reset(&what);
			report_add_note(&what, t, n);
			doc_line(failed, "%s: %s", name, what.buf);
			break;
		case ANALYZE_NOTE_TOO_FEW:
			strbuf_addf(&few, "%s%s (%zu)", few.len ? ", " : "", name, r->n);
			break;
		case ANALYZE_NOTE_NOT_RUN:
			strbuf_addf(&pending, "%s%s", pending.len ? ", " : "", name);
			break;
		}
	}
	if (few.len)
		doc_add_para(s, DOC_NOTES, "note: fewer than %d runs so far: %s; their comparisons "
			     "are marked ?", ANALYZE_MIN_RUNS, few.buf);
	if (pending.len)
		doc_add_para(s, DOC_NOTES, "not run yet: %s", pending.buf);
	bimodal(s, m, t);
	strbuf_release(&few);
	strbuf_release(&pending);
	strbuf_release(&what);
}

/*
 * Several sources: for each source after the first, each counterpart's
 * cost on the first and on it, the same config on both, and the change of
 * cost; then why a counterpart has no numbers, how the sources resolve it
 * differently, the verdicts.
 */
static void across_pair(struct doc_section *sec, const struct analyze_model *m,
			const struct analyze_across *a, size_t s)
{
	const struct analyze_source *s0 = &m->sources[0], *s1 = &m->sources[s];
	int decimals = a->tables[0] == SIZE_MAX ? 3 : analyze_decimals(&m->tables[a->tables[0]]);
	struct strbuf sb = STRBUF_INIT, head = STRBUF_INIT;
	struct strvec notes = STRVEC_INIT;
	struct doc_table *dt = doc_add_table(sec, "grid");
	struct doc_block *b;
	size_t c, k;

	dt->text_heads = 1;
	strbuf_addf(&sb, "%s against %s", s1->label, s0->label);
	if (s1->patch)
		strbuf_addf(&sb, " (the patch %s, config for config)", s1->patch_name);
	strbuf_addf(&sb, ": %s %s%s%s%s, %s is better", a->workload, a->metric,
		    *a->unit ? " (" : "", a->unit, *a->unit ? ")" : "",
		    a->higher_is_better ? "higher" : "lower");
	doc_block_title(doc_last_block(sec), 0, "%s", sb.buf);
	strbuf_addf(&head, "%s against %s", s1->label, s0->label);
	doc_col(dt, "", DOC_COL_NAME);
	doc_col(dt, s0->label, DOC_COL_TEXT)->gap = 3;
	doc_col(dt, s1->label, DOC_COL_TEXT)->gap = 3;
	doc_col(dt, head.buf, DOC_COL_TEXT)->gap = 3;
	doc_col(dt, "change of cost", DOC_COL_TEXT)->gap = 3;
	for (c = 0; c < m->nr_counterparts; c++) {
		const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);
		const struct analyze_counterpart *cp = &m->counterparts[c];
		struct doc_row *r;
		size_t col;

		if (cp->variant[0] == SIZE_MAX && cp->variant[s] == SIZE_MAX)
			continue;
		r = doc_row(dt);
		r->emph = !strcmp(cp->name, "baseline");
		doc_cell(r, 0, "%s", cp->name);
		for (col = 1; col <= 2; col++) {
			size_t src = col == 1 ? 0 : s;
			const struct analyze_row *ar = report_across_row(m, a, c, src);

			strbuf_reset(&sb);
			report_add_across_cost(&sb, m, a, c, src, decimals);
			if (ar && ar->n && ar->compared)
				shade(doc_cell(r, col, "%s", sb.buf), ar->cmp.change, ar->cmp.cost,
				      ar->cmp.marker, 100);
			else
				doc_cell(r, col, "%s", sb.buf);
		}
		strbuf_reset(&sb);
		report_add_across_same(&sb, cell);
		shade(doc_cell(r, 3, "%s", sb.buf), cell->has_same ? cell->same.change : NAN,
		      cell->same.cost, cell->same.marker, 25);
		strbuf_reset(&sb);
		report_add_cost_change(&sb, cell);
		shade(doc_cell(r, 4, "%s", sb.buf), cell->has_change ? cell->change.change : NAN,
		      cell->change.cost, cell->change.marker, 25);
		report_across_notes(&notes, m, c, 0);
		report_across_notes(&notes, m, c, s);
	}
	b = doc_add_block(sec, DOC_PARA, DOC_LEGEND);
	doc_line(b, "(%s, %s: cost against that kernel's baseline; %s: the same config's values;",
		 s0->label, s1->label, head.buf);
	doc_line(b, " change of cost: the ratio of the two costs; [%g%% confidence interval], "
		 "markers as above, BH per column)", m->opts.stats.confidence * 100);
	if (notes.nr) {
		b = doc_add_block(sec, DOC_LIST, DOC_NOTES);
		b->indent_text = 2;
		for (k = 0; k < notes.nr; k++)
			doc_line(b, "%s", notes.v[k]);
	}
	b = NULL;
	for (c = 0; c < 2 * m->nr_counterparts; c++) {
		strbuf_reset(&sb);
		if (c % 2 ? !report_add_cost_verdict(&sb, m, a, c / 2, s) :
			    !report_add_patch_verdict(&sb, m, a, c / 2, s))
			continue;
		if (!b)
			b = doc_add_block(sec, DOC_LIST, DOC_BODY);
		doc_line(b, "%s", sb.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&head);
	strvec_clear(&notes);
}

static void across(struct doc_section *s, const struct analyze_model *m, size_t i)
{
	const struct analyze_across *a = analyze_across_after(m, i);
	size_t src;

	for (src = 1; a && src < m->nr_sources; src++)
		if (a->tables[src] != SIZE_MAX || a->tables[0] != SIZE_MAX)
			across_pair(s, m, a, src);
}

static void table_section(struct doc *d, const struct analyze_model *m, size_t i,
			  unsigned formats)
{
	const struct analyze_table *t = &m->tables[i];
	struct doc_section *s = doc_add_section(d, NULL, formats);
	struct strbuf sb = STRBUF_INIT;
	struct doc_table *dt;
	struct doc_block *b;
	size_t k;

	s->id = xstrfmt("t%zu", i + 1);
	if (*m->sources[t->source].label)
		analyze_describe_source(&sb, &m->sources[t->source]);
	doc_title(s, 0, "%s: %s%s%s", t->workload, t->metric, sb.len ? ", " : "", sb.buf);
	s->nav = xstrfmt("%s: %s%s%s", t->workload, t->metric,
			 *m->sources[t->source].label ? " " : "", m->sources[t->source].label);
	table_facts(s, m, t);
	dt = doc_add_table(s, "summary");
	summary_cols(dt, m, t);
	for (k = 0; k < t->nr_order; k++)
		summary_row(dt, m, t, t->order[k], analyze_decimals(t));
	doc_add_legend(s, m, t->nr_steps > 0);
	b = doc_add_para(s, DOC_LEGEND, "bzImage: size against the baseline's.");
	b->formats = DOC_HTML;
	if (t->aa_text)
		doc_add_para(s, t->aa_marked ? DOC_WARN : DOC_AA, "%s", t->aa_text);
	b = doc_add_block(s, DOC_CHART, DOC_BODY);
	b->formats = DOC_HTML;
	b->chart = i;
	product(s, m, t);
	added_last(s, t);
	notes(s, m, t);
	across(s, m, i);
	strbuf_release(&sb);
}

/* A parameter series: a row per value, a column per variant (analyze.h). */
static void series_section(struct doc *d, const struct analyze_model *m, size_t nr)
{
	const struct analyze_series *se = &m->series[nr];
	const struct analyze_table *first = &m->tables[se->first_table];
	struct doc_section *s = doc_add_section(d, NULL, DOC_ALL);
	struct strbuf sb = STRBUF_INIT, tail = STRBUF_INIT;
	struct doc_table *dt;
	size_t i, v, k;

	s->id = xstrfmt("s%zu", nr + 1);
	doc_title(s, 0, "%s: %s", se->label, se->metric);
	doc_fact(s, "series", se->label);
	strbuf_addf(&tail, "; a row per %s", se->param);
	metric_fact(s, se->metric, se->unit, se->higher_is_better, report_metric_about(first),
		    tail.buf);
	report_add_series_runs(&sb, se);
	strbuf_addf(&sb, ", %zu in all", se->runs);
	if (se->failed)
		strbuf_addf(&sb, "; %zu failed run%s excluded", se->failed, se->failed == 1 ? "" : "s");
	doc_fact(s, "runs", sb.buf);
	strbuf_reset(&sb);
	if (se->warmups) {
		strbuf_addf(&sb, "%zu, excluded", se->warmups);
		doc_fact(s, "warm-ups", sb.buf);
	}
	doc_fact(s, "accel", *first->accel ? first->accel : NULL);
	doc_fact(s, "clock", first->clock_text);
	if (m->conditions.boot)
		doc_fact(s, "boot", m->conditions.boot);
	doc_fact(s, "kernel", m->conditions.kernel_version);
	doc_fact(s, "host", m->conditions.host);

	dt = doc_add_table(s, "summary series");
	dt->text_heads = 1;
	doc_col(dt, se->param, DOC_COL_NAME)->bare_prefix = "Amean     ";
	for (v = 0; v < se->nr_variants; v++)
		doc_col(dt, m->variants[se->variants[v]].v.name, DOC_COL_TEXT)->gap = 3;
	for (i = 0; i < se->nr_values; i++) {
		struct doc_row *r = doc_row(dt);

		doc_cell(r, 0, "%s", se->values[i]);
		for (v = 0; v < se->nr_variants; v++) {
			const struct analyze_row *ar = analyze_series_cell(m, se, i, se->variants[v],
									   NULL);

			strbuf_reset(&sb);
			report_add_series_cell(&sb, m, se, i, se->variants[v]);
			doc_cell(r, v + 1, "%s", sb.buf)->tone = ar && ar->compared ?
				tone_of(ar->cmp.marker, ar->cmp.cost) : DOC_PLAIN;
		}
	}
	doc_add_legend(s, m, first->nr_steps > 0);
	for (i = 0; i < se->nr_values; i++) {
		const struct analyze_table *t = se->tables[i] == SIZE_MAX ? NULL :
			&m->tables[se->tables[i]];
		struct doc_block *b;

		if (!t) {
			doc_add_block(s, DOC_LIST, DOC_NOTES);
			doc_line(doc_last_block(s), "%s=%s: not run yet", se->param, se->values[i]);
			continue;
		}
		b = NULL;
		for (k = 0; k < t->nr_notes; k++) {
			strbuf_reset(&sb);
			report_add_note(&sb, t, &t->notes[k]);
			if (!b)
				b = doc_add_block(s, DOC_LIST, DOC_NOTES);
			doc_line(b, "%s=%s %s: %s", se->param, se->values[i],
				 analyze_row_variant(m, &t->rows[t->notes[k].row])->v.name, sb.buf);
		}
	}
	strbuf_release(&sb);
	strbuf_release(&tail);
}

static void screen(struct doc *d, const struct analyze_model *m)
{
	const char *text = m->screen_report;
	struct doc_section *s;
	struct doc_block *b;
	const char *p, *nl;

	if (!text)
		return;
	s = doc_add_section(d, "screen", DOC_ALL);
	doc_title(s, DOC_WORD, "screen");
	s->title_formats = DOC_TABLES;
	b = doc_add_block(s, DOC_PRE, DOC_BODY);
	for (p = text; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		doc_line(b, "%.*s", nl ? (int)(nl - p) : (int)strlen(p), p);
	}
}

static void tables(struct doc *d, const struct analyze_model *m)
{
	size_t i;

	if (!m->nr_tables) {
		struct doc_section *s = doc_add_section(d, NULL, DOC_ALL);

		doc_add_para(s, DOC_BODY, "no measured runs yet (%zu variant%s planned)",
			     m->nr_variants, m->nr_variants == 1 ? "" : "s");
	}
	for (i = 0; i < m->nr_tables; i++) {
		const struct analyze_table *t = &m->tables[i];

		/* a series' members are in its table; html keeps their own sections too */
		if (t->series != SIZE_MAX && m->series[t->series].first_table == i)
			series_section(d, m, t->series);
		table_section(d, m, i, t->series != SIZE_MAX ? DOC_HTML : DOC_ALL);
	}
}

static void groups(struct doc *d, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct doc_section *s;
	struct doc_table *dt;
	struct doc_col *c;
	size_t i;

	if (!m->nr_groups)
		return;
	s = doc_add_section(d, "groups", DOC_ALL);
	doc_title(s, DOC_WORD, "groups (each one variant):");
	dt = doc_add_table(s, NULL);
	dt->indent_text = 2;
	c = doc_col(dt, "group", DOC_COL_NAME);
	c->ragged = 1;
	c->bare_suffix = ":";
	doc_col(dt, "options", DOC_COL_NAME)->gap = 1;
	for (i = 0; i < m->nr_groups; i++) {
		struct doc_row *r = doc_row(dt);

		strbuf_reset(&sb);
		report_add_members(&sb, &m->groups[i]);
		doc_cell(r, 0, "%s", m->groups[i].name);
		doc_cell(r, 1, "%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void not_measured(struct doc *d, const struct analyze_model *m)
{
	struct doc_section *s = NULL;
	struct doc_table *dt = NULL;
	struct doc_col *c;
	size_t i;

	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];
		struct doc_row *r;

		if (!analyze_not_measured(m, av))
			continue;
		if (!s) {
			s = doc_add_section(d, "not-measured", DOC_ALL);
			doc_title(s, DOC_WORD, "not measured:");
			dt = doc_add_table(s, NULL);
			dt->indent_text = 2;
			doc_col(dt, "variant", DOC_COL_NAME);
			c = doc_col(dt, "status", DOC_COL_TEXT);
			c->gap = 2;
			c->ragged = 1;
			c->bare_suffix = ":";
			doc_col(dt, "why", DOC_COL_TEXT)->gap = 1;
		}
		r = doc_row(dt);
		doc_cell(r, 0, "%s", av->v.name);
		doc_cell(r, 1, "%s", analyze_state_name(av->state));
		doc_cell(r, 2, "%s", av->why ? av->why : "");
	}
}

/* Each patched source's builds beside its unpatched twins'. */
static void patch_builds(struct doc *d, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t s, c;

	for (s = 1; s < m->nr_sources; s++) {
		struct doc_section *sec = NULL;
		struct doc_table *dt = NULL;

		if (!m->sources[s].patch)
			continue;
		for (c = 0; c < m->nr_counterparts; c++) {
			struct doc_row *r;

			strbuf_reset(&sb);
			if (!report_add_patch_build(&sb, m, c, s))
				continue;
			if (!sec) {
				sec = doc_add_section(d, NULL, DOC_ALL);
				doc_title(sec, DOC_WORD, "builds of %s (%s), beside the unpatched ones:",
					  m->sources[s].label, m->sources[s].patch_name);
				dt = doc_add_table(sec, NULL);
				dt->indent_text = 2;
				doc_col(dt, "variant", DOC_COL_NAME);
				doc_col(dt, "build", DOC_COL_TEXT)->gap = 3;
			}
			r = doc_row(dt);
			doc_cell(r, 0, "%s", m->counterparts[c].name);
			doc_cell(r, 1, "%s", sb.buf);
		}
	}
	strbuf_release(&sb);
}

/* Every experiment fact, and the statistics' settings (html). */
static void environment(struct doc *d, const struct analyze_model *m)
{
	struct doc_section *s = doc_add_section(d, "environment", DOC_HTML);
	struct doc_table *dt = doc_add_table(s, "facts");
	struct doc_row *r;
	size_t i;

	doc_title(s, DOC_WORD, "environment");
	doc_col(dt, "fact", DOC_COL_TEXT);
	doc_col(dt, "value", DOC_COL_TEXT);
	for (i = 0; i + 1 < m->facts.nr; i += 2) {
		r = doc_row(dt);
		doc_cell(r, 0, "%s", m->facts.v[i]);
		doc_cell(r, 1, "%s", m->facts.v[i + 1]);
	}
	/* an import has no accel of ours: its runs' */
	if (m->conditions.accel == VM_ACCEL_AUTO && analyze_accel(m)) {
		r = doc_row(dt);
		doc_cell(r, 0, "accel");
		doc_cell(r, 1, "%s", analyze_accel(m));
	}
	r = doc_row(dt);
	doc_cell(r, 0, "confidence");
	doc_cell(r, 1, "%g", m->opts.stats.confidence);
	r = doc_row(dt);
	doc_cell(r, 0, "noise band");
	doc_cell(r, 1, "±%g%%", m->opts.stats.noise);
}

static void add_page_fact(void *d, const char *label, const char *value)
{
	doc_page_fact(d, label, value);
}

/* The conditions the reports list (store/conditions.h), and how many variants. */
static void page_facts(struct doc *d, const struct analyze_model *m)
{
	char *n = xstrfmt("%zu", m->nr_variants);

	conditions_each_listed(&m->conditions, add_page_fact, d);
	/* an import has no accel of ours: its runs' */
	if (m->conditions.accel == VM_ACCEL_AUTO && analyze_accel(m))
		doc_page_fact(d, "accel", analyze_accel(m));
	doc_page_fact(d, "variants", n);
	free(n);
}

/* Whole instructions as whole numbers, a per-operation mean's fraction as 3 digits. */
static void where_count(struct strbuf *sb, double v, int sign)
{
	if (v == 0)
		v = 0;	/* not -0 */
	if (sign && v > 0)
		strbuf_addch(sb, '+');
	if (fabs(v) >= 1000 || v == floor(v))
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.3g", v);
}

static void where_cell(struct doc_row *r, size_t col, double v, int sign)
{
	struct strbuf sb = STRBUF_INIT;

	where_count(&sb, v, sign);
	doc_cell(r, col, "%s", sb.buf);
	strbuf_release(&sb);
}

static void where_share(struct doc_row *r, size_t col, double share)
{
	if (isnan(share))
		doc_cell(r, col, "-");
	else
		doc_cell(r, col, "%.1f%%", 100 * share);
}

/*
 * Where the cost goes (analyze.h's where, stats/attribution.h): per
 * variant whose instructions changed significantly, the functions that
 * account for the change, the top REPORT_WHERE_TOP here (JSON has them
 * all), each change cell shaded by its share in html; the totals; and
 * whether the rows add up to the measured change.
 */
static void where_the_cost_goes(struct doc *d, const struct analyze_model *m)
{
	size_t i, k, n;

	for (i = 0; i < m->nr_where; i++) {
		const struct analyze_where *w = &m->where[i];
		const struct attribution *a = &w->a;
		const struct analyze_table *t = &m->tables[w->table];
		const char *variant = m->variants[t->rows[w->row].variant].v.name;
		const char *base = m->variants[t->rows[t->baseline].variant].v.name;
		struct strbuf sb = STRBUF_INIT;
		struct doc_section *s;
		struct doc_table *tab;
		double rest_b, rest_v;
		char id[32];

		snprintf(id, sizeof(id), "where-%zu", i + 1);
		s = doc_add_section(d, id, DOC_ALL);
		doc_title(s, DOC_WORD, "where the cost goes: %s on %s", variant, t->workload);
		strbuf_addf(&sb, "%s; %s phase, the mean of %d and %d runs. Busy instructions ",
			    meter_metric_description(t->workload), w->phase, w->base_runs,
			    w->variant_runs);
		where_count(&sb, a->base.busy, 0);
		strbuf_addstr(&sb, " -> ");
		where_count(&sb, a->variant.busy, 0);
		strbuf_addstr(&sb, ": ");
		where_count(&sb, a->change, 1);
		if (a->base.busy > 0)
			strbuf_addf(&sb, " (%+.1f%%)", 100 * a->change / a->base.busy);
		strbuf_addch(&sb, '.');
		doc_add_para(s, DOC_BODY, "%s", sb.buf);

		tab = doc_add_table(s, "where");
		tab->text_heads = 1;
		doc_col(tab, "function", DOC_COL_NAME);
		doc_col(tab, base, DOC_COL_NUM)->gap = 2;
		doc_col(tab, variant, DOC_COL_NUM)->gap = 2;
		doc_col(tab, "change", DOC_COL_NUM)->gap = 2;
		doc_col(tab, "share", DOC_COL_NUM)->gap = 2;
		n = attribution_top(a, REPORT_WHERE_TOP, &rest_b, &rest_v);
		for (k = 0; k < n; k++) {
			const struct attribution_row *row = &a->rows[k];
			struct doc_row *r = doc_row(tab);
			struct doc_cell *c;

			doc_cell(r, 0, "%s", row->name);
			where_cell(r, 1, row->base, 0);
			where_cell(r, 2, row->variant, 0);
			where_cell(r, 3, row->change, 1);
			c = &r->cells[3];
			c->tone = row->change > 0 ? DOC_COST : DOC_GAIN;
			c->shade = isnan(row->share) ? 0 : fmin(1, fabs(row->share));
			where_share(r, 4, row->share);
		}
		if (n < a->nr_rows) {
			struct doc_row *r = doc_row(tab);

			doc_cell(r, 0, "(%zu other functions)", a->nr_rows - n);
			where_cell(r, 1, rest_b, 0);
			where_cell(r, 2, rest_v, 0);
			where_cell(r, 3, rest_v - rest_b, 1);
			where_share(r, 4, a->change != 0 ? (rest_v - rest_b) / a->change : NAN);
		}

		strbuf_reset(&sb);
		strbuf_addstr(&sb, "kernel ");
		where_count(&sb, a->base.kernel - a->base.idle, 0);
		strbuf_addstr(&sb, " -> ");
		where_count(&sb, a->variant.kernel - a->variant.idle, 0);
		strbuf_addstr(&sb, ", user ");
		where_count(&sb, a->base.user, 0);
		strbuf_addstr(&sb, " -> ");
		where_count(&sb, a->variant.user, 0);
		strbuf_addstr(&sb, ", idle loop (left out) ");
		where_count(&sb, a->base.idle, 0);
		strbuf_addstr(&sb, " -> ");
		where_count(&sb, a->variant.idle, 0);
		if (a->base.other != 0 || a->variant.other != 0) {
			strbuf_addstr(&sb, ", outside the kernel's functions ");
			where_count(&sb, a->base.other, 0);
			strbuf_addstr(&sb, " -> ");
			where_count(&sb, a->variant.other, 0);
		}
		strbuf_addch(&sb, '.');
		doc_add_para(s, DOC_BODY, "%s", sb.buf);
		strbuf_reset(&sb);
		if (isnan(a->measured)) {
			strbuf_addstr(&sb, "no measured change to check the rows against");
		} else {
			strbuf_addstr(&sb, a->adds_up ? "the rows add up to the measured change, " :
					   "the rows do NOT add up to the measured change, ");
			where_count(&sb, a->measured, 1);
			strbuf_addstr(&sb, " (off by ");
			where_count(&sb, fabs(a->residual) < 0.5 && fabs(a->measured) >= 1000 ? 0 :
				    a->residual, 1);
			strbuf_addf(&sb, ", %s %.0f%%)", a->adds_up ? "within" : "more than",
				    100 * ATTRIBUTION_TOLERANCE);
		}
		doc_add_para(s, a->adds_up || isnan(a->measured) ? DOC_BODY : DOC_WARN, "%s", sb.buf);
		strbuf_release(&sb);
	}
}

/* The sections in the order the report shows them. */
static void (*const report_sections[])(struct doc *, const struct analyze_model *) = {
	page_facts,
	screen,		/* a screen's bifurcation tree first: how the variants were chosen */
	tables,
	where_the_cost_goes,
	groups,
	not_measured,
	patch_builds,
	report_claims_section,	/* what else the options change (report-sections.h) */
	report_sizes_section,
	report_findings_section,
	report_env_section,
	environment,
};

void report_doc_build(struct doc *d, const struct analyze_model *m)
{
	size_t i;

	d->m = m;
	for (i = 0; i < ARRAY_SIZE(report_sections); i++)
		report_sections[i](d, m);
}
