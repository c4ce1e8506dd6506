/* test-usage.c: error() and friends, and BUG() for a broken invariant. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "util/strbuf.h"
#include "util/usage.h"
#include "test-lib.h"
#include "util/wrapper.h"

static void test_error_returns_minus_one(void)
{
	test_capture_start();
	check_int(error("cannot open '%s'", "f"), ==, -1);
	warning("w %d", 2);
	test_capture_stop();
	check_str(test_messages.buf, "error: cannot open 'f'\nwarning: w 2\n");
}

/* Runs BUG() in a child whose stderr is a pipe; returns its wait status. */
static int run_bug(struct strbuf *err)
{
	int fds[2], status = 0;
	pid_t pid;

	if (!check(!pipe(fds)))
		return 0;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		/* A sink set by a test must not swallow it. */
		test_capture_start();
		BUG("lost %s number %d", "invariant", 7);
		_exit(0);
	}
	close(fds[1]);
	if (!check(pid > 0))
		return 0;
	check(strbuf_read_fd(err, fds[0], 0) >= 0);
	close(fds[0]);
	check(waitpid(pid, &status, 0) == pid);
	return status;
}

static void test_bug_prints_where_and_aborts(void)
{
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	int status = run_bug(&err);

	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	strbuf_addf(&want, "kconfperf: BUG: %s:", __FILE__);
	check(starts_with(err.buf, want.buf));
	check(ends_with(err.buf, ": lost invariant number 7\n"));
	check_int(strchr(err.buf, '\n') - err.buf, ==, err.len - 1);
	strbuf_release(&err);
	strbuf_release(&want);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_error_returns_minus_one);
	TEST(test_bug_prints_where_and_aborts);
	return test_done();
}
