/* stats.h: kconfperf's statistics: summaries, comparisons against a baseline, interactions. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

struct strbuf;

/*
 * The unit of analysis is the run: a sample is one double per run of a
 * variant (a whole-run wall time, a workload's time, a throughput...).
 * Values must be finite; the ratio and log-scale statistics also need them
 * positive, and are NaN otherwise.  Nothing here prints, allocates beyond
 * scratch space freed before returning, or fails: a statistic that is not
 * defined for the data (too few values, non-positive values on the log
 * scale) comes back as NaN and the comparison's marker says '?'.  GSL does
 * the distributions, sorting and order statistics; inputs are checked first
 * so that GSL's error handler is never reached.
 *
 * Resolution.  Under qemu's -icount a kernel's runs can be identical to
 * the last digit, so zero variance is a normal case, not a degenerate one.
 * A value is taken as known to STATS_RESOLUTION of itself: the guest prints
 * nine significant digits (value=%.9g), whose last unit is 1e-9 to 1e-8 of
 * the value, and host times come in nanoseconds.  Every test and interval
 * below uses, for each sample, the standard deviation
 *   max(sd, STATS_RESOLUTION x |mean|)     (on log values: max(log_sd, STATS_RESOLUTION))
 * so a constant sample still has a spread, the size of the data's own
 * resolution.  Then t, df and the intervals stay finite: two identical
 * constant samples give t = 0, p = 1; a constant +5% gives a huge t, p ~ 0
 * and an interval of +5% to within 1e-7 %.  A deterministic difference of
 * a few units in the last digit can still be significant (it is there in
 * every run); the noise band, not the p-value, then says that it does not
 * matter (stats_marker()).  Real data has an sd far above the floor (a CV
 * of 1e-9), so there the floor changes nothing and the results are scipy's.
 * stats_describe() reports the sd as measured, without the floor.
 */
#define STATS_RESOLUTION 1e-9

/* Tuning of comparisons and markers; STATS_OPTIONS_INIT gives the defaults. */
struct stats_options {
	/* Two-sided confidence level of intervals, in (0, 1); 0.95. */
	double confidence;
	/* Significance level for q-values and the tests' cross-check; 0.05. */
	double alpha;
	/* Noise band in percent: effects within +-noise are "no effect"; 1. */
	double noise;
	/* 0 for times (an increase is a cost), 1 for throughputs (a gain). */
	int higher_is_better;
};
#define STATS_OPTIONS_DEFAULT_NOISE 1.0
#define STATS_OPTIONS_INIT { 0.95, 0.05, STATS_OPTIONS_DEFAULT_NOISE, 0 }

/*
 * Per-variant summary.  sd is the sample standard deviation (n - 1); q1,
 * median and q3 are quantiles with linear interpolation between order
 * statistics (GSL's, numpy's default).  geomean = exp(log_mean), where
 * log_mean and log_sd are the mean and sd of log(x); all three are NaN
 * unless every value is positive.  mad is the raw median absolute deviation
 * median(|x - median|), not scaled to a normal sd.
 *
 * Outliers follow Iglewicz and Hoaglin: value i is one when its modified
 * z-score |0.6745 (x_i - median) / mad| exceeds 3.5.  When mad is 0 (more
 * than half the values are equal) the score is |x_i - median| / (1.253314
 * meanad), meanad being the mean absolute deviation from the median (the
 * usual fallback; 1.253314 = sqrt(pi/2) makes both estimate sd); when that is
 * 0 too, all values are equal and none is an outlier.  Outliers are counted
 * and flagged, never dropped: every other statistic uses every value.
 * With n == 0 everything but n is NaN; with n == 1, sd and log_sd are NaN.
 */
struct stats_summary {
	size_t n;
	double mean, sd;
	double min, q1, median, q3, max;
	double geomean, log_mean, log_sd;
	double mad;
	size_t outliers;
};

/*
 * Summarises the n values x.  When `outlier` is not NULL it must hold n
 * entries; entry i is set to 1 when x[i] is an outlier, else 0.
 */
void stats_describe(struct stats_summary *out, const double *x, size_t n,
		    unsigned char *outlier);

