/* shard-dir.h: a shard's own experiment directory, made from the planned experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SHARD_DIR_H
#define SHARD_DIR_H

#include "util/shard.h"

/*
 * A shard (util/shard.h) of an experiment DIR works in a directory of its
 * own, DIR/shards/<kind>-I-of-N ("run-2-of-3", "build-1-of-4"), with a
 * database of its own, so N shards on N hosts never write one SQLite file
 * (over NFS, or not shared at all: the directory is copied back) and each
 * takes its own lock.  It starts as a copy of DIR's database (the plan,
 * the builds, the seed and any runs DIR holds already, which the shard
 * then does not run again) plus the meta facts
 *
 *	shard		"run 2/3", what the directory holds
 *	shard_of	DIR, absolute, where it came from
 *
 * 'kconfperf merge' folds it back (shard-merge.h).
 */

/* DIR/shards/<kind>-I-of-N, malloc'd. */
char *shard_dir_path(const char *dir, const char *kind, const struct shard *sh);

/*
 * Makes shard_dir from the experiment in dir when it has no database yet
 * (a copy made beside it and linked in, so two workers starting the same
 * shard at once make one); when it has one (a retried job), checks that it
 * was made from the plan dir holds now (meta plan_key), else it is an
 * error saying to remove it.  dir needs a plan.  0, or -1 with a message.
 */
int shard_dir_make(const char *dir, const char *shard_dir, const char *kind,
		   const struct shard *sh);

#endif
