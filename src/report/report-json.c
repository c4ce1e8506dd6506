/* report-json.c: the report as JSON shaped like hyperfine's --export-json, plus kconfperf's fields. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/json.h"
#include "report/report.h"
#include "util/strbuf.h"

/*
 * {"results": [{"command", "mean", "stddev", "median", "min", "max",
 *               "times": [...], "kconfperf": {...}}, ...],
 *  "kconfperf": {"experiment": {...}, "options": {...}, "tables": [...],
 *                "not_measured": [...]}}
 *
 * One entry of results per variant with values, per workload and metric,
 * in display order, so tools written for hyperfine (plot_whisker.py, say)
 * read it as they read hyperfine's export: "command" is the variant and
 * "times" the per-run values (in kconfperf.unit, seconds for wall and
 * boot).  A same-as variant's entry repeats the runs of the variant
 * measured for it, named in kconfperf.same_as (null in other entries).
 * kconfperf's own fields sit in a "kconfperf" object in each entry and at
 * the top.  Statistics that are not defined are null.
 */

static void number_or_null(struct json_writer *jw, const char *key, double v)
{
	jw_key(jw, key);
	jw_number(jw, v);
}

static void diff_lines(struct json_writer *jw, const char *diff)
{
	const char *p = diff ? diff : "", *nl;

	jw_key(jw, "effective_diff");
	jw_array_begin(jw);
	while (*p) {
		struct strbuf line = STRBUF_INIT;

		nl = strchr(p, '\n');
		strbuf_add(&line, p, nl ? (size_t)(nl - p) : strlen(p));
		jw_string(jw, line.buf);
		strbuf_release(&line);
		p = nl ? nl + 1 : p + strlen(p);
	}
	jw_array_end(jw);
}

/* An integer member, null when the value is not known. */
static void int_or_null(struct json_writer *jw, const char *key, int known, long long v)
{
	jw_key(jw, key);
	if (known)
		jw_int(jw, v);
	else
		jw_null(jw);
}

static void build_fields(struct json_writer *jw, const struct analyze_variant *av)
{
	const struct store_build *b = &av->build;

	int_or_null(jw, "bzimage_size", av->has_build && b->bzimage_size > 0, b->bzimage_size);
	int_or_null(jw, "bzimage_size_delta", av->has_size_delta, av->size_delta);
	int_or_null(jw, "vmlinux_size", av->has_build && b->vmlinux_size > 0, b->vmlinux_size);
	number_or_null(jw, "build_seconds", av->has_build ? b->seconds : NAN);
}

/* What a table measures: in each of its results and in the table's own object. */
static void table_members(struct json_writer *jw, const struct analyze_table *t)
{
	jw_key(jw, "workload");
	jw_string(jw, t->workload);
	jw_key(jw, "metric");
	jw_string(jw, t->metric);
	jw_key(jw, "unit");
	jw_string(jw, t->unit);
	jw_key(jw, "higher_is_better");
	jw_bool(jw, t->higher_is_better);
}

static const char *ci_state(const struct analyze_row *r)
{
	if (!r->compared)
		return NULL;
	switch (r->cmp.ci.state) {
	case STATS_CI_BOUNDED:
		return "bounded";
	case STATS_CI_UNBOUNDED:
		return "unbounded";
	default:
		return "none";
	}
}

