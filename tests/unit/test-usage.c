/* test-usage.c: error() and friends, and BUG() for a broken invariant. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "util/strbuf.h"
#include "util/usage.h"
#include "util/write-file.h"
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

/* A message names what users and guests wrote: their control bytes are escaped. */
static void test_messages_are_safe_for_a_terminal(void)
{
	test_capture_start();
	error("run failed: %s", "\x1b]0;title\x07\x1b[31mred\xc2\x9b");
	warning("two\n\tlines");
	test_capture_stop();
	check_str(test_messages.buf, "error: run failed: \\x1b]0;title\\x07\\x1b[31mred"
		  "\\xc2\\x9b\nwarning: two\n\tlines\n");
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

/*
 * Runs fn in a child whose stdout is /dev/full and whose stderr goes to
 * err; returns its exit status (-1 if it did not exit).
 */
static int run_on_full_stdout(struct strbuf *err, int (*fn)(void))
{
	int fds[2], status = 0;
	pid_t pid;

	if (!check(!pipe(fds)))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int full = open("/dev/full", O_WRONLY);

		if (full < 0)
			_exit(99);
		dup2(full, 1);
		dup2(fds[1], 2);
		close(fds[0]);
		_exit(fn());
	}
	close(fds[1]);
	if (!check(pid > 0))
		return -1;
	check(strbuf_read_fd(err, fds[0], 0) >= 0);
	close(fds[0]);
	check(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* printf() leaves bytes in stdout's buffer; write_output("-") must flush them first. */
static int write_after_printf(void)
{
	printf("buffered, no newline");
	if (write_output("-", "data\n", 5) != -1)
		return 98;
	return finish_stdout(0);
}

/* Every message flushes stdout first, so a note can be the one to notice. */
static int note_after_printf(void)
{
	printf("buffered, no newline");
	note("a note");
	note("another");
	return finish_stdout(0);
}

static void test_full_stdout_is_said_once(void)
{
	struct strbuf err = STRBUF_INIT;

	if (access("/dev/full", W_OK)) {
		test_skip("no writable /dev/full");
		return;
	}
	check_int(run_on_full_stdout(&err, write_after_printf), ==, 1);
	check_str(err.buf, "kconfperf: error: cannot write '-': No space left on device\n");
	strbuf_reset(&err);
	check_int(run_on_full_stdout(&err, note_after_printf), ==, 1);
	check_str(err.buf, "kconfperf: error: cannot write to standard output: No space left on device\n"
		  "kconfperf: a note\nkconfperf: another\n");
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_error_returns_minus_one);
	TEST(test_messages_are_safe_for_a_terminal);
	TEST(test_bug_prints_where_and_aborts);
	TEST(test_full_stdout_is_said_once);
	return test_done();
}
