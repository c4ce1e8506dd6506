/* report-text.c: the plain-text report, the table people paste into a mailing list. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/escape.h"
#include "report/report-sections.h"
#include "report/report-util.h"
#include "report/report-writers.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

/*
 *   CONFIG_PROVE_LOCKING=y   23.435 s ± 0.526 s  (+89.6%)  [+85.1% .. +94.2%] *
 *
 * One block per workload and metric: header lines, the rows (baseline, all,
 * cumulative steps in order, then costliest first; a step's row adds its
 * increment against the step before, "step +74.7% [+72.1% .. +77.2%] *";
 * a same-as variant's row ends in a note, "(= TWIN, same kernel)", naming
 * the twin whose runs it shares), the legend, the multiplicativity check,
 * variants whose runs failed or are still to come; then, once, the named
 * groups and what they hold, and the variants that were not measured and
 * why.
 */

enum { COL_NAME, COL_MEAN, COL_SD, COL_CHANGE, COL_CI, COL_MARK, COL_STEP, COL_NOTE, NR_COLS };

struct cells {
	struct strbuf c[NR_COLS];
};

static size_t width(const struct strbuf *sb)
{
	return text_width(sb->buf, sb->len);
}

static void pad(struct strbuf *out, size_t have, size_t want)
{
	if (have < want)
		strbuf_addchars(out, ' ', want - have);
}

