/* report-json.c: the report as JSON shaped like hyperfine's --export-json, plus kconfperf's fields. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/analyze.h"
#include "util/json.h"
#include "plan/plan.h"
#include "report/report-sections.h"
#include "report/report-util.h"
#include "report/report-writers.h"
#include "report/report-where.h"
#include "util/strbuf.h"

/*
 * {"results": [{"command", "mean", "stddev", "median", "min", "max",
 *               "times": [...], "kconfperf": {...}}, ...],
 *  "kconfperf": {"experiment": {...}, "options": {...}, "groups": [...],
 *                "tables": [...], "not_measured": [...]}}
 *
 * One entry of results per variant with values, per workload and metric,
 * in display order, so tools written for hyperfine (plot_whisker.py, say)
 * read it as they read hyperfine's export: "command" is the variant and
 * "times" the per-run values (in kconfperf.unit, seconds for wall and
 * boot).  A same-as variant's entry repeats the runs of the variant
 * measured for it, named in kconfperf.same_as (null in other entries).
 * kconfperf's own fields sit in a "kconfperf" object in each entry and at
 * the top.  Statistics that are not defined are null.  A cumulative
 * step's entry has kconfperf.step (its number, the option it adds, the
 * step it is compared with, and that comparison), a group's kconfperf.group (its name and
 * members); both are null in other entries.
 *
 * With several sources (versions, patches) each entry's kconfperf object
 * names its "source", and the top one has "sources" (label, version,
 * origin, patch, base) and "across": per workload and metric, a row per
 * variant name with a cell per source: its state, mean and cost (against
 * that source's baseline), and for the sources after the first "against"
 * (the same config against the first's) and "cost_change" (the ratio of
 * the two costs), each with its interval, q and marker, or null.
 */

static void diff_lines(struct json_writer *jw, const char *diff)
{
	const char *p = diff ? diff : "", *nl;

	jw_object_inline_begin_array(jw, "effective_diff");
	while (*p) {
		struct strbuf line = STRBUF_INIT;

		nl = strchr(p, '\n');
		strbuf_add(&line, p, nl ? (size_t)(nl - p) : strlen(p));
		jw_array_string(jw, line.buf);
		strbuf_release(&line);
		p = nl ? nl + 1 : p + strlen(p);
	}
	jw_end(jw);
}

/* An integer member, null when the value is not known. */
static void int_or_null(struct json_writer *jw, const char *key, int known, intmax_t v)
{
	if (known)
		jw_object_intmax(jw, key, v);
	else
		jw_object_null(jw, key);
}

/* PREFIXtext_size ... and their _delta: one class of vmlinux's sizes (by section or by symbol). */
static void sizes_json(struct json_writer *jw, const char *prefix, int has_build,
		       const struct store_sizes *abs, int has_delta, const struct store_sizes *delta)
{
	const char *names[3] = { "text", "data", "bss" };
	const int64_t a[3] = { abs->text, abs->data, abs->bss };
	const int64_t d[3] = { delta->text, delta->data, delta->bss };
	char key[64];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s%s_size", prefix, names[i]);
		int_or_null(jw, key, has_build && a[i] >= 0, a[i]);
	}
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s%s_size_delta", prefix, names[i]);
		int_or_null(jw, key, has_delta, d[i]);
	}
}

static void build_fields(struct json_writer *jw, const struct analyze_variant *av)
{
	const struct store_build *b = &av->build;

	int_or_null(jw, "bzimage_size", av->has_build && b->bzimage_size > 0, b->bzimage_size);
	int_or_null(jw, "bzimage_size_delta", av->has_size_delta, av->size_delta);
	int_or_null(jw, "vmlinux_size", av->has_build && b->vmlinux_size > 0, b->vmlinux_size);
	sizes_json(jw, "", av->has_build, &b->sections, av->has_sections_delta,
		   &av->sections_delta);
	sizes_json(jw, "symbol_", av->has_build, &b->symbols, av->has_symbols_delta,
		   &av->symbols_delta);
	jw_object_double(jw, "build_seconds", av->has_build ? b->seconds : NAN);
}

