/* report-where.c: the "where the cost goes" sections in each report format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report-where.h"
#include "run/meter.h"
#include "stats/analyze.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/strbuf.h"

/* Whole instructions as whole numbers, a per-operation mean's fraction as 3 digits. */
static void add_count(struct strbuf *out, double v, int width)
{
	if (fabs(v) >= 1000 || v == floor(v))
		strbuf_addf(out, "%*.0f", width, v);
	else
		strbuf_addf(out, "%*.3g", width, v);
}

static void add_signed(struct strbuf *out, double v)
{
	if (v == 0)
		v = 0;	/* not -0 */
	if (v > 0)
		strbuf_addch(out, '+');
	add_count(out, v, 0);
}

static const char *variant_name(const struct analyze_model *m, const struct analyze_where *w)
{
	return m->variants[m->tables[w->table].rows[w->row].variant].v.name;
}

static const char *base_name(const struct analyze_model *m, const struct analyze_where *w)
{
	const struct analyze_table *t = &m->tables[w->table];

	return m->variants[t->rows[t->baseline].variant].v.name;
}

/* "+85825783 (+278.9%)" */
static void add_change(struct strbuf *out, const struct attribution *a)
{
	add_signed(out, a->change);
	if (a->base.busy > 0)
		strbuf_addf(out, " (%+.1f%%)", 100 * a->change / a->base.busy);
}

/* "the rows add up to the measured change, +85825783 (within 1%)" or what they miss by */
static void add_check(struct strbuf *out, const struct attribution *a)
{
	if (isnan(a->measured)) {
		strbuf_addstr(out, "no measured change to check the rows against");
		return;
	}
	strbuf_addstr(out, a->adds_up ? "the rows add up to the measured change, " :
			   "the rows do NOT add up to the measured change, ");
	add_signed(out, a->measured);
	strbuf_addf(out, " (off by ");
	/* whole instructions, but for a per-operation mean's fraction */
	add_signed(out, fabs(a->residual) < 0.5 && fabs(a->measured) >= 1000 ? 0 : a->residual);
	strbuf_addf(out, ", %s %.0f%%)", a->adds_up ? "within" : "more than",
		    100 * ATTRIBUTION_TOLERANCE);
}

static void add_totals(struct strbuf *out, const struct attribution *a)
{
	strbuf_addstr(out, "kernel ");
	add_count(out, a->base.kernel - a->base.idle, 0);
	strbuf_addstr(out, " -> ");
	add_count(out, a->variant.kernel - a->variant.idle, 0);
	strbuf_addstr(out, ", user ");
	add_count(out, a->base.user, 0);
	strbuf_addstr(out, " -> ");
	add_count(out, a->variant.user, 0);
	strbuf_addstr(out, ", idle loop (left out) ");
	add_count(out, a->base.idle, 0);
	strbuf_addstr(out, " -> ");
	add_count(out, a->variant.idle, 0);
	if (a->base.other != 0 || a->variant.other != 0) {
		strbuf_addstr(out, ", outside the kernel's functions ");
		add_count(out, a->base.other, 0);
		strbuf_addstr(out, " -> ");
		add_count(out, a->variant.other, 0);
	}
}

/* "hackbench: guest instructions per iteration, idle excluded (work phase, 5 and 5 runs)" */
static void add_what(struct strbuf *out, const struct analyze_model *m, const struct analyze_where *w)
{
	const struct analyze_table *t = &m->tables[w->table];

	strbuf_addf(out, "%s; %s phase, the mean of %d and %d runs", meter_metric_description(t->workload),
		    w->phase, w->base_runs, w->variant_runs);
}

static void add_share(struct strbuf *out, double share)
{
	if (isnan(share))
		strbuf_addstr(out, "      -");
	else
		strbuf_addf(out, "%6.1f%%", 100 * share);
}