static void rtrim_line(struct strbuf *out)
{
	while (out->len && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	strbuf_addch(out, '\n');
}

static void fact_line(struct strbuf *out, const char *label, const char *value)
{
	strbuf_addf(out, "%-10s", label);
	if (value)
		strbuf_add_text(out, value);
	else
		strbuf_addstr(out, "unknown");
	strbuf_addch(out, '\n');
}

static void add_unit(struct strbuf *sb, const char *unit)
{
	if (unit && *unit) {
		strbuf_addch(sb, ' ');
		strbuf_add_text(sb, unit);
	}
}

static void header(struct strbuf *out, const struct analyze_model *m,
		   const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;

	fact_line(out, "workload:", t->workload);
	strbuf_add_text(&sb, t->metric);
	if (*t->unit) {
		strbuf_addstr(&sb, " (");
		strbuf_add_text(&sb, t->unit);
		strbuf_addch(&sb, ')');
	}
	strbuf_addf(&sb, ", %s is better: %s", t->higher_is_better ? "higher" : "lower",
		    report_metric_about(t));
	if (t->iterations)
		strbuf_addf(&sb, " (up to %zu iterations)", t->iterations);
	strbuf_addf(out, "%-10s%s\n", "metric:", sb.buf);
	strbuf_reset(&sb);
	report_add_runs(&sb, t);
	strbuf_addf(out, "%-10s%s, %zu in all", "runs:", sb.buf, t->runs);
	if (t->failed)
		strbuf_addf(out, "; %zu failed run%s excluded", t->failed,
			    t->failed == 1 ? "" : "s");
	if (t->missing)
		strbuf_addf(out, "; %zu without this metric", t->missing);
	strbuf_addch(out, '\n');
	if (t->warmups)
		strbuf_addf(out, "%-10s%zu, excluded\n", "warm-ups:", t->warmups);
	else
		strbuf_addf(out, "%-10snone recorded\n", "warm-ups:");
	fact_line(out, "accel:", *t->accel ? t->accel : NULL);
	fact_line(out, "clock:", t->clock_text);
	if (analyze_fact(m, "boot"))
		fact_line(out, "boot:", analyze_fact(m, "boot"));
	if (*m->sources[t->source].label) {
		strbuf_reset(&sb);
		analyze_describe_source(&sb, &m->sources[t->source]);
		fact_line(out, "source:", sb.buf);
	} else {
		/* "6.1.192 (arm64)": an arch other than x86_64 (older plans stored none) is named */
		strbuf_reset(&sb);
		if (analyze_fact(m, "kernel_version"))
			strbuf_addstr(&sb, analyze_fact(m, "kernel_version"));
		if (sb.len && analyze_fact(m, "arch") && strcmp(analyze_fact(m, "arch"), "x86_64"))
			strbuf_addf(&sb, " (%s)", analyze_fact(m, "arch"));
		fact_line(out, "kernel:", sb.len ? sb.buf : NULL);
	}
	fact_line(out, "host:", analyze_fact(m, "host"));
	strbuf_addch(out, '\n');
	strbuf_release(&sb);
}

static void fill_cells(struct cells *c, const struct analyze_model *m,
		       const struct analyze_table *t, size_t i, int decimals)
{
	const struct analyze_row *r = &t->rows[i];
	struct strbuf note = STRBUF_INIT;
	size_t k;

	for (k = 0; k < NR_COLS; k++)
		strbuf_init(&c->c[k], 0);
	strbuf_add_text(&c->c[COL_NAME], analyze_row_variant(m, r)->v.name);
	report_add_value(&c->c[COL_MEAN], r->summary.mean, decimals);
	add_unit(&c->c[COL_MEAN], t->unit);
	strbuf_addstr(&c->c[COL_SD], "± ");
	report_add_value(&c->c[COL_SD], r->summary.sd, decimals);
	add_unit(&c->c[COL_SD], t->unit);
	report_add_same_as(&note, m, r);
	strbuf_add_text(&c->c[COL_NOTE], note.buf);
	strbuf_reset(&note);
	report_add_step(&note, r);
	if (note.len) {
		strbuf_addstr(&c->c[COL_STEP], r->step == ANALYZE_STEP_SAME ? "step: " : "step ");
		strbuf_add_text(&c->c[COL_STEP], note.buf);
		if (*report_step_marker(r))
			strbuf_addf(&c->c[COL_STEP], " %s", report_step_marker(r));
	}
	strbuf_release(&note);
	if (!r->compared)
		return;
	strbuf_addch(&c->c[COL_CHANGE], '(');
	stats_format_change(&c->c[COL_CHANGE], r->cmp.change, 1);
	strbuf_addch(&c->c[COL_CHANGE], ')');
	stats_format_ci(&c->c[COL_CI], &r->cmp, 1);
	strbuf_addstr(&c->c[COL_MARK], report_marker(t, i));
}

static void rows(struct strbuf *out, const struct analyze_model *m,
		 const struct analyze_table *t)
{
	struct cells *cells = xcalloc(t->nr_order ? t->nr_order : 1, sizeof(*cells));
	size_t w[NR_COLS] = { 0 }, i, k;
	int decimals = analyze_decimals(t);

	for (i = 0; i < t->nr_order; i++) {
		fill_cells(&cells[i], m, t, t->order[i], decimals);
		for (k = 0; k < NR_COLS; k++)
			if (width(&cells[i].c[k]) > w[k])
				w[k] = width(&cells[i].c[k]);
	}
	for (i = 0; i < t->nr_order; i++) {
		struct cells *c = &cells[i];

		strbuf_addbuf(out, &c->c[COL_NAME]);
		pad(out, width(&c->c[COL_NAME]), w[COL_NAME] + 3);
		pad(out, width(&c->c[COL_MEAN]), w[COL_MEAN]);
		strbuf_addbuf(out, &c->c[COL_MEAN]);
		strbuf_addch(out, ' ');
		pad(out, width(&c->c[COL_SD]), w[COL_SD]);
		strbuf_addbuf(out, &c->c[COL_SD]);
		strbuf_addstr(out, "  ");
		pad(out, width(&c->c[COL_CHANGE]), w[COL_CHANGE]);
		strbuf_addbuf(out, &c->c[COL_CHANGE]);
		strbuf_addstr(out, "  ");
		strbuf_addbuf(out, &c->c[COL_CI]);
		pad(out, width(&c->c[COL_CI]), w[COL_CI]);
		strbuf_addch(out, ' ');
		strbuf_addbuf(out, &c->c[COL_MARK]);
		if (w[COL_STEP]) {
			pad(out, width(&c->c[COL_MARK]), w[COL_MARK] + 2);
			strbuf_addbuf(out, &c->c[COL_STEP]);
		}
		if (c->c[COL_NOTE].len) {
			if (w[COL_STEP])
				pad(out, width(&c->c[COL_STEP]), w[COL_STEP] + 2);
			else
				pad(out, width(&c->c[COL_MARK]), w[COL_MARK] + 2);
			strbuf_addbuf(out, &c->c[COL_NOTE]);
		}
		rtrim_line(out);
		for (k = 0; k < NR_COLS; k++)
			strbuf_release(&c->c[k]);
	}
	free(cells);
}

static void legend(struct strbuf *out, const struct analyze_model *m,
		   const struct analyze_table *t)
{
	const struct stats_options *so = &m->opts.stats;

	strbuf_addf(out, "\n(change against the baseline, [%g%% confidence interval]; "
		    "* significant (BH q < %g)\n and outside the ±%g%% noise band, "
		    "~ significant but reaching into it, none if not significant or\n"
		    " wholly inside it, ? too few runs or the tests disagree",
		    so->confidence * 100, so->alpha, so->noise);
	if (t->nr_steps)
		strbuf_addstr(out, ";\n step: a cumulative step against the step before it, "
			      "the first against the baseline");
	strbuf_addstr(out, ")\n");
}

static void product(struct strbuf *out, const struct analyze_model *m,
		    const struct analyze_table *t)
{
	const struct stats_interaction *p = &t->product;
	struct strbuf sb = STRBUF_INIT;

	if (!t->has_product)
		return;
	strbuf_addf(out, "\nmultiplicativity: %zu options measured alone against all",
		    t->product_k);
	if (t->product_left_out)
		strbuf_addf(out, " (%zu no-op or duplicate left out)", t->product_left_out);
	report_add_product_blockers(&sb, m, t);
	if (p->marker == '?' && sb.len) {
		strbuf_addstr(out, "\n  not yet: too few runs of ");
		strbuf_add_text(out, sb.buf);
		strbuf_addch(out, '\n');
		strbuf_release(&sb);
		return;
	}
	strbuf_release(&sb);
	strbuf_addstr(out, "\n  predicted (product of alone)  ");
	report_add_ratio_interval(out, p->predicted, p->predicted_lo, p->predicted_hi);
	strbuf_addstr(out, "\n  measured all                  ");
	report_add_ratio_interval(out, p->measured, p->measured_lo, p->measured_hi);
	strbuf_addstr(out, "\n  measured / predicted          ");
	report_add_ratio_interval(out, p->ratio, p->ratio_lo, p->ratio_hi);
	strbuf_addf(out, ": %s%s\n", analyze_interaction_verdict(p), p->marker == '*' ? " *" : "");
}

static void added_last(struct strbuf *out, const struct analyze_model *m,
		       const struct analyze_table *t)
{
	size_t i, w = 0;

	if (!t->nr_added_last)
		return;
	for (i = 0; i < t->nr_added_last; i++) {
		const char *o = t->added_last[i].option;

		if (text_width(o, strlen(o)) > w)
			w = text_width(o, strlen(o));
	}
	strbuf_addstr(out, "\nadded last (all against all without it), beside alone:\n");
	for (i = 0; i < t->nr_added_last; i++) {
		const struct analyze_added_last *al = &t->added_last[i];
		const char *o = al->option;

		strbuf_addstr(out, "  ");
		strbuf_add_text(out, o);
		pad(out, text_width(o, strlen(o)), w + 2);
		switch (al->kind) {
		case ANALYZE_AL_MODEL:
			strbuf_addstr(out, "alone ");
			report_add_ratio_interval(out, al->ia.predicted, al->ia.predicted_lo,
						  al->ia.predicted_hi);
			strbuf_addstr(out, ", added last ");
			report_add_ratio_interval(out, al->ia.measured, al->ia.measured_lo,
						  al->ia.measured_hi);
			strbuf_addf(out, ": %s%s", analyze_interaction_verdict(&al->ia),
				    al->ia.marker == '*' ? " *" : "");
			break;
		case ANALYZE_AL_ALONE_NOOP:
			strbuf_addstr(out, "alone a no-op, added last ");
			stats_format_change(out, al->cmp.change, 1);
			strbuf_addch(out, ' ');
			stats_format_ci(out, &al->cmp, 1);
			strbuf_addf(out, " %c", al->cmp.marker);
			break;
		case ANALYZE_AL_SAME_AS_ALL:
			strbuf_addstr(out, "added last: nothing (all without it is the same "
				      "kernel: other options turn it on)");
			break;
		}
		rtrim_line(out);
	}
	(void)m;
}

static void notes(struct strbuf *out, const struct analyze_model *m,
		  const struct analyze_table *t)
{
	struct strbuf few = STRBUF_INIT, pending = STRBUF_INIT, failed = STRBUF_INIT;
	struct strbuf what = STRBUF_INIT;
	size_t i;

	for (i = 0; i < t->nr_notes; i++) {
		const struct analyze_note *n = &t->notes[i];
		const struct analyze_row *r = &t->rows[n->row];
		const char *name = analyze_row_variant(m, r)->v.name;

		switch (n->kind) {
		case ANALYZE_NOTE_FAILED:
			strbuf_addstr(&failed, "  ");
			strbuf_add_text(&failed, name);
			strbuf_addstr(&failed, ": ");
			strbuf_reset(&what);
			report_add_note(&what, t, n);
			strbuf_add_text(&failed, what.buf);
			strbuf_addch(&failed, '\n');
			break;
		case ANALYZE_NOTE_TOO_FEW:
			strbuf_addstr(&few, few.len ? ", " : "");
			strbuf_add_text(&few, name);
			strbuf_addf(&few, " (%zu)", r->n);
			break;
		case ANALYZE_NOTE_NOT_RUN:
			strbuf_addstr(&pending, pending.len ? ", " : "");
			strbuf_add_text(&pending, name);
			break;
		}
	}
	if (failed.len)
		strbuf_addf(out, "\nfailed runs (excluded):\n%s", failed.buf);
	if (few.len)
		strbuf_addf(out, "\nnote: fewer than %d runs so far: %s; their comparisons "
			    "are marked ?\n", ANALYZE_MIN_RUNS, few.buf);
	if (pending.len)
		strbuf_addf(out, "\nnot run yet: %s\n", pending.buf);
	strbuf_reset(&pending);
	report_add_bimodal(&pending, m, t);
	if (pending.len)
		strbuf_addf(out, "\nnote: %s", pending.buf);
	strbuf_release(&few);
	strbuf_release(&pending);
	strbuf_release(&failed);
	strbuf_release(&what);
}

static void groups(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < m->nr_groups; i++) {
		if (!i)
			strbuf_addstr(out, "\ngroups (each one variant):\n");
		strbuf_addstr(out, "  ");
		strbuf_add_text(out, m->groups[i].name);
		strbuf_addstr(out, ": ");
		strbuf_reset(&sb);
		report_add_members(&sb, &m->groups[i]);
		strbuf_add_text(out, sb.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&sb);
}

static void not_measured(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, w = 0, n = 0;

	for (i = 0; i < m->nr_variants; i++) {
		const char *name = m->variants[i].v.name;

		if (!analyze_not_measured(m, &m->variants[i]))
			continue;
		n++;
		if (text_width(name, strlen(name)) > w)
			w = text_width(name, strlen(name));
	}
	if (!n)
		return;
	strbuf_addstr(out, "\nnot measured:\n");
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!analyze_not_measured(m, av))
			continue;
		strbuf_addstr(out, "  ");
		strbuf_add_text(out, av->v.name);
		pad(out, text_width(av->v.name, strlen(av->v.name)), w + 2);
		strbuf_addf(out, "%s: ", analyze_state_name(av->state));
		strbuf_add_text(out, av->why);
		rtrim_line(out);
	}
}

