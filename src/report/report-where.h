/* report-where.h: the "where the cost goes" sections (analyze.h's m->where) in each report format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_WHERE_H
#define REPORT_WHERE_H

struct analyze_model;
struct json_writer;

/* Rows the text and markdown reports print per section; JSON has them all. */
#define REPORT_WHERE_TOP 10

/*
 * The "where the cost goes" sections (analyze.h's m->where): text,
 * markdown and html have them from the document (report-build.c's
 * where_the_cost_goes(): the top REPORT_WHERE_TOP rows); JSON writes an
 * array "where" in the object being written, every row, when m has entries.
 */
void report_where_json(struct json_writer *jw, const struct analyze_model *m);

#endif
