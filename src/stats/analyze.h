/* analyze.h: the one model of an experiment that every report format is written from. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "stats/attribution.h"
#include "stats/stats.h"
#include "store/conditions.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"

/*
 * analyze_load() reads the whole experiment from the store and computes
 * everything a report shows, so that writers only format: no writer
 * computes a statistic, and every format tells the same story.  It works
 * on an experiment in progress (variants with few or no runs yet).
 *
 * Tables.  There is one table per workload and metric.  The metrics of a
 * run are:
 *   wall     run.wall_s, host wall time of the whole qemu run (s, lower is
 *            better)
 *   boot     run.boot_s, guest boot to init (s, lower is better); only when
 *            some run of the workload reported it, and not for the boot
 *            workload, whose own sample ("time") is that same boot to init
 *   <name>   each metric of the workload's samples ("time", "throughput"):
 *            the mean of that run's per-iteration values, with the samples'
 *            unit and direction
 * and tables come per workload (by name) with the workload's own metrics
 * first (by name), then wall, then boot.
 *
 * The value of a variant is one number per run (the run is the unit of
 * analysis).  Warm-up runs and failed runs (status other than "ok") are
 * left out and counted; so are ok runs that lack the metric.
 *
 * Variants.  Each variant of the plan has a state:
 *   ok            measured (store status ok or partial)
 *   no-op         its effective config is the baseline's; reason says why
 *   same-as       the same kernel as another variant (same_as), which was
 *                 built and measured for both: its twin
 *   build failed  its build failed; why holds the log's
 *                 last line
 * A table has a row for every ok variant, for every other variant that
 * has runs of the workload, and for every same-as variant whose twin has
 * a row.  A row may have no values yet (not run, or every run failed: see
 * failed and first_error).
 *
 * Same-as variants.  The twin is found by name (same_as), following a
 * chain of same-as variants to the one that is not.  The same kernel
 * gives the same measurement, so a same-as variant's row is a copy of its
 * twin's row (values, summary, comparison) that says so (twin): it is a
 * measurement of that variant, shown wherever the variant belongs, and
 * its runs are counted once, in the twin's row.  Its own runs, should the
 * store hold any, are not used.  A same-as variant whose twin is not ok
 * (a no-op, a failed build) or cannot be found is not measured.
 *
 * Comparisons.  Every row but the baseline's, when both it and the
 * baseline have values, is compared with the baseline (stats_compare());
 * the q-values are Benjamini-Hochberg over those comparisons of the table
 * (stats_adjust()), each kernel once: a same-as row is not in the family
 * and takes its twin's comparison.  Rows with fewer than ANALYZE_MIN_RUNS
 * values are flagged too_few (their marker is '?').
 *
 * Interactions.  With a variant of kind "all" and oat variants, the table
 * has the multiplicativity check: the product of the oat variants' ratios
 * against the measured all (stats_multiplicative()), with same-as
 * variants' values (an all that is the same kernel as an oat variant is
 * measured as that variant).  Oat variants that are no-ops (a factor of
 * exactly 1) or the same kernel as another oat variant (counted once) are
 * left out of the product.  With loo variants ("all-CONFIG_X=y", kind
 * loo), each option's cost added last (all against all-but-it) is set
 * beside its cost alone (stats_added_last()).
 *
 * Cumulative steps.  A variant of kind "cumulative" ("+CONFIG_X=y": the
 * step before it plus one option or group, plan.h) is compared with the
 * baseline like any row, and with the step before it, the first with the
 * baseline: the increment, what its option adds on top of the ones before
 * (row.step, step_cmp).  A step that is the same kernel as the step before
 * adds nothing (ANALYZE_STEP_SAME: no comparison); one whose step before
 * has no values (not run yet, its build failed) has no increment.  The
 * step before a no-op step is the baseline's kernel.  The increments are
 * a family of their own for Benjamini-Hochberg.  Steps show in plan order
 * (see order below) and take no part in interactions.
 *
 * Groups.  A candidate can be a named group of options (options-file.h):
 * its oat variant is named after the group, and m->groups says what each
 * group holds (from the fact "groups", which is not among m->facts).
 *
 * Any other variant kind (an imported hyperfine command, say) is compared
 * with the baseline like an oat variant but takes no part in interactions.
 *
 * Sources.  An experiment of several kernel sources (plan/source-set.h:
 * versions, and patched copies of the first) has the tables above once
 * per source, each of its source's variants only, against its source's
 * own baseline, with the interaction checks within the source; tables
 * come per workload, then metric, then source in the order of the
 * sources.  Variants of the same name on several sources ("6.1:CONFIG_X=y",
 * "6.12:CONFIG_X=y") are counterparts (model.counterparts, once; each
 * source's baseline-again is its own A/A control, not one), and per
 * workload and metric an across block (model.across) sets each
 * counterpart's numbers on every source beside the first source's:
 *   same     its values against the first source's counterpart's, the
 *            same config on two kernels (stats_compare()): for the
 *            baselines, how much slower one kernel is than the other; for
 *            a patched source, what the patch costs against its unpatched
 *            twin of the same config
 *   change   the change of its cost between the two: its cost on each
 *            (against that source's baseline) and the ratio of the two
 *            (stats_cost_change()); not for the baselines
 * each Benjamini-Hochberg over the counterparts of one source's column.
 * A counterpart that a source lacks or does not measure (an unknown
 * symbol there, a no-op, a failed build) has no numbers in that column,
 * and its variant's why says why: it is never a zero cost.  differs
 * says how a source resolves a counterpart differently from the first:
 * the symbols its kernel changes against its baseline there and not on
 * the first, or the other way round.
 *
 * Notes.  What a report says about a row besides its numbers is decided
 * here, once for every writer (table.notes, in row order; a same-as row
 * has none, its runs are noted under its twin):
 *   failed    some of its runs failed (row.failed of them, first_error
 *             says why), whether or not it has values
 *   too few   it has values, but fewer than ANALYZE_MIN_RUNS: its
 *             comparison is marked '?'
 *   not run   it has no values and no failed run: not run yet (or its
 *             runs lacked the metric)
 * A row with failed runs and too few values gets both notes, failed first.
 */

