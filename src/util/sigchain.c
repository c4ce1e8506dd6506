/* sigchain.c: on a fatal signal or exit, kill running children and run cleanups. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "util/sigchain.h"
#include "util/wrapper.h"

struct cleanup {
	sigchain_cleanup_fn fn;
	void *data;
};

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction old_actions[ARRAY_SIZE(fatal_signals)];
static int installed;
static pid_t owner;
static double grace = 2.0;

/*
 * The handler reads these; the main program changes them only with the
 * fatal signals blocked, so the handler never sees a half-done update.
 */
static pid_t *children;
static size_t children_nr, children_alloc;
static struct cleanup *cleanups;
static size_t cleanups_nr, cleanups_alloc;

/* clock_gettime() and nanosleep() are async-signal-safe; now_seconds() is not promised to be. */
static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void block_fatal(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		sigaddset(&set, fatal_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_mask(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* A group leader that is not our child (or already reaped) counts as gone. */
static int all_leaders_exited(void)
{
	size_t i;

	for (i = 0; i < children_nr; i++) {
		siginfo_t info;

		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, children[i], &info, WEXITED | WNOHANG | WNOWAIT) < 0)
			continue;
		if (!info.si_pid)
			return 0;
	}
	return 1;
}

/*
 * TERM (and CONT, so a stopped group sees it), then KILL after the grace
 * period.  Leaders are not reaped here, so each pgid stays pinned and cannot
 * name some unrelated, newer group by the time SIGKILL goes out.
 */
static void kill_children(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	double deadline;
	size_t i;

	if (!children_nr)
		return;
	for (i = 0; i < children_nr; i++) {
		kill(-children[i], SIGTERM);
		kill(-children[i], SIGCONT);
	}
	deadline = monotonic() + grace;
	while (monotonic() < deadline && !all_leaders_exited())
		nanosleep(&tick, NULL);
	for (i = 0; i < children_nr; i++)
		kill(-children[i], SIGKILL);
	children_nr = 0;
}

/* Pops each callback before calling it, so none runs twice. */
static void run_cleanups(int signo)
{
	while (cleanups_nr) {
		struct cleanup c = cleanups[--cleanups_nr];

		c.fn(signo, c.data);
	}
}

static void handle_signal(int signo)
{
	int saved_errno = errno;
	size_t i;

	if (getpid() == owner) {
		kill_children();
		run_cleanups(signo);
	}
	for (i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		if (fatal_signals[i] == signo)
			sigaction(signo, &old_actions[i], NULL);
	/* Blocked until we return; then the restored disposition applies. */
	raise(signo);
	errno = saved_errno;
}

static void at_exit(void)
{
	sigset_t old;

	if (getpid() != owner)
		return;
	block_fatal(&old);
	kill_children();
	run_cleanups(0);
	restore_mask(&old);
}

static void install(void)
{
	struct sigaction sa;
	size_t i;

	if (installed)
		return;
	installed = 1;
	owner = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handle_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		sigaddset(&sa.sa_mask, fatal_signals[i]);
	for (i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		if (sigaction(fatal_signals[i], NULL, &old_actions[i]) < 0)
			continue;
		/* Respect nohup and friends. */
		if (old_actions[i].sa_handler == SIG_IGN)
			continue;
		sigaction(fatal_signals[i], &sa, NULL);
	}
	atexit(at_exit);
}

void sigchain_push_cleanup(sigchain_cleanup_fn fn, void *data)
{
	sigset_t old;

	install();
	block_fatal(&old);
	ALLOC_GROW(cleanups, cleanups_nr + 1, cleanups_alloc);
	cleanups[cleanups_nr].fn = fn;
	cleanups[cleanups_nr].data = data;
	cleanups_nr++;
	restore_mask(&old);
}

int sigchain_pop_cleanup(sigchain_cleanup_fn fn, void *data)
{
	sigset_t old;
	size_t i;
	int ret = -1;

	install();
	block_fatal(&old);
	for (i = cleanups_nr; i-- > 0;) {
		if (cleanups[i].fn != fn || cleanups[i].data != data)
			continue;
		memmove(cleanups + i, cleanups + i + 1,
			(cleanups_nr - i - 1) * sizeof(*cleanups));
		cleanups_nr--;
		ret = 0;
		break;
	}
	restore_mask(&old);
	return ret;
}

void sigchain_add_child(pid_t pgid)
{
	sigset_t old;

	install();
	block_fatal(&old);
	ALLOC_GROW(children, children_nr + 1, children_alloc);
	children[children_nr++] = pgid;
	restore_mask(&old);
}

void sigchain_remove_child(pid_t pgid)
{
	sigset_t old;
	size_t i;

	install();
	block_fatal(&old);
	for (i = children_nr; i-- > 0;) {
		if (children[i] != pgid)
			continue;
		memmove(children + i, children + i + 1,
			(children_nr - i - 1) * sizeof(*children));
		children_nr--;
		break;
	}
	restore_mask(&old);
}

void sigchain_set_grace(double seconds)
{
	install();
	grace = seconds < 0 ? 0 : seconds;
}
