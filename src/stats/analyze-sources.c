/* analyze-sources.c: the sources of an experiment in its model, and what they say side by side. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig.h"
#include "plan/plan.h"
#include "stats/analyze.h"
#include "stats/analyze-parts.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

#define NONE SIZE_MAX
/* Symbols named in a counterpart's differs, per side. */
#define DIFFERS_MAX_NAMES 6

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static size_t source_by_label(const struct analyze_model *m, const char *label)
{
	size_t i;

	for (i = 0; label && i < m->nr_sources; i++)
		if (!strcmp(m->sources[i].label, label))
			return i;
	return NONE;
}

static const char *short_name(const char *name, const char *label)
{
	size_t len = strlen(label);

	if (len && !strncmp(name, label, len) && name[len] == ':')
		return name + len + 1;
	return name;
}

static size_t counterpart_of(const struct analyze_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_counterparts; i++)
		if (!strcmp(m->counterparts[i].name, name))
			return i;
	return NONE;
}

/* The names of the symbols config sets differently from base (both .config texts). */
static void changed_names(struct strvec *out, const char *base, const char *config)
{
	struct kconfig *a = kconfig_new(), *b = kconfig_new();
	struct kconfig_changes ch = KCONFIG_CHANGES_INIT;
	size_t i;

	if (base && config && !kconfig_parse(a, "baseline", base, strlen(base), KCONFIG_LOOSE) &&
	    !kconfig_parse(b, "variant", config, strlen(config), KCONFIG_LOOSE)) {
		kconfig_diff_list(&ch, a, b);
		for (i = 0; i < ch.nr; i++)
			strvec_push(out, ch.v[i].name);
	}
	kconfig_changes_release(&ch);
	kconfig_free(a);
	kconfig_free(b);
}

/* "A, B, C (+2 more)": the names of have that lack misses. */
static size_t add_missing(struct strbuf *sb, const struct strvec *have, const struct strvec *lack)
{
	size_t i, n = 0;

	for (i = 0; i < have->nr; i++) {
		if (strvec_find(lack, have->v[i]) >= 0)
			continue;
		if (n < DIFFERS_MAX_NAMES)
			strbuf_addf(sb, "%s%s", n ? ", " : "", have->v[i]);
		n++;
	}
	if (n > DIFFERS_MAX_NAMES)
		strbuf_addf(sb, " (+%zu more)", n - DIFFERS_MAX_NAMES);
	return n;
}

/*
 * What a variant's kernel changes on each source that its counterpart's
 * on the first does not, and the other way round, when both are measured.
 */
static void note_differs(struct analyze_model *m, struct analyze_counterpart *c)
{
	const struct analyze_variant *ref, *base0;
	struct strvec names0 = STRVEC_INIT;
	size_t s;

	c->differs = xcalloc(m->nr_sources, sizeof(*c->differs));
	if (c->variant[0] == NONE || m->sources[0].baseline == NONE ||
	    !strcmp(c->name, "baseline") || analyze_not_measured(m, &m->variants[c->variant[0]]))
		return;
	ref = &m->variants[c->variant[0]];
	base0 = &m->variants[m->sources[0].baseline];
	changed_names(&names0, base0->v.config, ref->v.config);
	for (s = 1; s < m->nr_sources; s++) {
		struct strvec names = STRVEC_INIT;
		const struct analyze_variant *av;
		struct strbuf sb = STRBUF_INIT, one = STRBUF_INIT;

		if (c->variant[s] == NONE || m->sources[s].baseline == NONE ||
		    analyze_not_measured(m, &m->variants[c->variant[s]]))
			continue;
		av = &m->variants[c->variant[s]];
		changed_names(&names, m->variants[m->sources[s].baseline].v.config, av->v.config);
		if (add_missing(&one, &names, &names0))
			strbuf_addf(&sb, "%s also sets %s", m->sources[s].label, one.buf);
		strbuf_reset(&one);
		if (add_missing(&one, &names0, &names))
			strbuf_addf(&sb, "%s%s does not set %s (%s does)", sb.len ? "; " : "",
				    m->sources[s].label, one.buf, m->sources[0].label);
		if (sb.len)
			c->differs[s] = strbuf_detach(&sb, NULL);
		strbuf_release(&sb);
		strbuf_release(&one);
		strvec_clear(&names);
	}
	strvec_clear(&names0);
}

