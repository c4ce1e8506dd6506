/* report-csv.c: every sample as one CSV row (RFC 4180), for spreadsheets and R. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "stats/analyze.h"
#include "store/metric.h"
#include "util/escape.h"
#include "util/json.h"
#include "report/report-writers.h"
#include "util/strbuf.h"

/*
 * Columns: variant, workload, run (its id), round, iteration, metric, value,
 * warmup (0/1), accel, unit, status, kind (the variant's: baseline, oat,
 * all, loo, cumulative), step (a cumulative step's number, 1.., else
 * empty).  A run's wall and boot times are rows
 * of their own with an empty iteration; the workload's samples follow.
 * Warm-up and failed runs are included (filter on warmup and status), so
 * the file holds everything the experiment measured.  --workload and
 * --metric filter as they do for the other formats.  Lines end in CRLF, as
 * RFC 4180 says; values are written to full double precision.
 */

static void row(struct strbuf *out, const struct analyze_variant *v, size_t step,
		const struct store_run *r, int iteration, const char *metric,
		double value, const char *unit)
{
	strbuf_add_csv(out, v ? v->v.name : "?");
	strbuf_addch(out, ',');
	strbuf_add_csv(out, r->workload);
	strbuf_addf(out, ",%lld,%d,", (long long)r->id, r->round);
	if (iteration >= 0)
		strbuf_addf(out, "%d", iteration);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, metric);
	strbuf_addch(out, ',');
	json_add_number(out, value);
	strbuf_addf(out, ",%d,", r->warmup ? 1 : 0);
	strbuf_add_csv(out, r->accel);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, unit);
	strbuf_addch(out, ',');
	strbuf_add_csv(out, run_status_name(r->status));
	strbuf_addch(out, ',');
	strbuf_add_csv(out, v && v->v.kind ? v->v.kind : "");
	strbuf_addch(out, ',');
	if (step)
		strbuf_addf(out, "%zu", step);
	strbuf_addstr(out, "\r\n");
}

/* The number of a cumulative step (its place among the plan's steps), or 0. */
static size_t step_number(const struct analyze_model *m, const struct analyze_variant *v)
{
	size_t i, n = 0;

	if (!v || !v->v.kind || strcmp(v->v.kind, "cumulative"))
		return 0;
	for (i = 0; i < m->nr_variants; i++) {
		if (m->variants[i].v.kind && !strcmp(m->variants[i].v.kind, "cumulative"))
			n++;
		if (&m->variants[i] == v)
			return n;
	}
	return 0;
}

static int wanted(const struct analyze_model *m, const char *metric)
{
	return !m->opts.metric || !strcmp(m->opts.metric, metric);
}

void report_csv(struct strbuf *out, const struct analyze_model *m)
{
	size_t i, j, first, n;

	strbuf_addstr(out, "variant,workload,run,round,iteration,metric,value,warmup,"
		      "accel,unit,status,kind,step\r\n");
	for (i = 0; i < m->nr_runs; i++) {
		const struct store_run *r = &m->runs[i];
		const struct analyze_variant *v = analyze_run_variant(m, r);
		size_t step = step_number(m, v);

		if (m->opts.workload && strcmp(m->opts.workload, r->workload))
			continue;
		if (isfinite(r->wall_s) && wanted(m, METRIC_WALL_NAME))
			row(out, v, step, r, -1, METRIC_WALL_NAME, r->wall_s, "s");
		if (isfinite(r->boot_s) && wanted(m, METRIC_BOOT_NAME))
			row(out, v, step, r, -1, METRIC_BOOT_NAME, r->boot_s, "s");
		n = analyze_run_samples(m, r->id, &first);
		for (j = first; j < first + n; j++) {
			const struct store_sample_row *s = &m->samples[j];

			if (wanted(m, s->metric))
				row(out, v, step, r, s->iteration, s->metric, s->value, s->unit);
		}
	}
}
