/* screen.h: sequential bifurcation, finding the few costly options among many with few builds. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCREEN_H
#define SCREEN_H

#include <stddef.h>

#include "stats/stats.h"

/*
 * The method is Bettonvil and Kleijnen's sequential bifurcation: group
 * screening for factors of known sign.  Debug options only add cost, so if
 * a group of them costs nothing, none of its members does.
 *
 * Order.  The options are first put in a screen order: the caller's
 * preferred order (screen_prefer_order(), else the order of the names),
 * changed only as far as the constraints of screen_after() require ("A
 * comes after B": A depends on or selects B).  The sort is stable: among
 * the options whose prerequisites are all placed, the one the caller
 * preferred first goes next.
 *
 * Variants.  P_k is the baseline plus the first k options of the screen
 * order.  Every option's prerequisites come before it, so every P_k is a
 * closed configuration: Kconfig has nothing to add or take away.  P_0 is
 * the baseline, P_n "all".
 *
 * Groups.  A group is a contiguous range of the order, positions
 * lo..hi-1, and its cost is that of going from P_lo to P_hi:
 * mean(P_hi) / mean(P_lo) - 1.  Splitting a group at its middle m needs one
 * build, P_m, and measures both halves: lo..m-1 from P_lo to P_m and
 * m..hi-1 from P_m to P_hi.  Groups are only ever split at these contiguous
 * boundaries, so every group is measured between two closed
 * configurations.  The root group is every option (P_0 to P_n).  A
 * group's cost is its members' cost on top of the options before it, which
 * is their cost alone when costs multiply; the confirmation phase measures
 * the found options alone.
 *
 * Decision rule.  Once both of a group's variants have the runs asked for,
 * it is compared with stats_compare() (P_hi against P_lo: Fieller's
 * interval for the ratio of means at `confidence`, Welch's t on logs).  Let
 * c be the cost in percent and [c_lo, c_hi] its interval (for a
 * higher-is-better metric the cost is the loss: c = -change):
 *
 *   1. c_lo > threshold and Welch's p < alpha: the group costs more than the
 *      threshold.  Split it in two; a single option is found.
 *   2. c_hi < threshold: the group costs less than the threshold (negative
 *      costs included): drop it, with every option in it.
 *   3. otherwise, while either variant has fewer than runs_max runs: ask
 *      for runs_step more runs of the variant that has fewer (of both when
 *      they have the same number) and decide again.
 *   4. at runs_max: if the interval is no wider than +-indifference
 *      (c_hi - c_lo <= 2 indifference), the cost is that close to the
 *      threshold and either answer is acceptable: split when c >=
 *      threshold, else drop.  If it is still wider, split: a group is never
 *      dropped while it may cost more than the threshold by more than the
 *      indifference; a single option is then SCREEN_UNDECIDED, reported
 *      apart, neither found nor cleared.  (Large noise thus costs builds,
 *      which is the honest answer: screen with more runs.)
 *
 * Drift.  A group is judged only on runs of its two variants taken after
 * it was made: it asks runs_initial new runs of both (and runs_step more
 * of both while undecided), so a caller that interleaves a step's runs
 * compares the two under the same host conditions.  Reusing the older runs
 * of one end (the baseline has many) would set runs from a quiet host
 * against runs from a busy one, and a real screen did exactly that: a
 * cheap group came out -51% and the next +141% when a neighbour's build
 * ended between their runs.  The same holds for the confirmations: the
 * baseline and each of them get runs_confirm new runs together.  This
 * costs runs, which are cheap, and no builds.
 *
 * A new group gets runs_initial runs of each end before its first decision.  Runs are
 * asked for in pairs of variants compared with each other, so a caller can
 * interleave them (randomized blocks) and keep drift out of the comparison.
 * The intervals are not widened for the repeated looks: with the threshold
 * several noise sds from both zero and the costs that matter this changes
 * nothing (no zero-cost option found in 100 simulated screens of the Fedora
 * table at 0.75% noise), and at noise near the threshold the simulator
 * shows what it does.  Runs are cheap and builds are not: an undecided
 * group gets more runs, up to runs_max, before it costs a build.
 *
 * Plan results enter before screen_start(): an option that does not take
 * (unmet dependency, hidden symbol, already set) is screen_exclude()d with
 * its reason, and a variant the kernel resolved differently from what was
 * asked gets a screen_variant_note(); the report shows both.
 *
 * Confirmation.  When no group is left undecided, each found option is
 * measured alone (baseline + the option + its prerequisites, per
 * screen_after()) and all found options together ("all found"), each with
 * runs_confirm runs, the baseline topped up to as many; these are compared
 * with the baseline as a sweep's variants are (stats_compare(), then
 * Benjamini-Hochberg over the confirmations with stats_adjust()), and "all
 * found" is set beside the product of the alone costs
 * (stats_multiplicative()).
 *
 * Builds.  A variant is a set of options and each distinct set is built
 * once: "CONFIG_X alone" is P_1 when X is first in the order, "all found" is
 * P_k when the found options are the first k, and one found option alone is
 * "all found".  screen_builds() counts the distinct variants asked for,
 * failed ones included.
 *
 * Determinism and resuming.  The engine has no randomness and no clock: what
 * it asks for next is a function of its inputs and of each variant's run
 * values in order.  A request is "runs until variant V has N", so a caller
 * resumes by starting a new engine with the same inputs and answering each
 * request from the runs stored for V first (its runs N0..N-1 in stored
 * order), building and running only what is missing; the engine then asks
 * exactly what it asked before.
 */