/*
 * Two clusters.  Under TCG some workloads are bimodal: a boot settles
 * hackbench in a fast or a slow mode (0.13-0.19 s or 0.3-0.45 s per
 * iteration here) for the whole run, so ten runs of one kernel may be six
 * fast and four slow and ten of another all slow, and their means then
 * differ by the draw, not by the kernel.
 *
 * stats_two_clusters() cuts the sorted log values where the cut explains
 * the largest share r2 of their variance, each side holding at least
 * STATS_CLUSTER_MIN_SHARE of them (and at least two), and p is the chance
 * that n values from one normal distribution explain as much, estimated
 * from STATS_CLUSTER_SIMULATIONS simulated samples with a fixed seed (the
 * same data always gives the same p).  r2 does not depend on location or
 * scale, so one normal stands for all.  With a cluster of at least a fifth
 * of the values, a few slow outliers are not a cluster.  The values are
 * bimodal when p < STATS_CLUSTER_ALPHA.  Needs n >= STATS_CLUSTER_MIN_N
 * positive values; otherwise everything is NaN (and n_low 0).
 *
 * Exact data: r2 = between / (between + within) on the log values, the
 * within-cluster sum of squares taken as at least n STATS_RESOLUTION^2
 * (each log value is known to STATS_RESOLUTION).  So all values equal is
 * r2 = 0, p NaN, not bimodal; two distinct values well apart (six runs at
 * 0.0309 and four at 0.0400, as sampled layouts give) is r2 ~ 1, which no
 * simulated sample reaches, so p = 1 / (STATS_CLUSTER_SIMULATIONS + 1):
 * bimodal; and two values STATS_RESOLUTION apart (r2 = 0.2 at five and
 * five) are not.
 */
#define STATS_CLUSTER_MIN_N 8
#define STATS_CLUSTER_MIN_SHARE 0.2
#define STATS_CLUSTER_SIMULATIONS 2000
#define STATS_CLUSTER_ALPHA 0.001

struct stats_clusters {
	double r2, p;
	size_t n_low;		/* values in the lower cluster */
	double low, high;	/* each cluster's geometric mean */
	int bimodal;		/* p < STATS_CLUSTER_ALPHA */
};

void stats_two_clusters(struct stats_clusters *out, const double *x, size_t n);

/*
 * Quantile of Student's t distribution: P(T <= value) = p, for p in (0, 1)
 * and df > 0 (df need not be an integer; df == INFINITY gives the standard
 * normal).  NaN for arguments outside those ranges.
 */
double stats_t_quantile(double p, double df);

/*
 * Welch's two-sample t-test of x against y, two-sided:
 *   t  = (mean_x - mean_y) / sqrt(vx + vy),   vx = sd_x^2 / n_x, vy likewise,
 *   df = (vx + vy)^2 / (vx^2 / (n_x - 1) + vy^2 / (n_y - 1))   (Welch-Satterthwaite),
 *   p  = 2 P(T_df > |t|).
 * Matches scipy.stats.ttest_ind(x, y, equal_var=False) whenever the sds
 * are above the resolution floor (top of this file), which takes sd_x as
 * at least STATS_RESOLUTION |mean_x|, likewise y.  So with zero variance on
 * both sides, where scipy gives NaN or an infinite t, t and df are finite:
 * equal means give t = 0, p = 1; different ones a t of the size of the
 * difference over the resolution.  Only when both samples are all zeros
 * is there no scale at all: t = 0, p = 1, df NaN.  Needs n >= 2 on both
 * sides, else all NaN.
 */
struct stats_welch {
	double t, df, p;
};
void stats_welch(struct stats_welch *out, const double *x, size_t nx,
		 const double *y, size_t ny);

