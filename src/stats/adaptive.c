/* adaptive.c: --runs auto: rounds until every interval is within the target precision. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/measure.h"
#include "stats/adaptive.h"
#include "stats/analyze.h"
#include "store/store.h"
#include "util/strvec.h"
#include "util/usage.h"

/* Whether t is the table that decides its workload (see adaptive.h). */
static int deciding(const struct analyze_model *m, const struct analyze_table *t)
{
	size_t i;

	if (!strcmp(t->metric, "wall"))
		return 0;
	if (strcmp(t->metric, "boot"))
		return 1;
	/* boot decides only a workload that reports no samples of its own */
	for (i = 0; i < m->nr_tables; i++)
		if (!strcmp(m->tables[i].workload, t->workload) &&
		    strcmp(m->tables[i].metric, "wall") && strcmp(m->tables[i].metric, "boot"))
			return 0;
	return 1;
}

int adaptive_precision(struct store *st, double confidence, double *widest, const char **who,
		       int *n)
{
	static char name[512];
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	size_t i, j;

	*widest = 0;
	*n = 0;
	*who = "";
	ao.stats.confidence = confidence;
	if (analyze_load(&m, st, &ao))
		return -1;
	for (i = 0; i < m.nr_tables; i++) {
		const struct analyze_table *t = &m.tables[i];

		if (!deciding(&m, t))
			continue;
		for (j = 0; j < t->nr_rows; j++) {
			const struct analyze_row *r = &t->rows[j];
			double half;

			/* Failed variants and same-as copies hold no one up. */
			if (r->is_baseline || r->twin != SIZE_MAX || (!r->n && r->failed))
				continue;
			if (!*n || (int)r->n < *n)
				*n = (int)r->n;
			half = r->compared && r->cmp.ci.state == STATS_CI_BOUNDED ?
				(r->cmp.change_hi - r->cmp.change_lo) / 2 : INFINITY;
			if (!(half <= *widest)) {
				*widest = half;
				snprintf(name, sizeof(name), "%s on %s %s",
					 analyze_row_variant(&m, r)->v.name, t->workload, t->metric);
				*who = name;
			}
		}
	}
	analyze_release(&m);
	return 0;
}

int adaptive_next_rounds(int rounds, int n, double widest, double target, int max_runs)
{
	/* in doubles: a wide interval and a tight target overflow an int (67% against 0.001%) */
	double need = isinf(widest) || n < 2 ? rounds + 1 : n * (widest / target) * (widest / target);
	double next = rounds + 1;

	if (need > next)
		next = rounds + ceil((need - rounds) / 2);
	return next >= max_runs ? max_runs : (int)next;
}

int adaptive_runs(struct store *st, struct measure_options *o, const struct adaptive_options *ao)
{
	int rounds = ao->min_runs, ret, failed = 0;

	if (rounds > ao->max_runs)
		rounds = ao->max_runs;
	for (;;) {
		double widest;
		const char *who;
		int n, next;

		o->runs = rounds;
		ret = measure_runs(st, o);
		if (ret < 0)
			return -1;
		failed |= ret;
		if (adaptive_precision(st, ao->confidence, &widest, &who, &n))
			return -1;
		/* Rounds stored by an earlier, interrupted run count too. */
		if (n > rounds)
			rounds = n;
		if (widest <= ao->target) {
			note("runs auto: %d round%s; every interval within \xC2\xB1%.2g%% "
			     "(widest \xC2\xB1%.2g%%, %s)", rounds, rounds == 1 ? "" : "s",
			     ao->target, widest, who);
			break;
		}
		if (rounds >= ao->max_runs) {
			if (isinf(widest))
				warning("runs auto: stopped at --max-runs %d; %s has no bounded "
					"interval", ao->max_runs, who);
			else
				warning("runs auto: stopped at --max-runs %d; the widest interval "
					"is \xC2\xB1%.2g%% (%s), the target \xC2\xB1%.2g%%",
					ao->max_runs, widest, who, ao->target);
			break;
		}
		/*
		 * An interval narrows as 1/sqrt(runs): go half way to the rounds
		 * that would reach the target, so a noisy first estimate does
		 * not overshoot, and at least one round.
		 */
		next = adaptive_next_rounds(rounds, n, widest, ao->target, ao->max_runs);
		note("runs auto: %d round%s; the widest interval is \xC2\xB1%.2g%% (%s), the target "
		     "\xC2\xB1%.2g%%: %d rounds next", rounds, rounds == 1 ? "" : "s",
		     widest, who, ao->target, next);
		rounds = next;
	}
	return failed ? 1 : 0;
}
