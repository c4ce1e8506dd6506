/* analyze-parts.h: what analyze.c and its parts (analyze-table.c, -design.c, -series.c, -sources.c, -where.c) share; private to them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_PARTS_H
#define ANALYZE_PARTS_H

/*
 * Not an interface: the analysis is analyze.h's.  scripts/check-idioms
 * refuses this header anywhere but in src/stats/analyze*.c.
 */
#include <stddef.h>

struct analyze_model;
struct analyze_options;
struct analyze_table;
struct store;
struct strvec;

/* The oat/all/loo and cumulative designs' checks on one table (analyze-design.c). */
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

/* The model's tables (analyze-table.c). */
/*
 * For analyze.c, once the variants, runs and samples are loaded: builds
 * m->tables, one per workload, metric and source with rows (only
 * opts->workload's and opts->metric's when set), each compared, ordered
 * and noted, with the across blocks of several sources.  0, or -1 when
 * the workload or metric asked for was not measured, naming those that were.
 */
int analyze_build_tables(struct analyze_model *m, const struct analyze_options *opts);
/* Adds s to sv unless it is there (or NULL or empty), keeping sv sorted. */
void analyze_add_distinct(struct strvec *sv, const char *s);
/* sv's strings joined by sep, malloc'd ("" for none). */
char *analyze_join(const struct strvec *sv, const char *sep);

/* Parameter series in the model: analyze.h's struct analyze_series (analyze-series.c). */
/*
 * For analyze.c: builds m->series from meta "series" and the tables
 * already built, setting each member table's `series`; a label that does
 * not parse (an experiment of another version) is passed over.
 */
void analyze_series_build(struct analyze_model *m);
void analyze_series_release(struct analyze_model *m);

/* The sources of an experiment, and what they say side by side (analyze-sources.c). */
/*
 * What analyze.h calls "Sources", for analyze.c to call as it builds the
 * model.  analyze_sources_load() reads the stored sources (store.h; one
 * labelled "" for a lone source) into m->sources, gives every variant of
 * m->variants its source and short name, finds each source's baseline,
 * and with several sources makes m->counterparts.  A variant whose label
 * names no stored source belongs to the first.  0, or -1 with a message.
 */
int analyze_sources_load(struct analyze_model *m, struct store *st);

/*
 * Adds the across block of the nr tables m->tables[first ..] (one
 * workload and metric, a table per source that has rows), with its
 * comparisons and their q-values.
 */
void analyze_across_add(struct analyze_model *m, size_t first, size_t nr,
			const struct analyze_options *opts);

/* Frees m->sources, m->counterparts and m->across. */
void analyze_sources_release(struct analyze_model *m);

/* The model's "where the cost goes" sections, from the meter's stored profiles (analyze-where.c). */
/*
 * For analyze.c, once the tables are compared: builds m->where (analyze.h,
 * struct analyze_where).  0, or -1 with a message when the store cannot
 * be read; a variant without profiles is passed over.
 */
int analyze_where_build(struct analyze_model *m, struct store *st);
void analyze_where_release(struct analyze_model *m);

#endif
