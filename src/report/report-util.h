/* report-util.h: what the report writers say the same way: values, runs, notes, markers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef REPORT_UTIL_H
#define REPORT_UTIL_H

#include <stddef.h>

struct analyze_model;
struct analyze_row;
struct analyze_table;
struct strbuf;

/*
 * Helpers for the writers (report-writers.h): each appends plain text to
 * a strbuf, or returns a constant string, from the model alone.  The text
 * is raw: the writer escapes it for its format.
 */

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
struct analyze_note;
/*
 * What a note (analyze.h) says after the variant's name: "2 of 5 runs
 * failed (timeout: no result in 60 s)", "only 2 runs so far; its
 * comparison is marked ?", "not run yet".  Raw text.
 */
void report_add_note(struct strbuf *sb, const struct analyze_table *t,
		     const struct analyze_note *note);
struct analyze_series;
/* "10 per variant and groups", "3 to 10 per variant and groups", "none yet". */
void report_add_series_runs(struct strbuf *sb, const struct analyze_series *s);
/*
 * A cell of a series (analyze.h), "0.1234 s (+5.3%) *": the mean, and the
 * change and marker against the baseline when compared; "-" when the cell
 * has no values.  Returns whether it had values.  Raw text.
 */
int report_add_series_cell(struct strbuf *sb, const struct analyze_model *m,
			   const struct analyze_series *s, size_t i, size_t variant);
/* The marker of a row as a string: "*", "~", "?" or "" (also for the baseline). */
const char *report_marker(const struct analyze_table *t, size_t row);

/* The marker of a step's increment (analyze.h, "Cumulative steps"), as report_marker(). */
const char *report_step_marker(const struct analyze_row *r);
/*
 * A cumulative step's increment, against the step before: "+74.7%
 * [+72.1% .. +77.2%]", "same kernel as the step before", or nothing (not a
 * step, or nothing to compare with yet).  Raw text, without the marker.
 */
void report_add_step(struct strbuf *sb, const struct analyze_row *r);
/* The name of the step a step row is measured against: "baseline", "+CONFIG_X=y". */
const char *report_step_before(const struct analyze_model *m, const struct analyze_table *t,
			       const struct analyze_row *r);
/* A group's members, "CONFIG_A=y CONFIG_B=y".  Raw text. */
struct analyze_group;
void report_add_members(struct strbuf *sb, const struct analyze_group *g);

#endif
