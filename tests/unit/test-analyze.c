/* test-analyze.c: unit tests for the report model built from a store. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "fixture-experiment.h"
#include "fixture-steps.h"
#include "fixture-sources.h"
#include "stats/stats.h"
#include "store/store-meter.h"
#include "store/store.h"
#include "test-lib.h"
#include "util/usage.h"
#include "util/wrapper.h"

static int load_path(struct analyze_model *m, const char *path,
		     const struct analyze_options *ao)
{
	struct store *st;
	int ret;

	if (store_open(&st, path, 0))
		return -1;
	ret = analyze_load(m, st, ao);
	store_close(st);
	return ret;
}

static const char *fixture_path(void)
{
	static char *path;

	if (!path) {
		path = xstrfmt("%s/fixture.db", test_tmpdir());
		if (fixture_experiment(path))
			fprintf(stderr, "cannot write the fixture\n");
	}
	return path;
}

static const struct analyze_table *table(const struct analyze_model *m, const char *metric)
{
	size_t i;

	for (i = 0; i < m->nr_tables; i++)
		if (!strcmp(m->tables[i].metric, metric))
			return &m->tables[i];
	return NULL;
}

static const struct analyze_row *row(const struct analyze_model *m,
				     const struct analyze_table *t, const char *name)
{
	size_t i;

	for (i = 0; t && i < t->nr_rows; i++)
		if (!strcmp(m->variants[t->rows[i].variant].v.name, name))
			return &t->rows[i];
	return NULL;
}

static const struct analyze_variant *variant(const struct analyze_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_variants; i++)
		if (!strcmp(m->variants[i].v.name, name))
			return &m->variants[i];
	return NULL;
}

static void test_tables_and_facts(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	check_int(m.nr_tables, ==, 3);
	/* the workload's own metric first, then wall, then boot */
	check_str(m.tables[0].metric, "time");
	check_str(m.tables[1].metric, "wall");
	check_str(m.tables[2].metric, "boot");
	check_str(m.tables[0].workload, FIXTURE_WORKLOAD);
	check_str(m.tables[0].unit, "s");
	check_int(m.tables[0].iterations, ==, 3);
	check_int(m.tables[1].iterations, ==, 0);
	check_str(m.tables[1].accel, "tcg");
	check_str(analyze_fact(&m, "kernel_version"), "6.1.158");
	check_str(analyze_fact(&m, "accel"), "tcg");
	check(analyze_fact(&m, "nothing") == NULL);
	check_int(m.nr_variants, ==, 12);
	check_str(m.variants[m.baseline].v.name, "baseline");
	analyze_release(&m);
}

static void test_states(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	const struct analyze_variant *v;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	v = variant(&m, "CONFIG_LOCKDEP=y");
	check_int(v->state, ==, ANALYZE_NO_OP);
	check(strstr(v->why, "hidden symbol") != NULL);
	v = variant(&m, "CONFIG_LOCK_STAT=y");
	check_int(v->state, ==, ANALYZE_SAME_AS);
	check_str(v->why, "same kernel as CONFIG_PROVE_LOCKING=y");
	v = variant(&m, "CONFIG_FAILSLAB=y");
	check_int(v->state, ==, ANALYZE_BUILD_FAILED);
	check_str(v->why, "mm/failslab.c:12: error: 'x' undeclared "
		  "(log: logs/build-failslab.log)");
	v = variant(&m, "CONFIG_PROVE_LOCKING=y");
	check_int(v->state, ==, ANALYZE_OK);
	check(v->has_size_delta);
	check_int(v->size_delta, ==, 1200000 - 1048576);
	/* not measured: no rows; same-as a measured variant: measured */
	check(row(&m, &m.tables[1], "CONFIG_LOCKDEP=y") == NULL);
	check(row(&m, &m.tables[1], "CONFIG_LOCK_STAT=y") != NULL);
	check(row(&m, &m.tables[1], "CONFIG_FAILSLAB=y") == NULL);
	check(analyze_not_measured(&m, variant(&m, "CONFIG_LOCKDEP=y")));
	check(!analyze_not_measured(&m, variant(&m, "CONFIG_LOCK_STAT=y")));
	check(analyze_not_measured(&m, variant(&m, "CONFIG_FAILSLAB=y")));
	check(!analyze_not_measured(&m, variant(&m, "CONFIG_PROVE_LOCKING=y")));
	analyze_release(&m);
}

static void test_runs_counted_and_excluded(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	const struct analyze_table *t;
	const struct analyze_row *r;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	t = table(&m, "wall");
	r = row(&m, t, "baseline");
	check_int(r->n, ==, 5);
	check_int(r->warmups, ==, 1);
	check_int(r->failed, ==, 0);
	check(r->is_baseline);
	check(!r->compared);
	r = row(&m, t, "CONFIG_UBSAN=y");
	check_int(r->n, ==, 0);
	check_int(r->failed, ==, 2);
	check_int(r->warmups, ==, 1);
	check_str(r->first_error, "timeout: no result in 60 s");
	check(!r->compared);
	r = row(&m, t, "CONFIG_KASAN=y");
	check_int(r->n, ==, 2);
	check(r->too_few);
	check(r->compared);
	check_int(r->cmp.marker, ==, '?');
	check_int(t->runs, ==, 6 * 5 + 2);
	check_int(t->warmups, ==, 8);
	check_int(t->failed, ==, 2);
	check_int(t->min_n, ==, 2);
	check_int(t->max_n, ==, 5);

	/* boot is missing from the failed runs only */
	t = table(&m, "boot");
	check_int(t->missing, ==, 0);
	analyze_release(&m);
}