/*
 * Attribution (opts.attribute).  A yes/no test per group needs about
 * log2 C(n, k) tests to find k costly options among n; a group's
 * per-function change says more.  When a group costs more than the
 * threshold and has two or more members, the engine asks the caller for
 * its evidence: the members that can own the change, each a member whose
 * options' symbols some changed function's object depends on or is built
 * by (kbuild/objects-index.h).  A member no changed function can belong to
 * changed nothing the kernel ran, so it costs nothing.  Then:
 *
 *   one candidate   the group's change is that member's: it is found
 *                   without a split (SCREEN_WHY_ATTRIBUTED), and measured
 *                   alone as every found option is; the others are
 *                   dropped, cleared by the evidence;
 *   several         the group is split between them (at the first
 *                   candidate of the second half), so each half holds
 *                   fewer, instead of at its middle;
 *   none            a cost that no member's code explains (the kernel
 *                   behaved differently, or the evidence is missing): the
 *                   group is split at its middle, as without attribution.
 *
 * Confirmation keeps attribution honest: an attributed option measured
 * alone must account for its group's cost; when the group cost more than
 * the option alone by more than the threshold (intervals apart), the
 * group is split after all (SCREEN_WHY_CONTRADICTED) and screened on.
 */

#define SCREEN_NONE ((size_t)-1)

struct screen_options {
	/* Percent; a group costing more is split, one costing less dropped: 3. */
	double threshold;
	/*
	 * Percent; half-width of the zone around threshold in which, at
	 * runs_max, the estimate decides (rule 4); 0 means threshold / 4.
	 */
	double indifference;
	/* Two-sided level of the intervals: 0.95. */
	double confidence;
	/* Welch's p on logs must be below this to split: 0.05. */
	double alpha;
	/* Runs of a new variant before its first decision (at least 3): 5. */
	size_t runs_initial;
	/* Runs added to an undecided group's variant: 5. */
	size_t runs_step;
	/* Runs of a variant at which an undecided group is decided anyway: 60. */
	size_t runs_max;
	/* Runs of each confirmation variant and of the baseline: 10. */
	size_t runs_confirm;
	/* 0 for times (higher is a cost), 1 for throughputs. */
	int higher_is_better;
	/* 1: measure the found options alone and together at the end. */
	int confirm;
	/*
	 * 1: before it splits a group of two or more options, the engine
	 * asks for evidence (screen_step.evidence, screen_set_evidence()):
	 * which of its members can own the group's change (see
	 * "Attribution" above).
	 */
	int attribute;
};
#define SCREEN_OPTIONS_INIT { 3.0, 0, 0.95, 0.05, 5, 5, 60, 10, 0, 1, 0 }

