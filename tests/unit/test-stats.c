/* test-stats.c: unit tests for stats, against scipy/numpy reference values. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/stats.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "test-lib.h"
#include "util/wrapper.h"

/*
 * tests/fixtures/stats/reference.txt is written by gen-reference.py beside
 * it (scipy and numpy, see there); tests/run-tests runs us from the top of
 * the tree.  Every reference value must be matched within REL.
 */
#define REFERENCE "tests/fixtures/stats/reference.txt"
#define REL 1e-6

struct record {
	struct strvec f;	/* f.v[0] is the kind */
};

struct dataset {
	const char *name;
	double *v;
	size_t n;
};

static struct record *records;
static size_t nr_records, alloc_records;
static struct dataset *datasets;
static size_t nr_datasets, alloc_datasets;
static double worst;	/* largest relative difference seen */

static void load_reference(void)
{
	struct strbuf line = STRBUF_INIT;
	FILE *fp = fopen(REFERENCE, "r");
	size_t i;

	if (!fp)
		return;
	while (strbuf_getline(&line, fp) != EOF) {
		struct record *r;

		if (!line.len || line.buf[0] == '#')
			continue;
		ALLOC_GROW(records, nr_records + 1, alloc_records);
		r = &records[nr_records++];
		strvec_init(&r->f);
		strvec_split(&r->f, line.buf, " ");
		if (strcmp(r->f.v[0], "data"))
			continue;
		ALLOC_GROW(datasets, nr_datasets + 1, alloc_datasets);
		datasets[nr_datasets].name = r->f.v[1];
		datasets[nr_datasets].n = r->f.nr - 2;
		datasets[nr_datasets].v = xcalloc(r->f.nr, sizeof(double));
		for (i = 2; i < r->f.nr; i++)
			datasets[nr_datasets].v[i - 2] = strtod(r->f.v[i], NULL);
		nr_datasets++;
	}
	strbuf_release(&line);
	fclose(fp);
}

static void free_reference(void)
{
	size_t i;

	for (i = 0; i < nr_records; i++)
		strvec_clear(&records[i].f);
	for (i = 0; i < nr_datasets; i++)
		free(datasets[i].v);
	free(records);
	free(datasets);
}

/* The value of "key=value" in r, or NULL. */
static const char *field(const struct record *r, const char *key)
{
	size_t i, len = strlen(key);

	for (i = 1; i < r->f.nr; i++)
		if (!strncmp(r->f.v[i], key, len) && r->f.v[i][len] == '=')
			return r->f.v[i] + len + 1;
	return NULL;
}

static double num(const struct record *r, const char *key)
{
	const char *v = field(r, key);

	if (!check(v != NULL))
		fprintf(stderr, "#   no '%s' in a '%s' record\n", key, r->f.v[0]);
	return v ? strtod(v, NULL) : NAN;
}

/* A comma-separated list of numbers; the caller frees *out. */
static size_t num_list(const struct record *r, const char *key, double **out)
{
	struct strvec items = STRVEC_INIT;
	const char *v = field(r, key);
	size_t i, n;

	strvec_split(&items, v ? v : "", ",");
	n = items.nr;
	*out = xcalloc(n ? n : 1, sizeof(double));
	for (i = 0; i < n; i++)
		(*out)[i] = strtod(items.v[i], NULL);
	strvec_clear(&items);
	return n;
}

static const struct dataset *data(const char *name)
{
	size_t i;

	for (i = 0; name && i < nr_datasets; i++)
		if (!strcmp(datasets[i].name, name))
			return &datasets[i];
	check(!"dataset named in the reference exists");
	fprintf(stderr, "#   dataset '%s'\n", name ? name : "(null)");
	return &datasets[0];
}

static char marker_of(const struct record *r)
{
	const char *m = field(r, "marker");

	if (!m)
		return 0;
	return !strcmp(m, "blank") ? ' ' : m[0];
}

/* The record being checked, named in failure messages. */
static const struct record *current;

/* check_double at REL, remembering the worst agreement for the summary. */
#define check_ref(a, b) check_ref_impl((a), (b), #a, __LINE__)
static void check_ref_impl(double a, double b, const char *expr, int line)
{
	double scale = fmax(fabs(a), fabs(b));

	if (isfinite(a) && isfinite(b) && scale > 0 && fabs(a - b) / scale > worst)
		worst = fabs(a - b) / scale;
	if (!check_double_impl(a, b, REL, expr, __FILE__, line) && current)
		fprintf(stderr, "#   in: %s %s %s\n", current->f.v[0],
			current->f.nr > 1 ? current->f.v[1] : "",
			current->f.nr > 2 ? current->f.v[2] : "");
}

static void foreach_record(const char *kind, void (*fn)(const struct record *))
{
	size_t i, seen = 0;

	for (i = 0; i < nr_records; i++) {
		if (strcmp(records[i].f.v[0], kind))
			continue;
		current = &records[i];
		fn(current);
		seen++;
	}
	current = NULL;
	check(seen > 0);
}

static void test_reference_loaded(void)
{
	check(nr_records > 0);
	check(nr_datasets > 0);
	if (!nr_records)
		fprintf(stderr, "#   cannot read '%s' from the top of the tree\n", REFERENCE);
}

static void one_t_quantile(const struct record *r)
{
	check_ref(stats_t_quantile(num(r, "p"), num(r, "df")), num(r, "q"));
}