/* The time metric of a run is the mean of its iterations. */
static void test_sample_metric_is_run_mean(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	const struct analyze_table *t;
	const struct analyze_row *r;
	size_t i, k = 0;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	t = table(&m, "time");
	r = row(&m, t, "CONFIG_DEBUG_KMEMLEAK=y");
	for (i = 0; i < m.nr_runs && k < r->n; i++) {
		const struct store_run *run = &m.runs[i];
		size_t first, n, j;
		double sum = 0;

		if (run->warmup || analyze_run_variant(&m, run) != variant(&m, "CONFIG_DEBUG_KMEMLEAK=y"))
			continue;
		n = analyze_run_samples(&m, run->id, &first);
		check_int(n, ==, 3);
		for (j = first; j < first + n; j++)
			sum += m.samples[j].value;
		check_double(r->values[k], sum / 3, 1e-12);
		check_int(r->rounds[k], ==, run->round);
		k++;
	}
	check_int(k, ==, 5);
	analyze_release(&m);
}

/* analyze_run_value() is what screen decides on: the same numbers as the tables. */
static void test_run_value_matches_tables(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct store_run fake = STORE_RUN_INIT;
	struct analyze_model m;
	const struct analyze_table *tt, *wt;
	const struct analyze_row *rt, *rw;
	size_t i, k = 0, it;
	double v;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	tt = table(&m, "time");
	wt = table(&m, "wall");
	rt = row(&m, tt, "baseline");
	rw = row(&m, wt, "baseline");
	for (i = 0; i < m.nr_runs && k < rt->n; i++) {
		const struct store_run *run = &m.runs[i];

		if (run->warmup || analyze_run_variant(&m, run) != variant(&m, "baseline"))
			continue;
		/* Every sample of the model is passed: only the run's own count. */
		check_int(analyze_run_value("time", run, m.samples, m.nr_samples, &v, &it), ==, 0);
		check_double(v, rt->values[k], 1e-12);
		check_int(it, ==, 3);
		check_int(analyze_run_value("wall", run, m.samples, m.nr_samples, &v, &it), ==, 0);
		check_double(v, rw->values[k], 1e-12);
		check_int(it, ==, 0);
		check_int(analyze_run_value("throughput", run, m.samples, m.nr_samples, &v, &it),
			  ==, -1);
		k++;
	}
	check_int(k, ==, rt->n);
	/* A run without boot time lacks the boot metric. */
	fake.id = -5;
	fake.wall_s = 1;
	fake.boot_s = NAN;
	check_int(analyze_run_value("boot", &fake, NULL, 0, &v, &it), ==, -1);
	check_int(analyze_run_value("time", &fake, m.samples, m.nr_samples, &v, &it), ==, -1);
	analyze_release(&m);
}

static void test_comparisons_are_stats(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct stats_options so = STATS_OPTIONS_INIT;
	struct stats_comparison c[6];
	struct analyze_model m;
	const struct analyze_table *t;
	const struct analyze_row *base;
	size_t i, n = 0;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	t = table(&m, "wall");
	base = &t->rows[t->baseline];
	/*
	 * The same comparisons, made directly, and BH over the same family:
	 * each kernel once, so not the same-as rows (LOCK_STAT, all-LOCKDEP).
	 */
	for (i = 0; i < t->nr_rows; i++) {
		const struct analyze_row *r = &t->rows[i];

		if (!r->compared || r->twin != SIZE_MAX)
			continue;
		if (!check(n < 6))
			break;
		stats_compare(&c[n], base->values, base->n, r->values, r->n, &so);
		check_double(r->cmp.change, c[n].change, 1e-12);
		check_double(r->cmp.change_lo, c[n].change_lo, 1e-12);
		check_double(r->cmp.welch.p, c[n].welch.p, 1e-12);
		n++;
	}
	check_int(n, ==, 6);
	stats_adjust(c, n, &so);
	for (i = n = 0; i < t->nr_rows; i++) {
		const struct analyze_row *r = &t->rows[i];

		if (!r->compared || r->twin != SIZE_MAX)
			continue;
		check_double(r->cmp.q, c[n].q, 1e-12);
		check_int(r->cmp.marker, ==, c[n].marker);
		n++;
	}
	/* a same-as row has its twin's comparison, q-value and all */
	for (i = n = 0; i < t->nr_rows; i++) {
		const struct analyze_row *r = &t->rows[i];

		if (r->twin == SIZE_MAX)
			continue;
		check(r->compared);
		check_double(r->cmp.change, t->rows[r->twin].cmp.change, 0);
		check_double(r->cmp.change_lo, t->rows[r->twin].cmp.change_lo, 0);
		check_double(r->cmp.q, t->rows[r->twin].cmp.q, 0);
		check_int(r->cmp.marker, ==, t->rows[r->twin].cmp.marker);
		n++;
	}
	check_int(n, ==, 2);
	check_double(row(&m, t, "CONFIG_PROVE_LOCKING=y")->cmp.change, 45.8, 0.01);
	check_int(row(&m, t, "CONFIG_PROVE_LOCKING=y")->cmp.marker, ==, '*');
	check_int(row(&m, t, FIXTURE_SCRIPT)->cmp.marker, ==, ' ');
	analyze_release(&m);
}

static void test_display_order(void)
{
	static const char *const expect[] = {
		"baseline", "all", "CONFIG_KASAN=y", "all-CONFIG_LOCKDEP=y",
		"CONFIG_PROVE_LOCKING=y", "CONFIG_LOCK_STAT=y", "all-CONFIG_PROVE_LOCKING=y",
		"CONFIG_DEBUG_KMEMLEAK=y", FIXTURE_SCRIPT,
	};
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	const struct analyze_table *t;
	size_t i;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	t = table(&m, "wall");
	check_int(t->nr_order, ==, 9);	/* UBSAN has no values; same-as rows by effect */
	for (i = 0; i < t->nr_order && i < ARRAY_SIZE(expect); i++)
		check_str(m.variants[t->rows[t->order[i]].variant].v.name, expect[i]);
	analyze_release(&m);
}

