/* report-util.c: what the report writers say the same way: values, runs, notes, markers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "report/report-util.h"
#include "run/meter.h"
#include "store/metric.h"
#include "util/strbuf.h"

void report_add_value(struct strbuf *sb, double v, int decimals)
{
	if (!isfinite(v))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, "%.*f", decimals, v);
}

const char *report_metric_about(const struct analyze_table *t)
{
	switch (metric_kind_of(t->metric)) {
	case METRIC_WALL:
		return "host wall time of the whole run";
	case METRIC_BOOT:
		return "guest boot to init";
	case METRIC_INSTRUCTIONS:
		return meter_metric_description(t->workload);
	case METRIC_SAMPLE:
		break;
	}
	if (!strncmp(t->workload, "cmd:", 4))
		return strcmp(t->metric, "time") ? "taken from the program's output (--extract)"
						 : "the program's wall time in the guest";
	return "the workload's own samples, mean per run";
}

void report_add_series_runs(struct strbuf *sb, const struct analyze_series *s)
{
	if (!s->max_n)
		strbuf_addstr(sb, "none yet");
	else if (s->min_n == s->max_n)
		strbuf_addf(sb, "%zu per variant and %s", s->max_n, s->param);
	else
		strbuf_addf(sb, "%zu to %zu per variant and %s", s->min_n, s->max_n, s->param);
}

int report_add_series_cell(struct strbuf *sb, const struct analyze_model *m,
			   const struct analyze_series *s, size_t i, size_t variant)
{
	const struct analyze_table *t;
	const struct analyze_row *r = analyze_series_cell(m, s, i, variant, &t);
	const char *mark;

	if (!r || !r->n) {
		strbuf_addstr(sb, "-");
		return 0;
	}
	report_add_value(sb, r->summary.mean, analyze_decimals(t));
	if (*t->unit)
		strbuf_addf(sb, " %s", t->unit);
	if (!r->compared)
		return 1;
	strbuf_addstr(sb, " (");
	stats_format_change(sb, r->cmp.change, 1);
	strbuf_addch(sb, ')');
	mark = report_marker(t, (size_t)(r - t->rows));
	if (*mark)
		strbuf_addf(sb, " %s", mark);
	return 1;
}

void report_add_runs(struct strbuf *sb, const struct analyze_table *t)
{
	if (!t->max_n)
		strbuf_addstr(sb, "none yet");
	else if (t->min_n == t->max_n)
		strbuf_addf(sb, "%zu per variant", t->max_n);
	else
		strbuf_addf(sb, "%zu to %zu per variant", t->min_n, t->max_n);
}

void report_add_ratio_interval(struct strbuf *sb, double ratio, double lo, double hi)
{
	stats_format_change(sb, (ratio - 1) * 100, 1);
	strbuf_addstr(sb, " [");
	stats_format_change(sb, (lo - 1) * 100, 1);
	strbuf_addstr(sb, " .. ");
	stats_format_change(sb, (hi - 1) * 100, 1);
	strbuf_addch(sb, ']');
}

void report_add_bytes(struct strbuf *sb, double bytes, int sign)
{
	double a = fabs(bytes);
	const char *s = sign ? (bytes < 0 ? "-" : "+") : (bytes < 0 ? "-" : "");

	if (a < 1024)
		strbuf_addf(sb, "%s%.0f B", s, a);
	else if (a < 1024 * 1024)
		strbuf_addf(sb, "%s%.1f KiB", s, a / 1024);
	else
		strbuf_addf(sb, "%s%.2f MiB", s, a / (1024 * 1024));
}

void report_add_same_as(struct strbuf *sb, const struct analyze_model *m,
			const struct analyze_row *r)
{
	const struct analyze_variant *twin = analyze_row_twin(m, r);

	if (twin)
		strbuf_addf(sb, "(= %s, same kernel)", twin->v.name);
}

void report_add_bimodal(struct strbuf *sb, const struct analyze_model *m,
			const struct analyze_table *t)
{
	int decimals = analyze_decimals(t);
	size_t i, start = sb->len;

	for (i = 0; i < t->nr_rows; i++) {
		const struct analyze_row *r = &t->rows[i];
		const struct stats_clusters *c = &r->clusters;

		if (!c->bimodal || r->twin != SIZE_MAX)
			continue;
		if (sb->len == start)
			strbuf_addstr(sb, "runs in two clusters (a fast and a slow mode, "
				      "p < 0.001): a difference in\nmeans may be how many runs "
				      "fell in each, not the kernel; more runs settle it.\n");
		strbuf_addf(sb, "  %s: %zu runs near ", analyze_row_variant(m, r)->v.name, c->n_low);
		report_add_value(sb, c->low, decimals);
		strbuf_addf(sb, " %s, %zu near ", t->unit, r->n - c->n_low);
		report_add_value(sb, c->high, decimals);
		strbuf_addf(sb, " %s\n", t->unit);
	}
}

/* A marker character as the reports print it: "*", "~", "?" or "". */
static const char *marker_text(char marker)
{
	switch (marker) {
	case '*':
		return "*";
	case '~':
		return "~";
	case '?':
		return "?";
	default:
		return "";
	}
}