/*
 * A parameter series, one table for all its members (analyze.h):
 *
 *                 baseline            CONFIG_DEBUG_PREEMPT=y
 *   Amean     1   0.0312 s            0.0335 s (+7.4%) *
 *   Amean     4   0.1154 s            0.1240 s (+7.5%) *
 *
 * then the legend and each member's failed runs and short rows.
 */
static void series_block(struct strbuf *out, const struct analyze_model *m,
			 const struct analyze_series *s)
{
	const struct analyze_table *first = &m->tables[s->first_table];
	struct strbuf *cells, sb = STRBUF_INIT, label = STRBUF_INIT;
	size_t nr = (s->nr_values + 1) * s->nr_variants, i, v, *w, lw = 0;

	fact_line(out, "series:", s->label);
	strbuf_add_text(&sb, s->metric);
	if (*s->unit) {
		strbuf_addstr(&sb, " (");
		strbuf_add_text(&sb, s->unit);
		strbuf_addch(&sb, ')');
	}
	strbuf_addf(&sb, ", %s is better: %s; a row per %s", s->higher_is_better ? "higher" :
		    "lower", report_metric_about(first), s->param);
	strbuf_addf(out, "%-10s%s\n", "metric:", sb.buf);
	strbuf_reset(&sb);
	report_add_series_runs(&sb, s);
	strbuf_addf(out, "%-10s", "runs:");
	strbuf_add_text(out, sb.buf);
	strbuf_addf(out, ", %zu in all", s->runs);
	if (s->failed)
		strbuf_addf(out, "; %zu failed run%s excluded", s->failed, s->failed == 1 ? "" : "s");
	strbuf_addch(out, '\n');
	if (s->warmups)
		strbuf_addf(out, "%-10s%zu, excluded\n", "warm-ups:", s->warmups);
	fact_line(out, "accel:", *first->accel ? first->accel : NULL);
	fact_line(out, "clock:", first->clock_text);
	if (analyze_fact(m, "boot"))
		fact_line(out, "boot:", analyze_fact(m, "boot"));
	fact_line(out, "kernel:", analyze_fact(m, "kernel_version"));
	fact_line(out, "host:", analyze_fact(m, "host"));
	strbuf_addch(out, '\n');

	/* cells[0..nr_variants) are the column heads, then a row per value */
	cells = xcalloc(nr ? nr : 1, sizeof(*cells));
	w = xcalloc(s->nr_variants ? s->nr_variants : 1, sizeof(*w));
	for (i = 0; i < nr; i++)
		strbuf_init(&cells[i], 0);
	for (v = 0; v < s->nr_variants; v++)
		strbuf_add_text(&cells[v], m->variants[s->variants[v]].v.name);
	for (i = 0; i < s->nr_values; i++) {
		strbuf_reset(&label);
		strbuf_addf(&label, "Amean     ");
		strbuf_add_text(&label, s->values[i]);
		if (width(&label) > lw)
			lw = width(&label);
		for (v = 0; v < s->nr_variants; v++) {
			strbuf_reset(&sb);
			report_add_series_cell(&sb, m, s, i, s->variants[v]);
			strbuf_add_text(&cells[(i + 1) * s->nr_variants + v], sb.buf);
		}
	}
	for (i = 0; i < nr; i++)
		if (width(&cells[i]) > w[i % s->nr_variants])
			w[i % s->nr_variants] = width(&cells[i]);
	for (i = 0; i <= s->nr_values; i++) {
		strbuf_reset(&label);
		if (i) {
			strbuf_addf(&label, "Amean     ");
			strbuf_add_text(&label, s->values[i - 1]);
		}
		strbuf_addbuf(out, &label);
		pad(out, width(&label), lw + 3);
		for (v = 0; v < s->nr_variants; v++) {
			const struct strbuf *c = &cells[i * s->nr_variants + v];

			strbuf_addbuf(out, c);
			if (v + 1 < s->nr_variants)
				pad(out, width(c), w[v] + 3);
		}
		rtrim_line(out);
	}
	legend(out, m, &m->tables[s->first_table]);
	for (i = 0; i < s->nr_values; i++) {
		const struct analyze_table *t = s->tables[i] == SIZE_MAX ? NULL :
			&m->tables[s->tables[i]];
		size_t k;

		if (!t) {
			strbuf_addf(out, "\n%s=", s->param);
			strbuf_add_text(out, s->values[i]);
			strbuf_addstr(out, ": not run yet\n");
			continue;
		}
		for (k = 0; k < t->nr_notes; k++) {
			strbuf_reset(&sb);
			report_add_note(&sb, t, &t->notes[k]);
			strbuf_addf(out, "%s%s=", k ? "" : "\n", s->param);
			strbuf_add_text(out, s->values[i]);
			strbuf_addstr(out, " ");
			strbuf_add_text(out, analyze_row_variant(m, &t->rows[t->notes[k].row])->v.name);
			strbuf_addstr(out, ": ");
			strbuf_add_text(out, sb.buf);
			strbuf_addch(out, '\n');
		}
	}
	for (i = 0; i < nr; i++)
		strbuf_release(&cells[i]);
	free(cells);
	free(w);
	strbuf_release(&sb);
	strbuf_release(&label);
}

