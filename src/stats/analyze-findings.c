/* analyze-findings.c: the kernel's own reports per variant, for every report format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze-findings.h"
#include "stats/analyze.h"
#include "store/store-findings.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

#define NONE SIZE_MAX

/* Run indices of m->runs, ordered by run id, to find a run by id. */
static const struct analyze_model *sort_model;

static int by_run_id(const void *a, const void *b)
{
	int64_t x = sort_model->runs[*(const size_t *)a].id;
	int64_t y = sort_model->runs[*(const size_t *)b].id;

	return x < y ? -1 : x > y;
}

static size_t run_index(const struct analyze_model *m, const size_t *order, int64_t id)
{
	size_t lo = 0, hi = m->nr_runs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t x = m->runs[order[mid]].id;

		if (x == id)
			return order[mid];
		if (x < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

static size_t variant_index(const struct analyze_model *m, int64_t variant_id)
{
	size_t i;

	for (i = 0; i < m->nr_variants; i++)
		if (m->variants[i].v.id == variant_id)
			return i;
	return NONE;
}

static struct analyze_finding *find(struct analyze_model *m, size_t variant,
				    enum finding_kind kind, const char *line)
{
	size_t i;

	for (i = 0; i < m->nr_findings; i++)
		if (m->findings[i].variant == variant && m->findings[i].kind == kind &&
		    !strcmp(m->findings[i].line, line))
			return &m->findings[i];
	return NULL;
}

static void add_workload(struct analyze_finding *f, const char *workload)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = f->workloads;
	size_t n = strlen(workload);

	/* a short list of names, ", "-separated */
	while (p && *p) {
		const char *comma = strstr(p, ", ");
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !memcmp(p, workload, n))
			return;
		p = comma ? comma + 2 : NULL;
	}
	if (f->workloads)
		strbuf_addf(&sb, "%s, ", f->workloads);
	strbuf_addstr(&sb, workload);
	free(f->workloads);
	f->workloads = strbuf_detach(&sb, NULL);
}

static int by_variant(const void *a, const void *b)
{
	const struct analyze_finding *x = a, *y = b;

	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	return x->first_run < y->first_run ? -1 : x->first_run > y->first_run;
}

int analyze_findings_load(struct analyze_model *m, struct store *st)
{
	struct store_finding *f = NULL;
	size_t nr = 0, alloc = 0, alloc_last = 0, i, *order = NULL, *runs_of = NULL;
	int64_t *last_run = NULL;

	if (store_get_findings(st, &f, &nr))
		return -1;
	order = xcalloc(m->nr_runs ? m->nr_runs : 1, sizeof(*order));
	runs_of = xcalloc(m->nr_variants ? m->nr_variants : 1, sizeof(*runs_of));
	for (i = 0; i < m->nr_runs; i++) {
		size_t v = variant_index(m, m->runs[i].variant_id);

		order[i] = i;
		if (v != NONE)
			runs_of[v]++;
	}
	sort_model = m;
	qsort(order, m->nr_runs, sizeof(*order), by_run_id);
	for (i = 0; i < nr; i++) {
		size_t r = run_index(m, order, f[i].run_id), v;
		struct analyze_finding *a;

		if (r == NONE)
			continue;
		v = variant_index(m, m->runs[r].variant_id);
		if (v == NONE)
			continue;
		a = find(m, v, f[i].kind, f[i].line);
		if (!a) {
			ALLOC_GROW(m->findings, m->nr_findings + 1, alloc);
			ALLOC_GROW(last_run, m->nr_findings + 1, alloc_last);
			a = &m->findings[m->nr_findings++];
			memset(a, 0, sizeof(*a));
			a->variant = v;
			a->kind = f[i].kind;
			a->line = xstrdup(f[i].line);
			a->text = xstrdup(f[i].text);
			a->first_run = f[i].run_id;
			a->of = runs_of[v];
			a->baseline = NONE;
			last_run[a - m->findings] = -1;
		}
		if (last_run[a - m->findings] != f[i].run_id) {
			a->runs++;
			last_run[a - m->findings] = f[i].run_id;
		}
		a->reports += (size_t)(f[i].count > 0 ? f[i].count : 1);
		add_workload(a, m->runs[r].workload);
	}
	for (i = 0; i < m->nr_findings; i++) {
		struct analyze_finding *a = &m->findings[i];
		const struct analyze_variant *av = &m->variants[a->variant];
		size_t b = m->nr_sources ? m->sources[av->source].baseline : m->baseline;
		const struct analyze_finding *in_base;

		if (b == NONE || b == a->variant)
			continue;
		a->baseline = b;
		a->baseline_of = runs_of[b];
		in_base = find(m, b, a->kind, a->line);
		a->baseline_runs = in_base ? in_base->runs : 0;
	}
	if (m->nr_findings > 1)
		qsort(m->findings, m->nr_findings, sizeof(*m->findings), by_variant);
	free(last_run);
	free(runs_of);
	free(order);
	store_findings_free(f, nr);
	return 0;
}

void analyze_findings_release(struct analyze_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_findings; i++) {
		free(m->findings[i].line);
		free(m->findings[i].text);
		free(m->findings[i].workloads);
	}
	free(m->findings);
	m->findings = NULL;
	m->nr_findings = 0;
}

void analyze_finding_describe(struct strbuf *sb, const struct analyze_finding *f)
{
	strbuf_addf(sb, "%zu of %zu run%s: %s (%s", f->runs, f->of, f->of == 1 ? "" : "s",
		    f->line, finding_kind_name(f->kind));
	if (f->baseline != NONE) {
		if (f->baseline_runs)
			strbuf_addf(sb, "; the baseline too: %zu of %zu runs", f->baseline_runs,
				    f->baseline_of);
		else
			strbuf_addf(sb, "; not in the baseline: 0 of %zu runs", f->baseline_of);
	}
	if (f->reports > f->runs)
		strbuf_addf(sb, "; %zu reports in all", f->reports);
	strbuf_addch(sb, ')');
}