#define ANALYZE_MIN_RUNS 3

struct analyze_options {
	/* confidence, alpha and noise; higher_is_better is set per table */
	struct stats_options stats;
	const char *workload;	/* only this workload; NULL for all */
	const char *metric;	/* only this metric; NULL for all */
};
#define ANALYZE_OPTIONS_INIT { STATS_OPTIONS_INIT, NULL, NULL }

enum analyze_state {
	ANALYZE_OK,
	ANALYZE_NO_OP,
	ANALYZE_SAME_AS,
	ANALYZE_BUILD_FAILED,
};

struct analyze_variant {
	struct store_variant v;		/* as planned (owned) */
	size_t source;			/* index into model->sources */
	const char *short_name;		/* v.name without its source's "LABEL:" */
	enum analyze_state state;
	char *why;			/* human-readable reason for a state other than ok, or NULL */
	/* same-as: the variant measured for it (its twin, never same-as), or SIZE_MAX */
	size_t twin;
	int has_build;
	struct store_build build;	/* its latest build, when has_build */
	/* bzImage size minus the baseline's, when both are known */
	int has_size_delta;
	int64_t size_delta;
	/*
	 * vmlinux's text, data and bss minus the baseline's, by section
	 * (build.sections) and by symbol (build.symbols), each when both are
	 * known (text >= 0): a leaf option's size, which bzImage (compressed,
	 * page-granular) and the padded sections often do not show.
	 */
	int has_sections_delta, has_symbols_delta;
	struct store_sizes sections_delta, symbols_delta;
};

struct analyze_row {
	size_t variant;			/* index into model->variants */
	double *values;			/* one per measured run, in round order */
	int *rounds;			/* the round of each value */
	unsigned char *outlier;		/* per value, see stats_describe() */
	size_t n;
	size_t warmups, failed, missing;	/* runs left out */
	char *first_error;		/* "status: error" of the first failed run, or NULL */
	struct stats_summary summary;
	/*
	 * Whether the values fall in two clusters (stats_two_clusters()):
	 * under TCG a boot can settle a workload in a fast or a slow mode,
	 * and two kernels' means then differ by how many runs fell in each.
	 * Reports note it; the comparison is left as it is.
	 */
	struct stats_clusters clusters;
	/*
	 * Against the baseline: set when compared (not for the baseline's
	 * own row, nor when either side has no values).
	 */
	int compared;
	struct stats_comparison cmp;
	int is_baseline;
	int too_few;			/* 0 < n < ANALYZE_MIN_RUNS, or n == 0 */
	/*
	 * The row of the twin whose runs this same-as row shares, or
	 * SIZE_MAX.  Everything above but variant and is_baseline is then a
	 * copy of the twin's row (the arrays too: each row owns its own).
	 */
	size_t twin;
	/* A cumulative step (see "Cumulative steps" above); step is NONE for other rows. */
	enum analyze_step_kind {
		ANALYZE_STEP_NONE,	/* not a step, or nothing to compare it with yet */
		ANALYZE_STEP_COMPARED,	/* step_cmp: this step against step_prev */
		ANALYZE_STEP_SAME,	/* the same kernel as the step before: adds nothing */
	} step;
	size_t step_number;		/* 1, 2, ... for a step; 0 for other rows */
	size_t step_prev;		/* row of the step before (the baseline's for the first) */
	struct stats_comparison step_cmp;
};

