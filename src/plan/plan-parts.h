/* plan-parts.h: what plan.c and its part plan-resolve.c share; private to them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PLAN_PARTS_H
#define PLAN_PARTS_H

/*
 * Not an interface: a plan is plan.h's.  scripts/check-idioms refuses this
 * header anywhere but in src/plan/plan*.c.
 */
#include <stddef.h>

struct arch;
struct plan;
struct plan_options;
struct plan_variant;

/* plan.c */

/* Whether a symbol's effective value (NULL: absent) is the requested one. */
int plan_same_value(const char *have, const char *want);
/* The plan's arch; plan_choose_arch() has checked the name. */
const struct arch *plan_arch_of(const struct plan_options *o);
/* A base that names an existing file is a .config; anything else a make target. */
int plan_is_config_file(const char *base);
/* The plan is one source's of several: its variants' names start with "LABEL:". */
int plan_labelled(const struct plan_options *o);

/* plan-resolve.c */

/* Resolves the baseline in slot 0 and checks it can carry the harness; 0, or -1. */
int plan_resolve_baseline(struct plan *p, const struct plan_options *o);
/*
 * Runs olddefconfig for variants [first, nr), jobs at a time in reused
 * slots, then classifies them in plan order: a variant is same-as the
 * first earlier one it equals, so it is judged only when every earlier
 * one is resolved, whichever of the parallel runs finished first.
 * 0, or -1 with a message.
 */
int plan_resolve_all(struct plan *p, const struct plan_options *o, size_t first);
/*
 * v (the index-th variant, its effective config resolved): its hash, its
 * difference from the baseline, its status (ok, partial, no-op, same as
 * an earlier one) and why.
 */
void plan_classify(struct plan *p, const struct plan_options *o, struct plan_variant *v,
		   size_t index);

#endif
