/* screen-attrib.h: a screen group's evidence: which of its members can own the change the meter saw. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCREEN_ATTRIB_H
#define SCREEN_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "store/store-meter.h"
#include "util/strbuf.h"

struct store;
struct strvec;
struct objects_index;

/*
 * The evidence screen.h's "Attribution" asks for, from the meter's
 * per-function counts of a group's two ends (P_lo and P_hi: the runs the
 * group was judged on) and the two kernels' object indices
 * (kbuild/objects-index.h).
 *
 * A function changed when the difference of its means, per operation as
 * the "instructions" metric counts (store_get_variant_profile()'s per_op),
 * is more than four standard errors of that difference and more than
 * ATTRIB_FLOOR of P_lo's busy instructions.  Its owners are the members
 * one of whose symbols (the symbols its kernel alone changes) an object
 * defining the function depends on or is gated by, in either kernel; a
 * name no object defines (the meter's [user], [before-kernel] buckets,
 * assembly outside vmlinux.a) has none.  A member is a candidate when the
 * changes of the functions it can own add up, in size, to at least a
 * quarter of the threshold (the indifference zone's half-width by
 * default): below that it cannot make the group cost more than the
 * threshold by itself.  owned[k] is the signed change of the functions
 * that only member k can own, in percent of P_lo.
 */
#define ATTRIB_FLOOR 1e-6

struct attrib_member {
	size_t option;			/* the engine's option index */
	const char *name;		/* "CONFIG_X=y", for the words */
	const struct strvec *syms;	/* the symbols its kernel alone changes */
};

struct attrib_input {
	struct store *st;
	const int64_t *lo_runs, *hi_runs;	/* the runs of P_lo and P_hi judged */
	size_t nr_lo, nr_hi;
	const struct objects_index *lo_index, *hi_index;	/* NULL: none */
	enum store_meter_phase phase;
	const struct attrib_member *members;	/* the group's, in screen order */
	size_t nr_members;
	double threshold;			/* percent */
};

struct attrib_result {
	size_t *candidates;		/* option indices */
	size_t nr_candidates;
	double *owned;			/* per member, percent of P_lo */
	double change;			/* P_hi - P_lo, per operation, busy */
	double unowned;			/* of which in functions no member can own */
	size_t changed;			/* functions that changed */
	struct strbuf text;		/* the evidence in words */
};
#define ATTRIB_RESULT_INIT { .text = STRBUF_INIT }

/* Fills out from in: 0, or -1 on a store error (message printed). */
int attrib_evidence(struct attrib_result *out, const struct attrib_input *in);
void attrib_result_release(struct attrib_result *r);

#endif
