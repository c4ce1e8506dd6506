/* run-command.h: run programs (make, qemu) from argv vectors, with capture and timeouts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef RUN_COMMAND_H
#define RUN_COMMAND_H

#include <stddef.h>
#include <sys/types.h>

#include "util/strbuf.h"
#include "util/strvec.h"

/*
 * Typical use:
 *
 *	struct child_process cp = CHILD_PROCESS_INIT;
 *	struct strbuf log = STRBUF_INIT;
 *
 *	strvec_push(&cp.args, "make");
 *	strvec_pushf(&cp.args, "O=%s", objdir);
 *	strvec_push(&cp.env, "LC_ALL=C");
 *	cp.dir = srcdir;
 *	cp.out.mode = CHILD_IO_CAPTURE;
 *	cp.out.buf = &log;
 *	cp.out.cap = 64 * 1024;            (keep the last 64 KiB)
 *	cp.err.mode = CHILD_IO_TO_STDOUT;
 *	cp.timeout = 3600;
 *	if (run_command(&cp)) {
 *		struct strbuf why = STRBUF_INIT;
 *		child_process_describe(&why, &cp);
 *		error("make %s", why.buf);     ("make exited with status 2")
 *	}
 *	child_process_release(&cp);
 *
 * Every child runs in its own process group (pgid == pid), with stdin from
 * /dev/null unless told otherwise (a contained child's group keeps that id
 * though its keeper is the pid: see `contain`).  While a child runs it is registered with
 * sigchain, so SIGINT/SIGTERM/SIGHUP/SIGQUIT and exit() kill its whole group.
 * When the child itself exits, anything still left in its process group is
 * sent SIGKILL before the child is reaped, so no stray grandchild outlives a
 * command or keeps its output pipes open.
 *
 * Nothing here goes through a shell.  To run a shell snippet, say so:
 * args = { "sh", "-c", script }.
 *
 * Not thread-safe: call from one thread (kconfperf is single-threaded).
 */

/* Where one of the child's standard streams goes. */
enum child_io {
	/* stdin: /dev/null; stdout, stderr: inherited from kconfperf. */
	CHILD_IO_DEFAULT = 0,
	/* Inherited from kconfperf (for stdin beware: the child is not in the
	 * terminal's foreground group, so reading a tty stops it). */
	CHILD_IO_INHERIT,
	/* /dev/null. */
	CHILD_IO_NULL,
	/*
	 * path, created (0666 & ~umask) and truncated, never through a
	 * symbolic link (an error: kconfperf names these files itself);
	 * stdin: opened for reading.
	 */
	CHILD_IO_FILE,
	/* path, created and appended to, not through a link (stdout and stderr only). */
	CHILD_IO_APPEND,
	/* Captured into buf (stdout and stderr only); see struct child_stream. */
	CHILD_IO_CAPTURE,
	/* stderr only: the same file as the child's stdout, whatever that is. */
	CHILD_IO_TO_STDOUT,
};

/*
 * One standard stream's setup.  path and buf are borrowed: the caller owns
 * them and keeps them alive until finish_command() returns.
 *
 * CHILD_IO_CAPTURE appends the child's output to *buf (existing content is
 * kept).  With cap > 0 the output is still read to the end, so the child
 * never blocks, but only its LAST cap bytes are kept; `dropped` then says
 * how many bytes were thrown away before them.  Capturing stdout and stderr
 * needs two different strbufs; to interleave them use CHILD_IO_TO_STDOUT.
 * The same goes for CHILD_IO_FILE: two opens of one path overwrite each other.
 */
struct child_stream {
	enum child_io mode;
	const char *path;
	struct strbuf *buf;
	size_t cap;
	/* Result: bytes discarded because of cap. */
	size_t dropped;
	/* Private: pipe read end and where this child's output begins in buf. */
	int fd;
	size_t base;
};

#define CHILD_PROCESS_DEFAULT_GRACE 2.0
/* How often a child's watched files are looked at (see watch below). */
#define CHILD_WATCH_SECONDS 0.1

struct child_process {
	/* argv; args.v[0] is looked up in PATH (the child's PATH when env
	 * sets one) unless it contains a '/', in which case a relative one is
	 * relative to dir, as for exec.  Owned; freed by release. */
	struct strvec args;
	/* "K=V" adds or overrides K in the inherited environment; "K" alone
	 * removes it.  Owned; freed by release. */
	struct strvec env;
	/* Borrowed; when set the child chdir()s there before exec. */
	const char *dir;

	struct child_stream in;		/* DEFAULT, INHERIT, NULL or FILE */
	struct child_stream out;
	struct child_stream err;

	/* Seconds; 0 means no limit.  Counted from start_command().  On
	 * expiry the whole group gets SIGTERM, then SIGKILL `grace` seconds
	 * later (0 = at once) if the child has not exited by then. */
	double timeout;
	double grace;

	/* Files the child writes (qemu's -serial file:, a runner's stdout)
	 * that may not grow beyond watch_max bytes, a cap on what it may put
	 * on disk: while it runs each is looked at every CHILD_WATCH_SECONDS,
	 * and the first one found larger stops the child as a timeout would
	 * (SIGTERM, SIGKILL after grace) and is named in `exceeded`.  A
	 * check, not a bound: the file may have grown a little further
	 * meanwhile.  Owned; freed by release. */
	struct strvec watch;
	off_t watch_max;