static void test_t_quantile(void)
{
	foreach_record("tquantile", one_t_quantile);
	check(isnan(stats_t_quantile(0, 5)));
	check(isnan(stats_t_quantile(1, 5)));
	check(isnan(stats_t_quantile(0.975, 0)));
	check(isnan(stats_t_quantile(NAN, 5)));
	check(isnan(stats_t_quantile(0.975, NAN)));
}

static void one_describe(const struct record *r)
{
	const struct dataset *d = data(field(r, "name"));
	const char *flags = field(r, "flags");
	unsigned char *outlier = xmalloc(d->n);
	struct stats_summary s;
	size_t i;

	stats_describe(&s, d->v, d->n, outlier);
	check_int(s.n, ==, num(r, "n"));
	check_ref(s.mean, num(r, "mean"));
	check_ref(s.sd, num(r, "sd"));
	check_ref(s.min, num(r, "min"));
	check_ref(s.q1, num(r, "q1"));
	check_ref(s.median, num(r, "median"));
	check_ref(s.q3, num(r, "q3"));
	check_ref(s.max, num(r, "max"));
	check_ref(s.geomean, num(r, "geomean"));
	check_ref(s.log_mean, num(r, "log_mean"));
	check_ref(s.log_sd, num(r, "log_sd"));
	check_ref(s.mad, num(r, "mad"));
	check_int(s.outliers, ==, num(r, "outliers"));
	if (check(flags && strlen(flags) == d->n))
		for (i = 0; i < d->n; i++)
			check_int(outlier[i], ==, flags[i] == '1');
	free(outlier);
}

static void test_describe(void)
{
	foreach_record("describe", one_describe);
}

static void test_describe_degenerate(void)
{
	double one = 4.0, mixed[] = { 1.0, -2.0, 3.0 };
	struct stats_summary s;
	unsigned char flag = 7;

	stats_describe(&s, NULL, 0, NULL);
	check_int(s.n, ==, 0);
	check(isnan(s.mean) && isnan(s.median) && isnan(s.sd) && isnan(s.mad));
	check_int(s.outliers, ==, 0);

	stats_describe(&s, &one, 1, &flag);
	check_double(s.mean, 4.0, 0);
	check_double(s.median, 4.0, 0);
	check_double(s.geomean, 4.0, 1e-15);
	check(isnan(s.sd) && isnan(s.log_sd));
	check_int(flag, ==, 0);

	/* Non-positive values: no log scale, everything else as usual. */
	stats_describe(&s, mixed, 3, NULL);
	check_double(s.mean, 2.0 / 3, 1e-15);
	check(isnan(s.geomean) && isnan(s.log_mean) && isnan(s.log_sd));
}

static void one_welch(const struct record *r)
{
	const struct dataset *x = data(field(r, "x")), *y = data(field(r, "y"));
	struct stats_welch w;

	stats_welch(&w, x->v, x->n, y->v, y->n);
	check_ref(w.t, num(r, "t"));
	check_ref(w.df, num(r, "df"));
	check_ref(w.p, num(r, "p"));
}

static void test_welch(void)
{
	double a[] = { 2, 2, 2 }, b[] = { 3, 3, 3 }, c[] = { 1, 2 }, zero[] = { 0, 0, 0 };
	double last[] = { 2, 2, 2 + 2e-9 };
	struct stats_welch w;

	foreach_record("welch", one_welch);

	/*
	 * Zero variance on both sides, where scipy gives NaN or an infinite t:
	 * the sds are floored at the resolution, so t is finite.
	 */
	stats_welch(&w, a, 3, a, 3);
	check_double(w.t, 0, 0);
	check_double(w.p, 1, 0);
	check_double(w.df, 4, 1e-12);
	stats_welch(&w, b, 3, a, 3);
	check(isfinite(w.t) && w.t > 1e8);
	check(isfinite(w.df) && w.df > 2 && w.df < 4);
	check(w.p >= 0 && w.p < 1e-20);
	/* A unit in the ninth digit on one of three values: no evidence. */
	stats_welch(&w, last, 3, a, 3);
	check(fabs(w.t) < 2 && w.p > 0.1);
	/* All zeros: no scale at all, and nothing to tell apart. */
	stats_welch(&w, zero, 3, zero, 3);
	check_double(w.t, 0, 0);
	check_double(w.p, 1, 0);
	/* One value on a side: undefined. */
	stats_welch(&w, c, 2, b, 1);
	check(isnan(w.t) && isnan(w.df) && isnan(w.p));
}

static void one_mw(const struct record *r)
{
	const struct dataset *x = data(field(r, "x")), *y = data(field(r, "y"));
	const char *method = field(r, "method");
	int exact = method && !strcmp(method, "exact");
	struct stats_mw mw;

	check_int(stats_mann_whitney(&mw, x->v, x->n, y->v, y->n,
				     exact ? STATS_MW_EXACT : STATS_MW_ASYMPTOTIC), ==, 0);
	check_int(mw.exact, ==, exact);
	check_ref(mw.u, num(r, "u"));
	check_ref(mw.p, num(r, "p"));
	check_ref(mw.min_p, num(r, "min_p"));
	check(mw.min_p <= mw.p);
}

