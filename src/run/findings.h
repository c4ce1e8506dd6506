/* findings.h: the reports a kernel printed about itself on a run's console (lockdep, KASAN, WARN, ...). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef FINDINGS_H
#define FINDINGS_H

#include <stddef.h>

#include "store/finding-kind.h"

/*
 * findings_scan() reads a run's kernel console (console.txt: what the
 * kernel printed on its console, then the messages kcp-guest copies from
 * the kernel's log at the end of a run, which "quiet" kept off it, in the
 * same "[seconds] text" form) and finds every report a kernel maintainer
 * would grep for: lockdep's (circular or recursive locking, inconsistent
 * lock state, suspicious RCU usage, ...), KASAN, KFENCE, kmemleak, UBSAN,
 * WARN, BUG and Oops (general protection faults, NULL dereferences, page
 * faults), sleeping in atomic context, RCU stalls, hung tasks, soft and
 * hard lockups, and panics.  See finding-kind.h for the kinds.
 *
 * A report is known by its first line, normalised so that the same report
 * in two runs (or two kernels) matches: the timestamp, the printk caller
 * id, CPU numbers, PIDs, addresses and the offsets of function names go:
 *
 *   [    1.234567][    T1] WARNING: CPU: 0 PID: 1 at kernel/locking/lockdep.c:4478 lockdep_init+0x2a/0x40
 *     -> "WARNING at kernel/locking/lockdep.c:4478 lockdep_init"
 *   [   22.1] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:1:27]
 *     -> "watchdog: BUG: soft lockup - CPU#N stuck for Ns! [kworker/1:1]"
 *
 * The lines of an Oops that follow a BUG or an Oops within a few lines
 * ("BUG: kernel NULL pointer dereference", then "Oops: 0002 [#1] SMP")
 * are the same report.  The same report printed twice in a run is one
 * finding with count 2.
 */
struct finding {
	enum finding_kind kind;
	char *line;		/* the normalised first line */
	char *text;		/* the first such report as printed, up to FINDINGS_TEXT_MAX lines/bytes */
	int count;		/* how many times the run printed it */
};

#define FINDINGS_TEXT_LINES 80
#define FINDINGS_TEXT_MAX 8192

struct findings {
	struct finding *v;	/* in the order of their first appearance */
	size_t nr, alloc;
};
#define FINDINGS_INIT { NULL, 0, 0 }

/* Appends the findings of console[0..len) to out (which may hold others' already). */
void findings_scan(struct findings *out, const char *console, size_t len);
void findings_release(struct findings *f);

/*
 * One console line (without its newline): 1 when it starts a report, with
 * *kind set and the normalised first line appended to norm; 0 when not.
 * For tests, and for what findings_scan() does per line.
 */
struct strbuf;
int findings_classify_line(enum finding_kind *kind, struct strbuf *norm, const char *line,
			   size_t len);

#endif