/* A variant: the baseline plus a set of options. */
struct screen_variant {
	/* "baseline", "all", "first 57", "CONFIG_X=y alone", "all found". */
	char *name;
	/* Its options (option indices), in screen order. */
	size_t *options;
	size_t nr_options;
	/* k when the variant is P_k, else SCREEN_NONE. */
	size_t prefix;
	/* The runs' values, in the order they were given. */
	double *values;
	size_t nr_values, alloc_values;
	/* Runs asked for (the total). */
	size_t want;
	/* Set by screen_variant_failed(): no runs, and why. */
	int failed;
	char *failure;
	/* Set by screen_variant_note(): how the kernel resolved it differently. */
	char *note;
};

enum screen_decision {
	SCREEN_PENDING,		/* waiting for builds or runs */
	SCREEN_SPLIT,		/* costs more than the threshold: split in two */
	SCREEN_FOUND,		/* one option that costs more than the threshold */
	SCREEN_DROPPED,		/* costs less: so does each of its options */
	SCREEN_UNDECIDED,	/* one option still uncertain at runs_max: not found, not cleared */
	SCREEN_UNRESOLVED,	/* a variant it needs failed */
};

enum screen_why {
	SCREEN_WHY_NONE,
	SCREEN_WHY_ABOVE,	/* rule 1: interval above the threshold */
	SCREEN_WHY_BELOW,	/* rule 2: interval below the threshold */
	SCREEN_WHY_CAP_ABOVE,	/* rule 4: at runs_max, near the threshold, estimate above */
	SCREEN_WHY_CAP_BELOW,	/* rule 4: at runs_max, near the threshold, estimate below */
	SCREEN_WHY_CAP_WIDE,	/* rule 4: at runs_max and still uncertain: kept */
	SCREEN_WHY_FAILED,	/* a variant failed */
	SCREEN_WHY_ATTRIBUTED,	/* above the threshold, all of it one member's (attribution) */
	SCREEN_WHY_CONTRADICTED,	/* attributed, but the option alone costs less: split */
};

/* One group of the bifurcation tree. */
struct screen_node {
	/* The group: positions lo..hi-1 of the screen order. */
	size_t lo, hi;
	/* Variants P_lo and P_hi. */
	size_t from, to;
	/*
	 * Their runs when the group was made: it is judged on the runs after
	 * these, which the engine asks for together (see "Drift").
	 */
	size_t from_start, to_start;
	/* Node indices; SCREEN_NONE for the root's parent and unsplit children. */
	size_t parent, child[2];
	unsigned depth;
	/* Evaluations: 1 + the times it asked for more runs. */
	unsigned looks;
	enum screen_decision decision;
	enum screen_why why;
	/* Percent, positive when worse, at the last evaluation (NaN before). */
	double cost, cost_lo, cost_hi;
	/* P_hi against P_lo at the last evaluation. */
	struct stats_comparison cmp;
	/*
	 * Attribution (opts.attribute): 0 not asked, 1 asked and waiting,
	 * 2 given (screen_set_evidence()).  candidates are the members (as
	 * positions) that can own the change; owned[k] is member lo + k's
	 * share of the change in functions that only it can have changed, in
	 * percent of P_lo (NaN unknown); evidence the caller's words for it.
	 * attributed is the position of the member found by attribution, or
	 * SCREEN_NONE; split_why the rule that asked for the split.
	 */
	int evidence;
	size_t *candidates;
	size_t nr_candidates;
	double *owned;
	char *evidence_text;
	size_t attributed;
	enum screen_why split_why;
};

/* A found option measured alone, or all found options together. */
struct screen_confirmation {
	/* The option index, or SCREEN_NONE for "all found". */
	size_t option;
	/* The found leaf, SCREEN_NONE for "all found". */
	size_t node;
	size_t variant;
	/* Its runs before the confirmation; it is judged on those after. */
	size_t start;
	/* Against the baseline; q is Benjamini-Hochberg's over all confirmations. */
	struct stats_comparison cmp;
	double cost, cost_lo, cost_hi;
};