/* One option added last (all vs all-but-it), beside its cost alone. */
struct analyze_added_last {
	char *option;			/* "CONFIG_X=y" */
	size_t loo_row;			/* row of all-but-it */
	size_t alone_row;		/* row of it alone, or SIZE_MAX when that is a no-op */
	/*
	 * kind: ANALYZE_AL_MODEL     ia from stats_added_last()
	 *       ANALYZE_AL_ALONE_NOOP  alone it does nothing; cmp is all vs loo
	 *       ANALYZE_AL_SAME_AS_ALL all-but-it is the same kernel as all:
	 *                              other options turn it on anyway
	 */
	enum {
		ANALYZE_AL_MODEL,
		ANALYZE_AL_ALONE_NOOP,
		ANALYZE_AL_SAME_AS_ALL,
	} kind;
	struct stats_interaction ia;
	struct stats_comparison cmp;
};

enum analyze_note_kind {
	ANALYZE_NOTE_FAILED,
	ANALYZE_NOTE_TOO_FEW,
	ANALYZE_NOTE_NOT_RUN,
};

struct analyze_note {
	enum analyze_note_kind kind;
	size_t row;
};

/*
 * A run's instructions by where they ran (store-meter.h): the wall table's
 * clock_text says what share of its runs' went before the kernel
 * (firmware, the bzImage's decompressor), to the kernel and to user space.
 */
struct analyze_run_meter {
	uint64_t total, before_kernel, kernel, user;
};

struct analyze_table {
	size_t source;			/* index into model->sources */
	char *workload;
	char *metric;			/* "wall", "boot", or a sample metric */
	char *unit;
	int higher_is_better;
	struct analyze_row *rows;	/* plan order */
	size_t nr_rows;
	size_t baseline;		/* row of the baseline, or SIZE_MAX */
	/*
	 * Rows with values in display order: the baseline, variants of kind
	 * all, cumulative steps in plan order, then by effect, costliest first
	 * (NaN changes last, ties in plan order).
	 */
	size_t *order;
	size_t nr_order;
	size_t runs, warmups, failed, missing;	/* totals over rows but same-as rows */
	size_t min_n, max_n;		/* over rows with values */
	size_t iterations;		/* most samples one run had for this metric (0 for wall/boot) */
	char *accel;			/* the accelerators its runs used: "tcg", "kvm, tcg" */
	char *clock;			/* and their guest clocks: "icount:0", "host" */
	size_t layouts;			/* distinct layout seeds among its runs (icount) */
	int guests;			/* the most guests a run of it had side by side (0, 1: alone) */
	/*
	 * What its numbers are, in words, for every writer: "guest time
	 * counted in instructions (icount shift 0: 1 instruction = 1 ns);
	 * host load does not move it; 40 layouts sampled", or host time.
	 */
	char *clock_text;

	int has_product;
	size_t product_k;		/* oat variants in the product */
	size_t *product_rows;		/* their rows (SIZE_MAX: no row, e.g. build failed) */
	size_t *product_variants;	/* and their variant indices */
	size_t product_left_out;	/* oat variants left out (no-op, same-as) */
	struct stats_interaction product;

	struct analyze_added_last *added_last;
	size_t nr_added_last;

	struct analyze_note *notes;	/* see "Notes" above */
	size_t nr_notes;

	/*
	 * The A/A control (plan.h's baseline-again): its row, or SIZE_MAX;
	 * whether it is marked significant ('*' or '~'); and the verdict in
	 * words, for every writer: "A/A control: baseline-again +0.0%
	 * [-0.2% .. +0.3%], not marked: ..." or, when marked, that this
	 * experiment's noise is not under control and its small verdicts
	 * cannot be trusted.  NULL without a control.
	 */
	size_t aa_row;
	int aa_marked;
	char *aa_text;

	size_t nr_steps;		/* rows that are cumulative steps */
	size_t series;			/* the analyze_series that shows it, or SIZE_MAX */
};

/*
 * A parameter series (hackbench:groups=1,4,7,12, recorded by the run in
 * meta "series"): its members are workloads of their own, each with its
 * tables, and a series is the view reports print instead of them, one per
 * metric: a row per value, a column per variant, as mmtests does
 * ("Amean 1 ...", "Amean 4 ...").  It exists when two or more of its
 * members have a table of the metric.  Each member table's `series` is
 * the index of the series that shows it.
 */