static void test_interactions_in_progress(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	const struct analyze_table *t;
	const struct analyze_added_last *al;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	t = table(&m, "wall");
	check(t->has_product);
	check_int(t->product_k, ==, 6);
	check_int(t->product_left_out, ==, 2);
	check_int(t->product.marker, ==, '?');	/* FAILSLAB, KASAN, UBSAN */
	check(isnan(t->product.ratio));
	check_int(t->nr_added_last, ==, 2);
	al = &t->added_last[0];
	check_str(al->option, "CONFIG_PROVE_LOCKING=y");
	check_int(al->kind, ==, ANALYZE_AL_MODEL);
	check(al->ia.marker == ' ' || al->ia.marker == '*');
	check_double(al->ia.predicted, 1 + row(&m, t, "CONFIG_PROVE_LOCKING=y")->cmp.change / 100,
		     1e-12);
	al = &t->added_last[1];
	check_str(al->option, "CONFIG_LOCKDEP=y");
	check_int(al->kind, ==, ANALYZE_AL_SAME_AS_ALL);
	analyze_release(&m);
}

/* A small complete experiment: baseline, all, A, B, C (a no-op alone), loo. */
static void put_runs(struct store *st, struct store_variant *v, const double *wall, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct store_run r = STORE_RUN_INIT;

		r.variant_id = v->id;
		r.workload = (char *)"boot";
		r.round = (int)i;
		r.accel = (char *)(i % 2 ? "kvm" : "tcg");
		r.status = RUN_OK;
		r.wall_s = wall[i];
		r.boot_s = NAN;
		check_int(store_add_run(st, &r, NULL, 0), ==, 0);
	}
}

struct wall_variant {
	const char *name, *kind;
	enum variant_status status;
	const char *same_as;
	double f;		/* wall time factor against the baseline */
};

/*
 * An experiment of variants vs[0..n) in plan order, 5 wall runs of
 * 10 s x f (with a little noise) for each ok variant; returns its path.
 */
static char *wall_experiment(const char *file, const struct wall_variant *vs, size_t n)
{
	static const double noise[] = { -0.010, 0.004, 0.012, -0.006, 0.000 };
	char *path = xstrfmt("%s/%s", test_tmpdir(), file);
	struct store *st;
	size_t i, j;

	if (!check_int(store_open(&st, path, 1), ==, 0))
		return path;
	for (i = 0; i < n; i++) {
		struct store_variant v = STORE_VARIANT_INIT;
		double wall[5];

		v.name = (char *)vs[i].name;
		v.kind = (char *)vs[i].kind;
		v.status = vs[i].status;
		v.same_as = (char *)vs[i].same_as;
		v.position = (int)i;
		check_int(store_put_variant(st, &v), ==, 0);
		if (vs[i].status != VARIANT_OK)
			continue;
		for (j = 0; j < 5; j++)
			wall[j] = 10 * vs[i].f * (1 + noise[(i + j) % 5]);
		put_runs(st, &v, wall, 5);
	}
	store_close(st);
	return path;
}

static char *complete_experiment(void)
{
	static const struct wall_variant vs[] = {
		{ "baseline", "baseline", VARIANT_OK, NULL, 1.0 },
		{ "all", "all", VARIANT_OK, NULL, 1.60 },
		{ "CONFIG_A=y", "oat", VARIANT_OK, NULL, 1.25 },
		{ "CONFIG_B=y", "oat", VARIANT_OK, NULL, 1.20 },
		{ "CONFIG_C=y", "oat", VARIANT_NO_OP, NULL, 1.0 },
		{ "all-CONFIG_A=y", "loo", VARIANT_OK, NULL, 1.28 },
		{ "all-CONFIG_C=y", "loo", VARIANT_OK, NULL, 1.40 },
	};

	return wall_experiment("complete.db", vs, ARRAY_SIZE(vs));
}

static void test_multiplicativity_complete(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct stats_interaction expect;
	struct stats_summary alone[2];
	struct analyze_model m;
	const struct analyze_table *t;
	char *path = complete_experiment();

	if (!check_int(load_path(&m, path, &ao), ==, 0))
		goto out;
	check_int(m.nr_tables, ==, 1);
	t = &m.tables[0];
	check_str(t->workload, "boot");
	check_str(t->metric, "wall");
	check_str(t->accel, "kvm, tcg");
	check(t->has_product);
	check_int(t->product_k, ==, 2);
	check_int(t->product_left_out, ==, 1);
	alone[0] = row(&m, t, "CONFIG_A=y")->summary;
	alone[1] = row(&m, t, "CONFIG_B=y")->summary;
	stats_multiplicative(&expect, &row(&m, t, "baseline")->summary,
			     &row(&m, t, "all")->summary, alone, 2, &ao.stats);
	check_double(t->product.predicted, expect.predicted, 1e-12);
	check_double(t->product.ratio, expect.ratio, 1e-12);
	check_double(t->product.predicted, 1.25 * 1.20, 0.01);
	check_double(t->product.measured, 1.60, 0.01);
	check_int(t->product.marker, ==, '*');
	check_int(t->product.direction, ==, 1);
	check_str(analyze_interaction_verdict(&t->product), "super-multiplicative");

	check_int(t->nr_added_last, ==, 2);
	check_str(t->added_last[0].option, "CONFIG_A=y");
	check_int(t->added_last[0].kind, ==, ANALYZE_AL_MODEL);
	check_double(t->added_last[0].ia.measured, 1.60 / 1.28, 0.01);
	/* C does nothing alone but 14% added last: all against all-but-C */
	check_str(t->added_last[1].option, "CONFIG_C=y");
	check_int(t->added_last[1].kind, ==, ANALYZE_AL_ALONE_NOOP);
	check_double(t->added_last[1].cmp.change, (1.60 / 1.40 - 1) * 100, 0.01);
	analyze_release(&m);
out:
	free(path);
}

static char *last_error;

static void sink(const char *kind UNUSED, const char *msg, void *data UNUSED)
{
	free(last_error);
	last_error = xstrdup(msg);
}

/*
 * Kernels alike: B is selected by A, so all is the same kernel as A alone,
 * all-but-A as B alone and all-but-B as all, a chain to A (the planner
 * names the first variant alike; an older plan could name another).  N
 * is a no-op, GONE same-as a variant that is not there.  Only the ok
 * variants have runs.
 */
