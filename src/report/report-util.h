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
/*
 * Several sources (analyze.h, "Sources"): the cells of an across block
 * that every writer shows the same way.  c is a counterpart, s a source.
 */
struct analyze_across;
struct analyze_across_cell;
/* Counterpart c's row in source s's table, or NULL when it has none. */
const struct analyze_row *report_across_row(const struct analyze_model *m,
					    const struct analyze_across *a, size_t c, size_t s);
/*
 * Why counterpart c has no numbers on source s: "-" (the source has no
 * such variant), its state ("no-op", "build failed"), "runs failed" or
 * "not run yet"; nothing when it has numbers.
 */
void report_add_across_state(struct strbuf *sb, const struct analyze_model *m,
			     const struct analyze_across *a, size_t c, size_t s);
/*
 * Counterpart c on source s: for the baseline its mean and unit ("1.480
 * s"), else its cost against that source's baseline with its marker
 * ("+70.0% *"), or report_add_across_state().
 */
void report_add_across_cost(struct strbuf *sb, const struct analyze_model *m,
			    const struct analyze_across *a, size_t c, size_t s, int decimals);
/*
 * The notes of counterpart c on source s, pushed onto notes: "NAME on
 * LABEL: STATE: WHY" when it was not measured there, and how s resolves
 * it differently from the first source.  Raw text.
 */
struct strvec;
void report_across_notes(struct strvec *notes, const struct analyze_model *m, size_t c,
			 size_t s);
/* The same config against the first source's: "+3.5% [+1.0% .. +6.0%] *", or nothing. */
void report_add_across_same(struct strbuf *sb, const struct analyze_across_cell *cell);
/* The change of cost: "+14.7% [+9.0% .. +21.0%] *", or nothing. */
void report_add_cost_change(struct strbuf *sb, const struct analyze_across_cell *cell);
/*
 * The sentence for a change of cost that is marked * or ~:
 * "CONFIG_PROVE_LOCKING=y cost +70.0% on 6.1 and +95.0% on 6.12: +14.7%
 * [+9.0% .. +21.0%] more, *".  Returns 1 when it wrote one, else 0.
 */
int report_add_cost_verdict(struct strbuf *sb, const struct analyze_model *m,
			    const struct analyze_across *a, size_t c, size_t s);
/*
 * For a patched source, the sentence for the same config against its
 * unpatched twin when marked * or ~: "fix.patch on 6.1 with baseline:
 * -5.8% [-6.5% .. -5.1%], *".  Returns 1 when it wrote one, else 0.
 */
int report_add_patch_verdict(struct strbuf *sb, const struct analyze_model *m,
			     const struct analyze_across *a, size_t c, size_t s);
/*
 * A patched source's build of counterpart c beside its unpatched twin's:
 * "21.3 s (seeded from the unpatched tree), unpatched 199.7 s".  Returns 1
 * when it wrote one (s is patched and its variant was built), else 0.
 */
int report_add_patch_build(struct strbuf *sb, const struct analyze_model *m, size_t c,
			   size_t s);

#endif