struct screen;

/*
 * A new engine for nr options named names[0..nr-1] (copied; they are only
 * printed).  Options are referred to by their index in names.  opts is
 * copied; NULL means SCREEN_OPTIONS_INIT.  Free with screen_free().
 */
struct screen *screen_new(const char *const *names, size_t nr,
			  const struct screen_options *opts);
void screen_free(struct screen *s);

/*
 * Before screen_start(): the caller's preferred order, a permutation of
 * 0..nr-1 (copied).  Returns 0, or -1 when order is not a permutation.
 */
int screen_prefer_order(struct screen *s, const size_t *order);

/*
 * A preferred order for options whose kernels change the symbols sym[i]
 * (each sorted), for `--order related`: options next to each other when
 * they change the same symbols (PROVE_LOCKING and LOCK_STAT both turn on
 * LOCKDEP and DEBUG_LOCK_ALLOC), so that costly relatives fall in one group
 * and the cheap rest in groups that are dropped whole.  A chain: from
 * option 0, each next one is the one sharing most symbols with the last
 * placed (the lowest index on ties, and when none shares any).
 *
 * Then, of two neighbours that share symbols, the one changing fewer goes
 * first.  The screen measures each option on top of those before it, so
 * the later of two overlapping options shows only what it adds: LOCK_STAT
 * after PROVE_LOCKING adds 13% (its LOCKDEP is already there), where
 * PROVE_LOCKING after LOCK_STAT adds 60%.  Smaller first lets both show.
 * Writes a permutation of 0..n-1 to order.
 */
struct strvec;
void screen_related_order(const struct strvec *sym, size_t n, size_t *order);
/* Before screen_start(): option `later` must come after option `earlier`. */
int screen_after(struct screen *s, size_t later, size_t earlier);
/*
 * Before screen_start(): leave option i out of the screen, with the reason
 * (copied) for the report: "no-op: depends on FOO, which is not set".
 */
int screen_exclude(struct screen *s, size_t i, const char *reason);

/*
 * Fixes the screen order and asks for the baseline and "all".  Returns 0,
 * or -1 with an error naming an option on a cycle of screen_after()
 * constraints.  With no option left to screen, the screen is done at once.
 */
int screen_start(struct screen *s);

/* What the engine asks for: runs until each variant has `runs`. */
struct screen_want {
	size_t variant;
	size_t runs;
	/* 1 when the variant was never asked for before: build it first. */
	int build;
};

struct screen_step {
	int done;
	/* Valid until the next screen_next(); empty when done. */
	const struct screen_want *wants;
	size_t nr;
	/*
	 * Nodes that want evidence (opts.attribute) before they are decided;
	 * each must get screen_set_evidence() before the next call.  When
	 * there are any, wants is empty.
	 */
	const size_t *evidence;
	size_t nr_evidence;
};

/*
 * Decides what it can and says what it needs next: in *out either done, or
 * variants to build and run.  Every want must be met (screen_add_run()
 * until the variant has `runs` values) or its variant given up
 * (screen_variant_failed()) before the next call, which asks again for
 * whatever is missing.  Returns 0, or -1 before screen_start().
 */
int screen_next(struct screen *s, struct screen_step *out);

/*
 * One run's value for a variant of the current step.  Returns 0, or -1
 * with an error when the variant was not asked for, already has the runs
 * asked for, failed, or the value is not finite and positive.
 */
int screen_add_run(struct screen *s, size_t variant, double value);

/*
 * The evidence a node asked for (see "Attribution"): the options among its
 * members that can own its change (candidates[0..nr), option indices),
 * owned[k] for member lo + k (percent of P_lo in functions only it can
 * have changed; NULL: unknown) and the evidence in words (copied; may be
 * NULL).  Returns 0, or -1 when the node did not ask or a candidate is not
 * a member.
 */
