/* analyze.c: the one model of an experiment that every report format is written from. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "run/workload-table.h"
#include "stats/analyze-claims.h"
#include "stats/analyze-env.h"
#include "stats/analyze-findings.h"
#include "stats/analyze.h"
#include "stats/analyze-parts.h"
#include "store/meta-keys.h"
#include "store/store-meter.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define NONE SIZE_MAX

const char *analyze_state_name(enum analyze_state state)
{
	switch (state) {
	case ANALYZE_OK:
		return "ok";
	case ANALYZE_NO_OP:
		return "no-op";
	case ANALYZE_SAME_AS:
		return "same-as";
	case ANALYZE_BUILD_FAILED:
		return "build failed";
	}
	return "?";
}

const char *analyze_interaction_verdict(const struct stats_interaction *ia)
{
	if (ia->marker == '?')
		return "too few runs";
	if (ia->marker != '*')
		return "multiplicative";
	return ia->direction > 0 ? "super-multiplicative" : "sub-multiplicative";
}

const char *analyze_accel(const struct analyze_model *m)
{
	if (m->conditions.accel != VM_ACCEL_AUTO)
		return vm_accel_name(m->conditions.accel);
	return m->runs_accel && *m->runs_accel ? m->runs_accel : NULL;
}

const char *analyze_fact(const struct analyze_model *m, const char *key)
{
	size_t i;

	for (i = 0; i + 1 < m->facts.nr; i += 2)
		if (!strcmp(m->facts.v[i], key))
			return *m->facts.v[i + 1] ? m->facts.v[i + 1] : NULL;
	return NULL;
}

const struct analyze_variant *analyze_row_variant(const struct analyze_model *m,
						  const struct analyze_row *r)
{
	return &m->variants[r->variant];
}

size_t analyze_run_samples(const struct analyze_model *m, int64_t run_id, size_t *first)
{
	return store_samples_of_run(m->samples, m->nr_samples, run_id, first);
}

static size_t variant_by_id(const struct analyze_model *m, int64_t id)
{
	size_t i;

	for (i = 0; i < m->nr_variants; i++)
		if (m->variants[i].v.id == id)
			return i;
	return NONE;
}

static size_t variant_by_name(const struct analyze_model *m, const char *name)
{
	size_t i;

	for (i = 0; name && i < m->nr_variants; i++)
		if (!strcmp(m->variants[i].v.name, name))
			return i;
	return NONE;
}

const struct analyze_variant *analyze_run_variant(const struct analyze_model *m,
						  const struct store_run *r)
{
	size_t i = variant_by_id(m, r->variant_id);

	return i == NONE ? NULL : &m->variants[i];
}

const struct analyze_variant *analyze_row_twin(const struct analyze_model *m,
					       const struct analyze_row *r)
{
	return r->twin == NONE ? NULL : &m->variants[m->variants[r->variant].twin];
}

int analyze_not_measured(const struct analyze_model *m, const struct analyze_variant *av)
{
	if (av->state == ANALYZE_SAME_AS)
		return av->twin == NONE || m->variants[av->twin].state != ANALYZE_OK;
	return av->state != ANALYZE_OK;
}

/*
 * Follows same-as links to the variant that is not same-as; NONE when a
 * link names no variant or the links go round.
 */
static size_t resolve(const struct analyze_model *m, size_t i)
{
	size_t hops;

	for (hops = 0; i != NONE && hops < m->nr_variants; hops++) {
		if (m->variants[i].state != ANALYZE_SAME_AS)
			return i;
		i = variant_by_name(m, m->variants[i].v.same_as);
	}
	return NONE;
}

/* The variant measured for i: its twin, or i itself (analyze-design.h). */
size_t analyze_measured(const struct analyze_model *m, size_t i)
{
	return i == NONE || m->variants[i].twin == NONE ? i : m->variants[i].twin;
}

/* The last non-empty line of a build log's tail, malloc'd, or NULL. */
static char *last_line(const char *text)
{
	const char *end, *start;

	if (!text)
		return NULL;
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (end == text)
		return NULL;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	return xstrndup(start, end - start);
}

static void set_state(struct analyze_variant *av)
{
	char *line;

	if (av->v.status == VARIANT_NO_OP) {
		av->state = ANALYZE_NO_OP;
		av->why = xstrdup(av->v.reason && *av->v.reason ?
				  av->v.reason : "no effective change");
	} else if (av->v.status == VARIANT_SAME_AS) {
		av->state = ANALYZE_SAME_AS;
		if (av->v.reason && *av->v.reason)
			av->why = xstrfmt("same kernel as %s (%s)",
					  av->v.same_as ? av->v.same_as : "?", av->v.reason);
		else
			av->why = xstrfmt("same kernel as %s",
					  av->v.same_as ? av->v.same_as : "?");
	} else if (av->has_build && av->build.status == BUILD_FAILED) {
		av->state = ANALYZE_BUILD_FAILED;
		line = av->has_build ? last_line(av->build.log_tail) : NULL;
		if (!line && av->v.reason && *av->v.reason)
			line = xstrdup(av->v.reason);
		if (av->has_build && av->build.log_path)
			av->why = xstrfmt("%s (log: %s)", line ? line : "no log",
					  av->build.log_path);
		else
			av->why = xstrdup(line ? line : "no log");
		free(line);
	} else {
		av->state = ANALYZE_OK;
	}
}