const char *report_marker(const struct analyze_table *t, size_t row)
{
	const struct analyze_row *r = &t->rows[row];

	return r->compared ? marker_text(r->cmp.marker) : "";
}

const char *report_step_marker(const struct analyze_row *r)
{
	return r->step == ANALYZE_STEP_COMPARED ? marker_text(r->step_cmp.marker) : "";
}

void report_add_step(struct strbuf *sb, const struct analyze_row *r)
{
	if (r->step == ANALYZE_STEP_SAME) {
		strbuf_addstr(sb, "same kernel as the step before");
	} else if (r->step == ANALYZE_STEP_COMPARED) {
		stats_format_change(sb, r->step_cmp.change, 1);
		strbuf_addch(sb, ' ');
		stats_format_ci(sb, &r->step_cmp, 1);
	}
}

const char *report_step_before(const struct analyze_model *m, const struct analyze_table *t,
			       const struct analyze_row *r)
{
	if (r->step_prev == SIZE_MAX)
		return "";
	return analyze_row_variant(m, &t->rows[r->step_prev])->v.name;
}

void report_add_members(struct strbuf *sb, const struct analyze_group *g)
{
	size_t i;

	for (i = 0; i < g->members.nr; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", g->members.v[i]);
}

/* Appends "NAME (why)" to the list that starts at sb->buf[start]. */
static void blocker(struct strbuf *sb, size_t start, const struct analyze_model *m,
		    const struct analyze_table *t, size_t variant, size_t row)
{
	const struct analyze_variant *av = &m->variants[variant];
	const struct analyze_variant *built = av->twin == SIZE_MAX ? av : &m->variants[av->twin];
	size_t n = row == SIZE_MAX ? 0 : t->rows[row].n;

	if (n >= ANALYZE_MIN_RUNS)
		return;
	strbuf_addf(sb, "%s%s (", sb->len > start ? ", " : "", av->v.name);
	if (built->state == ANALYZE_BUILD_FAILED)
		strbuf_addstr(sb, "build failed");
	else if (row != SIZE_MAX && !n && t->rows[row].failed)
		strbuf_addstr(sb, "runs failed");
	else
		strbuf_addf(sb, "%zu run%s", n, n == 1 ? "" : "s");
	strbuf_addch(sb, ')');
}

void report_add_product_blockers(struct strbuf *sb, const struct analyze_model *m,
				 const struct analyze_table *t)
{
	size_t i, start = sb->len;

	if (t->baseline != SIZE_MAX)
		blocker(sb, start, m, t, t->rows[t->baseline].variant, t->baseline);
	for (i = 0; i < m->nr_variants; i++) {
		const char *kind = m->variants[i].v.kind;
		size_t r;

		if (!kind || strcmp(kind, "all") || m->variants[i].source != t->source)
			continue;
		for (r = 0; r < t->nr_rows && t->rows[r].variant != i; r++)
			;
		blocker(sb, start, m, t, i, r < t->nr_rows ? r : SIZE_MAX);
		break;
	}
	for (i = 0; i < t->product_k; i++)
		blocker(sb, start, m, t, t->product_variants[i], t->product_rows[i]);
}

void report_add_note(struct strbuf *sb, const struct analyze_table *t,
		     const struct analyze_note *note)
{
	const struct analyze_row *r = &t->rows[note->row];

	switch (note->kind) {
	case ANALYZE_NOTE_FAILED:
		strbuf_addf(sb, "%zu of %zu runs failed (%s)", r->failed,
			    r->failed + r->n + r->missing, r->first_error);
		break;
	case ANALYZE_NOTE_TOO_FEW:
		strbuf_addf(sb, "only %zu run%s so far; its comparison is marked ?", r->n,
			    r->n == 1 ? "" : "s");
		break;
	case ANALYZE_NOTE_NOT_RUN:
		strbuf_addstr(sb, "not run yet");
		break;
	}
}

/* The marker of a comparison or cost change as text: "*", "~", "?" or "". */
const struct analyze_row *report_across_row(const struct analyze_model *m,
					    const struct analyze_across *a, size_t c, size_t s)
{
	const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);

	if (a->tables[s] == SIZE_MAX || cell->row == SIZE_MAX)
		return NULL;
	return &m->tables[a->tables[s]].rows[cell->row];
}

