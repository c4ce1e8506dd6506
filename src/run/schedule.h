/* schedule.h: the order of an experiment's runs: seeded randomized complete blocks, warm-ups first, resumable. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCHEDULE_H
#define SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "util/shard.h"

/*
 * For each workload in turn: `warmup` warm-up rounds (rounds -1, -2, ...,
 * -warmup), then `runs` measured rounds (0 .. runs-1).  Every round is a
 * block that runs each variant once, in its own random order, so slow drift
 * of the host (thermal, a neighbour's build) spreads over all variants
 * instead of landing on whichever ran last.
 *
 * A round's order is a Fisher-Yates shuffle of the variants driven by
 * splitmix64 (Steele, Lea & Flood 2014, the seeder of xoshiro), seeded with
 * a hash of (seed, workload spec, round) alone.  So the order of a round
 * does not depend on the other rounds, on how many rounds there are or on
 * which runs are already done: `--runs 8` after `--runs 5` keeps rounds
 * 0-4 as they were, and a resumed experiment runs what is missing in the
 * order it would have had.  The same seed gives the same orders on every
 * host (integer arithmetic only).
 */

struct schedule_run {
	size_t workload;	/* index into schedule_options.workloads */
	size_t variant;		/* 0 .. nr_variants-1 */
	int round;		/* 0.. measured, -1.. warm-up */
	int warmup;		/* round < 0 */
	int seq;		/* position within the round */
};

struct schedule_options {
	uint64_t seed;
	/* Canonical workload specs (workload_spec_format()); they key the orders. */
	const char *const *workloads;
	size_t nr_workloads;
	size_t nr_variants;
	int runs;		/* measured rounds per workload, >= 0 */
	int warmup;		/* warm-up rounds per workload, >= 0 */
	/*
	 * One shard of the rounds (util/shard.h): its measured rounds (r mod
	 * count == index) and every warm-up round, so each shard warms up
	 * the host it runs on and the shards' warm-ups of one run compare
	 * host with host.  A round is whole in one shard, so drift stays
	 * balanced inside it, and its order is the unsharded one.
	 */
	struct shard shard;
};

/* The runs in the order they are to run; owns runs[]. */
struct schedule {
	struct schedule_run *runs;
	size_t nr, alloc;
};
#define SCHEDULE_INIT { NULL, 0, 0 }

/* Fills out (SCHEDULE_INIT or released) with every run o asks for. */
void schedule_make(struct schedule *out, const struct schedule_options *o);
void schedule_release(struct schedule *s);

/*
 * Whether a run is already done: 1 yes, 0 no, -1 error (already printed).
 * cmd-run asks the store (store_has_run()).
 */
typedef int (*schedule_done_fn)(const struct schedule_run *run, void *data);

/*
 * Drops the runs done() says are done, keeping the order of the rest.
 * Returns the number dropped, or -1 when done() failed (s is then
 * unchanged).
 */
long schedule_drop_done(struct schedule *s, schedule_done_fn done, void *data);

/*
 * Writes the order of one round into order[0..n): a permutation of 0..n-1.
 * schedule_make() uses it; exposed for tests.
 */
void schedule_round_order(size_t *order, size_t n, uint64_t seed,
			  const char *workload, int round);

/*
 * The layout seed of one run (vm.h, enum vm_clock): a function of the
 * experiment's seed, the variant, the workload spec, the round and whether
 * it is a warm-up, so a run is exactly reproducible and every run of an
 * experiment draws its own layout -- baseline-again's runs too, which is
 * what makes that control meaningful.  Below 2^63, to fit the store's
 * signed 64-bit integers.
 */
int64_t schedule_layout_seed(uint64_t seed, const char *variant, const char *workload,
			     int round, int warmup);

/* A fresh seed from getrandom(), or the clock and pid when that fails. */
uint64_t schedule_new_seed(void);

/* Parses a decimal seed ("0" .. "18446744073709551615"); 0 or -1 with an error. */
int schedule_parse_seed(uint64_t *out, const char *text);

#endif