/* *d = *a - *b and 1 when both are known, else 0. */
static int sizes_delta(struct store_sizes *d, const struct store_sizes *a,
		       const struct store_sizes *b)
{
	if (a->text < 0 || b->text < 0)
		return 0;
	d->text = a->text - b->text;
	d->data = a->data - b->data;
	d->bss = a->bss - b->bss;
	return 1;
}

static int load_variants(struct analyze_model *m, struct store *st)
{
	struct store_variant *v;
	size_t nr, i;
	const struct analyze_variant *base = NULL;

	if (store_get_variants(st, &v, &nr))
		return -1;
	m->variants = xcalloc(nr ? nr : 1, sizeof(*m->variants));
	m->nr_variants = nr;
	m->baseline = NONE;
	for (i = 0; i < nr; i++) {
		struct analyze_variant *av = &m->variants[i];
		int found = 0;

		av->v = v[i];
		if (av->v.config_hash && *av->v.config_hash) {
			found = store_get_build_by_hash(st, av->v.config_hash, &av->build);
			if (found < 0) {
				free(v);
				return -1;
			}
		}
		av->has_build = found;
		set_state(av);
		if (m->baseline == NONE && av->v.kind && !strcmp(av->v.kind, "baseline"))
			m->baseline = i;
	}
	free(v);		/* the strings now belong to m->variants */
	if (m->baseline == NONE)
		m->baseline = variant_by_name(m, "baseline");
	if (analyze_sources_load(m, st))
		return -1;
	for (i = 0; i < nr; i++) {
		struct analyze_variant *av = &m->variants[i];

		av->twin = av->state == ANALYZE_SAME_AS ? resolve(m, i) : NONE;
	}

	for (i = 0; i < nr; i++) {
		struct analyze_variant *av = &m->variants[i];
		size_t b = m->sources[av->source].baseline;

		base = b == NONE ? NULL : &m->variants[b];
		if (base && av->has_build && base->has_build &&
		    av->build.bzimage_size > 0 && base->build.bzimage_size > 0) {
			av->has_size_delta = 1;
			av->size_delta = av->build.bzimage_size - base->build.bzimage_size;
		}
		if (base && av->has_build && base->has_build) {
			av->has_sections_delta = sizes_delta(&av->sections_delta,
							     &av->build.sections,
							     &base->build.sections);
			av->has_symbols_delta = sizes_delta(&av->symbols_delta, &av->build.symbols,
							    &base->build.symbols);
		}
	}
	return 0;
}

/* m->meters: the meter's counts of every measured ok run. */
static int load_meters(struct analyze_model *m, struct store *st)
{
	size_t i;

	m->meters = xcalloc(m->nr_runs ? m->nr_runs : 1, sizeof(*m->meters));
	for (i = 0; i < m->nr_runs; i++) {
		struct store_meter sm = STORE_METER_INIT;
		int rc;

		if (m->runs[i].warmup || m->runs[i].status != RUN_OK)
			continue;
		rc = store_get_meter(st, m->runs[i].id, &sm);
		if (rc > 0) {
			m->meters[i].total = sm.total;
			m->meters[i].before_kernel = sm.before_kernel;
			m->meters[i].kernel = sm.kernel + sm.kernel_other;
			m->meters[i].user = sm.user;
		}
		store_meter_release(&sm);
		if (rc < 0)
			return -1;
	}
	return 0;
}

const struct analyze_group *analyze_group(const struct analyze_model *m, const char *name)
{
	size_t i;

	for (i = 0; name && i < m->nr_groups; i++)
		if (!strcmp(m->groups[i].name, name))
			return &m->groups[i];
	return NULL;
}

/*
 * Takes the fact "groups" (plan_groups_text(): "GROUP CONFIG_X=value"
 * lines) out of m->facts into m->groups.
 */
