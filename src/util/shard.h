/* shard.h: one of N shards of an experiment's work, from --shard I/N or a job engine's index. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SHARD_H
#define SHARD_H

/*
 * An experiment's work split into `count` self-contained jobs: runs by
 * whole rounds (schedule.h: measured round r is shard r mod count's, and
 * every shard runs the warm-up rounds), builds by distinct kernel (kernel
 * k of the plan's list is shard k mod count's).  index is 0-based here;
 * people and --shard count from 1 ("2/3" is index 1 of 3), as GNU
 * parallel's job number does.  { 0, 0 } is no sharding.
 */
struct shard {
	int index;		/* 0 .. count-1 */
	int count;		/* 0: not sharded */
};
#define SHARD_INIT { 0, 0 }

/* The most shards: far above any cluster's array, far below what breaks. */
#define SHARD_MAX 100000

/*
 * Parses --shard's argument:
 *
 *	I/N	shard I (1 <= I <= N) of N
 *	auto/N	I from the job engine's variable, the first of these set:
 *		SLURM_ARRAY_TASK_ID   0-based (sbatch --array=0-N-1)
 *		JOB_COMPLETION_INDEX  0-based (Kubernetes Indexed Jobs)
 *		PARALLEL_SEQ          1-based (GNU parallel's {#})
 *
 * Returns 0, or -1 with a message naming the argument (or the variable and
 * its base when its value is out of range).
 */
int shard_parse(struct shard *out, const char *arg);

/* "2/3" (1-based, as --shard takes it) into buf of at least 32 bytes. */
void shard_format(const struct shard *sh, char *buf, unsigned long size);

/* Whether measured round `round` (>= 0) belongs to the shard; all do when not sharded. */
int shard_has_round(const struct shard *sh, int round);
/* Whether item k (0-based, a distinct kernel) belongs to the shard. */
int shard_has_item(const struct shard *sh, unsigned long k);

#endif
