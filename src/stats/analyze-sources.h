/* analyze-sources.h: the sources of an experiment in its model, and what they say side by side (for analyze.c). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_SOURCES_H
#define ANALYZE_SOURCES_H

#include <stddef.h>

struct analyze_model;
struct analyze_options;
struct store;

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

#endif
