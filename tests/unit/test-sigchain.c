/* test-sigchain.c: unit tests for killing children and cleaning up on signals and exit. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "util/run-command.h"
#include "util/sigchain.h"
#include "util/usage.h"
#include "test-lib.h"
#include "util/wrapper.h"

/*
 * Each test forks a "kconfperf" process that starts children and registers
 * cleanups; we signal it or let it exit and look at what it left behind.
 * Cleanups report to us by writing two bytes (a tag and signo) to a pipe.
 */
static int report_fd = -1;

static void report_a(int signo, void *data UNUSED)
{
	char msg[2] = { 'A', (char)signo };

	if (write(report_fd, msg, 2) < 0)
		_exit(99);
}

static void report_b(int signo, void *data UNUSED)
{
	char msg[2] = { 'B', (char)signo };

	if (write(report_fd, msg, 2) < 0)
		_exit(99);
}

static pid_t start_sh(struct child_process *cp, const char *script)
{
	child_process_init(cp);
	strvec_push(&cp->args, "sh");
	strvec_push(&cp->args, "-c");
	strvec_push(&cp->args, script);
	if (start_command(cp) < 0)
		_exit(98);
	return cp->pid;
}

static ssize_t read_all(int fd, char *buf, size_t len)
{
	ssize_t n = xread_all(fd, buf, len);

	close(fd);
	return n;
}

static void test_signal_kills_and_cleans(void)
{
	int rep[2], ready[2], status = 0;
	pid_t proc, pgids[2];
	char buf[16];
	double t0;

	check_int(pipe(rep), ==, 0);
	check_int(pipe(ready), ==, 0);
	proc = fork();
	if (!proc) {
		struct child_process a, b;

		close(rep[0]);
		close(ready[0]);
		report_fd = rep[1];
		sigchain_set_grace(0.3);
		sigchain_push_cleanup(report_a, NULL);
		sigchain_push_cleanup(report_b, NULL);
		sigchain_push_cleanup(report_b, &a);
		if (sigchain_pop_cleanup(report_b, &a) || !sigchain_pop_cleanup(report_b, &b))
			_exit(97);
		pgids[0] = start_sh(&a, "sleep 100 & sleep 100");
		pgids[1] = start_sh(&b, "trap '' TERM; sleep 100 & sleep 100");
		if (write(ready[1], pgids, sizeof(pgids)) != sizeof(pgids))
			_exit(96);
		while (1)
			pause();
	}
	close(rep[1]);
	close(ready[1]);
	check_int(read_all(ready[0], (char *)pgids, sizeof(pgids)), ==, sizeof(pgids));
	/* Let the shells get to their sleeps (and their trap). */
	usleep(200 * 1000);
	t0 = now_seconds();
	kill(proc, SIGTERM);
	check_int(waitpid(proc, &status, 0), ==, proc);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	/* The TERM-proof group costs the grace period, no more. */
	check(now_seconds() - t0 >= 0.25);
	check(now_seconds() - t0 < 1.5);
	check_int(read_all(rep[0], buf, sizeof(buf)), ==, 4);
	check(!memcmp(buf, "B\017A\017", 4));
	check(test_group_gone(pgids[0]));
	check(test_group_gone(pgids[1]));
}

static void test_exit_kills_and_cleans(void)
{
	int rep[2], ready[2], status = 0;
	pid_t proc, pgid;
	char buf[16];

	check_int(pipe(rep), ==, 0);
	check_int(pipe(ready), ==, 0);
	proc = fork();
	if (!proc) {
		struct child_process a;

		close(rep[0]);
		close(ready[0]);
		report_fd = rep[1];
		sigchain_push_cleanup(report_a, NULL);
		pgid = start_sh(&a, "sleep 100");
		if (write(ready[1], &pgid, sizeof(pgid)) != sizeof(pgid))
			_exit(96);
		exit(5);
	}
	close(rep[1]);
	close(ready[1]);
	check_int(read_all(ready[0], (char *)&pgid, sizeof(pgid)), ==, sizeof(pgid));
	check_int(waitpid(proc, &status, 0), ==, proc);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	check_int(read_all(rep[0], buf, sizeof(buf)), ==, 2);
	check(!memcmp(buf, "A\0", 2));
	check(test_group_gone(pgid));
}

static void test_ignored_signal_stays_ignored(void)
{
	int rep[2], status = 0;
	pid_t proc;
	char buf[16];

	check_int(pipe(rep), ==, 0);
	proc = fork();
	if (!proc) {
		close(rep[0]);
		report_fd = rep[1];
		signal(SIGHUP, SIG_IGN);
		sigchain_push_cleanup(report_a, NULL);
		kill(getpid(), SIGHUP);
		exit(7);
	}
	close(rep[1]);
	check_int(waitpid(proc, &status, 0), ==, proc);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	/* Not run for the ignored SIGHUP, only at exit. */
	check_int(read_all(rep[0], buf, sizeof(buf)), ==, 2);
	check(!memcmp(buf, "A\0", 2));
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	TEST(test_signal_kills_and_cleans);
	TEST(test_exit_kills_and_cleans);
	TEST(test_ignored_signal_stays_ignored);
	return test_done();
}