void report_where_text(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, k, n;

	for (i = 0; i < m->nr_where; i++) {
		const struct analyze_where *w = &m->where[i];
		const struct attribution *a = &w->a;
		double rest_b, rest_v;

		strbuf_addstr(out, "\n\nwhere the cost goes: ");
		strbuf_add_text(out, variant_name(m, w));
		strbuf_addstr(out, " on ");
		strbuf_add_text(out, m->tables[w->table].workload);
		strbuf_addstr(out, "\n");
		add_what(out, m, w);
		strbuf_addstr(out, "\nbusy instructions ");
		add_count(out, a->base.busy, 0);
		strbuf_addstr(out, " -> ");
		add_count(out, a->variant.busy, 0);
		strbuf_addstr(out, ": ");
		add_change(out, a);
		strbuf_addch(out, '\n');
		strbuf_addf(out, "%16s %16s %16s  %7s  %s\n", "baseline", "variant", "change", "share",
			    "function");
		n = attribution_top(a, REPORT_WHERE_TOP, &rest_b, &rest_v);
		for (k = 0; k < n; k++) {
			const struct attribution_row *r = &a->rows[k];

			add_count(out, r->base, 16);
			strbuf_addch(out, ' ');
			add_count(out, r->variant, 16);
			strbuf_addch(out, ' ');
			add_count(out, r->change, 16);
			strbuf_addstr(out, "  ");
			add_share(out, r->share);
			strbuf_addstr(out, "  ");
			strbuf_add_text(out, r->name);
			strbuf_addch(out, '\n');
		}
		if (n < a->nr_rows) {
			add_count(out, rest_b, 16);
			strbuf_addch(out, ' ');
			add_count(out, rest_v, 16);
			strbuf_addch(out, ' ');
			add_count(out, rest_v - rest_b, 16);
			strbuf_addstr(out, "  ");
			add_share(out, a->change != 0 ? (rest_v - rest_b) / a->change : NAN);
			strbuf_addf(out, "  (%zu other functions)\n", a->nr_rows - n);
		}
		add_totals(out, a);
		strbuf_addstr(out, "\n");
		add_check(out, a);
		strbuf_addstr(out, "\n");
	}
}

void report_where_markdown(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, k, n;

	for (i = 0; i < m->nr_where; i++) {
		const struct analyze_where *w = &m->where[i];
		const struct attribution *a = &w->a;
		double rest_b, rest_v;

		strbuf_addstr(out, "\n### Where the cost goes: ");
		strbuf_add_markdown(out, variant_name(m, w));
		strbuf_addstr(out, " on ");
		strbuf_add_markdown(out, m->tables[w->table].workload);
		strbuf_addstr(out, "\n\n");
		add_what(out, m, w);
		strbuf_addstr(out, ". Busy instructions ");
		add_count(out, a->base.busy, 0);
		strbuf_addstr(out, " → ");
		add_count(out, a->variant.busy, 0);
		strbuf_addstr(out, ": **");
		add_change(out, a);
		strbuf_addstr(out, "**.\n\n| function | ");
		strbuf_add_markdown(out, base_name(m, w));
		strbuf_addstr(out, " | ");
		strbuf_add_markdown(out, variant_name(m, w));
		strbuf_addstr(out, " | change | share |\n| --- | ---: | ---: | ---: | ---: |\n");
		n = attribution_top(a, REPORT_WHERE_TOP, &rest_b, &rest_v);
		for (k = 0; k < n; k++) {
			const struct attribution_row *r = &a->rows[k];

			strbuf_addstr(out, "| ");
			strbuf_add_markdown(out, r->name);
			strbuf_addstr(out, " | ");
			add_count(out, r->base, 0);
			strbuf_addstr(out, " | ");
			add_count(out, r->variant, 0);
			strbuf_addstr(out, " | ");
			add_signed(out, r->change);
			strbuf_addstr(out, " | ");
			add_share(out, r->share);
			strbuf_addstr(out, " |\n");
		}
		if (n < a->nr_rows) {
			strbuf_addf(out, "| (%zu other functions) | ", a->nr_rows - n);
			add_count(out, rest_b, 0);
			strbuf_addstr(out, " | ");
			add_count(out, rest_v, 0);
			strbuf_addstr(out, " | ");
			add_signed(out, rest_v - rest_b);
			strbuf_addstr(out, " | ");
			add_share(out, a->change != 0 ? (rest_v - rest_b) / a->change : NAN);
			strbuf_addstr(out, " |\n");
		}
		strbuf_addstr(out, "\n");
		add_totals(out, a);
		strbuf_addstr(out, "; ");
		add_check(out, a);
		strbuf_addstr(out, ".\n");
	}
}

static void json_totals(struct json_writer *jw, const char *key, const struct attribution_totals *t)
{
	jw_object_inline_begin_object(jw, key);
	jw_object_double(jw, "busy", t->busy);
	jw_object_double(jw, "kernel", t->kernel - t->idle);
	jw_object_double(jw, "user", t->user);
	jw_object_double(jw, "idle", t->idle);
	jw_object_double(jw, "other", t->other);
	jw_end(jw);
}

