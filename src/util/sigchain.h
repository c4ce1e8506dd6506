/* sigchain.h: on a fatal signal or exit, kill running children and run cleanups. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SIGCHAIN_H
#define SIGCHAIN_H

#include <sys/types.h>

/*
 * The first call to any function below installs handlers for SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT (a signal that is ignored when kconfperf
 * starts, such as SIGHUP under nohup, stays ignored) and an atexit() hook.
 * On one of those signals, or at exit:
 *
 *   1. every registered child process group gets SIGTERM; after up to the
 *      grace period (default 2 s, less if every group leader has exited)
 *      each group gets SIGKILL;
 *   2. the cleanup callbacks run, most recently pushed first, each once;
 *   3. for a signal, the disposition found at install time is restored and
 *      the signal re-raised, so kconfperf dies of it (exit status 128+n).
 *
 * Only the process that installed the handlers does this; a forked child
 * that calls exit() does not kill its parent's children.
 */

/*
 * A cleanup callback.  signo is the signal being handled, or 0 at exit.
 * When signo != 0 the callback runs inside a signal handler that may have
 * interrupted malloc or stdio, so it must use only async-signal-safe calls
 * (unlink, rmdir, unlinkat, close, write...): no malloc, no printf, no
 * sqlite3_close (SQLite in WAL mode survives a kill anyway).
 */
typedef void (*sigchain_cleanup_fn)(int signo, void *data);

/* Registers fn(signo, data).  The pair (fn, data) identifies it. */
void sigchain_push_cleanup(sigchain_cleanup_fn fn, void *data);
/*
 * Unregisters the most recently pushed (fn, data) without calling it;
 * returns 0, or -1 (no message) when it is not registered.
 */
int sigchain_pop_cleanup(sigchain_cleanup_fn fn, void *data);

/*
 * Registers / unregisters a running child's process group.  run-command
 * does this itself for every child between start and reap; other code
 * needs these only for children it forks by other means.  pgid must stay a
 * valid group until it is removed: remove it before reaping the leader.
 */
void sigchain_add_child(pid_t pgid);
void sigchain_remove_child(pid_t pgid);

/* Grace period in seconds between SIGTERM and SIGKILL (default 2). */
void sigchain_set_grace(double seconds);

#endif
