/* analyze-design.h: for analyze.c, the checks of the oat/all/loo and cumulative designs on one table. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_DESIGN_H
#define ANALYZE_DESIGN_H

#include <stddef.h>

struct analyze_model;
struct analyze_options;
struct analyze_table;

/*
 * t's multiplicativity check (analyze.h, struct analyze_table's product
 * members): the product of the options' costs alone against all's, and
 * each all-minus-one against all.  Called once t's rows are compared.
 */
void analyze_design_interactions(const struct analyze_model *m, struct analyze_table *t,
				 const struct analyze_options *opts);
/*
 * t's cumulative steps (analyze.h, "Cumulative steps"): each step
 * against the step before it, the increments BH-adjusted as one family.
 */
void analyze_design_steps(const struct analyze_model *m, struct analyze_table *t,
			  const struct analyze_options *opts);

/* analyze.c's, shared with analyze-design.c: the variant measured for i (its twin, or i). */
size_t analyze_measured(const struct analyze_model *m, size_t i);
/* analyze.c's: the row of variant in t, or SIZE_MAX. */
size_t analyze_row_of(const struct analyze_table *t, size_t variant);

#endif