/*
 * Mann-Whitney U test of x against y, two-sided.  u is U for x: the number
 * of pairs (x_i, y_j) with x_i > y_j, ties counting one half (scipy's U1).
 * With U = max(U_x, n_x n_y - U_x):
 *
 *  - exact: p = 2 P(U' >= U) under H0 (the distribution is symmetric, so
 *    2 P(U' <= n_x n_y - U)), capped at 1.  The null distribution is built
 *    by dynamic programming on probabilities: the largest of m + n values is
 *    an x with probability m / (m + n), adding n to U, so
 *      P(m, n, k) = m/(m+n) P(m-1, n, k-n) + n/(m+n) P(m, n-1, k).
 *    Only defined without ties; it is scipy's method='exact'.
 *  - asymptotic: z = (U - n_x n_y / 2 - 0.5) / s with the tie-corrected
 *      s^2 = n_x n_y / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1))),  n = n_x + n_y,
 *    t running over the sizes of groups of tied values, and p = 2 P(Z > z)
 *    capped at 1 (p = 1 when s == 0, all values equal).  It is scipy's
 *    method='asymptotic' with use_continuity=True.
 *
 * STATS_MW_AUTO uses the exact distribution when there are no ties and
 * n_x n_y <= STATS_MW_EXACT_MAX, else the normal approximation.
 * STATS_MW_EXACT returns -1 (out all NaN) when those conditions do not hold.
 *
 * min_p is the smallest p the chosen method can give at these sizes and,
 * asymptotically, with these ties, for a shift in the direction seen:
 * the p of the most extreme U that the pooled values allow on the side of
 * n_x n_y / 2 where U is, x taking the n_x largest of them when U is above
 * it, the n_x smallest when below (the more extreme of both when U is at
 * it).  Exact: 2 / C(n_x + n_y, n_x), so 0.1 at 3 vs 3.  With ties, a tie
 * group that the split cuts keeps its mid-rank: six values of b and four
 * of c (c > b) against ten of b reach at most U = 4 x 10 + 6 x 10 / 2 = 70
 * of 100, and that U's p is the min_p.  A test whose min_p is not below
 * alpha cannot confirm the shift at all; stats_marker() uses that.
 * Returns 0, or -1 when either sample is empty or exact was refused.
 */
#define STATS_MW_EXACT_MAX 2500
enum stats_mw_method {
	STATS_MW_AUTO,
	STATS_MW_EXACT,
	STATS_MW_ASYMPTOTIC,
};
struct stats_mw {
	double u, p, min_p;
	int exact;
	int ties;
};
int stats_mann_whitney(struct stats_mw *out, const double *x, size_t nx,
		       const double *y, size_t ny, enum stats_mw_method method);

/*
 * Fieller's confidence interval for the ratio of the means of two
 * independent samples, rho = mu_v / mu_b.  With a = mean_v, b = mean_b, the
 * variances of the means va = sd_v^2 / n_v, vb = sd_b^2 / n_b and t the
 * two-sided quantile t_{1-(1-confidence)/2, df}, the interval is the set of
 * rho with (a - rho b)^2 <= t^2 (va + rho^2 vb), i.e. between the roots of
 *   rho^2 (b^2 - t^2 vb) - 2 rho a b + (a^2 - t^2 va) = 0:
 *   (a b -+ t sqrt(a^2 vb + b^2 va - t^2 va vb)) / (b^2 - t^2 vb),
 * equivalently (r -+ (t / |b|) sqrt(va (1 - g) + r^2 vb)) / (1 - g) with
 * r = a / b and g = t^2 vb / b^2.  df is Welch-Satterthwaite's for the
 * pivot a - rho b at rho = r:
 *   df = (va + r^2 vb)^2 / (va^2 / (n_v - 1) + r^4 vb^2 / (n_b - 1)).
 * When g >= 1 the baseline mean is not significantly different from 0 at
 * this level and the confidence set is unbounded (the whole line, or the
 * outside of an interval): state is STATS_CI_UNBOUNDED and lo/hi are NaN.
 * Needs n >= 2 on both sides (STATS_CI_NONE otherwise).  The sds are
 * floored at STATS_RESOLUTION |mean| (top of this file), so constant samples
 * give an interval about r as wide as the resolution, with a finite df.
 * When va and r^2 vb are both 0 (a variant of zeros) the interval is [r, r]
 * with df = INFINITY.  When both means are positive (every metric kconfperf
 * keeps is a time, a count or a rate) a ratio below 0 is impossible, so a
 * lower root below 0 is raised to 0: the interval cut to the values the
 * ratio can take covers it as often ("-100%", not "-182%", when the
 * variant's mean is not known to be above 0).
 */
enum stats_ci {
	STATS_CI_NONE,
	STATS_CI_BOUNDED,
	STATS_CI_UNBOUNDED,
};
struct stats_fieller {
	double ratio, lo, hi;
	double g, df;
	enum stats_ci state;
};
void stats_fieller(struct stats_fieller *out, const struct stats_summary *v,
		   const struct stats_summary *b, double confidence);

