/* import-hyperfine.h: hyperfine --export-json files as a new experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef IMPORT_HYPERFINE_H
#define IMPORT_HYPERFINE_H

#include <stddef.h>

/* The workload name imported runs get. */
#define IMPORT_WORKLOAD "hyperfine"

/* A run's time above this many seconds (116 days) is not a measurement. */
#include "store/sample-range.h"

#define IMPORT_MAX_SECONDS SAMPLE_TIME_MAX_SECONDS

struct import_result {
	size_t nr_commands;
	char *baseline;		/* the baseline's command */
	size_t nr_merged;	/* commands found in more than one file */
};
#define IMPORT_RESULT_INIT { 0, NULL, 0 }
void import_result_release(struct import_result *r);

/*
 * Makes a new experiment in dir from hyperfine export files: each
 * results[] entry becomes a variant named by its command (kind command,
 * the baseline's kind baseline), each of its times one run of the
 * workload IMPORT_WORKLOAD with the metric wall, in round order.  The
 * baseline is the command called baseline, or the first when NULL.  A
 * command found in several files gets the runs of all of them, in file
 * order (result->nr_merged counts them); a command twice in one file is
 * an error.  A run whose exit code is not 0 is stored as failed ("exit
 * code N", or "killed by a signal" for null).
 *
 * Every file must be valid before anything is stored: a JSON object with
 * a non-empty results array of objects, each with a non-empty string
 * command and a non-empty times array of numbers above 0 and at most
 * IMPORT_MAX_SECONDS, and optionally exit_codes, null or an array as long
 * as times of integers or nulls.  An error names FILE:LINE:COLUMN, the
 * result's index and command and the offending time's or exit code's
 * index.  dir must not hold an experiment; the database is created all
 * at once (store_create_scratch()), so a failure or an interruption at
 * any point stores nothing.
 *
 * Returns 0 and fills result, or -1 with a message.
 */
int import_hyperfine(const char *dir, const char *const *files, size_t nr_files,
		     const char *baseline, struct import_result *result);

#endif
