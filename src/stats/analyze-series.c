/* analyze-series.c: parameter series in the analysis model, one view over their members' tables. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/workload-spec.h"
#include "stats/analyze.h"
#include "stats/analyze-parts.h"
#include "store/meta-keys.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

/* Adds the " --scratch A --scratch B" of a series label to spec. */
static int add_scratch(struct workload_spec *spec, const char *tail)
{
	static const char sep[] = " --scratch ";
	const char *rest = tail;

	while (rest && *rest) {
		const char *next;
		char *one;
		int rc;

		if (strncmp(rest, sep, sizeof(sep) - 1))
			return -1;
		rest += sizeof(sep) - 1;
		next = strstr(rest, sep);
		one = next ? xstrndup(rest, (size_t)(next - rest)) : xstrdup(rest);
		rc = workload_spec_add_scratch(spec, one);
		free(one);
		if (rc)
			return -1;
		rest = next;
	}
	return 0;
}

/* The canonical spec of each member of a series label, and its values. */
static int members(const char *label, struct strvec *specs, struct strvec *values,
		   char **param)
{
	struct strvec expanded = STRVEC_INIT;
	const char *tail = strstr(label, " --scratch ");
	char *head = tail ? xstrndup(label, (size_t)(tail - label)) : xstrdup(label);
	size_t i;
	int ret = -1;

	*param = NULL;
	if (workload_spec_expand(&expanded, param, head) || !*param)
		goto out;
	for (i = 0; i < expanded.nr; i++) {
		struct workload_spec spec = WORKLOAD_SPEC_INIT;
		struct strbuf sb = STRBUF_INIT;

		if (workload_spec_parse(&spec, expanded.v[i]))
			goto out;
		if (add_scratch(&spec, tail)) {
			workload_spec_release(&spec);
			goto out;
		}
		workload_spec_format(&spec, &sb);
		strvec_push(specs, sb.buf);
		strvec_push(values, workload_spec_get(&spec, *param));
		strbuf_release(&sb);
		workload_spec_release(&spec);
	}
	ret = 0;
out:
	if (ret) {
		free(*param);
		*param = NULL;
	}
	free(head);
	strvec_clear(&expanded);
	return ret;
}

static size_t table_of(const struct analyze_model *m, const char *workload, const char *metric)
{
	size_t i;

	for (i = 0; i < m->nr_tables; i++)
		if (!strcmp(m->tables[i].workload, workload) && !strcmp(m->tables[i].metric, metric))
			return i;
	return SIZE_MAX;
}

static void add_variant(struct analyze_series *s, size_t variant, size_t *alloc)
{
	size_t i;

	for (i = 0; i < s->nr_variants; i++)
		if (s->variants[i] == variant)
			return;
	ALLOC_GROW(s->variants, s->nr_variants + 1, *alloc);
	s->variants[s->nr_variants++] = variant;
}

/* One series of label over metric, unless fewer than two members have its table. */
static void build_one(struct analyze_model *m, const char *label, const char *param,
		      const struct strvec *specs, const struct strvec *values,
		      const char *metric, size_t *alloc)
{
	struct analyze_series *s;
	size_t i, k, found = 0, alloc_v = 0, idx;

	for (i = 0; i < specs->nr; i++) {
		size_t t = table_of(m, specs->v[i], metric);

		if (t != SIZE_MAX && m->tables[t].series == SIZE_MAX)
			found++;
	}
	if (found < 2)
		return;
	ALLOC_GROW(m->series, m->nr_series + 1, *alloc);
	idx = m->nr_series++;
	s = &m->series[idx];
	memset(s, 0, sizeof(*s));
	s->label = xstrdup(label);
	s->param = xstrdup(param);
	s->metric = xstrdup(metric);
	s->nr_values = specs->nr;
	s->values = xcalloc(specs->nr, sizeof(*s->values));
	s->tables = xcalloc(specs->nr, sizeof(*s->tables));
	s->first_table = SIZE_MAX;
	for (i = 0; i < specs->nr; i++) {
		size_t t = table_of(m, specs->v[i], metric);
		struct analyze_table *tab;

		s->values[i] = xstrdup(values->v[i]);
		s->tables[i] = t;
		if (t == SIZE_MAX)
			continue;
		tab = &m->tables[t];
		tab->series = idx;
		if (t < s->first_table)
			s->first_table = t;
		if (!s->unit) {
			s->unit = xstrdup(tab->unit);
			s->higher_is_better = tab->higher_is_better;
		}
		s->runs += tab->runs;
		s->failed += tab->failed;
		s->warmups += tab->warmups;
		for (k = 0; k < tab->nr_order; k++)
			add_variant(s, tab->rows[tab->order[k]].variant, &alloc_v);
		if (tab->nr_order && (!s->min_n || tab->min_n < s->min_n))
			s->min_n = tab->min_n;
		if (tab->max_n > s->max_n)
			s->max_n = tab->max_n;
	}
	if (!s->unit)
		s->unit = xstrdup("");
}

void analyze_series_build(struct analyze_model *m)
{
	const char *meta = analyze_fact(m, META_SERIES);
	struct strvec labels = STRVEC_INIT;
	size_t l, i, alloc = 0;

	if (!meta)
		return;
	strvec_split(&labels, meta, "\n");
	for (l = 0; l < labels.nr; l++) {
		struct strvec specs = STRVEC_INIT, values = STRVEC_INIT, metrics = STRVEC_INIT;
		char *param = NULL;

		if (!members(labels.v[l], &specs, &values, &param)) {
			/* the metrics in the order the first member's tables have them */
			for (i = 0; i < m->nr_tables; i++)
				if (strvec_find(&specs, m->tables[i].workload) >= 0)
					strvec_push_unique(&metrics, m->tables[i].metric);
			for (i = 0; i < metrics.nr; i++)
				build_one(m, labels.v[l], param, &specs, &values, metrics.v[i],
					  &alloc);
		}
		free(param);
		strvec_clear(&specs);
		strvec_clear(&values);
		strvec_clear(&metrics);
	}
	strvec_clear(&labels);
}

void analyze_series_release(struct analyze_model *m)
{
	size_t i, k;

	for (i = 0; i < m->nr_series; i++) {
		struct analyze_series *s = &m->series[i];

		for (k = 0; k < s->nr_values; k++)
			free(s->values[k]);
		free(s->values);
		free(s->tables);
		free(s->variants);
		free(s->label);
		free(s->param);
		free(s->metric);
		free(s->unit);
	}
	free(m->series);
	m->series = NULL;
	m->nr_series = 0;
}

const struct analyze_row *analyze_series_cell(const struct analyze_model *m,
					      const struct analyze_series *s, size_t i,
					      size_t variant, const struct analyze_table **table)
{
	const struct analyze_table *t;
	size_t r;

	if (table)
		*table = NULL;
	if (i >= s->nr_values || s->tables[i] == SIZE_MAX)
		return NULL;
	t = &m->tables[s->tables[i]];
	if (table)
		*table = t;
	for (r = 0; r < t->nr_rows; r++)
		if (t->rows[r].variant == variant)
			return &t->rows[r];
	return NULL;
}