struct analyze_series {
	char *label;			/* "hackbench:groups=1,4,7,12" */
	char *param;			/* "groups" */
	char *metric, *unit;
	int higher_is_better;
	size_t nr_values;
	char **values;			/* "1", "4", ... in the series' order */
	size_t *tables;			/* per value: its table, or SIZE_MAX (no runs yet) */
	size_t first_table;		/* the lowest of tables[]: where writers print it */
	size_t *variants;		/* the columns: variants with a row in some member */
	size_t nr_variants;
	size_t runs, failed, warmups;	/* totals over the member tables */
	size_t min_n, max_n;		/* values per cell, over cells with values */
};

/* A named group of options and what it sets ("CONFIG_X=y" each). */
struct analyze_group {
	char *name;
	struct strvec members;
};

/* A kernel source of the experiment, as stored (store.h). */
struct analyze_source {
	char *label;			/* "" for a lone source */
	char *version;			/* "6.1.192" */
	char *origin;			/* the tree or archive as named */
	char *patch;			/* a patched source's patch, else NULL */
	const char *patch_name;		/* its file name without directories, for reports */
	size_t base;			/* a patched source's base, else SIZE_MAX */
	size_t baseline;		/* its baseline variant, or SIZE_MAX */
};

/* One variant name on every source (see "Sources" above). */
struct analyze_counterpart {
	char *name;			/* without a label: "baseline", "CONFIG_X=y", "all" */
	size_t *variant;		/* per source: its variant, or SIZE_MAX when it has none */
	/*
	 * Per source (NULL for the first): how its kernel differs from the
	 * first source's when both are measured, "6.12 also sets NEW_DEP",
	 * or NULL when they change the same symbols.
	 */
	char **differs;
};

/* A counterpart on one source, against the first source's (see "Sources"). */
struct analyze_across_cell {
	size_t row;			/* its row in the source's table, or SIZE_MAX (no values) */
	int has_same;
	struct stats_comparison same;
	int has_change;
	struct stats_cost_change change;
};

/* Per workload and metric: every counterpart on every source. */
struct analyze_across {
	char *workload, *metric, *unit;
	int higher_is_better;
	size_t *tables;			/* per source: its table, or SIZE_MAX */
	/* [c * nr_sources + s]: counterpart c on source s (s = 0 has no same or change) */
	struct analyze_across_cell *cells;
};

/*
 * Where the cost goes (stats/attribution.h): for a table of the meter's
 * "instructions" metric (run/meter.h) and each variant whose comparison
 * with the baseline is marked ('*' or '~', the A/A control aside), the
 * kernel functions that account for the change, from the two variants'
 * stored profiles (store_get_variant_profile(), the phase that makes up
 * the metric, per operation); the check is against the table's means.
 * Built by analyze-where.c; a table whose runs kept no profiles has none.
 */
struct analyze_where {
	size_t table, row;		/* the table, and the variant's row in it */
	int base_runs, variant_runs;	/* the runs each profile is the mean of */
	const char *phase;		/* "boot", "work", "all" */
	struct attribution a;
};

struct analyze_model {
	struct analyze_options opts;
	/* The sources, in order; one, labelled "", for a lone source. */
	struct analyze_source *sources;
	size_t nr_sources;
	/* With several sources: the counterparts in the first source's plan order, then the others'. */
	struct analyze_counterpart *counterparts;
	size_t nr_counterparts;
	struct analyze_across *across;	/* one per workload and metric, with several sources */
	size_t nr_across;
	struct strvec facts;		/* key, value, key, value... (the store's meta, as text) */
	struct conditions conditions;	/* the runs' conditions, typed (store/conditions.h) */
	char *runs_accel;		/* the measured runs' accelerators, sorted, ", "-joined */
	char *screen_report;		/* a screen's (store_get_screen_report()), or NULL */
	struct analyze_variant *variants;	/* plan order */
	size_t nr_variants;
	size_t baseline;		/* variant index, or SIZE_MAX */
	struct analyze_table *tables;
	size_t nr_tables;
	struct analyze_group *groups;	/* plan order */
	size_t nr_groups;
	struct analyze_series *series;	/* in meta order, then by metric */
	size_t nr_series;
	/* Raw data, for CSV and the HTML data table: every run and sample. */
	struct store_run *runs;
	size_t nr_runs;
	struct store_sample_row *samples;	/* ordered by run id */
	size_t nr_samples;
	/* What the meter counted in each measured ok run (runs[i]; total 0: none). */
	struct analyze_run_meter *meters;
	struct analyze_where *where;	/* in table order, then the table's display order */
	size_t nr_where;
	/* The kernel's own reports per variant (analyze-findings.h). */
	struct analyze_finding *findings;
	size_t nr_findings;
	/* The conditions of the runs, and where variants differ (analyze-env.h). */
	struct analyze_env_fact *env;
	size_t nr_env;
	/* Kconfig's cost claims of the options measured (analyze-claims.h). */
	struct analyze_claim *claims;
	size_t nr_claims;
};