static void test_mann_whitney(void)
{
	double x[] = { 1, 2, 3 }, y[] = { 3, 4, 5 }, same[] = { 7, 7, 7 };
	double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 };
	struct stats_mw mw;

	foreach_record("mw", one_mw);

	/* Exact needs distinct values: refused, not silently approximated. */
	check_int(stats_mann_whitney(&mw, x, 3, y, 3, STATS_MW_EXACT), ==, -1);
	check(isnan(mw.p));
	check_int(stats_mann_whitney(&mw, x, 3, y, 3, STATS_MW_AUTO), ==, 0);
	check_int(mw.exact, ==, 0);
	check_int(mw.ties, ==, 1);
	check_double(mw.u, 0.5, 0);
	/* Every value equal: p = 1, and the test can never reject. */
	check_int(stats_mann_whitney(&mw, same, 3, same, 3, STATS_MW_AUTO), ==, 0);
	check_double(mw.p, 1, 0);
	check_double(mw.min_p, 1, 0);
	/* 3 vs 3 exact: complete separation is the best it can do, p = 2/20. */
	check_int(stats_mann_whitney(&mw, hi, 3, lo, 3, STATS_MW_AUTO), ==, 0);
	check_int(mw.exact, ==, 1);
	check_double(mw.u, 9, 0);
	check_double(mw.p, 0.1, 1e-15);
	check_double(mw.min_p, 0.1, 1e-15);
	check_int(stats_mann_whitney(&mw, hi, 0, lo, 3, STATS_MW_AUTO), ==, -1);

	/*
	 * min_p with the pooled values' own ties (stats.h): ten b against six
	 * b and four c can reach U = 70 at most, so min_p is that U's p, not
	 * the p of U = 100 (7e-8) that no split of these values can give.
	 */
	{
		double base[10], var[10];
		size_t i;

		for (i = 0; i < 10; i++) {
			base[i] = 0.0309;
			var[i] = i < 6 ? 0.0309 : 0.0400;
		}
		check_int(stats_mann_whitney(&mw, var, 10, base, 10, STATS_MW_AUTO), ==, 0);
		check_double(mw.u, 70, 0);
		check_double(mw.min_p, mw.p, 1e-15);
		check(mw.min_p > 0.01);
		/* Both constant but different: complete separation is the extreme. */
		check_int(stats_mann_whitney(&mw, var + 6, 4, base, 10, STATS_MW_AUTO), ==, 0);
		check_double(mw.u, 40, 0);
		check_double(mw.min_p, mw.p, 1e-15);
	}
}

static void one_compare(const struct record *r)
{
	const struct dataset *b = data(field(r, "base"));
	const struct dataset *v = data(field(r, "variant"));
	struct stats_options opts = STATS_OPTIONS_INIT;
	const char *ci = field(r, "ci");
	struct stats_comparison c;

	stats_compare(&c, b->v, b->n, v->v, v->n, &opts);
	check_ref(c.ratio, num(r, "ratio"));
	check_ref(c.change, num(r, "change"));
	if (ci && !strcmp(ci, "bounded")) {
		check_int(c.ci.state, ==, STATS_CI_BOUNDED);
		check_ref(c.ci.lo, num(r, "lo"));
		check_ref(c.ci.hi, num(r, "hi"));
		check_ref(c.change_lo, (num(r, "lo") - 1) * 100);
		check_ref(c.change_hi, (num(r, "hi") - 1) * 100);
	} else if (ci && !strcmp(ci, "none")) {
		check_int(c.ci.state, ==, STATS_CI_NONE);
		check(isnan(c.ci.lo) && isnan(c.ci.hi) && isnan(c.change_lo));
	} else {
		check_int(c.ci.state, ==, STATS_CI_UNBOUNDED);
		check(isnan(c.ci.lo) && isnan(c.ci.hi) && isnan(c.change_lo));
	}
	check_ref(c.ci.g, num(r, "g"));
	check_ref(c.ci.df, num(r, "df"));
	check_ref(c.welch.t, num(r, "welch_t"));
	check_ref(c.welch.df, num(r, "welch_df"));
	check_ref(c.welch.p, num(r, "welch_p"));
	check_ref(c.q, num(r, "welch_p"));
	check_ref(c.mw.u, num(r, "mw_u"));
	check_ref(c.mw.p, num(r, "mw_p"));
	check_int(c.mw.exact, ==, num(r, "mw_exact"));
	check_ref(c.mw.min_p, num(r, "mw_min_p"));
	check_int(c.n_base, ==, b->n);
	check_int(c.n_variant, ==, v->n);
	if (!check_int(c.marker, ==, marker_of(r)))
		fprintf(stderr, "#   marker of %s\n", field(r, "id"));
	check_int(c.cost, ==, c.ratio > 1 ? 1 : c.ratio < 1 ? -1 : 0);
}

static void test_compare(void)
{
	foreach_record("compare", one_compare);
}

static const struct record *find_compare(const char *id)
{
	size_t i;

	for (i = 0; i < nr_records; i++) {
		const char *v = field(&records[i], "id");

		if (!strcmp(records[i].f.v[0], "compare") && v && !strcmp(v, id))
			return &records[i];
	}
	return NULL;
}