void report_add_across_state(struct strbuf *sb, const struct analyze_model *m,
			     const struct analyze_across *a, size_t c, size_t s)
{
	size_t v = m->counterparts[c].variant[s];
	const struct analyze_row *r = report_across_row(m, a, c, s);

	if (v == SIZE_MAX)
		strbuf_addstr(sb, "-");
	else if (analyze_not_measured(m, &m->variants[v]))
		strbuf_addstr(sb, analyze_state_name(m->variants[v].state));
	else if (!r || !r->n)
		strbuf_addstr(sb, r && r->failed ? "runs failed" : "not run yet");
}

void report_add_across_cost(struct strbuf *sb, const struct analyze_model *m,
			    const struct analyze_across *a, size_t c, size_t s, int decimals)
{
	const struct analyze_row *r = report_across_row(m, a, c, s);
	const struct analyze_table *t = a->tables[s] == SIZE_MAX ? NULL : &m->tables[a->tables[s]];

	if (!r || !r->n) {
		report_add_across_state(sb, m, a, c, s);
		return;
	}
	if (r->is_baseline) {
		report_add_value(sb, r->summary.mean, decimals);
		if (*t->unit)
			strbuf_addf(sb, " %s", t->unit);
		return;
	}
	if (!r->compared) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	stats_format_change(sb, r->cmp.change, 1);
	if (*marker_text(r->cmp.marker))
		strbuf_addf(sb, " %s", marker_text(r->cmp.marker));
}

void report_add_across_same(struct strbuf *sb, const struct analyze_across_cell *cell)
{
	if (!cell->has_same)
		return;
	stats_format_change(sb, cell->same.change, 1);
	strbuf_addch(sb, ' ');
	stats_format_ci(sb, &cell->same, 1);
	if (*marker_text(cell->same.marker))
		strbuf_addf(sb, " %s", marker_text(cell->same.marker));
}

void report_add_cost_change(struct strbuf *sb, const struct analyze_across_cell *cell)
{
	if (!cell->has_change)
		return;
	report_add_ratio_interval(sb, cell->change.ratio, cell->change.ratio_lo,
				  cell->change.ratio_hi);
	if (*marker_text(cell->change.marker))
		strbuf_addf(sb, " %s", marker_text(cell->change.marker));
}

