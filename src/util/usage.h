/* usage.h: how kconfperf reports errors and warnings. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef USAGE_H
#define USAGE_H

#include <stdarg.h>

#define NORETURN __attribute__((__noreturn__))
#define PRINTF(f, a) __attribute__((__format__(__printf__, f, a)))
/*
 * A parameter a callback must take but does not use, as in git:
 *   static void on_signal(int signo UNUSED, void *data)
 * Using it anyway is a warning (deprecated), so the mark cannot go stale.
 */
#define UNUSED __attribute__((__unused__)) \
	__attribute__((__deprecated__("parameter declared as UNUSED")))

/*
 * All messages go to stderr as "kconfperf: <kind>: <message>", lowercase,
 * without a full stop.  error() and error_errno() return -1 so library-like
 * code can say `return error("cannot open '%s'", path);`.  Only main() and
 * the cmd_*() functions call die() or usage_error().
 */
int error(const char *fmt, ...) PRINTF(1, 2);
/* Like error(), with ": strerror(errno)" appended. */
int error_errno(const char *fmt, ...) PRINTF(1, 2);
void warning(const char *fmt, ...) PRINTF(1, 2);
/* Prints "kconfperf: <message>" with no kind, for progress and notes. */
void note(const char *fmt, ...) PRINTF(1, 2);

/* Exit 1 after an error message. */
NORETURN void die(const char *fmt, ...) PRINTF(1, 2);
NORETURN void die_errno(const char *fmt, ...) PRINTF(1, 2);
/* Exit 2 (usage error) after an error message. */
NORETURN void usage_error(const char *fmt, ...) PRINTF(1, 2);

/*
 * A broken invariant of kconfperf itself, never bad input (git's BUG()):
 * prints "kconfperf: BUG: FILE:LINE: message" to stderr, whatever the sink,
 * and aborts, so a core or a sanitizer shows where.  For the returns that
 * cannot fail, such as setting a value read from a parsed .config:
 *	if (kconfig_set(kc, name, value))
 *		BUG("cannot set CONFIG_%s=%s", name, value);
 */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
NORETURN void bug_fl(const char *file, int line, const char *fmt, ...) PRINTF(3, 4);

/*
 * Standard output's write error is said once.  stdout_error() reports one
 * (errno says why) as "cannot write 'NAME': ..." ("cannot write to standard
 * output: ..." for a NULL name) and returns -1; every later call returns -1
 * and prints nothing, so the write that failed, a message's flush of stdout
 * and main()'s check at exit never repeat it.  finish_stdout() flushes
 * stdout and returns status, or 1 once a write to it has failed; main() and
 * --help exit through it.  A reader that went away (EPIPE) is no error there.
 */
int stdout_error(const char *name);
int finish_stdout(int status);

/*
 * Tests replace the sink: when set, messages are formatted into it instead of
 * going to stderr (kind is "error", "warning" or "" for notes).
 */
typedef void (*message_sink_fn)(const char *kind, const char *msg, void *data);
void set_message_sink(message_sink_fn fn, void *data);

/* Set by --quiet: note() prints nothing. Errors and warnings always print. */
extern int quiet;

#endif