static void one_adjust(const struct record *r)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	struct strvec ids = STRVEC_INIT, markers = STRVEC_INIT;
	struct stats_comparison *c;
	double *q;
	size_t i, nq;

	strvec_split(&ids, field(r, "ids"), ",");
	strvec_split(&markers, field(r, "markers"), ",");
	nq = num_list(r, "q", &q);
	check_int(nq, ==, ids.nr);
	check_int(markers.nr, ==, ids.nr);
	c = xcalloc(ids.nr, sizeof(*c));
	for (i = 0; i < ids.nr; i++) {
		const struct record *cr = find_compare(ids.v[i]);
		const struct dataset *b, *v;

		if (!check(cr != NULL))
			continue;
		b = data(field(cr, "base"));
		v = data(field(cr, "variant"));
		stats_compare(&c[i], b->v, b->n, v->v, v->n, &opts);
	}
	stats_adjust(c, ids.nr, &opts);
	for (i = 0; i < ids.nr && i < nq && i < markers.nr; i++) {
		check_ref(c[i].q, q[i]);
		if (!check_int(c[i].marker, ==, strcmp(markers.v[i], "blank") ? markers.v[i][0] : ' '))
			fprintf(stderr, "#   marker of %s\n", ids.v[i]);
	}
	free(c);
	free(q);
	strvec_clear(&ids);
	strvec_clear(&markers);
}

static void test_adjust(void)
{
	foreach_record("adjust", one_adjust);
}

static void one_bh(const struct record *r)
{
	double *p, *q, *got;
	size_t n, i;

	n = num_list(r, "p", &p);
	check_int(num_list(r, "q", &q), ==, n);
	got = xcalloc(n ? n : 1, sizeof(*got));
	stats_bh(got, p, n);
	for (i = 0; i < n; i++)
		check_ref(got[i], q[i]);
	/* In place gives the same. */
	stats_bh(p, p, n);
	for (i = 0; i < n; i++)
		check_ref(p[i], q[i]);
	free(p);
	free(q);
	free(got);
}

static void test_bh(void)
{
	double p[] = { 0.04, 0.01, 0.03 }, q[3];

	foreach_record("bh", one_bh);
	/* By hand: 0.01 * 3/1, then min(0.03 * 3/2, 0.04 * 3/3) for both others. */
	stats_bh(q, p, 3);
	check_double(q[1], 0.03, 1e-15);
	check_double(q[2], 0.04, 1e-15);
	check_double(q[0], 0.04, 1e-15);
	stats_bh(q, p, 0);	/* nothing to do, nothing touched */
}

static void check_interaction(const struct record *r, const struct stats_interaction *in)
{
	check_ref(in->predicted, num(r, "predicted"));
	check_ref(in->predicted_lo, num(r, "predicted_lo"));
	check_ref(in->predicted_hi, num(r, "predicted_hi"));
	check_ref(in->measured, num(r, "measured"));
	check_ref(in->measured_lo, num(r, "measured_lo"));
	check_ref(in->measured_hi, num(r, "measured_hi"));
	check_ref(in->ratio, num(r, "ratio"));
	check_ref(in->ratio_lo, num(r, "ratio_lo"));
	check_ref(in->ratio_hi, num(r, "ratio_hi"));
	check_ref(in->df, num(r, "df"));
	check_int(in->marker, ==, marker_of(r));
	if (!isnan(in->ratio))
		check_int(in->direction, ==, in->ratio > 1 ? 1 : in->ratio < 1 ? -1 : 0);
}

static void summarise(struct stats_summary *out, const char *name)
{
	const struct dataset *d = data(name);

	stats_describe(out, d->v, d->n, NULL);
}

static void one_multiplicative(const struct record *r)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	struct strvec alone = STRVEC_INIT;
	struct stats_summary base, all, *s;
	struct stats_interaction in;
	size_t i;

	strvec_split(&alone, field(r, "alone"), ",");
	s = xcalloc(alone.nr, sizeof(*s));
	for (i = 0; i < alone.nr; i++)
		summarise(&s[i], alone.v[i]);
	summarise(&base, field(r, "base"));
	summarise(&all, field(r, "all"));
	stats_multiplicative(&in, &base, &all, s, alone.nr, &opts);
	check_interaction(r, &in);
	free(s);
	strvec_clear(&alone);
}

static void test_multiplicative(void)
{
	foreach_record("multiplicative", one_multiplicative);
}

static void one_added_last(const struct record *r)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	struct stats_summary base, alone, all, loo;
	struct stats_interaction in;

	summarise(&base, field(r, "base"));
	summarise(&alone, field(r, "alone"));
	summarise(&all, field(r, "all"));
	summarise(&loo, field(r, "loo"));
	stats_added_last(&in, &base, &alone, &all, &loo, &opts);
	check_interaction(r, &in);
}

static void test_added_last(void)
{
	foreach_record("addedlast", one_added_last);
}

/* A comparison with just the fields stats_marker() reads. */
static struct stats_comparison fake(double welch_p, double q, double mw_p, double mw_min_p,
				    double lo, double hi)
{
	struct stats_comparison c;

	memset(&c, 0, sizeof(c));
	c.n_base = c.n_variant = 10;
	c.welch.p = welch_p;
	c.q = q;
	c.mw.p = mw_p;
	c.mw.min_p = mw_min_p;
	c.ci.state = isnan(lo) ? STATS_CI_UNBOUNDED : STATS_CI_BOUNDED;
	c.change_lo = lo;
	c.change_hi = hi;
	return c;
}

static const struct record *find_cost_change(const char *id)
{
	size_t i;

	for (i = 0; i < nr_records; i++)
		if (!strcmp(records[i].f.v[0], "costchange") && field(&records[i], "id") &&
		    !strcmp(field(&records[i], "id"), id))
			return &records[i];
	return NULL;
}