int report_add_cost_verdict(struct strbuf *sb, const struct analyze_model *m,
			    const struct analyze_across *a, size_t c, size_t s)
{
	const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);
	const struct analyze_row *r0 = report_across_row(m, a, c, 0);
	const struct analyze_row *r1 = report_across_row(m, a, c, s);

	if (!cell->has_change || (cell->change.marker != '*' && cell->change.marker != '~') ||
	    !r0 || !r1)
		return 0;
	strbuf_addf(sb, "%s cost ", m->counterparts[c].name);
	stats_format_change(sb, r0->cmp.change, 1);
	strbuf_addf(sb, " on %s and ", m->sources[0].label);
	stats_format_change(sb, r1->cmp.change, 1);
	strbuf_addf(sb, " on %s: ", m->sources[s].label);
	stats_format_change(sb, cell->change.change, 1);
	strbuf_addstr(sb, " [");
	stats_format_change(sb, cell->change.change_lo, 1);
	strbuf_addstr(sb, " .. ");
	stats_format_change(sb, cell->change.change_hi, 1);
	strbuf_addf(sb, "] %s, %c", cell->change.cost > 0 ? "more" : "less", cell->change.marker);
	return 1;
}

int report_add_patch_build(struct strbuf *sb, const struct analyze_model *m, size_t c, size_t s)
{
	const struct analyze_source *src = &m->sources[s];
	size_t v = m->counterparts[c].variant[s];
	size_t t = src->base == SIZE_MAX ? SIZE_MAX : m->counterparts[c].variant[src->base];
	const struct analyze_variant *pv, *tv;

	if (v == SIZE_MAX || t == SIZE_MAX)
		return 0;
	pv = &m->variants[v];
	tv = &m->variants[t];
	if (!pv->has_build || pv->build.status != BUILD_OK)
		return 0;
	strbuf_addf(sb, "%.1f s", pv->build.seconds);
	if (pv->build.seeded_from && tv->has_build && tv->build.key &&
	    !strcmp(pv->build.seeded_from, tv->build.key))
		strbuf_addstr(sb, " (seeded from the unpatched tree)");
	else if (pv->build.seeded_from)
		/* the twin's tree was not kept (cached long before, evicted): the nearest was */
		strbuf_addstr(sb, " (seeded from another tree: the unpatched one was not kept)");
	else
		strbuf_addstr(sb, " (from scratch)");
	if (tv->has_build && tv->build.status == BUILD_OK)
		strbuf_addf(sb, ", unpatched %.1f s", tv->build.seconds);
	return 1;
}

int report_add_patch_verdict(struct strbuf *sb, const struct analyze_model *m,
			     const struct analyze_across *a, size_t c, size_t s)
{
	const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);

	if (!m->sources[s].patch || !cell->has_same ||
	    (cell->same.marker != '*' && cell->same.marker != '~'))
		return 0;
	strbuf_addf(sb, "%s on %s with %s: ", m->sources[s].patch_name, m->sources[0].label,
		    m->counterparts[c].name);
	stats_format_change(sb, cell->same.change, 1);
	strbuf_addch(sb, ' ');
	stats_format_ci(sb, &cell->same, 1);
	strbuf_addf(sb, ", %c", cell->same.marker);
	return 1;
}

void report_across_notes(struct strvec *notes, const struct analyze_model *m, size_t c,
			 size_t s)
{
	const struct analyze_counterpart *cp = &m->counterparts[c];
	size_t v = cp->variant[s];

	if (v != SIZE_MAX && analyze_not_measured(m, &m->variants[v]))
		strvec_pushf(notes, "%s on %s: %s: %s", cp->name, m->sources[s].label,
			     analyze_state_name(m->variants[v].state), m->variants[v].why);
	if (cp->differs && cp->differs[s])
		strvec_pushf(notes, "%s: %s", cp->name, cp->differs[s]);
}