static void load_groups(struct analyze_model *m)
{
	size_t i, alloc = 0;
	const char *line, *next;

	for (i = 0; i + 1 < m->facts.nr; i += 2)
		if (!strcmp(m->facts.v[i], META_GROUPS))
			break;
	if (i + 1 >= m->facts.nr)
		return;
	for (line = m->facts.v[i + 1]; *line; line = next) {
		size_t len = strcspn(line, "\n"), name = strcspn(line, " ");
		struct analyze_group *g = m->nr_groups ? &m->groups[m->nr_groups - 1] : NULL;

		next = line + len + (line[len] == '\n');
		if (name >= len)
			continue;
		if (!g || strlen(g->name) != name || strncmp(g->name, line, name)) {
			ALLOC_GROW(m->groups, m->nr_groups + 1, alloc);
			g = &m->groups[m->nr_groups++];
			g->name = xstrndup(line, name);
			strvec_init(&g->members);
		}
		strvec_pushf(&g->members, "%.*s", (int)(len - name - 1), line + name + 1);
	}
	/* the key and its value, out of the list of facts */
	free((char *)m->facts.v[i]);
	free((char *)m->facts.v[i + 1]);
	memmove(&m->facts.v[i], &m->facts.v[i + 2], (m->facts.nr - i - 1) * sizeof(*m->facts.v));
	m->facts.nr -= 2;
}

int analyze_load(struct analyze_model *out, struct store *st,
		 const struct analyze_options *opts)
{
	struct strvec accel = STRVEC_INIT;
	size_t i;

	memset(out, 0, sizeof(*out));
	strvec_init(&out->facts);
	out->opts = *opts;
	out->baseline = NONE;
	out->conditions = (struct conditions)CONDITIONS_INIT;
	if (store_get_meta_all(st, &out->facts) || conditions_load(&out->conditions, st))
		goto fail;
	out->screen_report = store_get_screen_report(st);
	load_groups(out);
	if (load_variants(out, st) ||
	    store_get_runs(st, &out->runs, &out->nr_runs) ||
	    store_get_samples(st, &out->samples, &out->nr_samples) || load_meters(out, st))
		goto fail;

	for (i = 0; i < out->nr_runs; i++)
		if (!out->runs[i].warmup)
			analyze_add_distinct(&accel, out->runs[i].accel);
	out->runs_accel = analyze_join(&accel, ", ");
	strvec_clear(&accel);

	if (analyze_build_tables(out, opts))
		goto fail;
	analyze_series_build(out);
	if (analyze_where_build(out, st))
		goto fail;
	if (analyze_findings_load(out, st))
		goto fail;
	analyze_env_build(out);
	if (analyze_claims_load(out, st))
		goto fail;
	return 0;
fail:
	analyze_release(out);
	return -1;
}

static void table_release(struct analyze_table *t)
{
	size_t i;

	for (i = 0; i < t->nr_rows; i++) {
		free(t->rows[i].values);
		free(t->rows[i].rounds);
		free(t->rows[i].outlier);
		free(t->rows[i].first_error);
	}
	for (i = 0; i < t->nr_added_last; i++)
		free(t->added_last[i].option);
	free(t->added_last);
	free(t->notes);
	free(t->product_rows);
	free(t->product_variants);
	free(t->rows);
	free(t->order);
	free(t->workload);
	free(t->metric);
	free(t->unit);
	free(t->accel);
	free(t->clock);
	free(t->clock_text);
	free(t->aa_text);
}

void analyze_release(struct analyze_model *m)
{
	size_t i;

	analyze_series_release(m);
	analyze_where_release(m);
	analyze_findings_release(m);
	analyze_env_release(m);
	analyze_claims_release(m);
	conditions_release(&m->conditions);
	free(m->screen_report);
	free(m->runs_accel);
	for (i = 0; i < m->nr_tables; i++)
		table_release(&m->tables[i]);
	free(m->tables);
	analyze_sources_release(m);
	for (i = 0; i < m->nr_variants; i++) {
		store_variant_release(&m->variants[i].v);
		store_build_release(&m->variants[i].build);
		free(m->variants[i].why);
	}
	free(m->variants);
	for (i = 0; i < m->nr_groups; i++) {
		free(m->groups[i].name);
		strvec_clear(&m->groups[i].members);
	}
	free(m->groups);
	store_runs_free(m->runs, m->nr_runs);
	free(m->meters);
	store_sample_rows_free(m->samples, m->nr_samples);
	strvec_clear(&m->facts);
	memset(m, 0, sizeof(*m));
}

int analyze_decimals(const struct analyze_table *t)
{
	double v = NAN;
	int e;
	size_t i;

	if (t->baseline != NONE && t->rows[t->baseline].n)
		v = t->rows[t->baseline].summary.mean;
	for (i = 0; isnan(v) && i < t->nr_rows; i++)
		if (t->rows[i].n)
			v = t->rows[i].summary.mean;
	v = fabs(v);
	if (!(v > 0) || !isfinite(v))
		return 3;
	e = (int)floor(log10(v));
	if (e >= 0 && e <= 2)
		return 3;
	if (e > 2)
		return e >= 4 ? 0 : 4 - e;
	return 3 - e > 9 ? 9 : 3 - e;
}