static void cost_change_of(struct stats_cost_change *out, const struct record *r,
			   const struct stats_options *opts)
{
	struct stats_summary b1, v1, b2, v2;

	summarise(&b1, field(r, "b1"));
	summarise(&v1, field(r, "v1"));
	summarise(&b2, field(r, "b2"));
	summarise(&v2, field(r, "v2"));
	stats_cost_change(out, &b1, &v1, &b2, &v2, opts);
}

static void one_cost_change(const struct record *r)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	struct stats_cost_change c;

	cost_change_of(&c, r, &opts);
	check_ref(c.ratio, num(r, "ratio"));
	check_ref(c.ratio_lo, num(r, "lo"));
	check_ref(c.ratio_hi, num(r, "hi"));
	check_ref(c.t, num(r, "t"));
	check_ref(c.df, num(r, "df"));
	check_ref(c.p, num(r, "p"));
	check_ref(c.q, num(r, "p"));
	check_ref(c.change, (num(r, "ratio") - 1) * 100);
	check_ref(c.change_lo, (num(r, "lo") - 1) * 100);
	if (!check_int(c.marker, ==, marker_of(r)))
		fprintf(stderr, "#   marker of %s\n", field(r, "id"));
}

static void test_cost_change(void)
{
	foreach_record("costchange", one_cost_change);
}

static void one_cost_adjust(const struct record *r)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	struct strvec ids = STRVEC_INIT;
	struct stats_cost_change *c;
	double *q;
	size_t i, nq;

	strvec_split(&ids, field(r, "ids"), ",");
	nq = num_list(r, "q", &q);
	check_int(nq, ==, ids.nr);
	c = xcalloc(ids.nr ? ids.nr : 1, sizeof(*c));
	for (i = 0; i < ids.nr; i++) {
		const struct record *cr = find_cost_change(ids.v[i]);

		if (check(cr != NULL))
			cost_change_of(&c[i], cr, &opts);
	}
	stats_adjust_cost_changes(c, ids.nr, &opts);
	for (i = 0; i < ids.nr && i < nq; i++)
		check_ref(c[i].q, q[i]);
	free(c);
	free(q);
	strvec_clear(&ids);
}

static void test_cost_change_adjust(void)
{
	foreach_record("costadjust", one_cost_adjust);
}

/* A throughput costs when it falls: the ratio's direction flips the cost. */
static void test_cost_change_direction(void)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	double b[] = { 10, 10.1, 9.9, 10 }, v1[] = { 8, 8.1, 7.9, 8 };
	double v2[] = { 6, 6.1, 5.9, 6 };
	struct stats_summary sb, s1, s2;
	struct stats_cost_change c;

	stats_describe(&sb, b, 4, NULL);
	stats_describe(&s1, v1, 4, NULL);
	stats_describe(&s2, v2, 4, NULL);
	stats_cost_change(&c, &sb, &s1, &sb, &s2, &opts);
	check_double(c.ratio, 0.75, 1e-12);
	check_int(c.cost, ==, -1);
	check_int(c.marker, ==, '*');
	opts.higher_is_better = 1;
	stats_cost_change(&c, &sb, &s1, &sb, &s2, &opts);
	check_int(c.cost, ==, 1);
	/* A mean that is not positive has no log: no interval, '?'. */
	s2.mean = -1;
	stats_cost_change(&c, &sb, &s1, &sb, &s2, &opts);
	check(isnan(c.ratio) && isnan(c.p) && isnan(c.change_lo));
	check_int(c.marker, ==, '?');
}

/*
 * One simulated experiment: four samples of normal runs, sample j with
 * mean mu[j] and a coefficient of variation cv[j], n[j] runs each.
 */
static void simulate(struct stats_cost_change *out, gsl_rng *rng, const double *mu,
		     const double *cv, const size_t *n, const struct stats_options *opts)
{
	struct stats_summary s[4];
	double x[64];
	size_t j, i;

	for (j = 0; j < 4; j++) {
		for (i = 0; i < n[j]; i++)
			x[i] = mu[j] * (1 + cv[j] * gsl_ran_ugaussian(rng));
		stats_describe(&s[j], x, n[j], NULL);
	}
	stats_cost_change(out, &s[0], &s[1], &s[2], &s[3], opts);
}

/*
 * Coverage of the 95% interval of a cost change, and the false positive
 * rate of its test, over SIMULATIONS simulated experiments per scenario.
 * Run it alone ("test-stats coverage") to see every scenario's figures.
 */