	/* Do not print an error when the program cannot be started (for
	 * probes such as "is ccache installed"); errno still says why. */
	unsigned silent_exec_failure:1;

	/* SIGKILL the child (not its group) when kconfperf dies, even of
	 * SIGKILL, which no handler sees (prctl PR_SET_PDEATHSIG; it survives
	 * exec).  For qemu: an orphan would go on using a CPU that the next
	 * run measures.  A child whose parent is already gone exits 127. */
	unsigned kill_on_parent_death:1;

	/* Nothing the child starts outlives it: not a grandchild that left
	 * its process group or session (setsid), not the child's children
	 * when kconfperf is killed with SIGKILL.  The child runs under a
	 * keeper (keeper.h), a fork of kconfperf that adopts every orphan
	 * below it and, once the child has exited or kconfperf has died,
	 * SIGKILLs all of them before it exits as the child did.  pid is the
	 * keeper's and still names the child's process group, so timeouts,
	 * describe() and the rest are as without; the child also gets
	 * kill_on_parent_death.  For qemu and runners: a run's leftovers
	 * would use the CPUs that the next run measures. */
	unsigned contain:1;

	/* Results, valid after finish_command() (pid after start_command()). */
	pid_t pid;		/* also the process group id */
	int exit_code;		/* exit status, or -1 if not exited normally */
	int signal;		/* terminating signal, or 0 */
	int timed_out;		/* killed because of timeout (even if it then exited 0) */
	const char *exceeded;	/* the watched file that grew beyond watch_max, or NULL */
	int start_errno;	/* nonzero when the program could not be started */
	double seconds;		/* wall time, monotonic clock, start to reap */

	/* Private. */
	int state;
	int pidfd;
	double start_time;
	double term_time;
	double watch_time;
};

#define CHILD_PROCESS_INIT { \
	.args = STRVEC_INIT, \
	.env = STRVEC_INIT, \
	.watch = STRVEC_INIT, \
	.in = { .fd = -1 }, \
	.out = { .fd = -1 }, \
	.err = { .fd = -1 }, \
	.grace = CHILD_PROCESS_DEFAULT_GRACE, \
	.pid = -1, \
	.exit_code = -1, \
	.pidfd = -1, \
}

void child_process_init(struct child_process *cp);
/*
 * Frees args and env and leaves cp as CHILD_PROCESS_INIT (settings such as
 * dir, timeout and the streams are reset too).  Must not be called on a
 * started but unfinished child: finish_command() it first.
 */
void child_process_release(struct child_process *cp);

/*
 * Starts the child.  Returns 0, or -1 with an error printed (unless
 * silent_exec_failure) and errno set, when the program cannot be found
 * (ENOENT), executed (EACCES, ENOEXEC...), dir does not exist, or a
 * redirection file cannot be opened.  On -1 nothing is left running,
 * cp->start_errno is set and finish_command() must not be called.
 *
 * Between start_command() and finish_command() nobody reads the child's
 * captured output, so it may block writing; that is harmless, the timeout
 * still counts, and finish_command() or wait_any_command() drains it.
 */
int start_command(struct child_process *cp);

/*
 * Waits for a started child while reading its captured output and
 * enforcing its timeout, then reaps it and fills in the results.
 * Returns 0 only when the child exited with status 0 and did not time out;
 * otherwise -1, without printing anything (see child_process_describe()).
 */
int finish_command(struct child_process *cp);

/* start_command() then finish_command(); 0 only for exit status 0. */
int run_command(struct child_process *cp);

/*
 * Waits until the first of the running children in cps[0..nr) exits
 * (entries that are NULL or not running are skipped), while draining the
 * output and enforcing the timeouts of all of them.  Finishes that child as
 * finish_command() would and returns its index; returns -1 when none of
 * them is running.  The others stay running.
 */
int wait_any_command(struct child_process **cps, size_t nr);

/*
 * Called after each command of run_commands_parallel() has finished, or
 * failed to start (then cp->start_errno is set); i is its index.
 */
typedef void (*run_parallel_done_fn)(struct child_process *cp, size_t i, void *data);

/*
 * Runs cmds[0..nr), at most max_parallel at a time (<= 0: online_cpus()),
 * in order of index, each as run_command() would.  done (may be NULL) is
 * called as each one ends.  Returns the number of commands that did not
 * succeed (could not start, nonzero exit, signal or timeout); 0 if all did.
 * The results stay in each cmds[i]; the caller releases them.
 */
int run_commands_parallel(struct child_process *cmds, size_t nr, int max_parallel,
			  run_parallel_done_fn done, void *data);

/*
 * Appends a human description of how a finished child ended to out:
 * "exited with status 2", "killed by signal 9 (Killed)", "timed out after
 * 30 s", "could not be started: No such file or directory", "was stopped:
 * 'out.txt' grew beyond 1048576 bytes".
 */
void child_process_describe(struct strbuf *out, const struct child_process *cp);

/*
 * The first line `prog arg` prints on stdout, into out (reset first): what
 * "the first line of PROG --version" is everywhere (compilers, wrappers,
 * qemu).  stderr is discarded; it may take 30 s.  Returns 0; -1 when prog
 * could not be started (cp.start_errno's message in why, when not NULL);
 * -2 when it ran and failed (child_process_describe() in why).
 */
int run_command_first_line(struct strbuf *out, const char *prog, const char *arg,
			   struct strbuf *why);

/* For tests: when set, wait without pidfd_open(), as on kernels before 5.3. */
extern int run_command_no_pidfd;

#endif
