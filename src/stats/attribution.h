/* attribution.h: where an option's cost goes: the kernel functions that account for a change in instructions. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ATTRIBUTION_H
#define ATTRIBUTION_H

#include <stddef.h>

#include "store/profile.h"

/*
 * Two profiles of the instruction meter (store/profile.h: the baseline's
 * and a variant's on one workload, each the mean over its runs, per
 * operation as its "instructions" metric is) set side by side: each
 * function's change and its share of the change in busy instructions
 * (idle excluded), so that a report can say where an option's cost goes:
 * "+85.8 M instructions per hackbench iteration, of which __lock_acquire
 * 27.4 M (32.0%), mark_lock 8.0 M (9.3%) ...".
 *
 * Names are matched across the two builds by their base name
 * (profile_normalize(): foo.isra.0, foo.constprop.0, foo.part.0 and
 * foo.cold are foo; the static functions of one name are summed), so a
 * function the compiler cloned differently in the other build is still
 * one row.  The meter's buckets ("[user]", "[kernel-other]",
 * "[before-kernel]") are rows like the functions; the idle loop's
 * functions (profile_is_idle()) are not rows: busy leaves them out, and
 * the totals say what they did.
 *
 * The rows add up to the change of the profiles' busy instructions
 * exactly; the check is against the change the metric measured (its
 * means), which the profiles should reproduce: adds_up says whether the
 * rows' sum is within ATTRIBUTION_TOLERANCE of it.
 */

#define ATTRIBUTION_TOLERANCE 0.01	/* of the measured change's magnitude */

/* One profile's instructions by where they ran. */
struct attribution_totals {
	double kernel;		/* the kernel's functions, the idle loop's included */
	double user;		/* [user] */
	double idle;		/* the idle loop's functions */
	double other;		/* [kernel-other] and [before-kernel] */
	double busy;		/* all but idle */
};

struct attribution_row {
	char *name;		/* base name, or a bucket's "[user]" */
	double base, variant;	/* per operation, as the profiles */
	double change;		/* variant - base */
	double share;		/* change / the busy change, a fraction; NaN when that is 0 */
};

struct attribution {
	struct attribution_totals base, variant;
	double change;		/* busy: variant - base */
	/*
	 * Every busy row whose count differs, by the size of its change
	 * (largest first, ties by name): their changes sum to change.
	 */
	struct attribution_row *rows;
	size_t nr_rows;
	double measured;	/* the metric's change the rows should add up to; NaN unknown */
	double residual;	/* the rows' sum - measured (NaN when measured is) */
	int adds_up;		/* |residual| <= ATTRIBUTION_TOLERANCE * |measured| */
};
#define ATTRIBUTION_INIT { { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0 }, 0, NULL, 0, 0, 0, 0 }

/*
 * Fills out from base and variant (normalised here on copies; the
 * profiles are not changed) and the measured change of the metric (NaN
 * when unknown).  out is released first.
 */
void attribution_compute(struct attribution *out, const struct profile *base,
			 const struct profile *variant, double measured);
void attribution_release(struct attribution *a);

/*
 * The rows to print when a report shows top of them: the largest, then
 * enough to say how much the rest add up to.  Sums the changes of rows
 * [top, nr_rows) into *rest_base, *rest_variant (the change is their
 * difference); returns min(top, nr_rows).  top 0 is all of them.
 */
size_t attribution_top(const struct attribution *a, size_t top, double *rest_base,
		       double *rest_variant);

#endif