static void result(struct json_writer *jw, const struct analyze_model *m,
		   const struct analyze_table *t, size_t i)
{
	const struct analyze_row *r = &t->rows[i];
	const struct analyze_variant *av = analyze_row_variant(m, r);
	const struct analyze_variant *twin = analyze_row_twin(m, r);
	size_t k;

	jw_object_begin(jw);
	jw_key(jw, "command");
	jw_string(jw, av->v.name);
	number_or_null(jw, "mean", r->summary.mean);
	number_or_null(jw, "stddev", r->summary.sd);
	number_or_null(jw, "median", r->summary.median);
	number_or_null(jw, "min", r->summary.min);
	number_or_null(jw, "max", r->summary.max);
	jw_key(jw, "times");
	jw_array_begin(jw);
	for (k = 0; k < r->n; k++)
		jw_number(jw, r->values[k]);
	jw_array_end(jw);

	jw_key(jw, "kconfperf");
	jw_object_begin(jw);
	jw_key(jw, "variant");
	jw_string(jw, av->v.name);
	jw_key(jw, "kind");
	jw_string(jw, av->v.kind);
	jw_key(jw, "same_as");
	jw_string(jw, twin ? twin->v.name : NULL);
	table_members(jw, t);
	jw_key(jw, "baseline");
	jw_bool(jw, r->is_baseline);
	jw_key(jw, "n");
	jw_int(jw, r->n);
	jw_key(jw, "too_few_runs");
	jw_bool(jw, r->too_few);
	jw_key(jw, "two_clusters");
	if (r->clusters.bimodal) {
		jw_object_begin(jw);
		jw_key(jw, "low");
		jw_number(jw, r->clusters.low);
		jw_key(jw, "n_low");
		jw_int(jw, r->clusters.n_low);
		jw_key(jw, "high");
		jw_number(jw, r->clusters.high);
		jw_key(jw, "p");
		jw_number(jw, r->clusters.p);
		jw_object_end(jw);
	} else {
		jw_null(jw);
	}
	jw_key(jw, "warmups_excluded");
	jw_int(jw, r->warmups);
	jw_key(jw, "failed_excluded");
	jw_int(jw, r->failed);
	jw_key(jw, "outliers");
	jw_int(jw, r->summary.outliers);
	number_or_null(jw, "geomean", r->summary.geomean);
	number_or_null(jw, "mad", r->summary.mad);
	number_or_null(jw, "change_pct", r->is_baseline ? 0 : r->compared ? r->cmp.change : NAN);
	number_or_null(jw, "ci_low_pct", r->compared ? r->cmp.change_lo : NAN);
	number_or_null(jw, "ci_high_pct", r->compared ? r->cmp.change_hi : NAN);
	jw_key(jw, "ci");
	jw_string(jw, ci_state(r));
	number_or_null(jw, "p_welch", r->compared ? r->cmp.welch.p : NAN);
	number_or_null(jw, "q_bh", r->compared ? r->cmp.q : NAN);
	number_or_null(jw, "p_mannwhitney", r->compared ? r->cmp.mw.p : NAN);
	jw_key(jw, "marker");
	jw_string(jw, report_marker(t, i));
	jw_key(jw, "status");
	jw_string(jw, av->v.status);
	jw_key(jw, "reason");
	jw_string(jw, av->v.reason && *av->v.reason ? av->v.reason : NULL);
	diff_lines(jw, av->v.effective_diff);
	build_fields(jw, av);
	jw_object_end(jw);
	jw_object_end(jw);
}

static void interaction(struct json_writer *jw, const struct stats_interaction *ia)
{
	char marker[2] = { ia->marker == ' ' ? 0 : ia->marker, 0 };

	jw_object_begin(jw);
	number_or_null(jw, "predicted", ia->predicted);
	number_or_null(jw, "predicted_low", ia->predicted_lo);
	number_or_null(jw, "predicted_high", ia->predicted_hi);
	number_or_null(jw, "measured", ia->measured);
	number_or_null(jw, "measured_low", ia->measured_lo);
	number_or_null(jw, "measured_high", ia->measured_hi);
	number_or_null(jw, "ratio", ia->ratio);
	number_or_null(jw, "ratio_low", ia->ratio_lo);
	number_or_null(jw, "ratio_high", ia->ratio_hi);
	jw_key(jw, "marker");
	jw_string(jw, marker);
	jw_key(jw, "verdict");
	jw_string(jw, analyze_interaction_verdict(ia));
	jw_object_end(jw);
}