/*
 * Benjamini-Hochberg q-values of n p-values: with p_(1) <= ... <= p_(m),
 *   q_(i) = min(1, min_{j >= i} m p_(j) / j),
 * returned in the input order (q and p may be the same array).  NaN
 * p-values are left out (their q is NaN) and m counts the others, like R's
 * p.adjust(method = "BH").
 */
void stats_bh(double *q, const double *p, size_t n);

/*
 * One variant against the baseline.  change = (ratio - 1) x 100, ratio =
 * mean_v / mean_b; ci is Fieller's (see stats_fieller()) and change_lo/hi
 * its bounds as percent.  welch is the test on log values, whose p is the
 * comparison's p-value (t > 0 when the variant's geometric mean is the
 * higher); mw is the Mann-Whitney cross-check (STATS_MW_AUTO), its u
 * counting the pairs in which the variant's value is the larger.
 * q starts as welch.p (a family of one); stats_adjust() replaces it with a
 * Benjamini-Hochberg q-value over the experiment's comparisons.
 * cost is +1 when the point estimate is worse than the baseline (higher for
 * lower-is-better metrics, lower for higher-is-better ones), -1 when
 * better, 0 when equal or undefined; change keeps its sign either way.
 */
struct stats_comparison {
	size_t n_base, n_variant;
	double ratio, change;
	struct stats_fieller ci;
	double change_lo, change_hi;
	struct stats_welch welch;
	struct stats_mw mw;
	double q;
	int cost;
	char marker;
};

void stats_compare(struct stats_comparison *out,
		   const double *base, size_t n_base,
		   const double *variant, size_t n_variant,
		   const struct stats_options *opts);

/*
 * The marker of a comparison, from its q, CI and tests, the first rule
 * that applies:
 *   '?'  a side has fewer than 3 values, or the Welch p is undefined;
 *   ' '  the CI lies wholly inside +-noise (-noise <= change_lo and
 *        change_hi <= noise): no practical change, however small q is.
 *        The noise band is the rule of practical significance: a
 *        deterministic +0.001% is real but does not matter, and exactly
 *        equal samples ([+0.0% .. +0.0%], q = 1) are no change;
 *   '?'  the two tests disagree: one p < alpha and the other not, counted
 *        only when Mann-Whitney can reach alpha with these sizes and ties
 *        (mw.min_p < alpha; at 3 vs 3 the exact minimum is 0.1, so there it
 *        is not consulted);
 *   ' '  not significant (q >= alpha, or NaN);
 *   '*'  significant (q < alpha) and the CI lies wholly outside +-noise
 *        (change_lo > noise or change_hi < -noise);
 *   '~'  significant, and the CI reaches into the band without lying
 *        wholly inside it (it crosses an edge), or is unbounded.
 */
char stats_marker(const struct stats_comparison *c, const struct stats_options *opts);

/*
 * Sets q of the n comparisons to the Benjamini-Hochberg q-values of their
 * Welch p-values, then recomputes each marker.
 */
void stats_adjust(struct stats_comparison *c, size_t n, const struct stats_options *opts);

/*
 * Do the costs multiply?  Both functions compare a measured ratio with the
 * ratio the multiplicative model predicts, on the log scale with the delta
 * method: var(log mean_x) ~= sd_x^2 / (n_x mean_x^2) for each variant,
 * independent variants' terms adding with the square of their coefficient
 * in the log-contrast (the baseline, which appears in several ratios,
 * with its net coefficient).  The interval for `ratio` =
 * measured / predicted is exp(d -+ t sqrt(V)), d its log, t the quantile at
 * `confidence` with Welch-Satterthwaite df = V^2 / sum(c_j^4 v_j^2 / (n_j - 1)).
 * predicted_lo/hi and measured_lo/hi are the same construction for each
 * side alone.
 *
 * Each sd is floored at STATS_RESOLUTION mean (top of this file), so
 * constant samples give intervals as wide as the resolution with a finite
 * df: exactly multiplicative constant data is ' ', a constant +3%
 * interaction '*'.
 *
 * marker: '*' when the ratio's interval lies wholly outside +-noise percent
 * (an interaction), ' ' when not, '?' when a variant has fewer than 3 values
 * or a non-positive mean (then the intervals are NaN); direction is +1 when
 * measured exceeds predicted (super-multiplicative), -1 below, 0 equal.
 * These intervals are per option, not adjusted for multiplicity.
 */