/*
 * Builds the model from the store.  Returns 0, or -1 with a message: the
 * store cannot be read, or --workload / --metric name nothing measured
 * (the message lists what there is).  An experiment without runs is not
 * an error: it has no tables.
 */
int analyze_load(struct analyze_model *out, struct store *st,
		 const struct analyze_options *opts);
void analyze_release(struct analyze_model *m);

/* Counterpart c on source s of an across block. */
const struct analyze_across_cell *analyze_across_cell(const struct analyze_model *m,
						     const struct analyze_across *a,
						     size_t c, size_t s);

/*
 * The across block the tables of table t belong to when t is the last of
 * them (its sources' tables all printed), else NULL: where a writer puts it.
 */
const struct analyze_across *analyze_across_after(const struct analyze_model *m, size_t t);

/* "6.1 (6.1.192)", "6.1+fix (6.1.192 with fix.patch)"; appended to sb. */
void analyze_describe_source(struct strbuf *sb, const struct analyze_source *s);

/*
 * The value of an experiment fact that is not a condition (the store's
 * meta, store/meta-keys.h), or NULL when unknown or empty; a condition is
 * m->conditions'.
 */
const char *analyze_fact(const struct analyze_model *m, const char *key);
/*
 * The runs' accelerator: the experiment's condition, or for an import
 * (which has none) its runs' ("kvm, tcg"); NULL when neither says.
 */
const char *analyze_accel(const struct analyze_model *m);

/*
 * The cell of series s for value i and variant (an index into
 * m->variants): the member table's row, or NULL when that member has no
 * table or no row for it.  *table, when not NULL, gets the table.
 */
const struct analyze_row *analyze_series_cell(const struct analyze_model *m,
					      const struct analyze_series *s, size_t i,
					      size_t variant, const struct analyze_table **table);

/* The variant of a row, and its name. */
const struct analyze_variant *analyze_row_variant(const struct analyze_model *m,
						  const struct analyze_row *r);

/*
 * Samples of a run: sets *first to the index of its first sample in
 * m->samples and returns how many it has.
 */
size_t analyze_run_samples(const struct analyze_model *m, int64_t run_id, size_t *first);

/*
 * A run's value of a metric, as every table computes it: "wall" and
 * "boot" are the run's own; any other name is the mean of the run's
 * samples of that metric (samples[0..nr) may hold other runs' too; only
 * r->id's count).  Returns 0, or -1 when the run lacks the metric;
 * *iterations is the number of samples averaged (0 for wall and boot).
 */
int analyze_run_value(const char *metric, const struct store_run *r,
		      const struct store_sample_row *samples, size_t nr,
		      double *out, size_t *iterations);

/* The twin whose runs a row shares (a same-as variant's row), or NULL. */
const struct analyze_variant *analyze_row_twin(const struct analyze_model *m,
					       const struct analyze_row *r);

/*
 * Whether a variant goes in the list of variants not measured: a no-op, a
 * failed build, or a same-as variant without a twin that is ok.
 */
int analyze_not_measured(const struct analyze_model *m, const struct analyze_variant *av);

/* The variant a run belongs to, or NULL. */
const struct analyze_variant *analyze_run_variant(const struct analyze_model *m,
						  const struct store_run *r);

/* The group named name (a variant or a candidate label), or NULL. */
const struct analyze_group *analyze_group(const struct analyze_model *m, const char *name);

/* "ok", "no-op", "same-as", "build failed". */
const char *analyze_state_name(enum analyze_state state);

/*
 * A short verdict on an interaction: "multiplicative", "super-multiplicative",
 * "sub-multiplicative" or "too few runs", from its marker and direction.
 */
const char *analyze_interaction_verdict(const struct stats_interaction *ia);

/*
 * Decimals that show a value of this table to about five significant
 * digits (3 for values from 1 to 1000, as hyperfine prints seconds).
 */
int analyze_decimals(const struct analyze_table *t);

#endif
