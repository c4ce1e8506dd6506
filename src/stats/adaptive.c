/* adaptive.c: --runs auto: rounds until every interval is within the target precision. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/measure.h"
#include "run/meter.h"
#include "run/workload-spec.h"
#include "run/workload-table.h"
#include "stats/adaptive.h"
#include "stats/analyze.h"
#include "store/metric.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* Whether the workload of a spec waits (WL_WAITS: boot, libguestfs). */
static int waits(const char *workload)
{
	size_t len = strcspn(workload, ":");
	char *name = xstrndup(workload, len);
	int id = workload_find(name);

	free(name);
	return id >= 0 && (workload_table[id].flags & WL_WAITS);
}

/* Whether workload has a table of a metric of its own (not wall, boot, instructions). */
static int has_own_metric(const struct analyze_model *m, const char *workload)
{
	size_t i;

	for (i = 0; i < m->nr_tables; i++)
		if (!strcmp(m->tables[i].workload, workload) &&
		    metric_kind_of(m->tables[i].metric) == METRIC_SAMPLE)
			return 1;
	return 0;
}

/* Whether the model has a table of workload's with that metric. */
static int has_table(const struct analyze_model *m, const char *workload, const char *metric)
{
	size_t i;

	for (i = 0; i < m->nr_tables; i++)
		if (!strcmp(m->tables[i].workload, workload) && !strcmp(m->tables[i].metric, metric))
			return 1;
	return 0;
}

/* Whether t is the table that decides its workload (see adaptive.h). */
static int deciding(const struct analyze_model *m, const struct analyze_table *t)
{
	enum metric_kind kind = metric_kind_of(t->metric);

	if (kind == METRIC_WALL)
		return 0;
	/* a waiting workload by the meter's busy instructions, where there are some */
	if (waits(t->workload) && has_table(m, t->workload, METRIC_INSTRUCTIONS_NAME))
		return kind == METRIC_INSTRUCTIONS;
	/* the others by their own metric, as they were before the meter */
	if (kind == METRIC_INSTRUCTIONS)
		return !has_own_metric(m, t->workload);
	/* boot decides only a workload that reports no samples of its own */
	return kind != METRIC_BOOT || !has_own_metric(m, t->workload);
}

double adaptive_half_width(double change_lo, double change_hi)
{
	double lo = 1 + change_lo / 100, hi = 1 + change_hi / 100;

	/* an interval reaching -100% bounds no ratio: nothing is known of it */
	if (!(lo > 0) || !(hi >= lo))
		return INFINITY;
	return 100 * (sqrt(hi / lo) - 1);
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
				adaptive_half_width(r->cmp.change_lo, r->cmp.change_hi) : INFINITY;
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

/* The workloads --runs auto still adds rounds to, their labels and rounds. */
struct open_workloads {
	struct workload_spec *v;	/* shallow copies of measure_options's */
	const char **labels;	/* workload_spec_format() of each (adaptive_runs() owns them) */
	int *rounds;		/* the rounds each is to have after its next batch */
	size_t nr;
};

static void close_workload(struct open_workloads *w, size_t i)
{
	memmove(w->v + i, w->v + i + 1, (w->nr - i - 1) * sizeof(*w->v));
	memmove(w->labels + i, w->labels + i + 1, (w->nr - i - 1) * sizeof(*w->labels));
	memmove(w->rounds + i, w->rounds + i + 1, (w->nr - i - 1) * sizeof(*w->rounds));
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

/* Runs the rounds workload i of w (or, when i is SIZE_MAX, all of w) is to have. */
static int run_batch(struct store *st, const struct measure_options *o, struct open_workloads *w,
		     size_t i)
{
	struct measure_options batch = *o;

	batch.workloads = i == SIZE_MAX ? w->v : &w->v[i];
	batch.nr_workloads = i == SIZE_MAX ? w->nr : 1;
	batch.runs = w->rounds[i == SIZE_MAX ? 0 : i];
	return measure_runs(st, &batch);
}

int adaptive_runs(struct store *st, struct measure_options *o, const struct adaptive_options *ao)
{
	struct open_workloads w = { 0 };
	struct strvec labels = STRVEC_INIT;
	struct strbuf whose = STRBUF_INIT;
	size_t i, nr = o->nr_workloads ? o->nr_workloads : 1;
	int first = ao->min_runs < ao->max_runs ? ao->min_runs : ao->max_runs;
	int ret = 0, failed = 0, most = first, batch = 0;

	w.v = xcalloc(nr, sizeof(*w.v));
	w.labels = xcalloc(nr, sizeof(*w.labels));
	w.rounds = xcalloc(nr, sizeof(*w.rounds));
	for (i = 0; i < o->nr_workloads; i++) {
		struct strbuf sb = STRBUF_INIT;

		w.v[i] = o->workloads[i];
		workload_spec_format(&o->workloads[i], &sb);
		w.labels[i] = strvec_push(&labels, sb.buf);
		w.rounds[i] = first;
		strbuf_release(&sb);
	}
	w.nr = o->nr_workloads;
	/*
	 * The first batch runs every workload's first rounds; after it each
	 * workload goes on alone to the rounds its own intervals need, or
	 * stops: a deterministic one is done in three rounds while a layout-
	 * or tick-sensitive one beside it goes on (o->workloads all stay in
	 * the experiment's meta).
	 */
	while (w.nr) {
		/* the first batch every workload's first rounds, then each apart */
		for (i = 0; i < (batch ? w.nr : 1) && ret >= 0; i++) {
			ret = run_batch(st, o, &w, batch ? i : SIZE_MAX);
			failed |= ret > 0;
		}
		batch++;
		if (ret < 0)
			break;
		for (i = w.nr; i-- > 0;) {
			double widest;
			int n, next;

			ret = decided(st, ao, &w, i, o->nr_workloads, &w.rounds[i], &widest, &n,
				      &whose);
			if (ret < 0)
				break;
			if (w.rounds[i] > most)
				most = w.rounds[i];
			if (ret) {
				close_workload(&w, i);
				continue;
			}
			/*
			 * An interval narrows as 1/sqrt(runs): go half way to
			 * the rounds that would reach the target, so a noisy
			 * first estimate does not overshoot, and at least one.
			 */
			next = adaptive_next_rounds(w.rounds[i], n, widest, ao->target, ao->max_runs);
			note("runs auto: %d round%s%s%s; the widest interval is \xC2\xB1%.2g%% (%s), "
			     "the target \xC2\xB1%.2g%%: %d rounds next", w.rounds[i],
			     w.rounds[i] == 1 ? "" : "s", o->nr_workloads > 1 ? " of " : "",
			     o->nr_workloads > 1 ? w.labels[i] : "", widest, whose.buf, ao->target,
			     next);
			w.rounds[i] = next;
			if (w.rounds[i] > most)
				most = w.rounds[i];
		}
		if (ret < 0)
			break;
		ret = 0;
	}
	o->runs = most;
	free(w.v);
	free(w.labels);
	free(w.rounds);
	strvec_clear(&labels);
	strbuf_release(&whose);
	if (ret < 0)
		return -1;
	return failed ? 1 : 0;
}
