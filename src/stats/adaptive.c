/* adaptive.c: --runs auto: rounds until every interval is within the target precision. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "run/measure.h"
#include "run/workload-spec.h"
#include "stats/adaptive.h"
#include "stats/analyze.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

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

int adaptive_precision(struct store *st, const char *workload, double confidence,
		       double *widest, const char **who, int *n)
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

		if (!deciding(&m, t) || (workload && strcmp(t->workload, workload)))
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

/* The workloads --runs auto still adds rounds to, and their labels. */
struct open_workloads {
	struct workload_spec *v;	/* shallow copies of measure_options's */
	const char **labels;	/* workload_spec_format() of each; o's labels own them */
	size_t nr;
};

static void close_workload(struct open_workloads *w, size_t i)
{
	memmove(w->v + i, w->v + i + 1, (w->nr - i - 1) * sizeof(*w->v));
	memmove(w->labels + i, w->labels + i + 1, (w->nr - i - 1) * sizeof(*w->labels));
	w->nr--;
}

/*
 * Whether workload i of w is decided after `rounds` (said as a note or a
 * warning); -1 on a store error.  *widest, *n, whose: its widest
 * interval, the fewest values of a row and whose interval it is.
 */
static int decided(struct store *st, const struct adaptive_options *ao, struct open_workloads *w,
		   size_t i, size_t nr_all, int *rounds, double *widest, int *n, struct strbuf *whose)
{
	/* Named only when others go on without it. */
	const char *of = nr_all > 1 ? " of " : "", *label = nr_all > 1 ? w->labels[i] : "";
	const char *who;

	if (adaptive_precision(st, w->labels[i], ao->confidence, widest, &who, n))
		return -1;
	strbuf_reset(whose);
	strbuf_addstr(whose, who);
	/* Rounds stored by an earlier, interrupted run count too. */
	if (*n > *rounds)
		*rounds = *n;
	if (*widest <= ao->target) {
		/* (an exact interval's rounding error is no width to print) */
		note("runs auto: %d round%s%s%s; every interval within \xC2\xB1%.2g%% "
		     "(widest \xC2\xB1%.2g%%, %s)", *rounds, *rounds == 1 ? "" : "s", of, label,
		     ao->target, *widest < 0.005 ? 0 : *widest, who);
		return 1;
	}
	if (*rounds < ao->max_runs)
		return 0;
	if (isinf(*widest))
		warning("runs auto%s%s: stopped at --max-runs %d; %s has no bounded interval",
			nr_all > 1 ? ", " : "", label, ao->max_runs, who);
	else
		warning("runs auto%s%s: stopped at --max-runs %d; the widest interval is "
			"\xC2\xB1%.2g%% (%s), the target \xC2\xB1%.2g%%", nr_all > 1 ? ", " : "",
			label, ao->max_runs, *widest, who, ao->target);
	return 1;
}

int adaptive_runs(struct store *st, struct measure_options *o, const struct adaptive_options *ao)
{
	struct open_workloads w = { 0 };
	struct strvec labels = STRVEC_INIT;
	struct measure_options batch = *o;
	int rounds = ao->min_runs, ret = 0, failed = 0;
	size_t i;

	if (rounds > ao->max_runs)
		rounds = ao->max_runs;
	w.v = xcalloc(o->nr_workloads ? o->nr_workloads : 1, sizeof(*w.v));
	w.labels = xcalloc(o->nr_workloads ? o->nr_workloads : 1, sizeof(*w.labels));
	for (i = 0; i < o->nr_workloads; i++) {
		struct strbuf sb = STRBUF_INIT;

		w.v[i] = o->workloads[i];
		workload_spec_format(&o->workloads[i], &sb);
		w.labels[i] = strvec_push(&labels, sb.buf);
		strbuf_release(&sb);
	}
	w.nr = o->nr_workloads;
	/*
	 * Each batch runs the workloads not yet decided: a deterministic one
	 * is done in three rounds while a layout- or tick-sensitive one beside
	 * it goes on (o->workloads all stay in the experiment's meta).
	 */
	while (w.nr) {
		struct strbuf who = STRBUF_INIT, whose = STRBUF_INIT;
		double widest = 0;
		int n = INT_MAX, next, reached = rounds;

		batch.workloads = w.v;
		batch.nr_workloads = w.nr;
		batch.runs = rounds;
		ret = measure_runs(st, &batch);
		if (ret < 0)
			break;
		failed |= ret;
		for (i = w.nr; i-- > 0;) {
			double wi;
			int ni, r = rounds;

			ret = decided(st, ao, &w, i, o->nr_workloads, &r, &wi, &ni, &whose);
			if (ret < 0)
				break;
			if (r > reached)
				reached = r;
			if (ret) {
				close_workload(&w, i);
				continue;
			}
			if (!(wi <= widest) || !who.len) {
				widest = wi;
				strbuf_reset(&who);
				strbuf_addbuf(&who, &whose);
			}
			if (ni < n)
				n = ni;
		}
		rounds = reached;
		if (ret >= 0 && w.nr) {
			/*
			 * An interval narrows as 1/sqrt(runs): go half way to the
			 * rounds that would reach the target, so a noisy first
			 * estimate does not overshoot, and at least one round.
			 */
			next = adaptive_next_rounds(rounds, n, widest, ao->target, ao->max_runs);
			note("runs auto: %d round%s; the widest interval is \xC2\xB1%.2g%% (%s), "
			     "the target \xC2\xB1%.2g%%: %d rounds next", rounds,
			     rounds == 1 ? "" : "s", widest, who.buf, ao->target, next);
			rounds = next;
		}
		strbuf_release(&who);
		strbuf_release(&whose);
		if (ret < 0)
			break;
		ret = 0;
	}
	o->runs = rounds;
	free(w.v);
	free(w.labels);
	strvec_clear(&labels);
	if (ret < 0)
		return -1;
	return failed ? 1 : 0;
}