static char *aliased_experiment(void)
{
	static const struct wall_variant vs[] = {
		{ "baseline", "baseline", VARIANT_OK, NULL, 1.0 },
		{ "CONFIG_A=y", "oat", VARIANT_OK, NULL, 1.25 },
		{ "CONFIG_B=y", "oat", VARIANT_OK, NULL, 1.10 },
		{ "CONFIG_N=y", "oat", VARIANT_NO_OP, NULL, 1.0 },
		{ "CONFIG_GONE=y", "oat", VARIANT_SAME_AS, "nowhere", 1.0 },
		{ "all", "all", VARIANT_SAME_AS, "CONFIG_A=y", 1.0 },
		{ "all-CONFIG_A=y", "loo", VARIANT_SAME_AS, "CONFIG_B=y", 1.0 },
		{ "all-CONFIG_B=y", "loo", VARIANT_SAME_AS, "all", 1.0 },
	};

	return wall_experiment("aliased.db", vs, ARRAY_SIZE(vs));
}

static void test_same_as_shares_runs(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct stats_comparison c[2];
	struct stats_interaction expect;
	struct stats_summary alone[2];
	struct analyze_model m;
	const struct analyze_table *t;
	const struct analyze_row *base, *a, *b, *all;
	char *path = aliased_experiment();
	size_t i, nf = 0;

	if (!check_int(load_path(&m, path, &ao), ==, 0))
		goto out;
	check_int(m.nr_tables, ==, 1);
	t = &m.tables[0];
	base = row(&m, t, "baseline");
	a = row(&m, t, "CONFIG_A=y");
	b = row(&m, t, "CONFIG_B=y");
	all = row(&m, t, "all");
	if (!check(base && a && b && all))
		goto done;

	/* all is measured as A: A's values and comparison, and it says so */
	check_int(all->twin, ==, a - t->rows);
	check_str(analyze_row_twin(&m, all)->v.name, "CONFIG_A=y");
	check(analyze_row_twin(&m, a) == NULL);
	check_int(a->twin, ==, SIZE_MAX);
	check_int(all->n, ==, 5);
	for (i = 0; i < all->n && i < a->n; i++) {
		check_double(all->values[i], a->values[i], 0);
		check_int(all->rounds[i], ==, a->rounds[i]);
	}
	check_double(all->summary.mean, a->summary.mean, 0);
	check(all->compared);
	check_double(all->cmp.change, a->cmp.change, 0);
	check_double(all->cmp.q, a->cmp.q, 0);
	check_int(all->cmp.marker, ==, '*');
	/* a chain ends at the variant that was measured */
	check_str(analyze_row_twin(&m, row(&m, t, "all-CONFIG_B=y"))->v.name, "CONFIG_A=y");
	check_str(analyze_row_twin(&m, row(&m, t, "all-CONFIG_A=y"))->v.name, "CONFIG_B=y");
	/* the runs are counted once */
	check_int(t->nr_rows, ==, 6);
	check_int(t->nr_order, ==, 6);
	check_int(t->runs, ==, 3 * 5);
	check_int(t->min_n, ==, 5);

	/* BH over the kernels compared, A and B: a family of two, not five */
	for (i = 0; i < t->nr_rows; i++)
		if (t->rows[i].compared && t->rows[i].twin == SIZE_MAX)
			nf++;
	check_int(nf, ==, 2);
	stats_compare(&c[0], base->values, base->n, a->values, a->n, &ao.stats);
	stats_compare(&c[1], base->values, base->n, b->values, b->n, &ao.stats);
	stats_adjust(c, 2, &ao.stats);
	check_double(a->cmp.q, c[0].q, 1e-12);
	check_double(b->cmp.q, c[1].q, 1e-12);
	check_double(row(&m, t, "all-CONFIG_A=y")->cmp.q, c[1].q, 1e-12);

	/* not measured: the no-op, and the same-as without a twin */
	check(row(&m, t, "CONFIG_N=y") == NULL);
	check(row(&m, t, "CONFIG_GONE=y") == NULL);
	check(analyze_not_measured(&m, variant(&m, "CONFIG_N=y")));
	check(analyze_not_measured(&m, variant(&m, "CONFIG_GONE=y")));
	check(!analyze_not_measured(&m, variant(&m, "all")));
	check(!analyze_not_measured(&m, variant(&m, "all-CONFIG_B=y")));

	/* the product: A and B alone against all, measured as A */
	check(t->has_product);
	check_int(t->product_k, ==, 2);
	check_int(t->product_left_out, ==, 2);
	alone[0] = a->summary;
	alone[1] = b->summary;
	stats_multiplicative(&expect, &base->summary, &a->summary, alone, 2, &ao.stats);
	check_double(t->product.measured, expect.measured, 1e-12);
	check_double(t->product.ratio, expect.ratio, 1e-12);
	check_double(t->product.measured, 1.25, 0.01);
	check_double(t->product.predicted, 1.25 * 1.10, 0.01);
	check(t->product.marker != '?');

	/* added last: A against all-but-A (B alone); all-but-B is all */
	check_int(t->nr_added_last, ==, 2);
	check_str(t->added_last[0].option, "CONFIG_A=y");
	check_int(t->added_last[0].kind, ==, ANALYZE_AL_MODEL);
	check_double(t->added_last[0].ia.measured, 1.25 / 1.10, 0.01);
	check_str(t->added_last[1].option, "CONFIG_B=y");
	check_int(t->added_last[1].kind, ==, ANALYZE_AL_SAME_AS_ALL);
done:
	analyze_release(&m);
out:
	free(path);
}

/*
 * The boot workload's one sample is boot to init, as run.boot_s is: its
 * tables are that sample and wall, without a second boot table.  Other
 * workloads keep theirs.
 */