/* What a table measures: in each of its results and in the table's own object. */
static void table_members(struct json_writer *jw, const struct analyze_table *t)
{
	jw_object_string(jw, "workload", t->workload);
	jw_object_string(jw, "metric", t->metric);
	jw_object_string(jw, "unit", t->unit);
	jw_object_bool(jw, "higher_is_better", t->higher_is_better);
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

/* "group": its name and members, or null when the variant is no group's. */
static void group_field(struct json_writer *jw, const struct analyze_model *m,
			const struct analyze_variant *av)
{
	const struct analyze_group *g = strcmp(av->v.kind, "oat") ? NULL :
		analyze_group(m, av->v.name);
	size_t k;

	if (!g) {
		jw_object_null(jw, "group");
		return;
	}
	jw_object_inline_begin_object(jw, "group");
	jw_object_string(jw, "name", g->name);
	jw_object_inline_begin_array(jw, "members");
	for (k = 0; k < g->members.nr; k++)
		jw_array_string(jw, g->members.v[k]);
	jw_end(jw);
	jw_end(jw);
}

/* The option a step adds: the last of the options it holds. */
static const char *step_adds(const struct analyze_variant *av, struct strbuf *sb)
{
	const char *opts = av->v.options ? av->v.options : "", *end = opts + strlen(opts);
	const char *start;

	while (end > opts && end[-1] == '\n')
		end--;
	for (start = end; start > opts && start[-1] != '\n'; start--)
		;
	strbuf_add(sb, start, (size_t)(end - start));
	return sb->len ? sb->buf : NULL;
}

/* "step": a cumulative step against the step before it, or null. */
static void step_field(struct json_writer *jw, const struct analyze_model *m,
		       const struct analyze_table *t, const struct analyze_row *r)
{
	int cmp = r->step == ANALYZE_STEP_COMPARED;
	struct strbuf adds = STRBUF_INIT;

	if (!r->step_number) {
		jw_object_null(jw, "step");
		return;
	}
	jw_object_inline_begin_object(jw, "step");
	jw_object_intmax(jw, "number", (intmax_t)r->step_number);
	jw_object_string(jw, "adds", step_adds(analyze_row_variant(m, r), &adds));
	jw_object_string(jw, "against", r->step_prev == SIZE_MAX ? NULL :
			 report_step_before(m, t, r));
	jw_object_bool(jw, "same_kernel", r->step == ANALYZE_STEP_SAME);
	jw_object_double(jw, "change_pct", cmp ? r->step_cmp.change :
			 r->step == ANALYZE_STEP_SAME ? 0 : NAN);
	jw_object_double(jw, "ci_low_pct", cmp ? r->step_cmp.change_lo : NAN);
	jw_object_double(jw, "ci_high_pct", cmp ? r->step_cmp.change_hi : NAN);
	jw_object_double(jw, "p_welch", cmp ? r->step_cmp.welch.p : NAN);
	jw_object_double(jw, "q_bh", cmp ? r->step_cmp.q : NAN);
	jw_object_string(jw, "marker", report_step_marker(r));
	jw_end(jw);
	strbuf_release(&adds);
}

static void result(struct json_writer *jw, const struct analyze_model *m,
		   const struct analyze_table *t, size_t i)
{
	const struct analyze_row *r = &t->rows[i];
	const struct analyze_variant *av = analyze_row_variant(m, r);
	const struct analyze_variant *twin = analyze_row_twin(m, r);
	size_t k;

	jw_array_inline_begin_object(jw);
	jw_object_string(jw, "command", av->v.name);
	jw_object_double(jw, "mean", r->summary.mean);
	jw_object_double(jw, "stddev", r->summary.sd);
	jw_object_double(jw, "median", r->summary.median);
	jw_object_double(jw, "min", r->summary.min);
	jw_object_double(jw, "max", r->summary.max);
	jw_object_inline_begin_array(jw, "times");
	for (k = 0; k < r->n; k++)
		jw_array_double(jw, r->values[k]);
	jw_end(jw);

	jw_object_inline_begin_object(jw, "kconfperf");
	jw_object_string(jw, "variant", av->v.name);
	if (m->nr_sources > 1)
		jw_object_string(jw, "source", m->sources[av->source].label);
	jw_object_string(jw, "kind", av->v.kind);
	jw_object_string(jw, "same_as", twin ? twin->v.name : NULL);
	table_members(jw, t);
	jw_object_bool(jw, "baseline", r->is_baseline);
	jw_object_intmax(jw, "n", r->n);
	jw_object_bool(jw, "too_few_runs", r->too_few);
	if (r->clusters.bimodal) {
		jw_object_inline_begin_object(jw, "two_clusters");
		jw_object_double(jw, "low", r->clusters.low);
		jw_object_intmax(jw, "n_low", r->clusters.n_low);
		jw_object_double(jw, "high", r->clusters.high);
		jw_object_double(jw, "p", r->clusters.p);
		jw_end(jw);
	} else {
		jw_object_null(jw, "two_clusters");
	}
	jw_object_intmax(jw, "warmups_excluded", r->warmups);
	jw_object_intmax(jw, "failed_excluded", r->failed);
	jw_object_intmax(jw, "outliers", r->summary.outliers);
	jw_object_double(jw, "geomean", r->summary.geomean);
	jw_object_double(jw, "mad", r->summary.mad);
	jw_object_double(jw, "change_pct", r->is_baseline ? 0 : r->compared ? r->cmp.change : NAN);
	jw_object_double(jw, "ci_low_pct", r->compared ? r->cmp.change_lo : NAN);
	jw_object_double(jw, "ci_high_pct", r->compared ? r->cmp.change_hi : NAN);
	jw_object_string(jw, "ci", ci_state(r));
	jw_object_double(jw, "p_welch", r->compared ? r->cmp.welch.p : NAN);
	jw_object_double(jw, "q_bh", r->compared ? r->cmp.q : NAN);
	jw_object_double(jw, "p_mannwhitney", r->compared ? r->cmp.mw.p : NAN);
	jw_object_string(jw, "marker", report_marker(t, i));
	step_field(jw, m, t, r);
	group_field(jw, m, av);
	jw_object_string(jw, "status", variant_status_name(av->v.status));
	jw_object_string(jw, "reason", av->v.reason && *av->v.reason ? av->v.reason : NULL);
	diff_lines(jw, av->v.effective_diff);
	build_fields(jw, av);
	jw_end(jw);
	jw_end(jw);
}

/* The member key: an interaction's figures. */
static void interaction(struct json_writer *jw, const char *key,
			const struct stats_interaction *ia)
{
	char marker[2] = { ia->marker == ' ' ? 0 : ia->marker, 0 };

	jw_object_inline_begin_object(jw, key);
	jw_object_double(jw, "predicted", ia->predicted);
	jw_object_double(jw, "predicted_low", ia->predicted_lo);
	jw_object_double(jw, "predicted_high", ia->predicted_hi);
	jw_object_double(jw, "measured", ia->measured);
	jw_object_double(jw, "measured_low", ia->measured_lo);
	jw_object_double(jw, "measured_high", ia->measured_hi);
	jw_object_double(jw, "ratio", ia->ratio);
	jw_object_double(jw, "ratio_low", ia->ratio_lo);
	jw_object_double(jw, "ratio_high", ia->ratio_hi);
	jw_object_string(jw, "marker", marker);
	jw_object_string(jw, "verdict", analyze_interaction_verdict(ia));
	jw_end(jw);
}

static void table_info(struct json_writer *jw, const struct analyze_model *m,
		       const struct analyze_table *t)
{
	size_t i;

	jw_array_inline_begin_object(jw);
	table_members(jw, t);
	if (m->nr_sources > 1)
		jw_object_string(jw, "source", m->sources[t->source].label);
	jw_object_intmax(jw, "runs", t->runs);
	jw_object_intmax(jw, "warmups_excluded", t->warmups);
	jw_object_intmax(jw, "failed_excluded", t->failed);
	jw_object_string(jw, "accel", t->accel);
	jw_object_string(jw, "clock", t->clock);
	jw_object_intmax(jw, "layouts", t->layouts);
	jw_object_string(jw, "clock_text", t->clock_text);
	if (t->aa_text) {
		jw_object_inline_begin_object(jw, "aa");
		jw_object_string(jw, "variant", PLAN_AA_NAME);
		jw_object_bool(jw, "marked", t->aa_marked);
		jw_object_string(jw, "verdict", t->aa_text);
		jw_end(jw);
	} else {
		jw_object_null(jw, "aa");
	}
	if (t->has_product)
		interaction(jw, "multiplicative", &t->product);
	else
		jw_object_null(jw, "multiplicative");
	jw_object_inline_begin_array(jw, "added_last");
	for (i = 0; i < t->nr_added_last; i++) {
		const struct analyze_added_last *al = &t->added_last[i];

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "option", al->option);
		jw_object_string(jw, "kind", al->kind == ANALYZE_AL_MODEL ? "model" :
			  al->kind == ANALYZE_AL_ALONE_NOOP ? "alone-no-op" : "same-as-all");
		if (al->kind == ANALYZE_AL_MODEL) {
			interaction(jw, "interaction", &al->ia);
		} else if (al->kind == ANALYZE_AL_ALONE_NOOP) {
			jw_object_double(jw, "added_last_change_pct", al->cmp.change);
			jw_object_double(jw, "ci_low_pct", al->cmp.change_lo);
			jw_object_double(jw, "ci_high_pct", al->cmp.change_hi);
		}
		jw_end(jw);
	}
	jw_end(jw);
	jw_object_inline_begin_array(jw, "not_compared");
	for (i = 0; i < t->nr_rows; i++) {
		const struct analyze_row *r = &t->rows[i];

		if (r->n || r->twin != SIZE_MAX)
			continue;
		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "variant", analyze_row_variant(m, r)->v.name);
		jw_object_intmax(jw, "failed_runs", r->failed);
		jw_object_string(jw, "error", r->first_error);
		jw_end(jw);
	}
	jw_end(jw);
	jw_end(jw);
}