#define SIMULATIONS 4000
static void test_cost_change_coverage(void)
{
	static const struct {
		const char *name;
		double mu[4], cv[4];
		size_t n[4];
		double lo, hi;		/* the coverage must fall in [lo, hi] */
	} sc[] = {
		/* +70% on one kernel, +95% on the other; unequal spreads. */
		{ "n=10, cv 2-5%", { 1.48, 2.516, 1.532, 2.9874 }, { 0.02, 0.03, 0.02, 0.05 },
		  { 10, 10, 10, 10 }, 0.94, 0.96 },
		{ "n=5/10, cv 2-8%", { 1.48, 2.516, 1.532, 2.9874 }, { 0.02, 0.08, 0.03, 0.05 },
		  { 5, 10, 10, 5 }, 0.935, 0.965 },
		/* The same cost on both: the test's false positives. */
		{ "null, n=10, cv 3%", { 1.48, 2.516, 1.532, 2.6044 }, { 0.03, 0.03, 0.03, 0.03 },
		  { 10, 10, 10, 10 }, 0.94, 0.96 },
		/* Few runs and one noisy sample: Welch-Satterthwaite's df carry it. */
		{ "n=3/10, cv 1-10%", { 1.0, 1.5, 1.0, 1.8 }, { 0.01, 0.10, 0.01, 0.01 },
		  { 3, 3, 10, 10 }, 0.92, 0.97 },
	};
	struct stats_options opts = STATS_OPTIONS_INIT;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t k, s;

	gsl_rng_set(rng, 20251201);
	for (k = 0; k < ARRAY_SIZE(sc); k++) {
		double truth = (sc[k].mu[3] / sc[k].mu[2]) / (sc[k].mu[1] / sc[k].mu[0]);
		size_t covered = 0, rejected = 0;
		double coverage, reject_rate;

		for (s = 0; s < SIMULATIONS; s++) {
			struct stats_cost_change c;

			simulate(&c, rng, sc[k].mu, sc[k].cv, sc[k].n, &opts);
			if (c.ratio_lo <= truth && truth <= c.ratio_hi)
				covered++;
			if (c.p < opts.alpha)
				rejected++;
		}
		coverage = (double)covered / SIMULATIONS;
		reject_rate = (double)rejected / SIMULATIONS;
		printf("# cost change %-18s coverage %.4f, p < %.2f in %.4f of %d\n", sc[k].name,
		       coverage, opts.alpha, reject_rate, SIMULATIONS);
		if (!check(coverage >= sc[k].lo && coverage <= sc[k].hi))
			fprintf(stderr, "#   %s: coverage %.4f outside [%.3f, %.3f]\n", sc[k].name,
				coverage, sc[k].lo, sc[k].hi);
		/* Under the null, the test rejects as often as the interval misses. */
		if (fabs(truth - 1) < 1e-12)
			check_double(reject_rate, 1 - coverage, 1e-12);
	}
	gsl_rng_free(rng);
}

static void test_marker_rules(void)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	struct stats_comparison c;

	c = fake(0.001, 0.001, 0.002, 1e-5, 5, 9);
	check_int(stats_marker(&c, &opts), ==, '*');
	c = fake(0.001, 0.001, 0.002, 1e-5, -9, -5);	/* a gain counts too */
	check_int(stats_marker(&c, &opts), ==, '*');
	c = fake(0.001, 0.001, 0.002, 1e-5, 0.5, 1.5);
	check_int(stats_marker(&c, &opts), ==, '~');
	c = fake(0.001, 0.001, 0.002, 1e-5, NAN, NAN);	/* unbounded */
	check_int(stats_marker(&c, &opts), ==, '~');
	c = fake(0.001, 0.2, 0.002, 1e-5, 5, 9);	/* lost to BH */
	check_int(stats_marker(&c, &opts), ==, ' ');
	c = fake(0.001, 0.001, 0.3, 1e-5, 5, 9);	/* tests disagree */
	check_int(stats_marker(&c, &opts), ==, '?');
	c = fake(0.3, 0.3, 0.001, 1e-5, -1, 5);
	check_int(stats_marker(&c, &opts), ==, '?');
	c = fake(0.001, 0.001, 0.1, 0.1, 5, 9);	/* 3 vs 3: MW cannot reject */
	check_int(stats_marker(&c, &opts), ==, '*');
	c = fake(0.3, 0.3, 0.4, 1e-5, -1, 5);
	check_int(stats_marker(&c, &opts), ==, ' ');
	c = fake(0.001, 0.001, 0.002, 1e-5, 5, 9);
	c.n_base = 2;
	check_int(stats_marker(&c, &opts), ==, '?');
	c = fake(NAN, NAN, 0.002, 1e-5, 5, 9);
	check_int(stats_marker(&c, &opts), ==, '?');

	/*
	 * Wholly inside the band: no practical change, however significant.
	 * A deterministic +0.001% is real (q ~ 0) and still gets no marker.
	 */
	c = fake(1e-68, 1e-68, 1.6e-5, 1.6e-5, 0.001, 0.001);
	check_int(stats_marker(&c, &opts), ==, ' ');
	c = fake(0.001, 0.001, 0.002, 1e-5, -0.5, 0.8);
	check_int(stats_marker(&c, &opts), ==, ' ');
	c = fake(0.001, 0.001, 0.002, 1e-5, -1, 1);	/* the edges are inside */
	check_int(stats_marker(&c, &opts), ==, ' ');
	c = fake(0.001, 0.001, 0.3, 1e-5, 0.2, 0.4);	/* a disagreement does not matter */
	check_int(stats_marker(&c, &opts), ==, ' ');
	c = fake(0.001, 0.001, 0.002, 1e-5, 0.9, 1.001);	/* just crosses the edge */
	check_int(stats_marker(&c, &opts), ==, '~');
	c = fake(0.001, 0.001, 0.002, 1e-5, -1.001, -0.9);
	check_int(stats_marker(&c, &opts), ==, '~');
	c = fake(1e-9, 1e-9, 1e-5, 1e-5, 0.001, 0.001);
	c.n_variant = 2;				/* too few runs still rules */
	check_int(stats_marker(&c, &opts), ==, '?');

	/* The noise band is a parameter. */
	opts.noise = 0.25;
	c = fake(0.001, 0.001, 0.002, 1e-5, 0.5, 1.5);
	check_int(stats_marker(&c, &opts), ==, '*');
	c = fake(1e-68, 1e-68, 1.6e-5, 1.6e-5, 0.001, 0.001);
	check_int(stats_marker(&c, &opts), ==, ' ');
	opts.noise = 2;
	c = fake(0.001, 0.001, 0.002, 1e-5, 0.5, 1.5);
	check_int(stats_marker(&c, &opts), ==, ' ');
	/* --noise 0: only an interval of exactly 0 is inside. */
	opts.noise = 0;
	c = fake(1e-68, 1e-68, 1.6e-5, 1.6e-5, 0.001, 0.001);
	check_int(stats_marker(&c, &opts), ==, '*');
	c = fake(1, 1, 1, 1, 0, 0);
	check_int(stats_marker(&c, &opts), ==, ' ');
}