static void make_counterparts(struct analyze_model *m)
{
	size_t s, i, alloc = 0, c;

	for (s = 0; s < m->nr_sources; s++) {
		for (i = 0; i < m->nr_variants; i++) {
			const struct analyze_variant *av = &m->variants[i];

			/* Each source's A/A control is its own; it is no option to compare. */
			if (av->source != s || (av->v.kind && !strcmp(av->v.kind, PLAN_AA_NAME)))
				continue;
			c = counterpart_of(m, av->short_name);
			if (c == NONE) {
				size_t k;

				ALLOC_GROW(m->counterparts, m->nr_counterparts + 1, alloc);
				c = m->nr_counterparts++;
				m->counterparts[c].name = xstrdup(av->short_name);
				m->counterparts[c].variant = xcalloc(m->nr_sources, sizeof(size_t));
				for (k = 0; k < m->nr_sources; k++)
					m->counterparts[c].variant[k] = NONE;
			}
			if (m->counterparts[c].variant[s] == NONE)
				m->counterparts[c].variant[s] = i;
		}
	}
	for (c = 0; c < m->nr_counterparts; c++)
		note_differs(m, &m->counterparts[c]);
}

int analyze_sources_load(struct analyze_model *m, struct store *st)
{
	struct store_source *rows = NULL;
	size_t nr = 0, i;

	if (store_get_sources(st, &rows, &nr))
		return -1;
	m->nr_sources = nr ? nr : 1;
	m->sources = xcalloc(m->nr_sources, sizeof(*m->sources));
	for (i = 0; i < m->nr_sources; i++) {
		struct analyze_source *s = &m->sources[i];

		s->label = xstrdup(nr ? rows[i].label : "");
		s->version = nr ? dup_or_null(rows[i].version) : NULL;
		s->origin = nr ? dup_or_null(rows[i].origin) : NULL;
		s->patch = nr ? dup_or_null(rows[i].patch) : NULL;
		s->patch_name = s->patch && strrchr(s->patch, '/') ? strrchr(s->patch, '/') + 1 :
				s->patch;
		s->base = NONE;
		s->baseline = NONE;
	}
	for (i = 0; i < nr; i++)
		if (rows[i].base)
			m->sources[i].base = source_by_label(m, rows[i].base);
	store_sources_free(rows, nr);

	for (i = 0; i < m->nr_variants; i++) {
		struct analyze_variant *av = &m->variants[i];
		size_t s = source_by_label(m, av->v.source ? av->v.source : "");

		av->source = s == NONE ? 0 : s;
		av->short_name = short_name(av->v.name, m->sources[av->source].label);
	}
	for (i = 0; i < m->nr_variants; i++) {
		struct analyze_source *s = &m->sources[m->variants[i].source];
		const char *kind = m->variants[i].v.kind;

		if (s->baseline == NONE && kind && !strcmp(kind, "baseline"))
			s->baseline = i;
	}
	for (i = 0; i < m->nr_variants; i++) {
		struct analyze_source *s = &m->sources[m->variants[i].source];

		if (s->baseline == NONE && !strcmp(m->variants[i].short_name, "baseline"))
			s->baseline = i;
	}
	if (m->sources[0].baseline != NONE)
		m->baseline = m->sources[0].baseline;
	if (m->nr_sources > 1)
		make_counterparts(m);
	return 0;
}

static size_t row_of(const struct analyze_table *t, size_t variant)
{
	size_t i;

	for (i = 0; t && variant != NONE && i < t->nr_rows; i++)
		if (t->rows[i].variant == variant)
			return i;
	return NONE;
}

static const struct analyze_row *row_at(const struct analyze_table *t, size_t row)
{
	return t && row != NONE ? &t->rows[row] : NULL;
}