/*
 * kconfperf.series[]: each parameter series (analyze.h) with a row per
 * value, each row the member workload and a cell per variant; the
 * figures of each cell are those of its member's result above.
 */
static void series_list(struct json_writer *jw, const struct analyze_model *m)
{
	size_t i, k, v;

	jw_object_inline_begin_array(jw, "series");
	for (i = 0; i < m->nr_series; i++) {
		const struct analyze_series *s = &m->series[i];

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "label", s->label);
		jw_object_string(jw, "param", s->param);
		jw_object_string(jw, "metric", s->metric);
		jw_object_string(jw, "unit", s->unit);
		jw_object_bool(jw, "higher_is_better", s->higher_is_better);
		jw_object_inline_begin_array(jw, "rows");
		for (k = 0; k < s->nr_values; k++) {
			const struct analyze_table *t = s->tables[k] == SIZE_MAX ? NULL :
				&m->tables[s->tables[k]];

			jw_array_inline_begin_object(jw);
			jw_object_string(jw, "value", s->values[k]);
			jw_object_string(jw, "workload", t ? t->workload : NULL);
			jw_object_inline_begin_array(jw, "cells");
			for (v = 0; v < s->nr_variants; v++) {
				const struct analyze_row *r = analyze_series_cell(m, s, k,
										  s->variants[v], NULL);

				jw_array_inline_begin_object(jw);
				jw_object_string(jw, "variant", m->variants[s->variants[v]].v.name);
				jw_object_intmax(jw, "n", r ? (intmax_t)r->n : 0);
				jw_object_double(jw, "mean", r && r->n ? r->summary.mean : NAN);
				jw_object_double(jw, "stddev", r && r->n ? r->summary.sd : NAN);
				jw_object_double(jw, "change_pct", !r ? NAN : r->is_baseline ? 0 :
						 r->compared ? r->cmp.change : NAN);
				jw_object_double(jw, "ci_low_pct", r && r->compared ? r->cmp.change_lo : NAN);
				jw_object_double(jw, "ci_high_pct", r && r->compared ? r->cmp.change_hi : NAN);
				jw_object_double(jw, "q_bh", r && r->compared ? r->cmp.q : NAN);
				jw_object_string(jw, "marker", r ? report_marker(t, (size_t)(r - t->rows)) : "");
				jw_end(jw);
			}
			jw_end(jw);
			jw_end(jw);
		}
		jw_end(jw);
		jw_end(jw);
	}
	jw_end(jw);
}

