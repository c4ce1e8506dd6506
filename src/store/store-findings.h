/* store-findings.h: the kernel's own reports (lockdep, KASAN, WARN ...) per run in the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORE_FINDINGS_H
#define STORE_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "store/finding-kind.h"

struct store;

/*
 * A report the kernel printed in a run (run/findings.h finds them on its
 * console), stored beside the run from schema 6 on: a fact about the
 * kernel, kept whether or not the run was ok.
 *
 *	run_id		the run
 *	position	0, 1 ... in the order the run first printed them
 *	kind		finding-kind.h
 *	line		its first line, normalised (the same report in two runs
 *			has the same line)
 *	count		how many times the run printed it
 *	text		the first such report as printed (a few dozen lines)
 */
struct store_finding {
	int64_t run_id;
	int position;
	enum finding_kind kind;
	char *line;
	char *text;
	int count;
};

/*
 * Stores nr findings of run run_id (their run_id and position are not
 * read: positions are 0..nr-1), in one savepoint (inside the caller's
 * transaction, when there is one, so a run and its findings are stored
 * together).  A database older than schema 6, which only a read-only
 * open leaves so, has no table for them: an error.  0, or -1 with a message.
 */
int store_add_findings(struct store *st, int64_t run_id, const struct store_finding *f,
		       size_t nr);

/*
 * Every finding of the experiment, ordered by run id and position, in a
 * malloc'd array (*out, *nr; free with store_findings_free()).  An older
 * database has none.  A kind this kconfperf does not know is an error
 * naming the run.  0, or -1 with a message.
 */
int store_get_findings(struct store *st, struct store_finding **out, size_t *nr);
void store_findings_free(struct store_finding *f, size_t nr);

#endif
