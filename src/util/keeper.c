/* keeper.c: a subreaper between kconfperf and a child, so that nothing the child starts outlives it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "util/keeper.h"
#include "util/proc-stat.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The keeper's cleanup gives up on a process tree that will not die after this. */
#define CLEANUP_SECONDS 10
#define CLEANUP_TICK_MS 10

/* [0] is read by every keeper; [1] is held by kconfperf alone. */
static int death_pipe[2] = { -1, -1 };
/* Who made it: a process forked from that one (a test's) needs its own. */
static pid_t death_pipe_owner;

int keeper_prepare(void)
{
	if (death_pipe[0] >= 0 && death_pipe_owner == getpid())
		return 0;
	if (death_pipe[0] >= 0) {
		/* Our parent's: its keepers must not wait for us to close it. */
		close(death_pipe[0]);
		close(death_pipe[1]);
	}
	death_pipe_owner = getpid();
	if (pipe2(death_pipe, O_CLOEXEC) < 0)
		return error_errno("cannot create a pipe");
	death_pipe[0] = fd_above_stdio(death_pipe[0]);
	death_pipe[1] = fd_above_stdio(death_pipe[1]);
	if (death_pipe[0] < 0 || death_pipe[1] < 0)
		return error_errno("cannot duplicate a file descriptor");
	return 0;
}

/*
 * Everything below is called in the keeper, a fork of kconfperf: system
 * calls and plain C only, no malloc and no stdio, as between fork and exec.
 */

/* Closes every descriptor from 3 up but keep. */
static void close_others(int keep)
{
	struct rlimit rl;
	int fd, max = 1024;

	if (syscall(SYS_close_range, 3U, (unsigned)keep - 1, 0U) == 0 &&
	    syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U) == 0)
		return;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY)
		max = rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
	for (fd = 3; fd < max; fd++)
		if (fd != keep)
			close(fd);
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* A decimal pid, or -1 for anything else. */
static pid_t parse_pid(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (pid_t)v;
}

/* The parent of process pid (proc-stat.h), or -1 when it is gone. */
static pid_t parent_of(pid_t pid)
{
	struct proc_stat ps;

	return proc_stat_read((long)pid, &ps) ? -1 : (pid_t)ps.ppid;
}

/* SIGKILLs every child of self (its own and the orphans it adopted); how many. */
static int kill_children(pid_t self)
{
	char buf[8192];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), killed = 0;
	long n;

	if (fd < 0)
		return 0;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (off < n) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			pid_t pid = parse_pid(d->d_name);

			off += d->d_reclen;
			if (pid > 0 && pid != self && parent_of(pid) == self &&
			    !kill(pid, SIGKILL))
				killed++;
		}
	}
	close(fd);
	return killed;
}

/* Reaps what has exited; *status gets the child's status when it is among them. */
static int reap_some(pid_t child, int *status, int *have_status)
{
	int st;
	pid_t got;

	while ((got = waitpid(-1, &st, WNOHANG)) > 0) {
		if (got == child) {
			*status = st;
			*have_status = 1;
		}
	}
	return got < 0 && errno == ECHILD;	/* nothing is left below us */
}

/*
 * Kills everything below the keeper, a generation at a time: the children
 * of one that dies are reparented to the keeper (its subreaper), so the
 * next pass finds them.  Done when nothing is left to wait for.
 */
static void kill_all(pid_t child, int *status, int *have_status)
{
	const struct timespec tick = { 0, CLEANUP_TICK_MS * 1000 * 1000 };
	pid_t self = getpid();
	int i;

	for (i = 0; i < CLEANUP_SECONDS * 1000 / CLEANUP_TICK_MS; i++) {
		int killed = kill_children(self);

		if (reap_some(child, status, have_status) && !killed)
			return;
		nanosleep(&tick, NULL);
	}
}

/* Ends the keeper as the child ended: its exit status, or its signal. */
static void NORETURN exit_as(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		struct sigaction dfl;
		struct rlimit no_core = { 0, 0 };
		sigset_t one;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		setrlimit(RLIMIT_CORE, &no_core);
		sigaction(sig, &dfl, NULL);
		kill(getpid(), sig);
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

int keeper_fork(pid_t join_pgid)
{
	sigset_t chld;
	pid_t child;
	int sfd, status = 0, have_status = 0;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 || setpgid(0, 0) < 0)
		return -1;
	child = fork();
	if (child <= 0)
		return child;
	/* Out of the child's group: the group's signals are the child's. */
	setpgid(0, join_pgid);
	close(death_pipe[1]);
	close_others(death_pipe[0]);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	/* Every signal is blocked (start_command()); SIGCHLD is read from here. */
	sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	for (;;) {
		struct pollfd fds[2] = {
			{ .fd = death_pipe[0], .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};

		reap_some(child, &status, &have_status);
		if (have_status)
			break;
		if (poll(fds, sfd < 0 ? 1 : 2, sfd < 0 ? 100 : -1) < 0 && errno != EINTR)
			break;
		if (fds[0].revents)
			break;		/* kconfperf is gone */
		if (sfd >= 0 && fds[1].revents) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) > 0)
				;
		}
	}
	kill_all(child, &status, &have_status);
	exit_as(have_status ? status : SIGKILL);
}