static void marker_member(struct json_writer *jw, char marker)
{
	char text[2] = { marker == ' ' ? 0 : marker, 0 };

	jw_object_string(jw, "marker", text);
}

static void sources(struct json_writer *jw, const struct analyze_model *m)
{
	size_t i;

	jw_object_inline_begin_array(jw, "sources");
	for (i = 0; i < m->nr_sources; i++) {
		const struct analyze_source *s = &m->sources[i];

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "label", s->label);
		jw_object_string(jw, "version", s->version);
		jw_object_string(jw, "origin", s->origin);
		jw_object_string(jw, "patch", s->patch);
		jw_object_string(jw, "base", s->base == SIZE_MAX ? NULL : m->sources[s->base].label);
		jw_end(jw);
	}
	jw_end(jw);
}

static void across_cell(struct json_writer *jw, const struct analyze_model *m,
			const struct analyze_across *a, size_t c, size_t s)
{
	const struct analyze_across_cell *cell = analyze_across_cell(m, a, c, s);
	const struct analyze_row *r = report_across_row(m, a, c, s);
	size_t v = m->counterparts[c].variant[s];
	const struct analyze_variant *av = v == SIZE_MAX ? NULL : &m->variants[v];
	int costed = r && r->n && r->compared;

	jw_array_inline_begin_object(jw);
	jw_object_string(jw, "source", m->sources[s].label);
	jw_object_string(jw, "variant", av ? av->v.name : NULL);
	jw_object_string(jw, "state", !av ? "absent" : analyze_state_name(av->state));
	jw_object_string(jw, "why", av ? av->why : NULL);
	jw_object_double(jw, "mean", r && r->n ? r->summary.mean : NAN);
	jw_object_intmax(jw, "n", r ? (intmax_t)r->n : 0);
	jw_object_double(jw, "cost_pct", costed ? r->cmp.change : NAN);
	jw_object_double(jw, "cost_low_pct", costed ? r->cmp.change_lo : NAN);
	jw_object_double(jw, "cost_high_pct", costed ? r->cmp.change_hi : NAN);
	marker_member(jw, costed ? r->cmp.marker : ' ');
	if (cell->has_same) {
		jw_object_inline_begin_object(jw, "against");
		jw_object_double(jw, "change_pct", cell->same.change);
		jw_object_double(jw, "ci_low_pct", cell->same.change_lo);
		jw_object_double(jw, "ci_high_pct", cell->same.change_hi);
		jw_object_double(jw, "q_bh", cell->same.q);
		marker_member(jw, cell->same.marker);
		jw_end(jw);
	} else {
		jw_object_null(jw, "against");
	}
	if (cell->has_change) {
		jw_object_inline_begin_object(jw, "cost_change");
		jw_object_double(jw, "ratio", cell->change.ratio);
		jw_object_double(jw, "change_pct", cell->change.change);
		jw_object_double(jw, "ci_low_pct", cell->change.change_lo);
		jw_object_double(jw, "ci_high_pct", cell->change.change_hi);
		jw_object_double(jw, "p", cell->change.p);
		jw_object_double(jw, "q_bh", cell->change.q);
		marker_member(jw, cell->change.marker);
		jw_end(jw);
	} else {
		jw_object_null(jw, "cost_change");
	}
	jw_object_string(jw, "differs", m->counterparts[c].differs ?
			 m->counterparts[c].differs[s] : NULL);
	jw_end(jw);
}

