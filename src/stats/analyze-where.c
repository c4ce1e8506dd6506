/* analyze-where.c: the model's "where the cost goes" sections, from the meter's stored profiles. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/meter.h"
#include "stats/analyze.h"
#include "stats/analyze-parts.h"
#include "store/metric.h"
#include "store/store-meter.h"
#include "util/wrapper.h"

void analyze_where_release(struct analyze_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_where; i++)
		attribution_release(&m->where[i].a);
	free(m->where);
	m->where = NULL;
	m->nr_where = 0;
}

static int marked(const struct analyze_table *t, size_t r)
{
	const struct analyze_row *row = &t->rows[r];

	return row->compared && !row->is_baseline && r != t->aa_row &&
	       row->twin == SIZE_MAX && (row->cmp.marker == '*' || row->cmp.marker == '~');
}

/* The workload's name: its spec without ":k=v,...". */
static char *workload_name_of(const char *spec)
{
	const char *colon = strchr(spec, ':');

	return colon && strncmp(spec, "cmd:", 4) ? xstrndup(spec, (size_t)(colon - spec)) :
						   xstrdup(colon ? "cmd" : spec);
}

int analyze_where_build(struct analyze_model *m, struct store *st)
{
	size_t t, k;

	analyze_where_release(m);
	for (t = 0; t < m->nr_tables; t++) {
		const struct analyze_table *tab = &m->tables[t];
		struct profile base = PROFILE_INIT;
		enum store_meter_phase phase;
		int base_runs = 0;
		char *name;

		if (metric_kind_of(tab->metric) != METRIC_INSTRUCTIONS || tab->baseline == SIZE_MAX)
			continue;
		for (k = 0; k < tab->nr_order; k++)
			if (marked(tab, tab->order[k]))
				break;
		if (k == tab->nr_order)
			continue;	/* nothing significant: no section */
		name = workload_name_of(tab->workload);
		phase = meter_metric_phase(name);
		free(name);
		if (store_get_variant_profile(st, m->variants[tab->rows[tab->baseline].variant].v.id,
					      tab->workload, phase, 1, &base, &base_runs)) {
			profile_release(&base);
			return -1;
		}
		for (k = 0; base_runs && k < tab->nr_order; k++) {
			size_t r = tab->order[k];
			const struct analyze_row *row = &tab->rows[r];
			struct profile var = PROFILE_INIT;
			struct analyze_where *w;
			int runs = 0;

			if (!marked(tab, r))
				continue;
			if (store_get_variant_profile(st, m->variants[row->variant].v.id,
						      tab->workload, phase, 1, &var, &runs)) {
				profile_release(&var);
				profile_release(&base);
				return -1;
			}
			if (runs) {
				m->where = xrealloc(m->where, (m->nr_where + 1) * sizeof(*m->where));
				w = &m->where[m->nr_where++];
				memset(w, 0, sizeof(*w));
				w->table = t;
				w->row = r;
				w->base_runs = base_runs;
				w->variant_runs = runs;
				w->phase = store_meter_phase_name(phase);
				attribution_compute(&w->a, &base, &var,
						    row->summary.mean -
						    tab->rows[tab->baseline].summary.mean);
			}
			profile_release(&var);
		}
		profile_release(&base);
	}
	return 0;
}
