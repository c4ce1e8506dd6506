/* adaptive.h: --runs auto: add rounds until every interval is as narrow as asked. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ADAPTIVE_H
#define ADAPTIVE_H

struct measure_options;
struct store;

/*
 * How many rounds an experiment needs is not known before it runs: a
 * deterministic metric is decided in three, a layout-sensitive one needs
 * more.  adaptive_runs() runs min_runs rounds of every workload, then adds
 * rounds (each runs every variant once, as measure_runs() schedules them)
 * to each workload until the 95% interval of every measured variant's
 * change against the baseline, on that workload's deciding metric, has a
 * half-width of at most target percent of the ratio (adaptive_half_width()),
 * or max_runs rounds are stored.
 * A workload decided stops there while the others go on: the main job's
 * system call is decided in three rounds, its boot (which samples the
 * timer tick's phase, vm.h) goes on to max_runs alone.  It stops on
 * precision, never on significance: a rule that stops when a p-value
 * crosses alpha makes false positives more likely, one that stops on the
 * interval's width does not look at where the interval lies.
 *
 * The deciding metric of a workload is its own (the samples it reports,
 * counted under icount by the guest clock), else its boot time; the
 * whole-run wall time never decides, as it is host time.  A workload that
 * waits (WL_WAITS: boot waits for timer ticks, libguestfs for its disk)
 * is decided on the meter's busy instructions instead ("instructions",
 * run/meter.h) when its runs have them: they count its work and not the
 * wait, so they are nearly exact where its guest time samples the tick's
 * phase or the host's I/O.  A variant
 * without values (its runs failed) does not hold the others up.
 * Resumable: rounds already stored count, so the same command continues
 * where an interrupted one stopped.  Progress (stderr): after each batch,
 * the widest interval and whose it is.
 */
struct adaptive_options {
	int min_runs;		/* rounds before the first look: ADAPTIVE_MIN_RUNS */
	int max_runs;		/* never more rounds than this: --max-runs */
	double target;		/* half-width in percent: the noise band by default */
	double confidence;	/* of the interval: 0.95 */
};
#define ADAPTIVE_MIN_RUNS 3
#define ADAPTIVE_DEFAULT_MAX_RUNS 30
#define ADAPTIVE_OPTIONS_INIT { ADAPTIVE_MIN_RUNS, ADAPTIVE_DEFAULT_MAX_RUNS, 1.0, 0.95 }

/*
 * Runs the experiment as measure_runs() does (o->runs is set to the
 * rounds reached) until ao's precision or ao->max_runs.  Returns what
 * measure_runs() returns for the last batch, or 1 when a batch had failed
 * runs; -1 on an error that stopped the experiment.
 */
int adaptive_runs(struct store *st, struct measure_options *o, const struct adaptive_options *ao);
/*
 * The rounds to have after `rounds` (n the fewest any variant has) when
 * the widest interval is widest and the target target (percent): half way
 * to what 1/sqrt(runs) says reaches it, at least one more, at most
 * max_runs.
 */
int adaptive_next_rounds(int rounds, int n, double widest, double target, int max_runs);

/*
 * The half-width, in percent of the ratio, of a change's interval
 * [change_lo, change_hi] (percent): the geometric half-width
 * sqrt(hi / lo) - 1 of the ratios 1 + change / 100.  For a small change
 * it is (hi - lo) / 2 (1.005 for [-1 .. +1]); for a large one it is what the
 * experiment knows of the ratio, not of its distance from 1: PROVE_LOCKING's
 * syscall +935% [+933 .. +936] is known to 0.15%, although its interval is
 * 3 points wide (judged in points it asked for rounds that a change near
 * zero of the same relative noise would not).  INFINITY when the interval
 * reaches -100% (no ratio bounds it) or is not one.
 */
double adaptive_half_width(double change_lo, double change_hi);

/*
 * The widest half-width (percent of the ratio, adaptive_half_width()) of
 * the intervals adaptive_runs() judges in the stored experiment, of
 * workload (a workload_spec_format() label) or of all when it is NULL, INFINITY when one is unbounded or missing;
 * *who gets "VARIANT on WORKLOAD METRIC" (static storage, for messages),
 * *n the fewest values a judged row has.  -1 with a message on a store
 * error, else 0.
 */
int adaptive_precision(struct store *st, const char *workload, double confidence,
		       double *widest, const char **who, int *n);

#endif
