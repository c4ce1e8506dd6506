/* report-mmtests.c: the report as mmtests' compare-kernels.sh prints a comparison. */
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
#include "util/wrapper.h"

/*
 *                              baseline   CONFIG_PROVE_LOCKING=y
 * Amean     wall      1.9708 (   0.00%)      2.8735 * -45.80%*
 *
 * One block per workload and metric, a column per variant in display order.
 * As in compare-kernels, a percentage is a gain: positive when the variant
 * is better than the baseline (lower for times, higher for throughputs;
 * always lower for Stddev and CoeffVar), and it sits between asterisks when
 * the difference is significant (BH q below alpha), else in parentheses.
 * A same-as variant's column (its twin's runs) is headed NAME (=), and a
 * line under the block names its twin.  With cumulative steps, a row
 * "Astep" gives each step's gain against the step before it; the groups'
 * members follow the block.
 */

#define SAME_AS_MARK " (=)"	/* after a same-as variant's name */
#define NUM_WIDTH 10
#define COL_WIDTH 21	/* "%10.4f (%7.2f%%)" */

enum stat_row { AMEAN, HMEAN, STDDEV, COEFFVAR, MIN, MAX, NR_STAT_ROWS };
static const char *const stat_names[] = {
	"Amean", "Hmean", "Stddev", "CoeffVar", "Min", "Max",
};

static double hmean(const struct analyze_row *r)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (!(r->values[i] > 0))
			return NAN;
		sum += 1 / r->values[i];
	}
	return r->n ? r->n / sum : NAN;
}

static double stat_value(const struct analyze_row *r, enum stat_row s)
{
	switch (s) {
	case AMEAN:
		return r->summary.mean;
	case HMEAN:
		return hmean(r);
	case STDDEV:
		return r->summary.sd;
	case COEFFVAR:
		return r->summary.sd / r->summary.mean * 100;
	case MIN:
		return r->summary.min;
	case MAX:
		return r->summary.max;
	default:
		return NAN;
	}
}

static int significant(const struct analyze_row *r, enum stat_row s)
{
	if (!r->compared || (s != AMEAN && s != HMEAN))
		return 0;
	return r->cmp.marker == '*' || r->cmp.marker == '~';
}

static void add_cell(struct strbuf *out, double v, double base, int lower_better,
		     int is_base, int sig, size_t width)
{
	struct strbuf cell = STRBUF_INIT;
	double pct;

	if (!isfinite(v))
		strbuf_addf(&cell, "%*s", NUM_WIDTH, "n/a");
	else
		strbuf_addf(&cell, "%*.4f", NUM_WIDTH, v);
	pct = is_base ? 0 : lower_better ? (base - v) / base * 100 : (v - base) / base * 100;
	if (!isfinite(pct))
		strbuf_addf(&cell, " (%7s%%)", "n/a");
	else if (sig)
		strbuf_addf(&cell, " *%7.2f%%*", pct);
	else
		strbuf_addf(&cell, " (%7.2f%%)", pct);
	if (cell.len < width)
		strbuf_addchars(out, ' ', width - cell.len);
	strbuf_addbuf(out, &cell);
	strbuf_release(&cell);
}

/*
 * "Astep": each cumulative step's mean against the step before it, as a
 * gain (asterisks when significant); blank under the other columns, and
 * "(same)" under a step that is the same kernel as the one before.
 */