static void test_boot_workload_has_no_boot_table(void)
{
	static const char *const workloads[] = { "boot", "fork" };
	char *path = xstrfmt("%s/boot.db", test_tmpdir());
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct store *st;
	size_t i, j, k;

	if (!check_int(store_open(&st, path, 1), ==, 0))
		goto out;
	for (i = 0; i < 2; i++) {
		struct store_variant v = STORE_VARIANT_INIT;

		v.name = (char *)(i ? "CONFIG_X=y" : "baseline");
		v.kind = (char *)(i ? "oat" : "baseline");
		v.status = VARIANT_OK;
		v.position = (int)i;
		check_int(store_put_variant(st, &v), ==, 0);
		for (j = 0; j < ARRAY_SIZE(workloads); j++) {
			for (k = 0; k < 3; k++) {
				struct store_run r = STORE_RUN_INIT;
				struct store_sample s = { 0, "time", "s", 0, 0 };

				r.variant_id = v.id;
				r.workload = (char *)workloads[j];
				r.round = (int)k;
				r.status = RUN_OK;
				r.wall_s = 5 + (double)k;
				r.boot_s = 1 + 0.1 * (double)k;
				s.value = r.boot_s + 0.001;
				check_int(store_add_run(st, &r, &s, 1), ==, 0);
			}
		}
	}
	store_close(st);
	if (!check_int(load_path(&m, path, &ao), ==, 0))
		goto out;
	check_int(m.nr_tables, ==, 5);
	if (m.nr_tables == 5) {
		check_str(m.tables[0].workload, "boot");
		check_str(m.tables[0].metric, "time");
		check_str(m.tables[1].metric, "wall");
		check_str(m.tables[2].workload, "fork");
		check_str(m.tables[4].metric, "boot");
	}
	analyze_release(&m);

	set_message_sink(sink, NULL);
	ao.workload = "boot";
	ao.metric = "boot";
	check_int(load_path(&m, path, &ao), ==, -1);
	check_str(last_error, "no metric 'boot' measured (metrics: time, wall)");
	set_message_sink(NULL, NULL);
	free(last_error);
	last_error = NULL;
out:
	free(path);
}

/*
 * Where the meter counted the runs, the wall table says where their
 * instructions went (before the kernel, kernel, user); a run without counts
 * and a warm-up are left out, and the other tables say nothing of it.
 */
static void test_wall_says_where_the_meter_counted(void)
{
	const struct profile *phases[STORE_METER_NR_PHASES] = { NULL };
	char *path = xstrfmt("%s/meter.db", test_tmpdir());
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct store_variant v = STORE_VARIANT_INIT;
	struct analyze_model m;
	struct store *st;
	size_t k;

	if (!check_int(store_open(&st, path, 1), ==, 0))
		goto out;
	v.name = (char *)"baseline";
	v.kind = (char *)"baseline";
	v.status = VARIANT_OK;
	check_int(store_put_variant(st, &v), ==, 0);
	for (k = 0; k < 4; k++) {
		struct store_run r = STORE_RUN_INIT;
		struct store_sample s = { 0, "time", "s", 0, 0.5 };
		struct store_meter sm = STORE_METER_INIT;

		r.variant_id = v.id;
		r.workload = (char *)"syscall";
		r.round = k == 3 ? -1 : (int)k;
		r.warmup = k == 3;
		r.status = RUN_OK;
		r.wall_s = 2;
		r.boot_s = 0.1;
		check_int(store_add_run(st, &r, &s, 1), ==, 0);
		if (k == 2)
			continue;	/* no counts */
		/* 200 M before the kernel, 700 M kernel (+100 M outside the map), 0 user */
		sm.before_kernel = k == 3 ? 1 : 200000000;
		sm.kernel = 700000000;
		sm.kernel_other = 100000000;
		sm.total = sm.before_kernel + sm.kernel + sm.kernel_other;
		check_int(store_add_meter(st, r.id, &sm, phases), ==, 0);
	}
	store_close(st);
	if (!check_int(load_path(&m, path, &ao), ==, 0))
		goto out;
	for (k = 0; k < m.nr_tables; k++) {
		if (strcmp(m.tables[k].metric, "wall")) {
			check(!strstr(m.tables[k].clock_text, "meter"));
			continue;
		}
		check(strstr(m.tables[k].clock_text, "host time, the whole run"));
		check(strstr(m.tables[k].clock_text, "; the meter's guest instructions, 1000.0 M a "
			     "run: 20.0% before the kernel (firmware, decompressor), 80.0% in the "
			     "kernel, 0.0% in user space"));
	}
	analyze_release(&m);
out:
	free(path);
}

static void test_filters(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;

	ao.metric = "wall";
	if (check_int(load_path(&m, fixture_path(), &ao), ==, 0)) {
		check_int(m.nr_tables, ==, 1);
		check_str(m.tables[0].metric, "wall");
		analyze_release(&m);
	}
	ao.metric = NULL;
	ao.workload = FIXTURE_WORKLOAD;
	if (check_int(load_path(&m, fixture_path(), &ao), ==, 0)) {
		check_int(m.nr_tables, ==, 3);
		analyze_release(&m);
	}
	set_message_sink(sink, NULL);
	ao.workload = "fork";
	check_int(load_path(&m, fixture_path(), &ao), ==, -1);
	check_str(last_error, "no runs of workload 'fork' (measured: hackbench:groups=2)");
	ao.workload = NULL;
	ao.metric = "throughput";
	check_int(load_path(&m, fixture_path(), &ao), ==, -1);
	check_str(last_error, "no metric 'throughput' measured (metrics: boot, time, wall)");
	set_message_sink(NULL, NULL);
	free(last_error);
	last_error = NULL;
}

