/* plan-claims.h: the cost claims of the help texts of what the plan's variants turn on. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PLAN_CLAIMS_H
#define PLAN_CLAIMS_H

#include <stddef.h>

struct plan;
struct store_claim;

/*
 * Appends to *out (*nr of *alloc) the claims (kconfig-help.h) of every
 * symbol a variant of p turns on, requested or set by Kconfig for it (y or
 * m where the baseline has neither), each symbol once, in plan order,
 * labelled with the source's label.  0, or -1 with a message.
 */
int plan_claims(struct store_claim **out, size_t *nr, size_t *alloc, const struct plan *p,
		const char *label);

#endif