/*
 * A table of strings, padded to its widest cell per column (the last
 * column is left ragged): for the across blocks.
 */
struct grid {
	struct strvec cells;
	size_t cols;
};

static void grid_row(struct grid *g, const char *const *cells)
{
	size_t i;

	for (i = 0; i < g->cols; i++)
		strvec_push(&g->cells, cells[i] ? cells[i] : "");
}

static void grid_print(struct strbuf *out, struct grid *g)
{
	size_t *w = xcalloc(g->cols, sizeof(*w)), i, k, rows = g->cells.nr / g->cols;

	for (i = 0; i < g->cells.nr; i++) {
		size_t n = text_width(g->cells.v[i], strlen(g->cells.v[i]));

		if (n > w[i % g->cols])
			w[i % g->cols] = n;
	}
	for (i = 0; i < rows; i++) {
		for (k = 0; k < g->cols; k++) {
			const char *c = g->cells.v[i * g->cols + k];

			strbuf_add_text(out, c);
			if (k + 1 < g->cols)
				pad(out, text_width(c, strlen(c)), w[k] + 3);
		}
		rtrim_line(out);
	}
	free(w);
	strvec_clear(&g->cells);
}

/*
 * One block per source after the first: each counterpart's cost on the
 * first and on it, the same config on both, and the change of cost; then
 * why a counterpart has no numbers, how the sources resolve it
 * differently, the verdicts, and a patched source's builds.
 */