struct stats_interaction {
	double predicted, predicted_lo, predicted_hi;
	double measured, measured_lo, measured_hi;
	double ratio, ratio_lo, ratio_hi;
	double df;
	int direction;
	char marker;
};

/*
 * predicted = prod_i mean_i / mean_base over the k options measured alone,
 * measured = mean_all / mean_base; log(ratio) = log mean_all - sum_i log
 * mean_i + (k - 1) log mean_base.
 */
void stats_multiplicative(struct stats_interaction *out,
			  const struct stats_summary *base,
			  const struct stats_summary *all,
			  const struct stats_summary *alone, size_t k,
			  const struct stats_options *opts);

/*
 * One option's cost added last beside its cost alone: predicted = mean_alone /
 * mean_base, measured = mean_all / mean_loo (all options but this one);
 * log(ratio) = log mean_all - log mean_loo - log mean_alone + log mean_base.
 */
void stats_added_last(struct stats_interaction *out,
		      const struct stats_summary *base,
		      const struct stats_summary *alone,
		      const struct stats_summary *all,
		      const struct stats_summary *loo,
		      const struct stats_options *opts);

/*
 * Did an option's cost change between two kernels?  Its cost on each is
 * the ratio of its mean to that kernel's baseline, r1 = v1 / b1 and
 * r2 = v2 / b2, and the change of cost is their ratio
 *   ratio = r2 / r1,  log(ratio) = log v2 - log b2 - log v1 + log b1,
 * a log-contrast of four independent samples, by the delta method as
 * above: var = sum_j sd_j^2 / (n_j mean_j^2), t = log(ratio) / sqrt(var),
 * Welch-Satterthwaite df = var^2 / sum_j (sd_j^2 / (n_j mean_j^2))^2 / (n_j - 1),
 * p = 2 P(T_df > |t|) and the interval exp(log(ratio) -+ t_q sqrt(var)).
 * change, change_lo and change_hi are the same as percent, (x - 1) x 100:
 * "+70% on 6.1, +95% on 6.12" is a ratio of 1.95 / 1.70, a change of
 * +14.7%.  Each sd is floored at STATS_RESOLUTION mean, so exact data
 * (-icount) gives a resolution-wide interval with a finite df.
 *
 * q starts as p; stats_adjust_cost_changes() replaces it with
 * Benjamini-Hochberg q-values over a family (the options of one table,
 * one pair of kernels).  marker follows stats_marker() without the
 * Mann-Whitney cross-check (there is no rank test of a contrast): '?'
 * when a sample has fewer than 3 values or a non-positive mean, ' ' when
 * the interval lies wholly inside +-noise or q >= alpha, '*' when q <
 * alpha and the interval lies wholly outside +-noise, '~' otherwise.
 * cost is +1 when the option costs more on the second kernel (ratio > 1
 * for lower-is-better metrics, < 1 for higher-is-better ones), -1 when
 * less, 0 when equal or undefined.
 */
struct stats_cost_change {
	double ratio, ratio_lo, ratio_hi;
	double change, change_lo, change_hi;
	double t, df, p, q;
	int cost;
	char marker;
};
void stats_cost_change(struct stats_cost_change *out,
		       const struct stats_summary *b1, const struct stats_summary *v1,
		       const struct stats_summary *b2, const struct stats_summary *v2,
		       const struct stats_options *opts);
/* Benjamini-Hochberg over the n changes' p-values, then each marker again. */
void stats_adjust_cost_changes(struct stats_cost_change *c, size_t n,
			       const struct stats_options *opts);

/*
 * Appends a percent change with its sign and `decimals` digits: "+89.6%",
 * "-3.0%", "+0.0%" (a value that rounds to zero is shown as +0), "n/a" for NaN.
 */
void stats_format_change(struct strbuf *sb, double change, int decimals);
/*
 * Appends a comparison's interval: "[+85.1% .. +94.2%]", "[unbounded]" or
 * "[n/a]".
 */
void stats_format_ci(struct strbuf *sb, const struct stats_comparison *c, int decimals);

#endif
