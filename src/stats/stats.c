/* stats.c: kconfperf's statistics, on GSL's distributions and order statistics. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats/stats.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/* Iglewicz and Hoaglin's constants; the test data use exactly these. */
#define MZ_SCALE 0.6745
#define MZ_MEANAD_SCALE 1.253314
#define MZ_CUTOFF 3.5

void stats_describe(struct stats_summary *out, const double *x, size_t n,
		    unsigned char *outlier)
{
	double *sorted, *work;
	double scale, num;
	size_t i;

	out->n = n;
	out->mean = out->sd = NAN;
	out->min = out->q1 = out->median = out->q3 = out->max = NAN;
	out->geomean = out->log_mean = out->log_sd = NAN;
	out->mad = NAN;
	out->outliers = 0;
	if (outlier)
		memset(outlier, 0, n);
	if (!n)
		return;

	sorted = xmalloc(n * sizeof(*sorted));
	work = xmalloc(n * sizeof(*work));
	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->q1 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.25);
	out->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	out->q3 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.75);
	out->mean = gsl_stats_mean(x, 1, n);
	if (n > 1)
		out->sd = gsl_stats_sd_m(x, 1, n, out->mean);
	out->mad = gsl_stats_mad0(x, 1, n, work);

	if (out->min > 0) {
		for (i = 0; i < n; i++)
			work[i] = log(x[i]);
		out->log_mean = gsl_stats_mean(work, 1, n);
		if (n > 1)
			out->log_sd = gsl_stats_sd_m(work, 1, n, out->log_mean);
		out->geomean = exp(out->log_mean);
	}

	/*
	 * z_i = num (x_i - median) / scale, written so that the common case is
	 * computed exactly as the textbook 0.6745 (x - median) / MAD.
	 */
	if (out->mad > 0) {
		num = MZ_SCALE;
		scale = out->mad;
	} else {
		num = 1.0;
		scale = MZ_MEANAD_SCALE * gsl_stats_absdev_m(x, 1, n, out->median);
	}
	if (scale > 0) {
		for (i = 0; i < n; i++) {
			if (fabs(num * (x[i] - out->median) / scale) > MZ_CUTOFF) {
				out->outliers++;
				if (outlier)
					outlier[i] = 1;
			}
		}
	}
	free(sorted);
	free(work);
}

/*
 * The sd the tests and intervals use: never below the data's resolution,
 * STATS_RESOLUTION |mean| for values, STATS_RESOLUTION for their logs
 * (stats.h).  An undefined sd stays NaN.
 */
static double floored_sd(double sd, double at_least)
{
	return isnan(sd) ? sd : fmax(sd, at_least);
}

/*
 * The best cut of sorted[0..n-1] into a low and a high run of values, each
 * at least min long: the share of the variance it explains, and the length
 * of the low run.  The within-cluster sum of squares counts as at least
 * within_floor.  0 when all values are equal.
 */
static double best_cut(const double *sorted, size_t n, size_t min, double within_floor,
		       size_t *n_low)
{
	double total = 0, mean = gsl_stats_mean(sorted, 1, n), sum_low = 0, sum = 0, best = 0;
	size_t i, k;

	for (i = 0; i < n; i++) {
		total += (sorted[i] - mean) * (sorted[i] - mean);
		sum += sorted[i];
	}
	*n_low = 0;
	if (!(total > 0))
		return 0;
	/* The between-cluster sum of squares of a cut after k values. */
	for (k = 1; k + min <= n; k++) {
		double ml, mh, between, r2;

		sum_low += sorted[k - 1];
		if (k < min)
			continue;
		ml = sum_low / k;
		mh = (sum - sum_low) / (n - k);
		between = k * (ml - mean) * (ml - mean) + (n - k) * (mh - mean) * (mh - mean);
		/* total - between is the within sum; rounding may push it below 0. */
		r2 = between / (between + fmax(total - between, within_floor));
		if (r2 > best) {
			best = r2;
			*n_low = k;
		}
	}
	return best;
}

