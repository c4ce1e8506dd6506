/* keeper.h: a subreaper between kconfperf and a child, so that nothing the child starts outlives it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KEEPER_H
#define KEEPER_H

#include <sys/types.h>

/*
 * What run-command's `contain` (run-command.h) is made of.  Killing a
 * child's process group misses what left it: a grandchild that called
 * setsid() or setpgid(), and, when kconfperf itself is killed with
 * SIGKILL, everything (PR_SET_PDEATHSIG takes only the direct child).  A
 * cgroup would hold them all, but needs a delegated cgroup v2 tree, which
 * an unprivileged user seldom has (this machine's is a v1/v2 hybrid).
 * A keeper needs nothing: start_command() forks it instead of the child,
 * and it
 *
 *   - is a child subreaper (PR_SET_CHILD_SUBREAPER, Linux 3.4), so the
 *     orphans of everything below it, setsid() or not, are reparented to
 *     it and never escape to init;
 *   - forks the child, which stays in the process group the keeper made
 *     (its id is the keeper's pid, so run-command's signals to the group,
 *     timeouts and sigchain's, reach the child), while the keeper moves
 *     back to kconfperf's group and keeps every signal blocked;
 *   - waits until the child exits, or until kconfperf dies (a pipe whose
 *     only writer is kconfperf reads end-of-file), then sends SIGKILL to
 *     every process below it, reaps them all, and exits as the child did
 *     (the same status, or the same signal).
 *
 * So the caller sees the keeper's pid as the child's and its exit as the
 * child's, and when it has been reaped, nothing the child started runs
 * on.  Only a process that the keeper itself does not outlive escapes: if
 * the keeper is killed with SIGKILL, the child dies with it
 * (PR_SET_PDEATHSIG), but the child's own children are not stopped.
 */

/*
 * In kconfperf, before the fork of a contained child: makes the pipe a
 * keeper watches for kconfperf's death (once per process; it stays open,
 * close-on-exec).  0, or -1 with an error printed.
 */
int keeper_prepare(void);

/*
 * In the process start_command() just forked, with every signal blocked:
 * makes a process group (this pid), forks the child into it and becomes
 * the keeper.  Returns 0 in the child, which is to exec the command and
 * must not change its process group; never returns in the keeper.  Only
 * async-signal-safe calls.  Returns -1 with errno set when the child
 * cannot be forked (the caller reports a failed start and _exit()s).
 * join_pgid: the process group the keeper moves to (kconfperf's).
 */
int keeper_fork(pid_t join_pgid);

#endif