static void across_pair(struct strbuf *out, const struct analyze_model *m,
			const struct analyze_across *a, size_t s)
{
	const struct analyze_source *s0 = &m->sources[0], *s1 = &m->sources[s];
	int patched = s1->patch != NULL;
	int decimals = a->tables[0] == SIZE_MAX ? 3 : analyze_decimals(&m->tables[a->tables[0]]);
	struct grid g = { STRVEC_INIT, 5 };
	struct strbuf c0 = STRBUF_INIT, c1 = STRBUF_INIT, same = STRBUF_INIT,
		      change = STRBUF_INIT, head = STRBUF_INIT;
	struct strvec notes = STRVEC_INIT;
	size_t c, verdicts = 0;

	strbuf_addf(out, "\n%s against %s", s1->label, s0->label);
	if (patched)
		strbuf_addf(out, " (the patch %s, config for config)", s1->patch_name);
	strbuf_addstr(out, ": ");
	strbuf_add_text(out, a->workload);
	strbuf_addf(out, " %s%s%s%s, %s is better\n", a->metric, *a->unit ? " (" : "",
		    a->unit, *a->unit ? ")" : "", a->higher_is_better ? "higher" : "lower");
	strbuf_addf(&head, "%s against %s", s1->label, s0->label);
	grid_row(&g, (const char *[]){ "", s0->label, s1->label, head.buf, "change of cost" });
	for (c = 0; c < m->nr_counterparts; c++) {
		const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);
		const struct analyze_counterpart *cp = &m->counterparts[c];

		if (cp->variant[0] == SIZE_MAX && cp->variant[s] == SIZE_MAX)
			continue;
		strbuf_reset(&c0);
		strbuf_reset(&c1);
		strbuf_reset(&same);
		strbuf_reset(&change);
		report_add_across_cost(&c0, m, a, c, 0, decimals);
		report_add_across_cost(&c1, m, a, c, s, decimals);
		report_add_across_same(&same, cell);
		report_add_cost_change(&change, cell);
		grid_row(&g, (const char *[]){ cp->name, c0.buf, c1.buf, same.buf, change.buf });
		report_across_notes(&notes, m, c, 0);
		report_across_notes(&notes, m, c, s);
	}
	grid_print(out, &g);
	strbuf_addf(out, "\n(%s, %s: cost against that kernel's baseline; %s: the same config's "
		    "values;\n change of cost: the ratio of the two costs; [%g%% confidence "
		    "interval], markers as above, BH per column)\n", s0->label, s1->label,
		    head.buf, m->opts.stats.confidence * 100);
	for (c = 0; c < notes.nr; c++) {
		strbuf_addstr(out, c ? "  " : "\n  ");
		strbuf_add_text(out, notes.v[c]);
		strbuf_addch(out, '\n');
	}
	for (c = 0; c < 2 * m->nr_counterparts; c++) {
		strbuf_reset(&change);
		if (c % 2 ? !report_add_cost_verdict(&change, m, a, c / 2, s) :
			    !report_add_patch_verdict(&change, m, a, c / 2, s))
			continue;
		strbuf_addstr(out, verdicts++ ? "" : "\n");
		strbuf_add_text(out, change.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&c0);
	strbuf_release(&c1);
	strbuf_release(&same);
	strbuf_release(&change);
	strbuf_release(&head);
	strvec_clear(&notes);
}