static size_t cluster_min(size_t n)
{
	size_t min = (size_t)ceil(STATS_CLUSTER_MIN_SHARE * n);

	return min < 2 ? 2 : min;
}

void stats_two_clusters(struct stats_clusters *out, const double *x, size_t n)
{
	double *v, *sim;
	size_t i, s, k, min = cluster_min(n), as_good = 0, unused;
	gsl_rng *rng;

	out->r2 = out->p = out->low = out->high = NAN;
	out->n_low = 0;
	out->bimodal = 0;
	if (n < STATS_CLUSTER_MIN_N)
		return;
	for (i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return;
	v = xmalloc(n * sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = log(x[i]);
	gsl_sort(v, 1, n);
	/* Each log value is known to STATS_RESOLUTION (stats.h). */
	out->r2 = best_cut(v, n, min, n * STATS_RESOLUTION * STATS_RESOLUTION, &k);
	if (!k) {
		free(v);
		return;
	}
	out->n_low = k;
	out->low = exp(gsl_stats_mean(v, 1, k));
	out->high = exp(gsl_stats_mean(v + k, 1, n - k));

	sim = xmalloc(n * sizeof(*sim));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 20261130);
	for (s = 0; s < STATS_CLUSTER_SIMULATIONS; s++) {
		for (i = 0; i < n; i++)
			sim[i] = gsl_ran_ugaussian(rng);
		gsl_sort(sim, 1, n);
		if (best_cut(sim, n, min, 0, &unused) >= out->r2)
			as_good++;
	}
	gsl_rng_free(rng);
	out->p = (as_good + 1.0) / (STATS_CLUSTER_SIMULATIONS + 1.0);
	out->bimodal = out->p < STATS_CLUSTER_ALPHA;
	free(sim);
	free(v);
}

double stats_t_quantile(double p, double df)
{
	/* Checked here: GSL's handler would abort on a bad argument. */
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(p);
	return gsl_cdf_tdist_Pinv(p, df);
}

/* Two-sided quantile for a confidence level, NaN when either is invalid. */
static double t_two_sided(double confidence, double df)
{
	if (!(confidence > 0 && confidence < 1))
		return NAN;
	return stats_t_quantile(1 - (1 - confidence) / 2, df);
}

/*
 * Welch's test from the moments; sx and sy are the sds the test uses,
 * already floored by the caller (raw values and log values floor
 * differently, see stats.h).
 */
static void welch_moments(struct stats_welch *out,
			  double mx, double sx, size_t nx,
			  double my, double sy, size_t ny)
{
	double vx, vy, se;

	out->t = out->df = out->p = NAN;
	if (nx < 2 || ny < 2 || isnan(mx) || isnan(my) || isnan(sx) || isnan(sy))
		return;
	vx = sx * sx / nx;
	vy = sy * sy / ny;
	se = sqrt(vx + vy);
	if (se == 0) {
		/* Floored sds are 0 only for samples of zeros: equal means. */
		out->t = 0;
		out->p = 1;
		return;
	}
	out->t = (mx - my) / se;
	out->df = (vx + vy) * (vx + vy) /
		(vx * vx / (nx - 1) + vy * vy / (ny - 1));
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
}

void stats_welch(struct stats_welch *out, const double *x, size_t nx,
		 const double *y, size_t ny)
{
	double mx = nx ? gsl_stats_mean(x, 1, nx) : NAN;
	double my = ny ? gsl_stats_mean(y, 1, ny) : NAN;
	double sx = nx > 1 ? gsl_stats_sd_m(x, 1, nx, mx) : NAN;
	double sy = ny > 1 ? gsl_stats_sd_m(y, 1, ny, my) : NAN;

	welch_moments(out, mx, floored_sd(sx, STATS_RESOLUTION * fabs(mx)), nx,
		      my, floored_sd(sy, STATS_RESOLUTION * fabs(my)), ny);
}

/*
 * P(U <= k) for samples of m and n values without ties, by the recurrence
 * in stats.h.  Works on probabilities rather than counts, so nothing
 * overflows and every step adds non-negative terms.  Only U <= k is
 * tracked: O(m n k) time, O(n k) memory.  *p0 gets P(U = 0).
 */
static double mw_exact_cdf(size_t m, size_t n, size_t k, double *p0)
{
	size_t width = k + 1, i, j, u;
	double *prev = xcalloc((n + 1) * width, sizeof(*prev));
	double *cur = xcalloc((n + 1) * width, sizeof(*cur));
	double *swap, sum = 0;

	/* No x values: U is 0 whatever the y values. */
	for (j = 0; j <= n; j++)
		prev[j * width] = 1;
	for (i = 1; i <= m; i++) {
		memset(cur, 0, width * sizeof(*cur));
		cur[0] = 1;
		for (j = 1; j <= n; j++) {
			double px = (double)i / (double)(i + j);
			double py = (double)j / (double)(i + j);
			const double *from_x = prev + j * width;
			const double *from_y = cur + (j - 1) * width;
			double *to = cur + j * width;

			for (u = 0; u < width; u++) {
				double v = py * from_y[u];

				if (u >= j)
					v += px * from_x[u - j];
				to[u] = v;
			}
		}
		swap = prev;
		prev = cur;
		cur = swap;
	}
	for (u = 0; u < width; u++)
		sum += prev[n * width + u];
	*p0 = prev[n * width];
	free(prev);
	free(cur);
	return sum;
}

static void mw_nan(struct stats_mw *out)
{
	out->u = out->p = out->min_p = NAN;
	out->exact = 0;
	out->ties = 0;
}

int stats_mann_whitney(struct stats_mw *out, const double *x, size_t nx,
		       const double *y, size_t ny, enum stats_mw_method method)
{
	size_t n = nx + ny, i, j;
	double *all, *rank, r1 = 0, r_top = 0, r_bottom = 0, tie_term = 0, nn, umax, mu, s;
	double u_top, u_bottom, extreme;
	size_t *order;
	int exact;

	mw_nan(out);
	if (!nx || !ny)
		return -1;

	/* Mid-ranks of the pooled sample, and the tie groups' sizes. */
	all = xmalloc(n * sizeof(*all));
	rank = xmalloc(n * sizeof(*rank));
	order = xmalloc(n * sizeof(*order));
	memcpy(all, x, nx * sizeof(*all));
	memcpy(all + nx, y, ny * sizeof(*all));
	gsl_sort_index(order, all, 1, n);
	for (i = 0; i < n; i = j) {
		double t, mid;
		size_t l;

		for (j = i + 1; j < n && all[order[j]] == all[order[i]]; j++)
			;
		t = (double)(j - i);
		mid = (double)(i + j + 1) / 2;	/* ranks i+1 .. j */
		for (l = i; l < j; l++)
			rank[order[l]] = mid;
		tie_term += t * t * t - t;
	}
	for (i = 0; i < nx; i++)
		r1 += rank[i];
	/*
	 * The most extreme U these pooled values allow: x holding the nx
	 * largest, or the nx smallest; a tie group cut by the split keeps its
	 * mid-rank, so with ties U may not reach nx ny or 0.
	 */
	for (i = 0; i < nx; i++) {
		r_bottom += rank[order[i]];
		r_top += rank[order[n - 1 - i]];
	}
	free(all);
	free(rank);
	free(order);

	nn = (double)nx * (double)ny;
	out->ties = tie_term > 0;
	out->u = r1 - (double)nx * (double)(nx + 1) / 2;
	umax = fmax(out->u, nn - out->u);
	u_top = r_top - (double)nx * (double)(nx + 1) / 2;
	u_bottom = r_bottom - (double)nx * (double)(nx + 1) / 2;

	exact = !out->ties && nn <= STATS_MW_EXACT_MAX;
	if (method == STATS_MW_EXACT && !exact) {
		mw_nan(out);
		return -1;
	}
	if (method == STATS_MW_ASYMPTOTIC)
		exact = 0;

	out->exact = exact;
	if (exact) {
		/* Without ties U is an integer; take the tail at the low end. */
		size_t k = (size_t)llround(nn - umax);
		double p0;

		/*
		 * U's null distribution is the same for sizes (m, n) and (n, m):
		 * the smaller sample as n keeps the table small.
		 */
		out->p = fmin(1, 2 * mw_exact_cdf(nx > ny ? nx : ny,
						  nx > ny ? ny : nx, k, &p0));
		out->min_p = fmin(1, 2 * p0);
		return 0;
	}

	mu = nn / 2;
	s = sqrt(nn / 12 * ((double)(n + 1) - tie_term / ((double)n * (double)(n - 1))));
	/* On the side of mu the data is on: how far this shift can go. */
	if (out->u > mu)
		extreme = u_top - mu;
	else if (out->u < mu)
		extreme = mu - u_bottom;
	else
		extreme = fmax(u_top - mu, mu - u_bottom);
	if (s > 0) {
		out->p = fmin(1, 2 * gsl_cdf_ugaussian_Q((umax - mu - 0.5) / s));
		out->min_p = fmin(1, 2 * gsl_cdf_ugaussian_Q((extreme - 0.5) / s));
	} else {
		/* Every value equal: no evidence either way. */
		out->p = 1;
		out->min_p = 1;
	}
	return 0;
}

void stats_fieller(struct stats_fieller *out, const struct stats_summary *v,
		   const struct stats_summary *b, double confidence)
{
	double a = v->mean, m = b->mean, sv, sb, va, vb, r, t, disc, den, df_den;

	out->ratio = (v->n && b->n) ? a / m : NAN;
	out->lo = out->hi = out->g = out->df = NAN;
	out->state = STATS_CI_NONE;
	if (v->n < 2 || b->n < 2 || !(m != 0) || isnan(a) ||
	    isnan(v->sd) || isnan(b->sd) || !(confidence > 0 && confidence < 1))
		return;

	r = out->ratio;
	sv = floored_sd(v->sd, STATS_RESOLUTION * fabs(a));
	sb = floored_sd(b->sd, STATS_RESOLUTION * fabs(m));
	va = sv * sv / v->n;
	vb = sb * sb / b->n;
	/* Both terms are 0 only for a variant of zeros (r = 0): no df to estimate. */
	df_den = va * va / (v->n - 1) + r * r * r * r * vb * vb / (b->n - 1);
	out->df = df_den > 0 ? (va + r * r * vb) * (va + r * r * vb) / df_den : INFINITY;
	t = t_two_sided(confidence, out->df);
	out->g = t * t * vb / (m * m);
	if (!(out->g < 1)) {
		out->state = STATS_CI_UNBOUNDED;
		return;
	}
	/* The roots of the quadratic in stats.h; disc >= 0 because g < 1. */
	disc = a * a * vb + m * m * va - t * t * va * vb;
	den = m * m - t * t * vb;
	out->lo = (a * m - t * sqrt(disc)) / den;
	out->hi = (a * m + t * sqrt(disc)) / den;
	if (a > 0 && m > 0 && out->lo < 0)
		out->lo = 0;
	out->state = STATS_CI_BOUNDED;
}

void stats_bh(double *q, const double *p, size_t n)
{
	size_t *order, m = 0, i;
	double *pv, running = 1;

	if (!n)
		return;
	/* Sort a copy with the NaNs pushed to the end, so q may alias p. */
	pv = xmalloc(n * sizeof(*pv));
	order = xmalloc(n * sizeof(*order));
	for (i = 0; i < n; i++) {
		pv[i] = isnan(p[i]) ? INFINITY : p[i];
		if (!isnan(p[i]))
			m++;
	}
	gsl_sort_index(order, pv, 1, n);
	for (i = n; i-- > 0;) {
		size_t k = order[i];

		if (i >= m) {
			q[k] = NAN;
			continue;
		}
		running = fmin(running, pv[k] * (double)m / (double)(i + 1));
		q[k] = running;
	}
	free(pv);
	free(order);
}

char stats_marker(const struct stats_comparison *c, const struct stats_options *opts)
{
	double alpha = opts->alpha, noise = opts->noise;
	int bounded = c->ci.state == STATS_CI_BOUNDED;

	if (c->n_base < 3 || c->n_variant < 3 || isnan(c->welch.p))
		return '?';
	/* No practical change, whatever the tests say (stats.h). */
	if (bounded && c->change_lo >= -noise && c->change_hi <= noise)
		return ' ';
	if (c->mw.min_p < alpha && (c->welch.p < alpha) != (c->mw.p < alpha))
		return '?';
	if (!(c->q < alpha))
		return ' ';
	if (bounded && (c->change_lo > noise || c->change_hi < -noise))
		return '*';
	return '~';
}

void stats_compare(struct stats_comparison *out,
		   const double *base, size_t n_base,
		   const double *variant, size_t n_variant,
		   const struct stats_options *opts)
{
	struct stats_summary sb, sv;

	memset(out, 0, sizeof(*out));
	out->n_base = n_base;
	out->n_variant = n_variant;
	stats_describe(&sb, base, n_base, NULL);
	stats_describe(&sv, variant, n_variant, NULL);

	out->ratio = (n_base && n_variant) ? sv.mean / sb.mean : NAN;
	out->change = (out->ratio - 1) * 100;
	stats_fieller(&out->ci, &sv, &sb, opts->confidence);
	out->change_lo = out->change_hi = NAN;
	if (out->ci.state == STATS_CI_BOUNDED) {
		out->change_lo = (out->ci.lo - 1) * 100;
		out->change_hi = (out->ci.hi - 1) * 100;
	}

	/* log_mean/log_sd are NaN unless every value is positive. */
	welch_moments(&out->welch, sv.log_mean, floored_sd(sv.log_sd, STATS_RESOLUTION), n_variant,
		      sb.log_mean, floored_sd(sb.log_sd, STATS_RESOLUTION), n_base);
	stats_mann_whitney(&out->mw, variant, n_variant, base, n_base, STATS_MW_AUTO);
	out->q = out->welch.p;

	if (out->ratio > 1)
		out->cost = opts->higher_is_better ? -1 : 1;
	else if (out->ratio < 1)
		out->cost = opts->higher_is_better ? 1 : -1;
	out->marker = stats_marker(out, opts);
}

void stats_adjust(struct stats_comparison *c, size_t n, const struct stats_options *opts)
{
	double *p = xmalloc((n ? n : 1) * sizeof(*p));
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = c[i].welch.p;
	stats_bh(p, p, n);
	for (i = 0; i < n; i++) {
		c[i].q = p[i];
		c[i].marker = stats_marker(&c[i], opts);
	}
	free(p);
}

/* One variant's mean in a log-contrast sum_j coef_j log(mean_j). */
struct log_term {
	double coef;
	const struct stats_summary *s;
};

/*
 * exp of the contrast and of its interval, by the delta method (stats.h).
 * Returns 0, or -1 (everything NaN) when a variant has fewer than 3 values
 * or a non-positive mean.
 */
/* The pieces of a log-contrast: its log, variance and df (stats.h). */
struct contrast {
	double d, var, df;
};

static int contrast_moments(struct contrast *out, const struct log_term *terms, size_t nterms)
{
	double d = 0, var = 0, den = 0;
	size_t i;

	out->d = out->var = out->df = NAN;
	for (i = 0; i < nterms; i++) {
		const struct stats_summary *s = terms[i].s;
		double c = terms[i].coef, sd, v;

		if (s->n < 3 || !(s->mean > 0) || isnan(s->sd))
			return -1;
		sd = floored_sd(s->sd, STATS_RESOLUTION * s->mean);
		v = c * c * sd * sd / ((double)s->n * s->mean * s->mean);
		d += c * log(s->mean);
		var += v;
		den += v * v / (double)(s->n - 1);
	}
	out->d = d;
	out->var = var;
	/* Positive means give floored sds above 0, so den is 0 only if every coef is. */
	out->df = den > 0 ? var * var / den : INFINITY;
	return 0;
}

static int log_contrast(double *est, double *lo, double *hi, double *df_out,
			const struct log_term *terms, size_t nterms, double confidence)
{
	struct contrast c;
	double half;

	*est = *lo = *hi = NAN;
	if (df_out)
		*df_out = NAN;
	if (contrast_moments(&c, terms, nterms))
		return -1;
	*est = exp(c.d);
	half = t_two_sided(confidence, c.df) * sqrt(c.var);
	*lo = exp(c.d - half);
	*hi = exp(c.d + half);
	if (df_out)
		*df_out = c.df;
	return 0;
}

static void interaction_verdict(struct stats_interaction *out, int ok,
				const struct stats_options *opts)
{
	double band = opts->noise / 100;

	out->direction = out->ratio > 1 ? 1 : out->ratio < 1 ? -1 : 0;
	if (!ok || isnan(out->ratio_lo))
		out->marker = '?';
	else if (out->ratio_lo - 1 > band || out->ratio_hi - 1 < -band)
		out->marker = '*';
	else
		out->marker = ' ';
}

void stats_multiplicative(struct stats_interaction *out,
			  const struct stats_summary *base,
			  const struct stats_summary *all,
			  const struct stats_summary *alone, size_t k,
			  const struct stats_options *opts)
{
	struct log_term *terms = xcalloc(k + 2, sizeof(*terms));
	double conf = opts->confidence;
	size_t i;
	int ok = 1;

	for (i = 0; i < k; i++) {
		terms[i].coef = 1;
		terms[i].s = &alone[i];
	}
	terms[k].coef = -(double)k;
	terms[k].s = base;
	ok &= !log_contrast(&out->predicted, &out->predicted_lo, &out->predicted_hi,
			    NULL, terms, k + 1, conf);

	terms[0].coef = 1;
	terms[0].s = all;
	terms[1].coef = -1;
	terms[1].s = base;
	ok &= !log_contrast(&out->measured, &out->measured_lo, &out->measured_hi,
			    NULL, terms, 2, conf);

	for (i = 0; i < k; i++) {
		terms[i].coef = -1;
		terms[i].s = &alone[i];
	}
	terms[k].coef = (double)k - 1;
	terms[k].s = base;
	terms[k + 1].coef = 1;
	terms[k + 1].s = all;
	ok &= !log_contrast(&out->ratio, &out->ratio_lo, &out->ratio_hi,
			    &out->df, terms, k + 2, conf);
	free(terms);
	interaction_verdict(out, ok, opts);
}

void stats_added_last(struct stats_interaction *out,
		      const struct stats_summary *base,
		      const struct stats_summary *alone,
		      const struct stats_summary *all,
		      const struct stats_summary *loo,
		      const struct stats_options *opts)
{
	struct log_term predicted[] = { { 1, alone }, { -1, base } };
	struct log_term measured[] = { { 1, all }, { -1, loo } };
	struct log_term ratio[] = { { 1, all }, { -1, loo }, { -1, alone }, { 1, base } };
	double conf = opts->confidence;
	int ok = 1;

	ok &= !log_contrast(&out->predicted, &out->predicted_lo, &out->predicted_hi,
			    NULL, predicted, ARRAY_SIZE(predicted), conf);
	ok &= !log_contrast(&out->measured, &out->measured_lo, &out->measured_hi,
			    NULL, measured, ARRAY_SIZE(measured), conf);
	ok &= !log_contrast(&out->ratio, &out->ratio_lo, &out->ratio_hi,
			    &out->df, ratio, ARRAY_SIZE(ratio), conf);
	interaction_verdict(out, ok, opts);
}

static char cost_change_marker(const struct stats_cost_change *c, const struct stats_options *opts)
{
	double alpha = opts->alpha, noise = opts->noise;

	if (isnan(c->p) || isnan(c->change_lo))
		return '?';
	if (c->change_lo >= -noise && c->change_hi <= noise)
		return ' ';
	if (!(c->q < alpha))
		return ' ';
	if (c->change_lo > noise || c->change_hi < -noise)
		return '*';
	return '~';
}

void stats_cost_change(struct stats_cost_change *out,
		       const struct stats_summary *b1, const struct stats_summary *v1,
		       const struct stats_summary *b2, const struct stats_summary *v2,
		       const struct stats_options *opts)
{
	const struct log_term terms[] = { { 1, v2 }, { -1, b2 }, { -1, v1 }, { 1, b1 } };
	struct contrast c;
	double half;

	memset(out, 0, sizeof(*out));
	out->ratio = out->ratio_lo = out->ratio_hi = NAN;
	out->t = out->df = out->p = out->q = NAN;
	if (v1->n && b1->n && v2->n && b2->n && b1->mean > 0 && v1->mean > 0 &&
	    b2->mean > 0 && v2->mean > 0)
		out->ratio = (v2->mean / b2->mean) / (v1->mean / b1->mean);
	if (!contrast_moments(&c, terms, ARRAY_SIZE(terms))) {
		half = t_two_sided(opts->confidence, c.df) * sqrt(c.var);
		out->ratio_lo = exp(c.d - half);
		out->ratio_hi = exp(c.d + half);
		out->df = c.df;
		/* var > 0: the sds are floored above 0 (positive means). */
		out->t = c.d / sqrt(c.var);
		out->p = isinf(c.df) ? 2 * gsl_cdf_ugaussian_Q(fabs(out->t))
				     : 2 * gsl_cdf_tdist_Q(fabs(out->t), c.df);
		if (out->p > 1)
			out->p = 1;
	}
	out->change = (out->ratio - 1) * 100;
	out->change_lo = (out->ratio_lo - 1) * 100;
	out->change_hi = (out->ratio_hi - 1) * 100;
	out->q = out->p;
	if (out->ratio > 1)
		out->cost = opts->higher_is_better ? -1 : 1;
	else if (out->ratio < 1)
		out->cost = opts->higher_is_better ? 1 : -1;
	out->marker = cost_change_marker(out, opts);
}

void stats_adjust_cost_changes(struct stats_cost_change *c, size_t n,
			       const struct stats_options *opts)
{
	double *p = xmalloc((n ? n : 1) * sizeof(*p));
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = c[i].p;
	stats_bh(p, p, n);
	for (i = 0; i < n; i++) {
		c[i].q = p[i];
		c[i].marker = cost_change_marker(&c[i], opts);
	}
	free(p);
}

void stats_format_change(struct strbuf *sb, double change, int decimals)
{
	size_t start = sb->len, i;

	if (isnan(change)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	strbuf_addf(sb, "%+.*f%%", decimals, change);
	/* "-0.0%" says nothing a reader can use: show it as +0.0%. */
	if (sb->buf[start] != '-')
		return;
	for (i = start + 1; i < sb->len; i++)
		if (sb->buf[i] != '0' && sb->buf[i] != '.' && sb->buf[i] != '%')
			return;
	sb->buf[start] = '+';
}

void stats_format_ci(struct strbuf *sb, const struct stats_comparison *c, int decimals)
{
	switch (c->ci.state) {
	case STATS_CI_BOUNDED:
		strbuf_addch(sb, '[');
		stats_format_change(sb, c->change_lo, decimals);
		strbuf_addstr(sb, " .. ");
		stats_format_change(sb, c->change_hi, decimals);
		strbuf_addch(sb, ']');
		break;
	case STATS_CI_UNBOUNDED:
		strbuf_addstr(sb, "[unbounded]");
		break;
	default:
		strbuf_addstr(sb, "[n/a]");
		break;
	}
}
