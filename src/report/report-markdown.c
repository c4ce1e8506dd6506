/* report-markdown.c: the report as Markdown tables, for issues, pull requests and wikis. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/escape.h"
#include "report/report-sections.h"
#include "report/report-util.h"
#include "report/report-writers.h"
#include "util/strbuf.h"
#include "util/strvec.h"

/*
 * Per workload and metric a heading, one line of context and a GitHub
 * (GFM) table in display order, where a same-as variant's name is followed
 * by "(= TWIN, same kernel)", a list of the table's notes (failed runs,
 * too few runs, not run yet); with cumulative steps, two more columns:
 * each step against the step before it, and its marker; then the
 * multiplicativity check, the named groups and what they hold, and the
 * variants that were not measured.  Every piece of data goes through
 * strbuf_add_markdown(), so a '|' or '<script>' in a name stays text.
 */

static void cell(struct strbuf *out, const char *s)
{
	strbuf_addstr(out, " ");
	strbuf_add_markdown(out, s);
	strbuf_addstr(out, " |");
}

static void cell_buf(struct strbuf *out, struct strbuf *sb)
{
	cell(out, sb->buf);
	strbuf_reset(sb);
}

static void table(struct strbuf *out, const struct analyze_model *m,
		  const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	int decimals = analyze_decimals(t);
	size_t i;

	strbuf_addstr(out, "## ");
	strbuf_add_markdown(out, t->workload);
	strbuf_addstr(out, ": ");
	strbuf_add_markdown(out, t->metric);
	if (*m->sources[t->source].label) {
		analyze_describe_source(&sb, &m->sources[t->source]);
		strbuf_addstr(out, ", ");
		strbuf_add_markdown(out, sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_addstr(out, "\n\n");

	if (*t->unit)
		strbuf_addf(&sb, "In %s, ", t->unit);
	strbuf_addf(&sb, "%s is better; %s. Runs: ", t->higher_is_better ? "higher" : "lower",
		    report_metric_about(t));
	report_add_runs(&sb, t);
	strbuf_addf(&sb, ", warm-ups excluded: %zu, failed runs excluded: %zu, accel: %s. Clock: %s.",
		    t->warmups, t->failed, *t->accel ? t->accel : "unknown", t->clock_text);
	strbuf_add_markdown(out, sb.buf);
	strbuf_reset(&sb);
	strbuf_addstr(out, "\n\n");

	strbuf_addstr(out, "| Variant | Runs | Mean | SD | Change |");
	strbuf_addf(&sb, "%g%% CI", m->opts.stats.confidence * 100);
	cell_buf(out, &sb);
	strbuf_addstr(out, " q (BH) | |");
	if (t->nr_steps)
		strbuf_addstr(out, " Step against the step before | |");
	strbuf_addstr(out, "\n|:--|--:|--:|--:|--:|:--|--:|:-:|");
	if (t->nr_steps)
		strbuf_addstr(out, ":--|:-:|");
	strbuf_addch(out, '\n');
	for (i = 0; i < t->nr_order; i++) {
		const struct analyze_row *r = &t->rows[t->order[i]];

		strbuf_addch(out, '|');
		strbuf_addstr(&sb, analyze_row_variant(m, r)->v.name);
		if (r->twin != SIZE_MAX)
			strbuf_addch(&sb, ' ');
		report_add_same_as(&sb, m, r);
		cell_buf(out, &sb);
		strbuf_addf(&sb, "%zu", r->n);
		cell_buf(out, &sb);
		report_add_value(&sb, r->summary.mean, decimals);
		if (*t->unit)
			strbuf_addf(&sb, " %s", t->unit);
		cell_buf(out, &sb);
		report_add_value(&sb, r->summary.sd, decimals);
		if (*t->unit)
			strbuf_addf(&sb, " %s", t->unit);
		cell_buf(out, &sb);
		if (r->compared) {
			stats_format_change(&sb, r->cmp.change, 1);
			cell_buf(out, &sb);
			stats_format_ci(&sb, &r->cmp, 1);
			cell_buf(out, &sb);
			if (isnan(r->cmp.q))
				strbuf_addstr(&sb, "n/a");
			else
				strbuf_addf(&sb, "%.3g", r->cmp.q);
			cell_buf(out, &sb);
			cell(out, report_marker(t, t->order[i]));
		} else {
			strbuf_addstr(out, " | | | |");
		}
		if (t->nr_steps) {
			report_add_step(&sb, r);
			cell_buf(out, &sb);
			cell(out, report_step_marker(r));
		}
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "\n%s%s\n",
		    "\\* significant and outside the noise band, ~ significant but reaching into it, "
		    "none if not significant or wholly inside it, ? too few runs or the tests disagree.",
		    t->nr_steps ? " A step (+OPTION, the cumulative design) adds its option to the "
		    "step before it; the first step is against the baseline." : "");
	strbuf_reset(&sb);
	if (t->aa_text) {
		strbuf_addstr(out, t->aa_marked ? "\n**Warning.** " : "\n");
		strbuf_add_markdown(out, t->aa_text);
		strbuf_addstr(out, ".\n");
	}
	for (i = 0; i < t->nr_notes; i++) {
		strbuf_addstr(out, i ? "- " : "\n- ");
		strbuf_addstr(&sb, analyze_row_variant(m, &t->rows[t->notes[i].row])->v.name);
		strbuf_addstr(&sb, ": ");
		report_add_note(&sb, t, &t->notes[i]);
		strbuf_add_markdown(out, sb.buf);
		strbuf_addch(out, '\n');
		strbuf_reset(&sb);
	}
	report_add_bimodal(&sb, m, t);
	if (sb.len) {
		struct strbuf line = STRBUF_INIT;
		const char *p = sb.buf, *nl;

		/* One paragraph, a hard line break ("  ") after each line. */
		strbuf_addch(out, '\n');
		for (; (nl = strchr(p, '\n')); p = nl + 1) {
			strbuf_reset(&line);
			strbuf_add(&line, p, (size_t)(nl - p));
			strbuf_trim(&line);
			strbuf_add_markdown(out, line.buf);
			strbuf_addstr(out, nl[1] ? "  \n" : "\n");
		}
		strbuf_release(&line);
	}
	strbuf_release(&sb);
}

static void interactions(struct strbuf *out, const struct analyze_model *m,
			 const struct analyze_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	const struct stats_interaction *p = &t->product;
	size_t i;

	if (t->has_product && p->marker == '?') {
		strbuf_addf(&sb, "Multiplicativity (%zu options alone against all): not yet, "
			    "too few runs of ", t->product_k);
		report_add_product_blockers(&sb, m, t);
		strbuf_addstr(&sb, ".");
		strbuf_addch(out, '\n');
		strbuf_add_markdown(out, sb.buf);
		strbuf_addch(out, '\n');
		strbuf_reset(&sb);
	} else if (t->has_product) {
		strbuf_addf(&sb, "Multiplicativity (%zu options alone against all): predicted ",
			    t->product_k);
		report_add_ratio_interval(&sb, p->predicted, p->predicted_lo, p->predicted_hi);
		strbuf_addstr(&sb, ", measured ");
		report_add_ratio_interval(&sb, p->measured, p->measured_lo, p->measured_hi);
		strbuf_addstr(&sb, ", measured/predicted ");
		report_add_ratio_interval(&sb, p->ratio, p->ratio_lo, p->ratio_hi);
		strbuf_addf(&sb, ": %s.", analyze_interaction_verdict(p));
		strbuf_addch(out, '\n');
		strbuf_add_markdown(out, sb.buf);
		strbuf_addch(out, '\n');
		strbuf_reset(&sb);
	}
	for (i = 0; i < t->nr_added_last; i++) {
		const struct analyze_added_last *al = &t->added_last[i];

		if (!i)
			strbuf_addstr(out, "\nAdded last (all against all without it):\n\n");
		strbuf_add_markdown(&sb, al->option);
		strbuf_addstr(out, "- ");
		strbuf_addbuf(out, &sb);
		strbuf_reset(&sb);
		switch (al->kind) {
		case ANALYZE_AL_MODEL:
			strbuf_addstr(&sb, ": alone ");
			report_add_ratio_interval(&sb, al->ia.predicted, al->ia.predicted_lo,
						  al->ia.predicted_hi);
			strbuf_addstr(&sb, ", added last ");
			report_add_ratio_interval(&sb, al->ia.measured, al->ia.measured_lo,
						  al->ia.measured_hi);
			strbuf_addf(&sb, ", %s", analyze_interaction_verdict(&al->ia));
			break;
		case ANALYZE_AL_ALONE_NOOP:
			strbuf_addstr(&sb, ": alone a no-op, added last ");
			stats_format_change(&sb, al->cmp.change, 1);
			strbuf_addch(&sb, ' ');
			stats_format_ci(&sb, &al->cmp, 1);
			break;
		case ANALYZE_AL_SAME_AS_ALL:
			strbuf_addstr(&sb, ": all without it is the same kernel");
			break;
		}
		strbuf_add_markdown(out, sb.buf);
		strbuf_addch(out, '\n');
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
}

static void groups(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < m->nr_groups; i++) {
		if (!i)
			strbuf_addstr(out, "\n## Groups\n\nEach group is one variant.\n\n"
				      "| Group | Options |\n|:--|:--|\n");
		strbuf_addch(out, '|');
		cell(out, m->groups[i].name);
		report_add_members(&sb, &m->groups[i]);
		cell_buf(out, &sb);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&sb);
}

static void not_measured(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!analyze_not_measured(m, av))
			continue;
		if (!n++)
			strbuf_addstr(out, "\n## Not measured\n\n| Variant | Status | Why |\n"
				      "|:--|:--|:--|\n");
		strbuf_addch(out, '|');
		cell(out, av->v.name);
		cell(out, analyze_state_name(av->state));
		cell(out, av->why);
		strbuf_addch(out, '\n');
	}
}