static void across(struct strbuf *out, const struct analyze_model *m,
		   const struct analyze_across *a)
{
	size_t s;

	for (s = 1; s < m->nr_sources; s++)
		if (a->tables[s] != SIZE_MAX || a->tables[0] != SIZE_MAX)
			across_pair(out, m, a, s);
}

/* Each patched source's builds beside its unpatched twins'. */
static void patch_builds(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t s, c;

	for (s = 1; s < m->nr_sources; s++) {
		struct grid g = { STRVEC_INIT, 2 };
		int any = 0;

		if (!m->sources[s].patch)
			continue;
		for (c = 0; c < m->nr_counterparts; c++) {
			strbuf_reset(&sb);
			if (!report_add_patch_build(&sb, m, c, s))
				continue;
			grid_row(&g, (const char *[]){ m->counterparts[c].name, sb.buf });
			any = 1;
		}
		if (!any) {
			strvec_clear(&g.cells);
			continue;
		}
		strbuf_addf(out, "\nbuilds of %s (%s), beside the unpatched ones:\n",
			    m->sources[s].label, m->sources[s].patch_name);
		{
			struct strbuf body = STRBUF_INIT;
			const char *p, *nl;

			grid_print(&body, &g);
			for (p = body.buf; (nl = strchr(p, '\n')); p = nl + 1) {
				strbuf_addstr(out, "  ");
				strbuf_add(out, p, (size_t)(nl - p + 1));
			}
			strbuf_release(&body);
		}
	}
	strbuf_release(&sb);
}

