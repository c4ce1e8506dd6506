/* analyze-series.h: parameter series in the analysis model (analyze.h's struct analyze_series). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_SERIES_H
#define ANALYZE_SERIES_H

struct analyze_model;

/*
 * For analyze.c: builds m->series from meta "series" and the tables
 * already built, setting each member table's `series`; a label that does
 * not parse (an experiment of another version) is passed over.
 */
void analyze_series_build(struct analyze_model *m);
void analyze_series_release(struct analyze_model *m);

#endif