static void test_higher_is_better(void)
{
	char *path = xstrfmt("%s/throughput.db", test_tmpdir());
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct store *st;
	const struct analyze_table *t;
	static const char *const names[] = { "baseline", "CONFIG_FAST=y", "CONFIG_SLOW=y" };
	static const double f[] = { 1.0, 1.3, 0.7 };
	size_t i, j;

	if (!check_int(store_open(&st, path, 1), ==, 0))
		goto out;
	for (i = 0; i < 3; i++) {
		struct store_variant v = STORE_VARIANT_INIT;

		v.name = (char *)names[i];
		v.kind = (char *)(i ? "oat" : "baseline");
		v.status = VARIANT_OK;
		v.position = (int)i;
		check_int(store_put_variant(st, &v), ==, 0);
		for (j = 0; j < 4; j++) {
			struct store_run r = STORE_RUN_INIT;
			struct store_sample s = { 0, "throughput", "MB/s", 0, 1 };

			s.value = 100 * f[i] * (1 + 0.01 * (double)j);
			r.variant_id = v.id;
			r.workload = (char *)"dd";
			r.round = (int)j;
			r.status = RUN_OK;
			r.wall_s = 3;
			r.boot_s = 1;
			check_int(store_add_run(st, &r, &s, 1), ==, 0);
		}
	}
	store_close(st);
	ao.metric = "throughput";
	if (!check_int(load_path(&m, path, &ao), ==, 0))
		goto out;
	t = &m.tables[0];
	check(t->higher_is_better);
	check_str(t->unit, "MB/s");
	/* the costliest first: lower throughput */
	check_str(m.variants[t->rows[t->order[1]].variant].v.name, "CONFIG_SLOW=y");
	check_int(row(&m, t, "CONFIG_SLOW=y")->cmp.cost, ==, 1);
	check_int(row(&m, t, "CONFIG_FAST=y")->cmp.cost, ==, -1);
	check_double(row(&m, t, "CONFIG_SLOW=y")->cmp.change, -30, 1e-9);
	check_int(analyze_decimals(t), ==, 3);
	analyze_release(&m);
out:
	free(path);
}

/*
 * The notes every writer prints come from the model: a row with failed
 * runs and too few values gets both, one with only failed runs "failed",
 * one with no runs "not run", a same-as row none (its twin has them).
 */
static void test_notes(void)
{
	static const struct wall_variant vs[] = {
		{ "baseline", "baseline", VARIANT_OK, NULL, 1.0 },
		{ "CONFIG_A=y", "oat", VARIANT_OK, NULL, 1.2 },
		{ "CONFIG_B=y", "oat", VARIANT_OK, NULL, 1.0 },
		{ "CONFIG_C=y", "oat", VARIANT_OK, NULL, 1.0 },
		{ "CONFIG_D=y", "oat", VARIANT_SAME_AS, "CONFIG_A=y", 1.0 },
	};
	static const double two[] = { 12.0, 12.1 };
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	char *path = xstrfmt("%s/notes.db", test_tmpdir());
	struct analyze_model m;
	const struct analyze_table *t;
	struct store *st;
	size_t i;

	if (!check_int(store_open(&st, path, 1), ==, 0))
		goto out;
	for (i = 0; i < ARRAY_SIZE(vs); i++) {
		struct store_variant sv = STORE_VARIANT_INIT;
		double wall[5] = { 10.0, 10.1, 9.9, 10.05, 9.95 };

		sv.name = (char *)vs[i].name;
		sv.kind = (char *)vs[i].kind;
		sv.status = vs[i].status;
		sv.same_as = (char *)vs[i].same_as;
		sv.position = (int)i;
		check_int(store_put_variant(st, &sv), ==, 0);
		if (i == 0)
			put_runs(st, &sv, wall, 5);
		if (i == 1)
			put_runs(st, &sv, two, 2);
		if (i == 1 || i == 3) {
			struct store_run r = STORE_RUN_INIT;

			r.variant_id = sv.id;
			r.workload = (char *)"boot";
			r.round = 5;
			r.status = RUN_PANIC;
			r.error = (char *)"kernel panic";
			r.wall_s = NAN;
			r.boot_s = NAN;
			check_int(store_add_run(st, &r, NULL, 0), ==, 0);
		}
	}
	store_close(st);
	if (!check_int(load_path(&m, path, &ao), ==, 0))
		goto out;
	t = table(&m, "wall");
	if (check(t != NULL) && check_int(t->nr_notes, ==, 4)) {
		static const struct {
			const char *name;
			enum analyze_note_kind kind;
		} want[] = {
			{ "CONFIG_A=y", ANALYZE_NOTE_FAILED },
			{ "CONFIG_A=y", ANALYZE_NOTE_TOO_FEW },
			{ "CONFIG_B=y", ANALYZE_NOTE_NOT_RUN },
			{ "CONFIG_C=y", ANALYZE_NOTE_FAILED },
		};

		for (i = 0; i < ARRAY_SIZE(want); i++) {
			const struct analyze_note *n = &t->notes[i];

			check_str(m.variants[t->rows[n->row].variant].v.name, want[i].name);
			check_int(n->kind, ==, want[i].kind);
		}
	}
	analyze_release(&m);
out:
	free(path);
}

static void test_empty_experiment(void)
{
	char *path = xstrfmt("%s/empty.db", test_tmpdir());
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	struct store *st;
	struct store_variant v = STORE_VARIANT_INIT;

	check_int(store_open(&st, path, 1), ==, 0);
	v.name = (char *)"baseline";
	v.kind = (char *)"baseline";
	v.status = VARIANT_OK;
	check_int(store_put_variant(st, &v), ==, 0);
	store_close(st);
	if (check_int(load_path(&m, path, &ao), ==, 0)) {
		check_int(m.nr_tables, ==, 0);
		check_int(m.nr_variants, ==, 1);
		check_int(m.nr_runs, ==, 0);
		analyze_release(&m);
	}
	/* --metric on an experiment without runs is not an error either */
	ao.metric = "wall";
	if (check_int(load_path(&m, path, &ao), ==, 0))
		analyze_release(&m);
	free(path);
}

static void test_decimals(void)
{
	struct analyze_row r = { 0 };
	struct analyze_table t = { 0 };
	static const struct { double mean; int d; } cases[] = {
		{ 23.435, 3 }, { 1.97, 3 }, { 999, 3 }, { 1234, 1 }, { 12345, 0 },
		{ 0.5, 4 }, { 0.0123, 5 }, { 1e-12, 9 },
	};
	size_t i;

	t.rows = &r;
	t.nr_rows = 1;
	t.baseline = 0;
	r.n = 1;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		r.summary.mean = cases[i].mean;
		check_int(analyze_decimals(&t), ==, cases[i].d);
	}
}