void report_text(struct strbuf *out, const struct analyze_model *m)
{
	const char *screen = analyze_fact(m, "screen_report");
	size_t i;

	/* A screen's bifurcation tree comes first: it says how the variants were chosen. */
	if (screen)
		strbuf_addf(out, "%s\n\n", screen);
	if (!m->nr_tables)
		strbuf_addf(out, "no measured runs yet (%zu variant%s planned)\n",
			    m->nr_variants, m->nr_variants == 1 ? "" : "s");
	for (i = 0; i < m->nr_tables; i++) {
		const struct analyze_table *t = &m->tables[i];

		/* a series' members are in its table, printed where the first is */
		if (t->series != SIZE_MAX && m->series[t->series].first_table != i)
			continue;
		if (i)
			strbuf_addstr(out, "\n\n");
		if (t->series != SIZE_MAX) {
			series_block(out, m, &m->series[t->series]);
			continue;
		}
		header(out, m, t);
		rows(out, m, t);
		legend(out, m, t);
		if (t->aa_text)
			strbuf_addf(out, "\n%s\n", t->aa_text);
		product(out, m, t);
		added_last(out, m, t);
		notes(out, m, t);
		if (analyze_across_after(m, i))
			across(out, m, analyze_across_after(m, i));
	}
	groups(out, m);
	not_measured(out, m);
	patch_builds(out, m);
	report_claims_text(out, m);
	report_sizes_text(out, m);
	report_findings_text(out, m);
	report_env_text(out, m);
}
