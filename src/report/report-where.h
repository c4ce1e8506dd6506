/* report-where.h: the "where the cost goes" sections (analyze.h's m->where) in each report format. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_WHERE_H
#define REPORT_WHERE_H

struct analyze_model;
struct json_writer;
struct strbuf;

/* Rows the text and markdown reports print per section; JSON has them all. */
#define REPORT_WHERE_TOP 10

/*
 * One section per entry of m->where: the variant's change in busy
 * instructions on the workload, the functions that account for it
 * (change and share), the rest summed, kernel, user and idle totals, and
 * whether the rows add up to the measured change.  Nothing when m has no
 * entries.  Each writer calls its own after its tables.
 */
void report_where_text(struct strbuf *out, const struct analyze_model *m);
void report_where_markdown(struct strbuf *out, const struct analyze_model *m);
/* An array "where" in the object being written, when m has entries. */
void report_where_json(struct json_writer *jw, const struct analyze_model *m);
/* <section>s with a bar per function, drawn to scale of the largest change. */
void report_where_html(struct strbuf *out, const struct analyze_model *m);

#endif