/*
 * The cumulative design: each step against the step before it (the first
 * against the baseline), a step that is the same kernel as the step
 * before adds nothing, the increments are their own BH family, and the
 * steps show in their order after all.  The group's members are read from
 * the fact "groups", which leaves the list of facts.
 */
static void test_cumulative_steps(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	char *path = xstrfmt("%s/steps.db", test_tmpdir());
	const struct analyze_table *t;
	const struct analyze_row *base, *s1, *s2, *s3, *s4, *all;
	struct stats_comparison c;
	struct stats_options so = STATS_OPTIONS_INIT;
	size_t i;

	check_int(fixture_steps_experiment(path), ==, 0);
	check_int(load_path(&m, path, &ao), ==, 0);
	t = table(&m, "time");
	if (!check(t != NULL))
		goto out;
	base = row(&m, t, "baseline");
	s1 = row(&m, t, "+CONFIG_PRINTK_TIME=y");
	s2 = row(&m, t, "+lockdebug");
	s3 = row(&m, t, "+CONFIG_LOCKDEP=y");
	s4 = row(&m, t, "+CONFIG_DEBUG_KMEMLEAK=y");
	all = row(&m, t, "all");
	if (!check(base && s1 && s2 && s3 && s4 && all))
		goto out;
	check_int(t->nr_steps, ==, 4);
	check_int(s1->step_number, ==, 1);
	check_int(s4->step_number, ==, 4);
	check_int(row(&m, t, "lockdebug")->step_number, ==, 0);
	check_int(row(&m, t, "lockdebug")->step, ==, ANALYZE_STEP_NONE);
	/* the first step against the baseline, with its twin's runs */
	check_int(s1->step, ==, ANALYZE_STEP_COMPARED);
	check(&t->rows[s1->step_prev] == base);
	check_double(s1->step_cmp.change, s1->cmp.change, 1e-9);
	/* the second against the first: the group's increment */
	check_int(s2->step, ==, ANALYZE_STEP_COMPARED);
	check(&t->rows[s2->step_prev] == s1);
	so.higher_is_better = 0;
	stats_compare(&c, s1->values, s1->n, s2->values, s2->n, &so);
	check_double(s2->step_cmp.change, c.change, 1e-9);
	check(s2->step_cmp.change > 60 && s2->step_cmp.change < 75);
	check_int(s2->step_cmp.marker, ==, '*');
	/* LOCKDEP is on already: the same kernel as the step before */
	check_int(s3->step, ==, ANALYZE_STEP_SAME);
	check(&t->rows[s3->step_prev] == s2);
	/* the last against the step that added nothing, whose runs are +lockdebug's */
	check_int(s4->step, ==, ANALYZE_STEP_COMPARED);
	check(&t->rows[s4->step_prev] == s3);
	stats_compare(&c, s2->values, s2->n, all->values, all->n, &so);
	check_double(s4->step_cmp.change, c.change, 1e-9);
	/* BH over the three increments, not the table's family */
	check(s2->step_cmp.q >= s2->step_cmp.welch.p);
	check_double(s1->step_cmp.q, s1->step_cmp.welch.p, 1e-9);	/* the largest p keeps it */
	/* display order: baseline, all, the steps in their order, then by cost */
	check_str(m.variants[t->rows[t->order[0]].variant].v.name, "baseline");
	check_str(m.variants[t->rows[t->order[1]].variant].v.name, "all");
	for (i = 0; i < 4; i++)
		check_int(t->rows[t->order[2 + i]].step_number, ==, i + 1);
	check_str(m.variants[t->rows[t->order[6]].variant].v.name, "lockdebug");
	/* the group */
	check_int(m.nr_groups, ==, 1);
	if (m.nr_groups == 1) {
		check_str(m.groups[0].name, "lockdebug");
		check_int(m.groups[0].members.nr, ==, 2);
		check_str(m.groups[0].members.v[1], "CONFIG_DEBUG_ATOMIC_SLEEP=y");
	}
	check(analyze_group(&m, "lockdebug") == &m.groups[0]);
	check(analyze_group(&m, "all") == NULL);
	check(analyze_fact(&m, "groups") == NULL);
	check_str(analyze_fact(&m, "designs"), "oat,all,cumulative");
	/* steps stay out of the multiplicativity check: 3 oat variants, 1 no-op out */
	check(t->has_product);
	check_int(t->product_k, ==, 3);
out:
	analyze_release(&m);
	free(path);
}

static const char *sources_path(void)
{
	static char *path;

	if (!path) {
		path = xstrfmt("%s/sources.db", test_tmpdir());
		if (fixture_sources_experiment(path))
			fprintf(stderr, "cannot write the sources fixture\n");
	}
	return path;
}

/* The table of a metric and source label. */
static const struct analyze_table *source_table(const struct analyze_model *m,
						const char *metric, const char *label)
{
	size_t i;

	for (i = 0; i < m->nr_tables; i++)
		if (!strcmp(m->tables[i].metric, metric) &&
		    !strcmp(m->sources[m->tables[i].source].label, label))
			return &m->tables[i];
	return NULL;
}

static size_t counterpart(const struct analyze_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_counterparts; i++)
		if (!strcmp(m->counterparts[i].name, name))
			return i;
	return SIZE_MAX;
}

/* A lone source: one source, labelled "", no counterparts or across blocks. */
static void test_lone_source(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	struct analyze_model m;
	size_t i;

	if (!check_int(load_path(&m, fixture_path(), &ao), ==, 0))
		return;
	check_int(m.nr_sources, ==, 1);
	check_str(m.sources[0].label, "");
	check_int(m.nr_counterparts, ==, 0);
	check_int(m.nr_across, ==, 0);
	for (i = 0; i < m.nr_variants; i++)
		check_str(m.variants[i].short_name, m.variants[i].v.name);
	analyze_release(&m);
}