void analyze_across_add(struct analyze_model *m, size_t first, size_t nr,
			const struct analyze_options *opts)
{
	const struct analyze_table *t0 = &m->tables[first];
	struct stats_options so = opts->stats;
	struct analyze_across *a;
	size_t ns = m->nr_sources, nc = m->nr_counterparts, i, c, s;
	struct stats_comparison *same = xcalloc(nc ? nc : 1, sizeof(*same));
	struct stats_cost_change *change = xcalloc(nc ? nc : 1, sizeof(*change));

	m->across = xrealloc(m->across, (m->nr_across + 1) * sizeof(*m->across));
	a = &m->across[m->nr_across++];
	memset(a, 0, sizeof(*a));
	a->workload = xstrdup(t0->workload);
	a->metric = xstrdup(t0->metric);
	a->unit = xstrdup(t0->unit);
	a->higher_is_better = t0->higher_is_better;
	so.higher_is_better = a->higher_is_better;
	a->tables = xcalloc(ns, sizeof(*a->tables));
	for (s = 0; s < ns; s++)
		a->tables[s] = NONE;
	for (i = first; i < first + nr; i++)
		a->tables[m->tables[i].source] = i;
	a->cells = xcalloc(nc * ns + 1, sizeof(*a->cells));
	for (c = 0; c < nc; c++)
		for (s = 0; s < ns; s++) {
			const struct analyze_table *t = a->tables[s] == NONE ? NULL :
				&m->tables[a->tables[s]];

			a->cells[c * ns + s].row = row_of(t, m->counterparts[c].variant[s]);
		}

	for (s = 1; s < ns; s++) {
		const struct analyze_table *t = a->tables[s] == NONE ? NULL : &m->tables[a->tables[s]];
		const struct analyze_table *r = a->tables[0] == NONE ? NULL : &m->tables[a->tables[0]];
		const struct analyze_row *b0 = r ? row_at(r, r->baseline) : NULL;
		const struct analyze_row *b1 = t ? row_at(t, t->baseline) : NULL;
		size_t nsame = 0, nchange = 0;

		for (c = 0; c < nc; c++) {
			struct analyze_across_cell *cell = &a->cells[c * ns + s];
			const struct analyze_row *x0 = row_at(r, a->cells[c * ns].row);
			const struct analyze_row *x1 = row_at(t, cell->row);

			if (!x0 || !x1 || !x0->n || !x1->n)
				continue;
			stats_compare(&cell->same, x0->values, x0->n, x1->values, x1->n, &so);
			cell->has_same = 1;
			same[nsame++] = cell->same;
			if (x0 == b0 || x1 == b1 || !b0 || !b1 || !b0->n || !b1->n)
				continue;
			stats_cost_change(&cell->change, &b0->summary, &x0->summary, &b1->summary,
					  &x1->summary, &so);
			cell->has_change = 1;
			change[nchange++] = cell->change;
		}
		stats_adjust(same, nsame, &so);
		stats_adjust_cost_changes(change, nchange, &so);
		for (c = nsame = nchange = 0; c < nc; c++) {
			struct analyze_across_cell *cell = &a->cells[c * ns + s];

			if (cell->has_same)
				cell->same = same[nsame++];
			if (cell->has_change)
				cell->change = change[nchange++];
		}
	}
	free(same);
	free(change);
}

const struct analyze_across_cell *analyze_across_cell(const struct analyze_model *m,
						     const struct analyze_across *a,
						     size_t c, size_t s)
{
	return &a->cells[c * m->nr_sources + s];
}

const struct analyze_across *analyze_across_after(const struct analyze_model *m, size_t t)
{
	size_t i, s;

	for (i = 0; i < m->nr_across; i++) {
		size_t last = NONE;

		for (s = 0; s < m->nr_sources; s++)
			if (m->across[i].tables[s] != NONE &&
			    (last == NONE || m->across[i].tables[s] > last))
				last = m->across[i].tables[s];
		if (last == t)
			return &m->across[i];
	}
	return NULL;
}

void analyze_describe_source(struct strbuf *sb, const struct analyze_source *s)
{
	const char *version = s->version ? s->version : "unknown version";

	if (!*s->label) {
		strbuf_addstr(sb, version);
		return;
	}
	strbuf_addf(sb, "%s (%s", s->label, version);
	if (s->patch)
		strbuf_addf(sb, " with %s", s->patch_name);
	strbuf_addch(sb, ')');
}

void analyze_sources_release(struct analyze_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_sources; i++) {
		free(m->sources[i].label);
		free(m->sources[i].version);
		free(m->sources[i].origin);
		free(m->sources[i].patch);
	}
	free(m->sources);
	for (i = 0; i < m->nr_counterparts; i++) {
		size_t s;

		free(m->counterparts[i].name);
		free(m->counterparts[i].variant);
		for (s = 0; m->counterparts[i].differs && s < m->nr_sources; s++)
			free(m->counterparts[i].differs[s]);
		free(m->counterparts[i].differs);
	}
	free(m->counterparts);
	for (i = 0; i < m->nr_across; i++) {
		free(m->across[i].workload);
		free(m->across[i].metric);
		free(m->across[i].unit);
		free(m->across[i].tables);
		free(m->across[i].cells);
	}
	free(m->across);
}