static void step_row(struct strbuf *out, const struct analyze_table *t, const size_t *width)
{
	struct strbuf label = STRBUF_INIT;
	size_t i;

	strbuf_add_text(&label, t->metric);
	strbuf_addf(out, "%-9s %-6s", "Astep", label.buf);
	strbuf_release(&label);
	for (i = 0; i < t->nr_order; i++) {
		const struct analyze_row *r = &t->rows[t->order[i]];
		struct strbuf cell = STRBUF_INIT;
		double pct;

		if (r->step == ANALYZE_STEP_SAME) {
			strbuf_addstr(&cell, "(same)");
		} else if (r->step == ANALYZE_STEP_COMPARED) {
			pct = t->higher_is_better ? r->step_cmp.change : -r->step_cmp.change;
			if (!isfinite(pct))
				strbuf_addf(&cell, " (%7s%%)", "n/a");
			else if (r->step_cmp.marker == '*' || r->step_cmp.marker == '~')
				strbuf_addf(&cell, " *%7.2f%%*", pct);
			else
				strbuf_addf(&cell, " (%7.2f%%)", pct);
		}
		if (cell.len < width[i])
			strbuf_addchars(out, ' ', width[i] - cell.len);
		strbuf_addbuf(out, &cell);
		strbuf_release(&cell);
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	strbuf_addch(out, '\n');
}

static void block(struct strbuf *out, const struct analyze_model *m,
		  const struct analyze_table *t)
{
	const struct analyze_row *base = t->baseline == SIZE_MAX ? NULL :
		&t->rows[t->baseline];
	size_t *width = xcalloc(t->nr_order ? t->nr_order : 1, sizeof(*width));
	size_t i, s;

	strbuf_addstr(out, "kconfperf ");
	strbuf_add_text(out, t->workload);
	strbuf_addch(out, ' ');
	strbuf_add_text(out, t->metric);
	if (*t->unit) {
		strbuf_addstr(out, " (");
		strbuf_add_text(out, t->unit);
		strbuf_addch(out, ')');
	}
	strbuf_addf(out, ", %s is better", t->higher_is_better ? "higher" : "lower");
	if (*m->sources[t->source].label) {
		strbuf_addstr(out, ", ");
		strbuf_add_text(out, m->sources[t->source].label);
	}
	strbuf_addf(out, "\n%-16s", "");
	for (i = 0; i < t->nr_order; i++) {
		const struct analyze_row *r = &t->rows[t->order[i]];
		struct strbuf esc = STRBUF_INIT;
		size_t w;

		strbuf_add_text(&esc, analyze_row_variant(m, r)->v.name);
		if (r->twin != SIZE_MAX)
			strbuf_addstr(&esc, SAME_AS_MARK);
		w = text_width(esc.buf, esc.len);
		width[i] = w + 1 > COL_WIDTH ? w + 1 : COL_WIDTH;
		strbuf_addchars(out, ' ', width[i] - w);
		strbuf_addbuf(out, &esc);
		strbuf_release(&esc);
	}
	strbuf_addch(out, '\n');
	for (s = 0; s < NR_STAT_ROWS; s++) {
		int lower_better = s == STDDEV || s == COEFFVAR || !t->higher_is_better;
		struct strbuf label = STRBUF_INIT;

		strbuf_add_text(&label, t->metric);
		strbuf_addf(out, "%-9s %-6s", stat_names[s], label.buf);
		strbuf_release(&label);
		for (i = 0; i < t->nr_order; i++) {
			const struct analyze_row *r = &t->rows[t->order[i]];
			double b = base && base->n ? stat_value(base, s) : NAN;

			add_cell(out, stat_value(r, s), b, lower_better, r == base,
				 significant(r, s), width[i]);
		}
		strbuf_addch(out, '\n');
	}
	if (t->nr_steps)
		step_row(out, t, width);
	for (i = 0; i < t->nr_order; i++) {
		const struct analyze_row *r = &t->rows[t->order[i]];
		const struct analyze_variant *twin = analyze_row_twin(m, r);

		if (!twin)
			continue;
		strbuf_addstr(out, "(=) ");
		strbuf_add_text(out, analyze_row_variant(m, r)->v.name);
		strbuf_addstr(out, " is the same kernel as ");
		strbuf_add_text(out, twin->v.name);
		strbuf_addstr(out, ": its runs\n");
	}
	if (t->nr_steps)
		strbuf_addstr(out, "Astep: each +OPTION step's Amean against the step before it "
			      "(the first against the baseline)\n");
	for (i = 0; i < m->nr_groups; i++) {
		struct strbuf sb = STRBUF_INIT;

		report_add_members(&sb, &m->groups[i]);
		strbuf_addstr(out, "group ");
		strbuf_add_text(out, m->groups[i].name);
		strbuf_addstr(out, ": ");
		strbuf_add_text(out, sb.buf);
		strbuf_addch(out, '\n');
		strbuf_release(&sb);
	}
	free(width);
}

/*
 * A parameter series as compare-kernels prints hackbench: a row per
 * statistic and value ("Amean     1", "Amean     4", ... "Stddev    1"),
 * a column per variant, each cell against the baseline of its own value.
 */
static void series_block(struct strbuf *out, const struct analyze_model *m,
			 const struct analyze_series *s)
{
	size_t *width = xcalloc(s->nr_variants ? s->nr_variants : 1, sizeof(*width));
	size_t i, v, st;

	strbuf_addstr(out, "kconfperf ");
	strbuf_add_text(out, s->label);
	strbuf_addch(out, ' ');
	strbuf_add_text(out, s->metric);
	if (*s->unit) {
		strbuf_addstr(out, " (");
		strbuf_add_text(out, s->unit);
		strbuf_addch(out, ')');
	}
	strbuf_addf(out, ", %s is better, a row per ", s->higher_is_better ? "higher" : "lower");
	strbuf_add_text(out, s->param);
	strbuf_addch(out, '\n');
	strbuf_addf(out, "%-16s", "");
	for (v = 0; v < s->nr_variants; v++) {
		struct strbuf esc = STRBUF_INIT;
		size_t w;

		strbuf_add_text(&esc, m->variants[s->variants[v]].v.name);
		w = text_width(esc.buf, esc.len);
		width[v] = w + 1 > COL_WIDTH ? w + 1 : COL_WIDTH;
		strbuf_addchars(out, ' ', width[v] - w);
		strbuf_addbuf(out, &esc);
		strbuf_release(&esc);
	}
	strbuf_addch(out, '\n');
	for (st = 0; st < NR_STAT_ROWS; st++) {
		int lower_better = st == STDDEV || st == COEFFVAR || !s->higher_is_better;

		for (i = 0; i < s->nr_values; i++) {
			const struct analyze_row *base = m->baseline == SIZE_MAX ? NULL :
				analyze_series_cell(m, s, i, m->baseline, NULL);
			struct strbuf label = STRBUF_INIT;

			strbuf_add_text(&label, s->values[i]);
			strbuf_addf(out, "%-9s %-6s", stat_names[st], label.buf);
			strbuf_release(&label);
			for (v = 0; v < s->nr_variants; v++) {
				const struct analyze_row *r = analyze_series_cell(m, s, i,
										  s->variants[v], NULL);
				double b = base && base->n ? stat_value(base, st) : NAN;

				if (!r || !r->n) {
					strbuf_addf(out, "%*s", (int)width[v], "n/a");
					continue;
				}
				add_cell(out, stat_value(r, st), b, lower_better, r == base,
					 significant(r, st), width[v]);
			}
			strbuf_addch(out, '\n');
		}
	}
	free(width);
}

/* A cell of the kernels' block: "   1.5640 *  -4.55%*", or a word where there is no number. */
static void kernel_cell(struct strbuf *out, double v, double pct, int sig, int first,
			const char *word)
{
	struct strbuf cell = STRBUF_INIT;

	if (word)
		strbuf_addf(&cell, "%*s %10s", NUM_WIDTH, word, "");
	else if (!isfinite(v))
		strbuf_addf(&cell, "%*s (%7s%%)", NUM_WIDTH, "n/a", "n/a");
	else if (first)
		strbuf_addf(&cell, "%*.4f (%7.2f%%)", NUM_WIDTH, v, 0.0);
	else if (!isfinite(pct))
		strbuf_addf(&cell, "%*.4f (%7s%%)", NUM_WIDTH, v, "n/a");
	else if (sig)
		strbuf_addf(&cell, "%*.4f *%7.2f%%*", NUM_WIDTH, v, pct);
	else
		strbuf_addf(&cell, "%*.4f (%7.2f%%)", NUM_WIDTH, v, pct);
	if (cell.len < COL_WIDTH + 2)
		strbuf_addchars(out, ' ', COL_WIDTH + 2 - cell.len);
	strbuf_addbuf(out, &cell);
	strbuf_release(&cell);
}

/*
 *                                     6.1                  6.12
 * Amean     baseline                1.4960 (   0.00%)    1.5640 *  -4.55%*
 * Cost      CONFIG_PROVE_LOCKING=y   70.4000 (   0.00%)   94.7685 * -14.33%*
 *
 * With several sources: a column per kernel, as compare-kernels compares
 * kernels.  Amean rows are each variant's mean, its percentage the gain
 * against the first kernel's same config; Cost rows are each option's
 * cost in percent against that kernel's baseline, its percentage the gain
 * in that cost (negative when the option costs more there).  Between
 * asterisks when significant (q below alpha); a kernel that does not
 * measure the variant shows why (no-op, build failed, -).
 */
static void kernels_block(struct strbuf *out, const struct analyze_model *m,
			  const struct analyze_across *a)
{
	size_t c, s, w = 8;
	int pass;

	for (c = 0; c < m->nr_counterparts; c++)
		if (text_width(m->counterparts[c].name, strlen(m->counterparts[c].name)) > w)
			w = text_width(m->counterparts[c].name, strlen(m->counterparts[c].name));
	strbuf_addstr(out, "kconfperf ");
	strbuf_add_text(out, a->workload);
	strbuf_addch(out, ' ');
	strbuf_add_text(out, a->metric);
	if (*a->unit) {
		strbuf_addstr(out, " (");
		strbuf_add_text(out, a->unit);
		strbuf_addch(out, ')');
	}
	strbuf_addf(out, ", %s is better, by kernel\n", a->higher_is_better ? "higher" : "lower");
	strbuf_addchars(out, ' ', 10 + w);
	for (s = 0; s < m->nr_sources; s++) {
		size_t lw = text_width(m->sources[s].label, strlen(m->sources[s].label));

		strbuf_addchars(out, ' ', lw < COL_WIDTH + 2 ? COL_WIDTH + 2 - lw : 1);
		strbuf_add_text(out, m->sources[s].label);
	}
	strbuf_addch(out, '\n');
	for (pass = 0; pass < 2; pass++) {
		for (c = 0; c < m->nr_counterparts; c++) {
			const struct analyze_row *r0 = report_across_row(m, a, c, 0);
			struct strbuf word = STRBUF_INIT;

			if (pass == 1 && !strcmp(m->counterparts[c].name, "baseline"))
				continue;
			strbuf_addf(out, "%-9s ", pass ? "Cost" : "Amean");
			strbuf_add_text(out, m->counterparts[c].name);
			strbuf_addchars(out, ' ', w - text_width(m->counterparts[c].name,
							 strlen(m->counterparts[c].name)));
			for (s = 0; s < m->nr_sources; s++) {
				const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);
				const struct analyze_row *r = report_across_row(m, a, c, s);
				double v = NAN, pct = NAN;
				int sig = 0;

				strbuf_reset(&word);
				if (!r || !r->n) {
					report_add_across_state(&word, m, a, c, s);
					kernel_cell(out, v, pct, 0, !s, word.buf);
					continue;
				}
				if (!pass) {
					v = r->summary.mean;
					if (cell->has_same)
						pct = a->higher_is_better ? cell->same.change
									  : -cell->same.change;
					sig = cell->has_same && (cell->same.marker == '*' ||
								 cell->same.marker == '~');
				} else {
					v = r->compared ? r->cmp.change : NAN;
					if (cell->has_change)
						pct = a->higher_is_better ? cell->change.change
									  : -cell->change.change;
					sig = cell->has_change && (cell->change.marker == '*' ||
								   cell->change.marker == '~');
				}
				kernel_cell(out, v, pct, sig, !s || (r0 && !r0->n), NULL);
			}
			strbuf_release(&word);
			while (out->len && out->buf[out->len - 1] == ' ')
				strbuf_setlen(out, out->len - 1);
			strbuf_addch(out, '\n');
		}
	}
}

void report_mmtests(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, n = 0;

	if (!m->nr_tables)
		strbuf_addstr(out, "no measured runs yet\n");
	for (i = 0; i < m->nr_tables; i++) {
		const struct analyze_table *t = &m->tables[i];

		if (t->series != SIZE_MAX && m->series[t->series].first_table != i)
			continue;
		if (n++)
			strbuf_addch(out, '\n');
		if (t->series != SIZE_MAX)
			series_block(out, m, &m->series[t->series]);
		else
			block(out, m, t);
		if (analyze_across_after(m, i)) {
			strbuf_addch(out, '\n');
			kernels_block(out, m, analyze_across_after(m, i));
		}
	}
	report_findings_mmtests(out, m);
}