static void test_sources_tables(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	const struct analyze_table *t61, *t612, *tfix;
	const struct analyze_row *r;
	struct analyze_model m;

	if (!check_int(load_path(&m, sources_path(), &ao), ==, 0))
		return;
	check_int(m.nr_sources, ==, 3);
	check_str(m.sources[2].label, "6.1+fix");
	check_int(m.sources[2].base, ==, 0);
	check_str(m.sources[2].patch, "fix.patch");
	/* boot: its own time and wall, per source. */
	check_int(m.nr_tables, ==, 6);
	check_int(m.nr_across, ==, 2);
	t61 = source_table(&m, "time", "6.1");
	t612 = source_table(&m, "time", "6.12");
	tfix = source_table(&m, "time", "6.1+fix");
	if (!check(t61 && t612 && tfix))
		goto out;
	/* Each against its own baseline, with only its own variants. */
	check_str(m.variants[t612->rows[t612->baseline].variant].v.name, "6.12:baseline");
	check(row(&m, t612, "6.1:CONFIG_PROVE_LOCKING=y") == NULL);
	r = row(&m, t612, "6.12:CONFIG_PROVE_LOCKING=y");
	if (check(r != NULL))
		check_double(r->cmp.ratio, 1.95, 0.02);
	r = row(&m, t61, "6.1:CONFIG_PROVE_LOCKING=y");
	if (check(r != NULL))
		check_double(r->cmp.ratio, 1.70, 0.02);
	/* An unknown symbol is not measured there, with why, never a zero cost. */
	check(row(&m, t61, "6.1:CONFIG_NEW=y") == NULL);
	check(strstr(variant(&m, "6.1:CONFIG_NEW=y")->why, "unknown symbol") != NULL);
	check_str(variant(&m, "6.12:CONFIG_NEW=y")->short_name, "CONFIG_NEW=y");
	/* Tables come per metric, source by source, and the across block after the last. */
	check(analyze_across_after(&m, (size_t)(t612 - m.tables)) == NULL);
	check(analyze_across_after(&m, (size_t)(tfix - m.tables)) != NULL);
out:
	analyze_release(&m);
}

static void test_sources_across(void)
{
	struct analyze_options ao = ANALYZE_OPTIONS_INIT;
	const struct analyze_across *a = NULL;
	const struct analyze_across_cell *cell;
	struct analyze_model m;
	size_t i, prove, base, news, printk;

	if (!check_int(load_path(&m, sources_path(), &ao), ==, 0))
		return;
	for (i = 0; i < m.nr_across; i++)
		if (!strcmp(m.across[i].metric, "time"))
			a = &m.across[i];
	prove = counterpart(&m, "CONFIG_PROVE_LOCKING=y");
	base = counterpart(&m, "baseline");
	news = counterpart(&m, "CONFIG_NEW=y");
	printk = counterpart(&m, "CONFIG_PRINTK_TIME=y");
	if (!check(a && prove != SIZE_MAX && base == 0 && news != SIZE_MAX && printk != SIZE_MAX))
		goto out;
	check_int(m.nr_counterparts, ==, 4);
	/* +70% on 6.1, +95% on 6.12: the cost grew by 1.95 / 1.70. */
	cell = analyze_across_cell(&m, a, prove, 1);
	check(cell->has_change && cell->has_same);
	check_double(cell->change.ratio, 1.95 / 1.70, 0.02);
	check_int(cell->change.marker, ==, '*');
	check_int(cell->change.cost, ==, 1);
	/* The patch leaves PROVE_LOCKING's cost as it was ... */
	cell = analyze_across_cell(&m, a, prove, 2);
	check(cell->has_change);
	check_double(cell->change.ratio, 1.0, 0.02);
	check(cell->change.marker != '*');
	/* ... and makes the kernel 5% faster, config for config. */
	cell = analyze_across_cell(&m, a, base, 2);
	check(cell->has_same && !cell->has_change);
	check_double(cell->same.ratio, 0.95, 0.01);
	check_int(cell->same.marker, ==, '*');
	cell = analyze_across_cell(&m, a, printk, 2);
	check(cell->has_same);
	check_double(cell->same.ratio, 0.95, 0.01);
	/* 6.12's baseline is 4% slower than 6.1's. */
	cell = analyze_across_cell(&m, a, base, 1);
	check_double(cell->same.ratio, 1.04, 0.01);
	/* CONFIG_NEW: measured on 6.12 only, so no change of cost anywhere. */
	check(analyze_across_cell(&m, a, news, 0)->row == SIZE_MAX);
	check(analyze_across_cell(&m, a, news, 1)->row != SIZE_MAX);
	check(!analyze_across_cell(&m, a, news, 1)->has_change);
	check(!analyze_across_cell(&m, a, news, 1)->has_same);
	/* 6.12's PROVE_LOCKING sets a symbol 6.1's does not. */
	if (check(m.counterparts[prove].differs[1] != NULL))
		check_str(m.counterparts[prove].differs[1], "6.12 also sets NEW_DEP");
	check(m.counterparts[prove].differs[2] == NULL);
	check(m.counterparts[printk].differs[1] == NULL);
	check(m.counterparts[base].differs[1] == NULL);
	/* Not measured on 6.1: nothing to compare its symbols with. */
	check(m.counterparts[news].differs[1] == NULL);
out:
	analyze_release(&m);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_tables_and_facts);
	TEST(test_states);
	TEST(test_runs_counted_and_excluded);
	TEST(test_sample_metric_is_run_mean);
	TEST(test_run_value_matches_tables);
	TEST(test_comparisons_are_stats);
	TEST(test_display_order);
	TEST(test_interactions_in_progress);
	TEST(test_multiplicativity_complete);
	TEST(test_same_as_shares_runs);
	TEST(test_boot_workload_has_no_boot_table);
	TEST(test_wall_says_where_the_meter_counted);
	TEST(test_filters);
	TEST(test_higher_is_better);
	TEST(test_notes);
	TEST(test_empty_experiment);
	TEST(test_decimals);
	TEST(test_cumulative_steps);
	TEST(test_lone_source);
	TEST(test_sources_tables);
	TEST(test_sources_across);
	return test_done();
}
