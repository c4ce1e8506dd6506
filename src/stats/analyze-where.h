/* analyze-where.h: the model's "where the cost goes" sections, from the meter's stored profiles. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_WHERE_H
#define ANALYZE_WHERE_H

struct analyze_model;
struct store;

/*
 * For analyze.c, once the tables are compared: builds m->where (analyze.h,
 * struct analyze_where).  0, or -1 with a message when the store cannot
 * be read; a variant without profiles is passed over.
 */
int analyze_where_build(struct analyze_model *m, struct store *st);
void analyze_where_release(struct analyze_model *m);

#endif