static void test_compare_edges(void)
{
	struct stats_options opts = STATS_OPTIONS_INIT;
	double base[] = { 10.0, 10.1, 9.9, 10.05 }, slow[] = { 12.0, 12.1, 11.9, 12.05 };
	double bad[] = { 1.0, 0.0, 2.0, 1.5 };
	struct stats_comparison c;

	/* Throughput: higher is better, so +20% is a gain; change keeps its sign. */
	opts.higher_is_better = 1;
	stats_compare(&c, base, 4, slow, 4, &opts);
	check_int(c.cost, ==, -1);
	check(c.change > 19 && c.change < 21);
	opts.higher_is_better = 0;
	stats_compare(&c, base, 4, slow, 4, &opts);
	check_int(c.cost, ==, 1);
	stats_compare(&c, slow, 4, base, 4, &opts);
	check_int(c.cost, ==, -1);

	/* A zero on one side: no log scale, hence no p, hence '?'. */
	stats_compare(&c, base, 4, bad, 4, &opts);
	check(isnan(c.welch.p));
	check_int(c.marker, ==, '?');
	check_int(c.ci.state, ==, STATS_CI_BOUNDED);

	/*
	 * A variant whose mean is not known to be above 0 (the host's wall
	 * time of a loaded run: 2.3 s to 40 s): Fieller's lower root is below
	 * 0, a ratio no positive metric can have, so the interval starts at 0,
	 * -100%.  The upper root stays.
	 */
	{
		double wild[] = { 2.3, 2.4, 40.0, 2.2, 3.1 };

		stats_compare(&c, base, 4, wild, 5, &opts);
		check_int(c.ci.state, ==, STATS_CI_BOUNDED);
		check(c.ci.lo == 0);
		check(c.change_lo == -100);
		check(c.ci.hi > 2);
	}

	/* Too few values. */
	stats_compare(&c, base, 1, slow, 4, &opts);
	check_int(c.ci.state, ==, STATS_CI_NONE);
	check_int(c.marker, ==, '?');
	stats_compare(&c, base, 0, slow, 0, &opts);
	check(isnan(c.ratio) && isnan(c.change));
	check_int(c.cost, ==, 0);
	check_int(c.marker, ==, '?');

	/* Constant samples: the interval is the ratio, to the resolution. */
	{
		double two[] = { 2, 2, 2 }, three[] = { 3, 3, 3 };
		struct strbuf sb = STRBUF_INIT;

		stats_compare(&c, two, 3, three, 3, &opts);
		check_int(c.ci.state, ==, STATS_CI_BOUNDED);
		check(isfinite(c.ci.df));
		check(c.ci.lo < 1.5 && c.ci.hi > 1.5);
		check_double(c.ci.lo, 1.5, 1e-8);
		check_double(c.ci.hi, 1.5, 1e-8);
		check(isfinite(c.welch.t) && c.welch.p < 1e-20);
		check_int(c.marker, ==, '*');
		stats_format_ci(&sb, &c, 1);
		check_str(sb.buf, "[+50.0% .. +50.0%]");

		/* The A/A control on exact data: no change at all. */
		stats_compare(&c, two, 3, two, 3, &opts);
		check_double(c.change, 0, 0);
		check_double(c.welch.t, 0, 0);
		check_double(c.q, 1, 0);
		check_int(c.cost, ==, 0);
		check_int(c.marker, ==, ' ');
		strbuf_reset(&sb);
		stats_format_change(&sb, c.change, 1);
		strbuf_addch(&sb, ' ');
		stats_format_ci(&sb, &c, 1);
		check_str(sb.buf, "+0.0% [+0.0% .. +0.0%]");
		strbuf_release(&sb);
	}

	/* A variant of zeros: no df to estimate, the interval is [0, 0]. */
	{
		double zeros[] = { 0, 0, 0 };

		stats_compare(&c, base, 4, zeros, 3, &opts);
		check_int(c.ci.state, ==, STATS_CI_BOUNDED);
		check(isinf(c.ci.df));
		check_double(c.ci.lo, 0, 0);
		check_double(c.ci.hi, 0, 0);
		check_int(c.marker, ==, '?');	/* no log scale */
	}
}

/*
 * hackbench per iteration under TCG, as measured here: a run lands in a
 * fast mode (0.13-0.19 s) or a slow one (0.3-0.45 s).  Ten runs of one
 * kernel, six fast and four slow, are two clusters; ten spread as one
 * normal sample is are not, nor are two slow outliers among fifteen (a
 * cluster needs a fifth of the runs).
 */
