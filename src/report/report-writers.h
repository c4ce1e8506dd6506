/* report-writers.h: the report writers, one per format, over the analysis model. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_WRITERS_H
#define REPORT_WRITERS_H

struct analyze_model;
struct analyze_table;
struct strbuf;

/*
 * Every writer appends one complete document to out, from the model alone:
 * the statistics are analyze_load()'s, writers only lay them out, and every
 * piece of data they print goes through an escaping emitter for the format
 * (escape.h, json.h).  Writers cannot fail.  Output is deterministic for a
 * given model (no dates, no host lookups), so it can be compared with
 * golden files.  What several writers say the same way is in
 * report-util.h; the table of formats that names them is report.h's.
 */
typedef void report_fn(struct strbuf *out, const struct analyze_model *m);

/*
 * text      the mailing-list table, sorted by effect, with header and notes
 * mmtests   compare-kernels style: Amean/Hmean/Stddev/CoeffVar/Min/Max rows
 * markdown  a heading and a table per workload and metric
 * csv       one row per sample (wall and boot count as samples of their run)
 * json      hyperfine's --export-json shape plus a "kconfperf" object
 * svg       a bar chart of % change with CI whiskers per workload and metric
 * html      one self-contained page: tables, charts, diffs, environment, data
 */
report_fn report_text, report_mmtests, report_markdown, report_csv,
	report_json, report_svg, report_html;

/*
 * One chart (an <svg> element, no XML declaration) for a table, as the svg
 * writer draws it; the html writer inlines it.
 */
void report_svg_chart(struct strbuf *out, const struct analyze_model *m,
		      const struct analyze_table *t);

#endif
