/* report-util.c: what the report writers say the same way: values, runs, notes, markers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "report/report-util.h"
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
	if (!strcmp(t->metric, "wall"))
		return "host wall time of the whole run";
	if (!strcmp(t->metric, "boot"))
		return "guest boot to init";
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

const char *report_marker(const struct analyze_table *t, size_t row)
{
	const struct analyze_row *r = &t->rows[row];

	if (!r->compared)
		return "";
	switch (r->cmp.marker) {
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

const char *report_step_marker(const struct analyze_row *r)
{
	if (r->step != ANALYZE_STEP_COMPARED)
		return "";
	switch (r->step_cmp.marker) {
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

		if (!kind || strcmp(kind, "all"))
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