static void test_two_clusters(void)
{
	static const double modes[] = { 0.15, 0.17, 0.14, 0.36, 0.16, 0.41,
					0.18, 0.39, 0.13, 0.33 };
	/* exp of the normal quantiles (i - 0.5) / 10 times 0.25: one mode */
	static const double one[] = { 0.6192, 0.7106, 0.7735, 0.8266, 0.8770,
				      0.9275, 0.9813, 1.0429, 1.1224, 1.2891 };
	static const double outliers[] = { 0.40, 0.41, 0.40, 0.42, 0.39, 0.40, 0.41, 0.40,
					   0.43, 0.41, 0.40, 0.39, 1.20, 1.30, 0.42 };
	struct stats_clusters c, again;

	stats_two_clusters(&c, modes, 10);
	check(c.bimodal);
	check(c.p < STATS_CLUSTER_ALPHA);
	check(c.r2 > 0.9);
	check_int(c.n_low, ==, 6);
	check_double(c.low, 0.1547, 0.01);
	check_double(c.high, 0.3713, 0.01);
	stats_two_clusters(&again, modes, 10);
	check_double(again.p, c.p, 0);		/* a fixed seed: the same p */

	stats_two_clusters(&c, one, 10);
	check(!c.bimodal);
	check(c.p > 0.05);

	stats_two_clusters(&c, outliers, 15);
	check(!c.bimodal);

	stats_two_clusters(&c, modes, STATS_CLUSTER_MIN_N - 1);
	check(isnan(c.p) && isnan(c.r2));
	check_int(c.n_low, ==, 0);
	check(!c.bimodal);
}

/*
 * Exact data: constant runs are one cluster; sampled layouts that give
 * exactly two values (six runs at 0.0309, four at 0.0400) are two, with no
 * spread inside either; two values a resolution apart are one.
 */
static void test_two_clusters_exact(void)
{
	double x[10];
	struct stats_clusters c;
	size_t i;

	for (i = 0; i < 10; i++)
		x[i] = 1.942896;
	stats_two_clusters(&c, x, 10);
	check_double(c.r2, 0, 0);
	check(isnan(c.p));
	check_int(c.n_low, ==, 0);
	check(!c.bimodal);

	for (i = 0; i < 10; i++)
		x[i] = i < 6 ? 0.0309 : 0.0400;
	stats_two_clusters(&c, x, 10);
	check(c.bimodal);
	check(c.r2 > 0.999999 && c.r2 <= 1);
	check_double(c.p, 1.0 / (STATS_CLUSTER_SIMULATIONS + 1), 1e-15);
	check_int(c.n_low, ==, 6);
	check_double(c.low, 0.0309, 1e-12);
	check_double(c.high, 0.0400, 1e-12);

	for (i = 0; i < 10; i++)
		x[i] = i < 5 ? 1.942896 : 1.942896 * (1 + STATS_RESOLUTION);
	stats_two_clusters(&c, x, 10);
	check(c.r2 < 0.3);
	check(!c.bimodal);
}

static void test_format(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct stats_comparison c;

	stats_format_change(&sb, 89.6234, 1);
	check_str(sb.buf, "+89.6%");
	strbuf_reset(&sb);
	stats_format_change(&sb, -3.0, 1);
	check_str(sb.buf, "-3.0%");
	strbuf_reset(&sb);
	stats_format_change(&sb, -0.04, 1);
	check_str(sb.buf, "+0.0%");
	strbuf_reset(&sb);
	stats_format_change(&sb, -0.4, 0);
	check_str(sb.buf, "+0%");
	strbuf_reset(&sb);
	stats_format_change(&sb, 143.4, 0);
	check_str(sb.buf, "+143%");
	strbuf_reset(&sb);
	stats_format_change(&sb, NAN, 1);
	check_str(sb.buf, "n/a");

	memset(&c, 0, sizeof(c));
	c.ci.state = STATS_CI_BOUNDED;
	c.change_lo = 85.12;
	c.change_hi = 94.18;
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "x ");
	stats_format_ci(&sb, &c, 1);
	check_str(sb.buf, "x [+85.1% .. +94.2%]");
	c.ci.state = STATS_CI_UNBOUNDED;
	strbuf_reset(&sb);
	stats_format_ci(&sb, &c, 1);
	check_str(sb.buf, "[unbounded]");
	c.ci.state = STATS_CI_NONE;
	strbuf_reset(&sb);
	stats_format_ci(&sb, &c, 1);
	check_str(sb.buf, "[n/a]");
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	load_reference();
	TEST(test_reference_loaded);
	TEST(test_t_quantile);
	TEST(test_describe);
	TEST(test_describe_degenerate);
	TEST(test_welch);
	TEST(test_mann_whitney);
	TEST(test_compare);
	TEST(test_adjust);
	TEST(test_bh);
	TEST(test_multiplicative);
	TEST(test_added_last);
	TEST(test_cost_change);
	TEST(test_cost_change_adjust);
	TEST(test_cost_change_direction);
	TEST(test_cost_change_coverage);
	TEST(test_marker_rules);
	TEST(test_compare_edges);
	TEST(test_format);
	TEST(test_two_clusters);
	TEST(test_two_clusters_exact);
	printf("# largest relative difference from the reference: %.3g\n", worst);
	free_reference();
	return test_done();
}