static void facts(struct strbuf *out, const struct analyze_model *m)
{
	static const char *const keys[][2] = {
		{ "kernel_version", "Kernel" }, { "arch", "arch" }, { "base", "baseline config" },
		{ "host", "host" }, { "accel", "accel" }, { "qemu", "qemu" },
		{ "compiler", "compiler" }, { "boot", "boot" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = analyze_fact(m, keys[i][0]);

		if (v)
			strbuf_addf(&sb, "%s%s: %s", sb.len ? ", " : "", keys[i][1], v);
	}
	if (sb.len) {
		strbuf_add_markdown(out, sb.buf);
		strbuf_addstr(out, ".\n\n");
	}
	strbuf_release(&sb);
}

/* A parameter series: a row per value, a column per variant (analyze.h). */
static void series_table(struct strbuf *out, const struct analyze_model *m,
			 const struct analyze_series *s)
{
	const struct analyze_table *first = &m->tables[s->first_table];
	struct strbuf sb = STRBUF_INIT;
	size_t i, v, k;
	int notes = 0;

	strbuf_addstr(out, "## ");
	strbuf_add_markdown(out, s->label);
	strbuf_addstr(out, ": ");
	strbuf_add_markdown(out, s->metric);
	strbuf_addstr(out, "\n\n");
	if (*s->unit)
		strbuf_addf(&sb, "In %s, ", s->unit);
	strbuf_addf(&sb, "%s is better; %s; a row per %s. Runs: ",
		    s->higher_is_better ? "higher" : "lower", report_metric_about(first), s->param);
	report_add_series_runs(&sb, s);
	strbuf_addf(&sb, ", warm-ups excluded: %zu, failed runs excluded: %zu, accel: %s. Clock: %s.",
		    s->warmups, s->failed, *first->accel ? first->accel : "unknown",
		    first->clock_text);
	strbuf_add_markdown(out, sb.buf);
	strbuf_reset(&sb);
	strbuf_addstr(out, "\n\n|");
	cell(out, s->param);
	for (v = 0; v < s->nr_variants; v++)
		cell(out, m->variants[s->variants[v]].v.name);
	strbuf_addstr(out, "\n|---|");
	for (v = 0; v < s->nr_variants; v++)
		strbuf_addstr(out, "---:|");
	strbuf_addch(out, '\n');
	for (i = 0; i < s->nr_values; i++) {
		strbuf_addch(out, '|');
		cell(out, s->values[i]);
		for (v = 0; v < s->nr_variants; v++) {
			report_add_series_cell(&sb, m, s, i, s->variants[v]);
			cell_buf(out, &sb);
		}
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < s->nr_values; i++) {
		const struct analyze_table *t = s->tables[i] == SIZE_MAX ? NULL :
			&m->tables[s->tables[i]];

		for (k = 0; t && k < t->nr_notes; k++) {
			strbuf_addf(&sb, "%s=%s %s: ", s->param, s->values[i],
				    analyze_row_variant(m, &t->rows[t->notes[k].row])->v.name);
			report_add_note(&sb, t, &t->notes[k]);
			strbuf_addstr(out, notes++ ? "- " : "\n- ");
			strbuf_add_markdown(out, sb.buf);
			strbuf_addch(out, '\n');
			strbuf_reset(&sb);
		}
	}
	strbuf_release(&sb);
}

/* Several sources: each source after the first against the first, as in the text report. */
static void across_pair(struct strbuf *out, const struct analyze_model *m,
			const struct analyze_across *a, size_t s)
{
	const struct analyze_source *s0 = &m->sources[0], *s1 = &m->sources[s];
	int decimals = a->tables[0] == SIZE_MAX ? 3 : analyze_decimals(&m->tables[a->tables[0]]);
	struct strbuf sb = STRBUF_INIT;
	struct strvec notes = STRVEC_INIT;
	size_t c, k;

	strbuf_addf(&sb, "%s: %s, %s against %s", a->workload, a->metric, s1->label, s0->label);
	if (s1->patch)
		strbuf_addf(&sb, " (the patch %s, config for config)", s1->patch_name);
	strbuf_addstr(out, "\n## ");
	strbuf_add_markdown(out, sb.buf);
	strbuf_addstr(out, "\n\n| Variant |");
	cell(out, s0->label);
	cell(out, s1->label);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s against %s", s1->label, s0->label);
	cell_buf(out, &sb);
	strbuf_addstr(out, " change of cost |\n|:--|--:|--:|--:|--:|\n");
	for (c = 0; c < m->nr_counterparts; c++) {
		const struct analyze_counterpart *cp = &m->counterparts[c];
		const struct analyze_across_cell *ce = analyze_across_cell(m, a, c, s);

		if (cp->variant[0] == SIZE_MAX && cp->variant[s] == SIZE_MAX)
			continue;
		strbuf_addch(out, '|');
		cell(out, cp->name);
		report_add_across_cost(&sb, m, a, c, 0, decimals);
		cell_buf(out, &sb);
		report_add_across_cost(&sb, m, a, c, s, decimals);
		cell_buf(out, &sb);
		report_add_across_same(&sb, ce);
		cell_buf(out, &sb);
		report_add_cost_change(&sb, ce);
		cell_buf(out, &sb);
		strbuf_addch(out, '\n');
		report_across_notes(&notes, m, c, 0);
		report_across_notes(&notes, m, c, s);
	}
	strbuf_addstr(out, "\nCosts against each kernel's own baseline; the same config's values "
		      "against the first kernel's; the change of cost is the ratio of the two "
		      "costs, with its confidence interval (Benjamini-Hochberg per column).\n");
	for (c = 0; c < 2 * m->nr_counterparts; c++) {
		strbuf_reset(&sb);
		if (c % 2 ? report_add_cost_verdict(&sb, m, a, c / 2, s) :
			    report_add_patch_verdict(&sb, m, a, c / 2, s))
			strvec_push(&notes, sb.buf);
	}
	for (k = 0; k < notes.nr; k++) {
		strbuf_addstr(out, k ? "- " : "\n- ");
		strbuf_add_markdown(out, notes.v[k]);
		strbuf_addch(out, '\n');
	}
	strvec_clear(&notes);
	strbuf_release(&sb);
}

static void patch_builds(struct strbuf *out, const struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t s, c;

	for (s = 1; s < m->nr_sources; s++) {
		int any = 0;

		if (!m->sources[s].patch)
			continue;
		for (c = 0; c < m->nr_counterparts; c++) {
			strbuf_reset(&sb);
			if (!report_add_patch_build(&sb, m, c, s))
				continue;
			if (!any++) {
				strbuf_addstr(out, "\n## Builds of ");
				strbuf_add_markdown(out, m->sources[s].label);
				strbuf_addstr(out, ", beside the unpatched ones\n\n"
					      "| Variant | Build |\n|:--|:--|\n");
			}
			strbuf_addch(out, '|');
			cell(out, m->counterparts[c].name);
			cell_buf(out, &sb);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_release(&sb);
}

void report_markdown(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, n = 0;

	strbuf_addstr(out, "# kconfperf report\n\n");
	facts(out, m);
	if (!m->nr_tables)
		strbuf_addstr(out, "No measured runs yet.\n");
	for (i = 0; i < m->nr_tables; i++) {
		const struct analyze_table *t = &m->tables[i];

		if (t->series != SIZE_MAX && m->series[t->series].first_table != i)
			continue;
		if (n++)
			strbuf_addch(out, '\n');
		if (t->series != SIZE_MAX) {
			series_table(out, m, &m->series[t->series]);
			continue;
		}
		table(out, m, t);
		interactions(out, m, t);
		if (analyze_across_after(m, i)) {
			const struct analyze_across *a = analyze_across_after(m, i);
			size_t s;

			for (s = 1; s < m->nr_sources; s++)
				across_pair(out, m, a, s);
		}
	}
	groups(out, m);
	not_measured(out, m);
	patch_builds(out, m);
	report_claims_markdown(out, m);
	report_sizes_markdown(out, m);
	report_findings_markdown(out, m);
	report_env_markdown(out, m);
}