static void table_info(struct json_writer *jw, const struct analyze_model *m,
		       const struct analyze_table *t)
{
	size_t i;

	jw_object_begin(jw);
	table_members(jw, t);
	jw_key(jw, "runs");
	jw_int(jw, t->runs);
	jw_key(jw, "warmups_excluded");
	jw_int(jw, t->warmups);
	jw_key(jw, "failed_excluded");
	jw_int(jw, t->failed);
	jw_key(jw, "accel");
	jw_string(jw, t->accel);
	jw_key(jw, "multiplicative");
	if (t->has_product) {
		interaction(jw, &t->product);
	} else {
		jw_null(jw);
	}
	jw_key(jw, "added_last");
	jw_array_begin(jw);
	for (i = 0; i < t->nr_added_last; i++) {
		const struct analyze_added_last *al = &t->added_last[i];

		jw_object_begin(jw);
		jw_key(jw, "option");
		jw_string(jw, al->option);
		jw_key(jw, "kind");
		jw_string(jw, al->kind == ANALYZE_AL_MODEL ? "model" :
			  al->kind == ANALYZE_AL_ALONE_NOOP ? "alone-no-op" : "same-as-all");
		if (al->kind == ANALYZE_AL_MODEL) {
			jw_key(jw, "interaction");
			interaction(jw, &al->ia);
		} else if (al->kind == ANALYZE_AL_ALONE_NOOP) {
			number_or_null(jw, "added_last_change_pct", al->cmp.change);
			number_or_null(jw, "ci_low_pct", al->cmp.change_lo);
			number_or_null(jw, "ci_high_pct", al->cmp.change_hi);
		}
		jw_object_end(jw);
	}
	jw_array_end(jw);
	jw_key(jw, "not_compared");
	jw_array_begin(jw);
	for (i = 0; i < t->nr_rows; i++) {
		const struct analyze_row *r = &t->rows[i];

		if (r->n || r->twin != SIZE_MAX)
			continue;
		jw_object_begin(jw);
		jw_key(jw, "variant");
		jw_string(jw, analyze_row_variant(m, r)->v.name);
		jw_key(jw, "failed_runs");
		jw_int(jw, r->failed);
		jw_key(jw, "error");
		jw_string(jw, r->first_error);
		jw_object_end(jw);
	}
	jw_array_end(jw);
	jw_object_end(jw);
}

void report_json(struct strbuf *out, const struct analyze_model *m)
{
	struct json_writer jw;
	size_t i, j;

	jw_init(&jw, out, 1);
	jw_object_begin(&jw);
	jw_key(&jw, "results");
	jw_array_begin(&jw);
	for (i = 0; i < m->nr_tables; i++)
		for (j = 0; j < m->tables[i].nr_order; j++)
			result(&jw, m, &m->tables[i], m->tables[i].order[j]);
	jw_array_end(&jw);

	jw_key(&jw, "kconfperf");
	jw_object_begin(&jw);
	jw_key(&jw, "experiment");
	jw_object_begin(&jw);
	for (i = 0; i + 1 < m->facts.nr; i += 2) {
		jw_key(&jw, m->facts.v[i]);
		jw_string(&jw, m->facts.v[i + 1]);
	}
	jw_object_end(&jw);
	jw_key(&jw, "options");
	jw_object_begin(&jw);
	number_or_null(&jw, "confidence", m->opts.stats.confidence);
	number_or_null(&jw, "alpha", m->opts.stats.alpha);
	number_or_null(&jw, "noise_pct", m->opts.stats.noise);
	jw_object_end(&jw);
	jw_key(&jw, "tables");
	jw_array_begin(&jw);
	for (i = 0; i < m->nr_tables; i++)
		table_info(&jw, m, &m->tables[i]);
	jw_array_end(&jw);
	jw_key(&jw, "not_measured");
	jw_array_begin(&jw);
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!analyze_not_measured(m, av))
			continue;
		jw_object_begin(&jw);
		jw_key(&jw, "variant");
		jw_string(&jw, av->v.name);
		jw_key(&jw, "kind");
		jw_string(&jw, av->v.kind);
		jw_key(&jw, "status");
		jw_string(&jw, analyze_state_name(av->state));
		jw_key(&jw, "same_as");
		jw_string(&jw, av->v.same_as);
		jw_key(&jw, "reason");
		jw_string(&jw, av->why);
		diff_lines(&jw, av->v.effective_diff);
		build_fields(&jw, av);
		jw_object_end(&jw);
	}
	jw_array_end(&jw);
	jw_object_end(&jw);
	jw_object_end(&jw);
}
