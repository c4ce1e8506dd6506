/* report-where.c: the "where the cost goes" sections in JSON (text, markdown and html: report-build.c). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "report/report-where.h"
#include "stats/analyze.h"
#include "util/json.h"

static const char *variant_name(const struct analyze_model *m, const struct analyze_where *w)
{
	return m->variants[m->tables[w->table].rows[w->row].variant].v.name;
}

static const char *base_name(const struct analyze_model *m, const struct analyze_where *w)
{
	const struct analyze_table *t = &m->tables[w->table];

	return m->variants[t->rows[t->baseline].variant].v.name;
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
