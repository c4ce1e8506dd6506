/* analyze-findings.h: the kernel's own reports per variant in the analysis model. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_FINDINGS_H
#define ANALYZE_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "store/finding-kind.h"

struct analyze_model;
struct store;
struct strbuf;

/*
 * What a variant's kernel reported about itself (store-findings.h: lockdep,
 * KASAN, WARN ... found on its runs' consoles), counted as LKP counts
 * console statistics: per variant and finding (kind and normalised first
 * line), how many of the variant's runs showed it, out of all its runs
 * (every workload, warm-ups and failed runs included: a finding is a fact
 * about the kernel whatever became of the run), and how many of its
 * source's baseline's runs showed it too.  A same-as variant's runs are
 * its twin's, so its findings are listed under the twin.
 */
struct analyze_finding {
	size_t variant;			/* index into m->variants */
	enum finding_kind kind;
	char *line;			/* the normalised first line */
	size_t runs;			/* runs of the variant that showed it */
	size_t of;			/* runs of the variant */
	size_t reports;			/* how many times in all */
	char *workloads;		/* the workloads of those runs: "boot, hackbench" */
	/*
	 * The baseline of the variant's source (NONE: there is none, or this
	 * is it): how many of its runs showed it, out of how many.
	 */
	size_t baseline;		/* variant index, or SIZE_MAX */
	size_t baseline_runs, baseline_of;
	char *text;			/* the report as the first run printed it */
	int64_t first_run;		/* that run's id */
};

/*
 * For analyze.c: fills m->findings from the store, in plan order of the
 * variants and, per variant, in the order its runs first showed them.
 * m's variants and runs must be loaded.  0, or -1 with a message.
 */
int analyze_findings_load(struct analyze_model *m, struct store *st);
void analyze_findings_release(struct analyze_model *m);

/*
 * The sentence every format gives a finding, appended to sb:
 * "3 of 30 runs: WARNING at kernel/locking/lockdep.c:232 __lock_acquire
 * (warning; not in the baseline: 0 of 30 runs)", "... (lockdep; the
 * baseline too: 2 of 30 runs)"; the baseline's own findings have no
 * parenthesised comparison but the kind.
 */
void analyze_finding_describe(struct strbuf *sb, const struct analyze_finding *f);

#endif
