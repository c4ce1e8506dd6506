/* analyze-claims.c: Kconfig's cost claims beside the measured change, per variant. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze-claims.h"
#include "stats/analyze.h"
#include "store/store-claims.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

static int on(const char *v, size_t len)
{
	return (len == 1 && (*v == 'y' || *v == 'm'));
}

/*
 * Whether variant av turns symbol on: its requested settings say
 * CONFIG_<symbol>=y (or m), or its effective diff ("+SYM y",
 * " SYM n -> y") does.
 */
static int turns_on(const struct analyze_variant *av, const char *symbol)
{
	size_t n = strlen(symbol);
	const char *p;

	for (p = av->v.requested; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > 8 + n && !strncmp(p, "CONFIG_", 7) && !strncmp(p + 7, symbol, n) &&
		    p[7 + n] == '=' && on(p + 8 + n, len - 8 - n))
			return 1;
		p = nl ? nl + 1 : NULL;
	}
	for (p = av->v.effective_diff; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > 2 + n && (*p == '+' || *p == ' ') && !strncmp(p + 1, symbol, n) &&
		    p[1 + n] == ' ') {
			const char *v = p + len;

			while (v > p && v[-1] != ' ')
				v--;
			if (on(v, (size_t)(p + len - v)))
				return 1;
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int measures_one(const struct analyze_variant *av)
{
	return !strcmp(av->v.kind, "oat") || !strcmp(av->v.kind, "cumulative");
}

int analyze_claims_load(struct analyze_model *m, struct store *st)
{
	struct store_claim *c = NULL;
	size_t nr = 0, alloc = 0, i, k;

	if (store_get_claims(st, &c, &nr))
		return -1;
	for (i = 0; i < m->nr_variants; i++) {
		const struct analyze_variant *av = &m->variants[i];
		const char *label = av->v.source ? av->v.source : "";

		if (!measures_one(av))
			continue;
		for (k = 0; k < nr; k++) {
			struct analyze_claim *a;

			if (strcmp(c[k].source, label) || !turns_on(av, c[k].symbol))
				continue;
			a = m->nr_claims ? &m->claims[m->nr_claims - 1] : NULL;
			if (a && a->variant == i && !strcmp(a->symbol, c[k].symbol) &&
			    !strcmp(a->location, c[k].location)) {
				/* one entry per definition: its sentences in order */
				char *joined = xstrfmt("%s %s", a->sentence, c[k].sentence);

				free(a->sentence);
				a->sentence = joined;
				continue;
			}
			ALLOC_GROW(m->claims, m->nr_claims + 1, alloc);
			a = &m->claims[m->nr_claims++];
			a->variant = i;
			a->symbol = xstrdup(c[k].symbol);
			a->location = xstrdup(c[k].location);
			a->sentence = xstrdup(c[k].sentence);
		}
	}
	store_claims_free(c, nr);
	return 0;
}

void analyze_claims_release(struct analyze_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_claims; i++) {
		free(m->claims[i].symbol);
		free(m->claims[i].location);
		free(m->claims[i].sentence);
	}
	free(m->claims);
	m->claims = NULL;
	m->nr_claims = 0;
}

void analyze_claim_describe(struct strbuf *sb, const struct analyze_claim *c)
{
	strbuf_addf(sb, "%s (%s): \"%s\"", c->symbol, c->location, c->sentence);
}

int analyze_claim_measured(struct strbuf *sb, const struct analyze_model *m,
			   const struct analyze_claim *c, size_t t)
{
	const struct analyze_table *tab = &m->tables[t];
	size_t r;

	for (r = 0; r < tab->nr_rows; r++) {
		const struct analyze_row *row = &tab->rows[r];

		if (row->variant != c->variant || !row->compared)
			continue;
		stats_format_change(sb, row->cmp.change, 1);
		strbuf_addstr(sb, " [");
		stats_format_change(sb, row->cmp.change_lo, 1);
		strbuf_addstr(sb, " .. ");
		stats_format_change(sb, row->cmp.change_hi, 1);
		strbuf_addf(sb, "], x%.2f", row->cmp.ratio);
		if (row->cmp.marker != ' ')
			strbuf_addf(sb, " %c", row->cmp.marker);
		return 1;
	}
	return 0;
}

void analyze_claim_unmeasured(struct strbuf *sb, const struct analyze_model *m,
			      const struct analyze_claim *c)
{
	const struct analyze_variant *av = &m->variants[c->variant];

	if (!analyze_not_measured(m, av)) {
		strbuf_addstr(sb, "not measured yet");
		return;
	}
	strbuf_addstr(sb, analyze_state_name(av->state));
	if (av->why || (av->v.reason && *av->v.reason))
		strbuf_addf(sb, ": %s", av->why ? av->why : av->v.reason);
}
