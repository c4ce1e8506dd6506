/* shard-merge.h: fold a shard's runs back into its experiment, exactly, once. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SHARD_MERGE_H
#define SHARD_MERGE_H

struct store;

/*
 * The first condition under which two databases' runs would not compare:
 * its field and both values (malloc'd), for a message that names it.
 */
struct merge_difference {
	char *field;	/* "qemu_version", "clock", "kernel of CONFIG_X=y" ... */
	char *here;	/* the experiment's value */
	char *there;	/* the shard's */
};
#define MERGE_DIFFERENCE_INIT { NULL, NULL, NULL }
void merge_difference_release(struct merge_difference *d);

/*
 * Compares what exp's runs and shard's were made under, in this order, and
 * fills *out with the first that differs:
 *
 *	plan_key, seed		the plan the shard was made from, the orders and
 *				layout seeds
 *	the typed conditions	conditions_first_difference() (store/conditions.h):
 *				kernel version, arch, baseline, harness, accel,
 *				clock and shift, qemu version, compiler, boot, cpu,
 *				smp, memory, meter, guest binary (initramfs_sha256),
 *				runner
 *	kconfperf		its version (a condition of merging, not of resuming)
 *	kernel of VARIANT	its config hash, then its build's key
 *
 * A fact only one side has (an experiment that never ran, a shard that ran
 * nothing) does not differ.  Returns 1 when one differs, 0 when none
 * does, -1 on an error.
 */
int merge_conditions_differ(struct store *exp, struct store *shard,
			    struct merge_difference *out);

struct merge_result {
	int added;		/* runs the experiment did not have */
	int present;		/* runs it had: not added again */
	/*
	 * The cross-host A/A check: runs it had that the shard measured
	 * again (every shard runs the warm-ups) under icount with the same
	 * layout seed, and of them how many gave identical guest-time values
	 * (boot time and every sample but host time).  A run copied into the
	 * shard from the experiment is the same run, not counted.
	 */
	int aa_compared, aa_identical;
	char *aa_first_diff;	/* the first that was not, described; malloc'd */
};
#define MERGE_RESULT_INIT { 0, 0, 0, 0, NULL }
void merge_result_release(struct merge_result *r);

/*
 * Folds shard's runs (their samples and instruction meter counts too) into
 * exp, in one transaction: every run exp does not have, keyed by (variant
 * name, workload, round, warm-up), so merging a shard again adds nothing.
 * The shard's conditions must be exp's (merge_conditions_differ(); a
 * difference is an error naming name, the field and both values, and
 * nothing is merged).  Facts exp lacks (an experiment that never ran) are
 * taken from the shard; workloads and series are the union.  Records meta
 * "merged <shard>" (the shard's "run 2/3", else name) = whether the shard
 * had run its schedule to the end (its fact shard_complete, which run
 * --shard sets), how many of its runs the experiment holds, its host and
 * the A/A check.
 * 0, or -1 with a message.
 */
int shard_merge(struct store *exp, struct store *shard, const char *name,
		struct merge_result *out);

struct strbuf;
struct strvec;
/*
 * Where the shards of an experiment stand, from its facts (alternating
 * keys and values, store_get_meta_all()): for each N it has merged shards
 * of, "of 3: all merged" or "of 3: merged 1; partial 3; missing 2" (a
 * partial shard was merged before it had run all its rounds: killed, or
 * still running), then, when merges measured runs again, "; measured again
 * with the same layout seed: 6 of 6 identical".  Appends nothing when no
 * shard was merged.  missing, when not NULL, gets "2/3" for each shard
 * missing or partial.
 */
void shard_standing(struct strbuf *out, const struct strvec *facts, struct strvec *missing);

#endif