void report_where_json(struct json_writer *jw, const struct analyze_model *m)
{
	size_t i, k;

	if (!m->nr_where)
		return;	/* no meter, or nothing significant */
	jw_object_inline_begin_array(jw, "where");
	for (i = 0; i < m->nr_where; i++) {
		const struct analyze_where *w = &m->where[i];
		const struct attribution *a = &w->a;

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "workload", m->tables[w->table].workload);
		jw_object_string(jw, "metric", m->tables[w->table].metric);
		jw_object_string(jw, "phase", w->phase);
		jw_object_string(jw, "baseline", base_name(m, w));
		jw_object_string(jw, "variant", variant_name(m, w));
		jw_object_intmax(jw, "baseline_runs", w->base_runs);
		jw_object_intmax(jw, "variant_runs", w->variant_runs);
		json_totals(jw, "baseline_totals", &a->base);
		json_totals(jw, "variant_totals", &a->variant);
		jw_object_double(jw, "change", a->change);
		jw_object_double(jw, "measured_change", a->measured);
		jw_object_double(jw, "residual", a->residual);
		jw_object_bool(jw, "adds_up", a->adds_up);
		jw_object_inline_begin_array(jw, "functions");
		for (k = 0; k < a->nr_rows; k++) {
			const struct attribution_row *r = &a->rows[k];

			jw_array_inline_begin_object(jw);
			jw_object_string(jw, "name", r->name);
			jw_object_double(jw, "baseline", r->base);
			jw_object_double(jw, "variant", r->variant);
			jw_object_double(jw, "change", r->change);
			jw_object_double(jw, "share", r->share);
			jw_end(jw);
		}
		jw_end(jw);
		jw_end(jw);
	}
	jw_end(jw);
}

void report_where_html(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, k, n;

	for (i = 0; i < m->nr_where; i++) {
		const struct analyze_where *w = &m->where[i];
		const struct attribution *a = &w->a;
		double rest_b, rest_v, scale = 0;

		n = attribution_top(a, REPORT_WHERE_TOP, &rest_b, &rest_v);
		for (k = 0; k < n; k++)
			if (fabs(a->rows[k].change) > scale)
				scale = fabs(a->rows[k].change);
		strbuf_addf(out, "<section id=\"where-%zu\">\n<h2>Where the cost goes: ", i + 1);
		strbuf_add_xml(out, variant_name(m, w));
		strbuf_addstr(out, " on ");
		strbuf_add_xml(out, m->tables[w->table].workload);
		strbuf_addstr(out, "</h2>\n<p>");
		{
			struct strbuf s = STRBUF_INIT;

			add_what(&s, m, w);
			strbuf_addstr(&s, ". Busy instructions ");
			add_count(&s, a->base.busy, 0);
			strbuf_addstr(&s, " \xe2\x86\x92 ");
			add_count(&s, a->variant.busy, 0);
			strbuf_addstr(&s, ": ");
			add_change(&s, a);
			strbuf_addstr(&s, ".");
			strbuf_add_xml(out, s.buf);
			strbuf_release(&s);
		}
		strbuf_addstr(out, "</p>\n<table class=\"where\">\n<thead><tr><th>function</th>"
			      "<th>baseline</th><th>variant</th><th>change</th><th>share</th>"
			      "<th></th></tr></thead>\n<tbody>\n");
		for (k = 0; k < n; k++) {
			const struct attribution_row *r = &a->rows[k];
			struct strbuf s = STRBUF_INIT;
			double width = scale > 0 ? 200 * fabs(r->change) / scale : 0;

			strbuf_addstr(out, "<tr><td><code>");
			strbuf_add_xml(out, r->name);
			strbuf_addstr(out, "</code></td><td class=\"num\">");
			add_count(&s, r->base, 0);
			strbuf_addstr(&s, "</td><td class=\"num\">");
			add_count(&s, r->variant, 0);
			strbuf_addstr(&s, "</td><td class=\"num\">");
			add_signed(&s, r->change);
			strbuf_addstr(&s, "</td><td class=\"num\">");
			add_share(&s, r->share);
			strbuf_addbuf(out, &s);
			strbuf_addf(out, "</td><td><svg width=\"200\" height=\"12\" role=\"img\">"
				    "<rect x=\"0\" y=\"1\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>"
				    "</svg></td></tr>\n", width,
				    r->change > 0 ? "#c0392b" : "#2e86c1");
			strbuf_release(&s);
		}
		if (n < a->nr_rows) {
			strbuf_addf(out, "<tr><td>(%zu other functions)</td><td class=\"num\">",
				    a->nr_rows - n);
			add_count(out, rest_b, 0);
			strbuf_addstr(out, "</td><td class=\"num\">");
			add_count(out, rest_v, 0);
			strbuf_addstr(out, "</td><td class=\"num\">");
			add_signed(out, rest_v - rest_b);
			strbuf_addstr(out, "</td><td class=\"num\">");
			add_share(out, a->change != 0 ? (rest_v - rest_b) / a->change : NAN);
			strbuf_addstr(out, "</td><td></td></tr>\n");
		}
		strbuf_addstr(out, "</tbody>\n</table>\n<p>");
		{
			struct strbuf s = STRBUF_INIT;

			add_totals(&s, a);
			strbuf_addstr(&s, "; ");
			add_check(&s, a);
			strbuf_addstr(&s, ".");
			strbuf_add_xml(out, s.buf);
			strbuf_release(&s);
		}
		strbuf_addstr(out, "</p>\n</section>\n");
	}
}
