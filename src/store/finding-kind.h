/* finding-kind.h: what kind of report a kernel printed on its console, as a type. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef FINDING_KIND_H
#define FINDING_KIND_H

/*
 * A finding is a report the kernel printed about itself during a run (a
 * lockdep splat, a KASAN report, a WARN ...): a fact about the kernel, not
 * a failed run.  run/findings.h finds them on a run's console, the store
 * keeps them per run (store-findings.h) and reports count them per variant.
 * The kind crosses those modules as this enum; its name is what is stored
 * and printed.
 */
enum finding_kind {
	FINDING_LOCKDEP = 0,	/* lockdep: circular, recursive, inconsistent lock state, RCU usage ... */
	FINDING_KASAN,		/* "BUG: KASAN: ..." */
	FINDING_KFENCE,		/* "BUG: KFENCE: ..." */
	FINDING_KMEMLEAK,	/* "kmemleak: N new suspected memory leaks" */
	FINDING_UBSAN,		/* "UBSAN: ... in file:line" */
	FINDING_WARNING,	/* WARN(): "WARNING: CPU: n PID: n at file:line function" */
	FINDING_ATOMIC_SLEEP,	/* "BUG: sleeping function called from invalid context", scheduling while atomic */
	FINDING_BUG,		/* BUG(), "kernel BUG at", any other "BUG: ..." */
	FINDING_OOPS,		/* "Oops:", a NULL dereference or page fault, "general protection fault" */
	FINDING_RCU_STALL,	/* "rcu: INFO: ... detected stall(s)" */
	FINDING_HUNG_TASK,	/* "INFO: task X blocked for more than N seconds" */
	FINDING_SOFT_LOCKUP,	/* "watchdog: BUG: soft lockup - CPU#n stuck" */
	FINDING_HARD_LOCKUP,	/* "Watchdog detected hard LOCKUP on cpu n" */
	FINDING_PANIC,		/* "Kernel panic - not syncing: ..." */
};
#define FINDING_KIND_NR (FINDING_PANIC + 1)

/*
 * "lockdep", "kasan", "kfence", "kmemleak", "ubsan", "warning",
 * "atomic-sleep", "bug", "oops", "rcu-stall", "hung-task", "soft-lockup",
 * "hard-lockup", "panic"; NULL outside the enum.  The parse returns 0, or
 * -1 (quietly) for another name.
 */
const char *finding_kind_name(enum finding_kind k);
int finding_kind_parse(enum finding_kind *out, const char *name);

#endif