static void across(struct json_writer *jw, const struct analyze_model *m)
{
	size_t i, c, s;

	jw_object_inline_begin_array(jw, "across");
	for (i = 0; i < m->nr_across; i++) {
		const struct analyze_across *a = &m->across[i];

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "workload", a->workload);
		jw_object_string(jw, "metric", a->metric);
		jw_object_string(jw, "unit", a->unit);
		jw_object_bool(jw, "higher_is_better", a->higher_is_better);
		jw_object_inline_begin_array(jw, "rows");
		for (c = 0; c < m->nr_counterparts; c++) {
			jw_array_inline_begin_object(jw);
			jw_object_string(jw, "name", m->counterparts[c].name);
			jw_object_inline_begin_array(jw, "cells");
			for (s = 0; s < m->nr_sources; s++)
				across_cell(jw, m, a, c, s);
			jw_end(jw);
			jw_end(jw);
		}
		jw_end(jw);
		jw_end(jw);
	}
	jw_end(jw);
}

void report_json(struct strbuf *out, const struct analyze_model *m)
{
	struct json_writer jw;
	size_t i, j;

	jw_init(&jw, out, 1);
	jw_object_begin(&jw);
	jw_object_inline_begin_array(&jw, "results");
	for (i = 0; i < m->nr_tables; i++)
		for (j = 0; j < m->tables[i].nr_order; j++)
			result(&jw, m, &m->tables[i], m->tables[i].order[j]);
	jw_end(&jw);

	jw_object_inline_begin_object(&jw, "kconfperf");
	jw_object_inline_begin_object(&jw, "experiment");
	for (i = 0; i + 1 < m->facts.nr; i += 2)
		jw_object_string(&jw, m->facts.v[i], m->facts.v[i + 1]);
	/* an import has no accel of ours: its runs' */
	if (m->conditions.accel == VM_ACCEL_AUTO && analyze_accel(m))
		jw_object_string(&jw, "accel", analyze_accel(m));
	jw_end(&jw);
	jw_object_inline_begin_object(&jw, "options");
	jw_object_double(&jw, "confidence", m->opts.stats.confidence);
	jw_object_double(&jw, "alpha", m->opts.stats.alpha);
	jw_object_double(&jw, "noise_pct", m->opts.stats.noise);
	jw_end(&jw);
	jw_object_inline_begin_array(&jw, "groups");
	for (i = 0; i < m->nr_groups; i++) {
		jw_array_inline_begin_object(&jw);
		jw_object_string(&jw, "name", m->groups[i].name);
		jw_object_inline_begin_array(&jw, "members");
		for (j = 0; j < m->groups[i].members.nr; j++)
			jw_array_string(&jw, m->groups[i].members.v[j]);
		jw_end(&jw);
		jw_end(&jw);
	}
	jw_end(&jw);
	if (m->nr_sources > 1)
		sources(&jw, m);
	jw_object_inline_begin_array(&jw, "tables");
	for (i = 0; i < m->nr_tables; i++)
		table_info(&jw, m, &m->tables[i]);
	jw_end(&jw);
	series_list(&jw, m);
	if (m->nr_sources > 1)
		across(&jw, m);
	report_where_json(&jw, m);
	jw_object_inline_begin_array(&jw, "not_measured");
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];

		if (!analyze_not_measured(m, av))
			continue;
		jw_array_inline_begin_object(&jw);
		jw_object_string(&jw, "variant", av->v.name);
		jw_object_string(&jw, "kind", av->v.kind);
		jw_object_string(&jw, "status", analyze_state_name(av->state));
		jw_object_string(&jw, "same_as", av->v.same_as);
		jw_object_string(&jw, "reason", av->why);
		diff_lines(&jw, av->v.effective_diff);
		build_fields(&jw, av);
		jw_end(&jw);
	}
	jw_end(&jw);
	report_claims_json(&jw, m);
	report_findings_json(&jw, m);
	report_env_json(&jw, m);
	jw_end(&jw);
	jw_end(&jw);
}
