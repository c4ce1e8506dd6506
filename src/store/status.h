/* status.h: the statuses of a variant, a build and a run, as types. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STATUS_H
#define STATUS_H

/*
 * plan sets a variant's status, kbuild a build's, run a run's, and every
 * later stage reads them: they cross modules as these enums and become
 * text only in the database (store.c converts, and the schema's CHECK
 * constraints accept exactly the names below) and in what is printed.
 *
 * Each enum has one name/parse pair: *_status_name() gives the stored and
 * printed name (NULL for a value outside the enum), *_status_parse() reads
 * one back, 0 or -1 (quietly: the caller knows where the text came from
 * and says so).
 */

enum variant_status {
	VARIANT_OK = 0,		/* every requested setting took */
	VARIANT_PARTIAL,	/* some did not; the variant's reason says which and why */
	VARIANT_NO_OP,		/* its effective config is the baseline's */
	VARIANT_SAME_AS,	/* its effective config is an earlier variant's (same_as) */
};
#define VARIANT_STATUS_NR (VARIANT_SAME_AS + 1)

/* "ok", "partial", "no-op", "same-as". */
const char *variant_status_name(enum variant_status s);
int variant_status_parse(enum variant_status *out, const char *name);

/*
 * Whether a variant of this status gets a kernel of its own and is run:
 * ok and partial ones.  A no-op variant is measured as the baseline, a
 * same-as one as the variant it equals.
 */
int variant_is_measured(enum variant_status s);

/*
 * The name and kind of the A/A control: the baseline kernel measured again
 * as a variant of its own (plan.h).  An imported command of this name is
 * one too.
 */
#define VARIANT_AA_NAME "baseline-again"

enum build_status {
	BUILD_OK = 0,		/* a bzImage is in the cache */
	BUILD_FAILED,		/* make failed; the log tail says why */
};
#define BUILD_STATUS_NR (BUILD_FAILED + 1)

/* "ok", "failed". */
const char *build_status_name(enum build_status s);
int build_status_parse(enum build_status *out, const char *name);

/*
 * How a run (one boot of one kernel) ended.  Every value but RUN_OK is a
 * failed run; RUN_START_FAILED is the harness's fault, never the kernel's,
 * and is not stored (the run stage stops instead).
 */
enum run_status {
	RUN_OK = 0,		/* the guest said done, no error, qemu exited 0 */
	RUN_TIMEOUT,		/* killed after the run's timeout */
	RUN_PANIC,		/* "Kernel panic - not syncing" on the console */
	RUN_GUEST_ERROR,	/* the guest reported an error line */
	RUN_MALFORMED,		/* a malformed protocol line, or more output than a run may write */
	RUN_NO_DONE,		/* qemu exited 0 but the guest never said done */
	RUN_START_FAILED,	/* qemu (or the runner) could not be started */
	RUN_EXIT_FAILED,	/* qemu, the runner or an imported command exited nonzero or was killed */
};
#define RUN_STATUS_NR (RUN_EXIT_FAILED + 1)

/* "ok", "timeout", "panic", "guest-error", "malformed", "no-done", "start-failed", "exit-failed". */
const char *run_status_name(enum run_status s);
int run_status_parse(enum run_status *out, const char *name);

#endif
