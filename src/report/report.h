/* report.h: the report writers, one per format, over the analysis model. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>

struct analyze_model;
struct analyze_row;
struct analyze_table;
struct strbuf;

/*
 * Every writer appends one complete document to out, from the model alone:
 * the statistics are analyze_load()'s, writers only lay them out, and every
 * piece of data they print goes through an escaping emitter for the format
 * (escape.h, json.h).  Writers cannot fail.  Output is deterministic for a
 * given model (no dates, no host lookups), so it can be compared with
 * golden files.
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

struct report_format {
	const char *name;
	report_fn *write;
	const char *extension;
};

struct store;
/*
 * What sweep and screen end with: the text report of the experiment in
 * st on stdout, and dir/report.html and dir/report.json written.  noise
 * is the +-percent band of no effect.  Returns 0 or -1 with a message.
 */
int report_experiment(struct store *st, const char *dir, double noise);

/* The formats, in the order --help lists them; ends with a NULL name. */
extern const struct report_format report_formats[];
/* The format called name, or NULL. */
const struct report_format *report_find(const char *name);

/*
 * One chart (an <svg> element, no XML declaration) for a table, as the svg
 * writer draws it; the html writer inlines it.
 */
void report_svg_chart(struct strbuf *out, const struct analyze_model *m,
		      const struct analyze_table *t);

/* Helpers the writers share. */

/* "%.*f", or "n/a" for NaN and infinities. */
void report_add_value(struct strbuf *sb, double v, int decimals);
/* One line on what the metric is: "host wall time of the whole qemu run". */
const char *report_metric_about(const struct analyze_table *t);
/* "10 per variant", "3 to 10 per variant", "none yet". */
void report_add_runs(struct strbuf *sb, const struct analyze_table *t);
/*
 * A ratio and its interval as percent changes, "+12.3% [+8.1% .. +16.9%]"
 * for 1.123 [1.081 .. 1.169]: how the product and added-last checks read.
 */
void report_add_ratio_interval(struct strbuf *sb, double ratio, double lo, double hi);
/* A byte count, signed when sign is set: "1.23 MiB", "+12.0 KiB", "-512 B". */
void report_add_bytes(struct strbuf *sb, double bytes, int sign);
/*
 * Why the multiplicativity check has no numbers yet: the variants in it
 * with fewer than ANALYZE_MIN_RUNS values, "CONFIG_A=y (build failed),
 * all (2 runs)".  Raw text: the caller escapes it for its format.
 */
void report_add_product_blockers(struct strbuf *sb, const struct analyze_model *m,
				 const struct analyze_table *t);
/*
 * The note on a row that shares its twin's runs (a same-as variant's),
 * "(= CONFIG_X=y, same kernel)"; nothing for other rows.  Raw text.
 */
void report_add_same_as(struct strbuf *sb, const struct analyze_model *m,
			const struct analyze_row *r);
/*
 * Rows whose runs fall in two clusters (analyze_row.clusters), one line
 * each, "  NAME: 6 runs near 0.155 s, 4 near 0.371 s\n", after a sentence
 * on what that means; nothing when no row does.  Raw text.
 */
void report_add_bimodal(struct strbuf *sb, const struct analyze_model *m,
			const struct analyze_table *t);
/* The marker of a row as a string: "*", "~", "?" or "" (also for the baseline). */
const char *report_marker(const struct analyze_table *t, size_t row);

#endif