int screen_set_evidence(struct screen *s, size_t node, const size_t *candidates, size_t nr,
			const double *owned, const char *text);

/*
 * The variant could not be built or run (why is copied).  Every group that
 * needs it becomes SCREEN_UNRESOLVED, and its options are reported as not
 * screened; a failed confirmation leaves that comparison NaN.
 */
int screen_variant_failed(struct screen *s, size_t variant, const char *why);
/* The kernel resolved the variant differently from what was asked (copied). */
int screen_variant_note(struct screen *s, size_t variant, const char *note);

/*
 * Results and the tree, readable at any time.  Pointers are valid until
 * the next screen_next() or screen_free().
 */
/* The options in force (after screen_new() raised any too-small counts). */
const struct screen_options *screen_get_options(const struct screen *s);
size_t screen_nr_options(const struct screen *s);
const char *screen_option_name(const struct screen *s, size_t i);
/* NULL unless option i was excluded. */
const char *screen_excluded(const struct screen *s, size_t i);
/* The screen order: positions 0..*nr-1 hold option indices. */
const size_t *screen_order(const struct screen *s, size_t *nr);

size_t screen_nr_variants(const struct screen *s);
const struct screen_variant *screen_variant(const struct screen *s, size_t v);
/* The option a SCREEN_FOUND node found (attributed or a leaf), else SCREEN_NONE. */
size_t screen_node_option(const struct screen *s, const struct screen_node *n);
/* Nodes in creation order: the root first, children after their parent. */
size_t screen_nr_nodes(const struct screen *s);
const struct screen_node *screen_node(const struct screen *s, size_t i);

/* Distinct variants asked for (built, or failed to build). */
size_t screen_builds(const struct screen *s);
/* Runs given, over all variants. */
size_t screen_runs(const struct screen *s);

/*
 * The found options (indices of SCREEN_FOUND leaves), in screen order once
 * no group is pending (in the order found before), and
 * the number of options in unresolved groups.
 */
size_t screen_nr_found(const struct screen *s);
size_t screen_found(const struct screen *s, size_t i);
size_t screen_nr_unresolved(const struct screen *s);

/*
 * When done: the confirmations, the found options in screen order and then
 * "all found" when two or more were found; none without opts.confirm.
 */
size_t screen_nr_confirmations(const struct screen *s);
const struct screen_confirmation *screen_confirmation(const struct screen *s, size_t i);
/*
 * When done with two or more found options: "all found" against the
 * product of their costs alone; NULL otherwise.
 */
const struct stats_interaction *screen_interaction(const struct screen *s);

/*
 * What the screen said of one option, for a table of every option: found
 * (by a leaf, or by attribution: its group's cost, then alone in the
 * confirmations); below the threshold (dropped with its group: hi is the
 * group's upper bound, on top of the options before it); cleared by
 * attribution (in a group attributed to another member: value is its
 * share in functions only it can have changed); undecided, unresolved,
 * excluded (screen_excluded() says why) or not decided yet.  Percent.
 */
enum screen_verdict_kind {
	SCREEN_VERDICT_PENDING,
	SCREEN_VERDICT_FOUND,
	SCREEN_VERDICT_BELOW,
	SCREEN_VERDICT_CLEARED,
	SCREEN_VERDICT_UNDECIDED,
	SCREEN_VERDICT_UNRESOLVED,
	SCREEN_VERDICT_EXCLUDED,
};
struct screen_verdict {
	enum screen_verdict_kind kind;
	size_t node;			/* the node that decided it, or SCREEN_NONE */
	int attributed;			/* decided by attribution, not measured alone */
	double value, lo, hi;		/* NaN when there is none */
};
void screen_option_verdict(const struct screen *s, size_t option, struct screen_verdict *out);
const char *screen_verdict_name(enum screen_verdict_kind kind);

/* "split", "found", "dropped"...; and the reason as a phrase for the report. */
const char *screen_decision_name(enum screen_decision d);
const char *screen_why_text(enum screen_why why);

#endif
