/* screen-run.h: a screen of real kernels: the engine's requests planned, built and run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCREEN_RUN_H
#define SCREEN_RUN_H

#include "screen/screen.h"
#include "util/sha256.h"

struct kbuild_options;
struct measure_options;
struct plan_options;
struct store;

/*
 * screen_run() drives the engine of screen.h with kernels.
 *
 * Setup.  The plan is the baseline and each option alone (design oat),
 * resolved by Kconfig as for a sweep.  An option whose variant is a no-op
 * is left out of the screen with the plan's reason, one that is the same
 * kernel as another option alone is left out as screened with it, and an
 * option whose kernel alone turns on another candidate option comes after
 * that option in the screen order (it selects or depends on it), so every
 * group the engine builds is closed.  Otherwise the order is the order
 * the options were given in, or with related_order a chain of options
 * whose kernels change the same symbols.  The baseline and the left-out options are
 * stored as variants (kinds baseline and oat), so reports list the
 * no-ops with their reasons.
 *
 * Variants.  Each variant the engine asks for is resolved with
 * olddefconfig (plan_add_variant()) and stored: "all" and "first K" as
 * kind group, "CONFIG_X=y" (an option alone, with what it needs) as kind
 * oat and "all found" as kind all, so that the usual report of the
 * experiment compares them with the baseline and sets "all found" beside
 * the product of the options alone, as for a sweep.  A variant whose
 * effective config is a stored one's is stored as same-as it and shares
 * its runs; one in which some requested setting did not take is reported
 * (screen_variant_note()).  Kernels are built once in the cache, seeded
 * from the baseline's tree.  A failed build fails the variant.
 *
 * Runs.  The engine's requests ("variant V needs N runs") are met in
 * rounds: every kernel still short of runs runs once per round, in a
 * seeded random order, so the two ends of a group are interleaved and
 * drift cannot pose as a cost.  A kernel's first boot is a warm-up (o->
 * measure->warmup of them), kept and not counted.  A run's value is the
 * metric as reports compute it (analyze_run_value()); a failed run (panic,
 * timeout...) fails its variant: the groups that need it are unresolved,
 * which the report says.
 *
 * Resuming.  Everything is in the store as it happens; the engine is
 * deterministic, so a second call with the same inputs replays it: stored
 * variants are taken by name, cached kernels are not rebuilt, stored runs
 * answer the requests in round order, and only what is missing is done.
 */
struct screen_run_options {
	/* source, base, options, with_deps, jobs, work_dir (designs: oat is used) */
	const struct plan_options *plan;
	/* prepared (kbuild_prepare()) */
	const struct kbuild_options *build;
	/* dir, the one workload, warm-ups, seed and machine */
	const struct measure_options *measure;
	struct screen_options screen;
	/* The workload's metric to screen on: a sample metric, wall or boot. */
	const char *metric;
	/*
	 * 0: the options in the order given; 1: related options together
	 * (sharing the symbols their kernels change).  Either way an option
	 * comes after the candidates it turns on.
	 */
	int related_order;
};

/*
 * The input key of a screen: the plan's (plan_input_key()) and every
 * setting the engine's decisions depend on.  0, or -1 with a message.
 */
int screen_run_key(const struct screen_run_options *o, char key[SHA256_HEX_SIZE]);

/*
 * Runs the screen in the experiment whose store is st to its end (see
 * above) and hands back the engine in *out for the report (free with
 * screen_free(); NULL on errors).  Stores the text of screen_report_text()
 * as meta screen_report and writes DIR/screen.json.  Returns 0 when done
 * with every variant built and run, 1 when done but some build or run
 * failed, -1 on an error that stopped it (all measured so far is kept).
 */
int screen_run(struct store *st, const struct screen_run_options *o, struct screen **out);

#endif
