/* test-run-command.c: unit tests for running programs, capture and timeouts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "test-lib.h"
#include "util/wrapper.h"

static void cmd(struct child_process *cp, const char *prog, const char *arg1,
		const char *arg2)
{
	child_process_init(cp);
	strvec_push(&cp->args, prog);
	if (arg1)
		strvec_push(&cp->args, arg1);
	if (arg2)
		strvec_push(&cp->args, arg2);
}

static void sh(struct child_process *cp, const char *script)
{
	cmd(cp, "sh", "-c", script);
}

static void describe(struct strbuf *out, const struct child_process *cp)
{
	strbuf_reset(out);
	child_process_describe(out, cp);
}

static void test_exit_codes(void)
{
	struct child_process cp;
	struct strbuf why = STRBUF_INIT;

	cmd(&cp, "true", NULL, NULL);
	check_int(run_command(&cp), ==, 0);
	check_int(cp.exit_code, ==, 0);
	check_int(cp.signal, ==, 0);
	check_int(cp.timed_out, ==, 0);
	check(cp.pid > 0);
	check(cp.seconds > 0 && cp.seconds < 2);
	describe(&why, &cp);
	check_str(why.buf, "exited with status 0");
	child_process_release(&cp);

	sh(&cp, "exit 3");
	check_int(run_command(&cp), ==, -1);
	check_int(cp.exit_code, ==, 3);
	check_int(cp.signal, ==, 0);
	describe(&why, &cp);
	check_str(why.buf, "exited with status 3");
	child_process_release(&cp);

	/* Each child leads its own process group. */
	{
		struct strbuf out = STRBUF_INIT;
		char *want;

		sh(&cp, "cut -d' ' -f5 /proc/$$/stat");
		cp.out.mode = CHILD_IO_CAPTURE;
		cp.out.buf = &out;
		check_int(run_command(&cp), ==, 0);
		want = xstrfmt("%d\n", (int)cp.pid);
		check_str(out.buf, want);
		free(want);
		strbuf_release(&out);
		child_process_release(&cp);
	}
	strbuf_release(&why);
}

static void test_missing_program(void)
{
	struct child_process cp;
	struct strbuf why = STRBUF_INIT;
	char *path;

	strbuf_reset(&test_messages);
	cmd(&cp, "kcp-no-such-program", "x", NULL);
	errno = 0;
	check_int(run_command(&cp), ==, -1);
	check_int(errno, ==, ENOENT);
	check_int(cp.start_errno, ==, ENOENT);
	check_int(cp.pid, ==, -1);
	check_str(test_messages.buf,
		  "error: cannot run 'kcp-no-such-program': No such file or directory\n");
	describe(&why, &cp);
	check_str(why.buf, "could not be started: No such file or directory");
	child_process_release(&cp);

	/* With a '/', the lookup is exec's own, reported over the pipe. */
	strbuf_reset(&test_messages);
	cmd(&cp, "/nonexistent/kcp-prog", NULL, NULL);
	cp.silent_exec_failure = 1;
	errno = 0;
	check_int(start_command(&cp), ==, -1);
	check_int(errno, ==, ENOENT);
	check_str(test_messages.buf, "");
	child_process_release(&cp);

	/* Found but not executable. */
	path = xstrfmt("%s/not-exec", test_tmpdir());
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "#!/bin/sh\n");
		check_int(strbuf_write_file(&sb, path), ==, 0);
		strbuf_release(&sb);
	}
	chmod(path, 0644);
	cmd(&cp, path, NULL, NULL);
	cp.silent_exec_failure = 1;
	errno = 0;
	check_int(run_command(&cp), ==, -1);
	check_int(errno, ==, EACCES);
	child_process_release(&cp);
	free(path);

	/* The child's PATH decides. */
	cmd(&cp, "sh", "-c", "exit 0");
	strvec_push(&cp.env, "PATH=/nonexistent");
	cp.silent_exec_failure = 1;
	errno = 0;
	check_int(run_command(&cp), ==, -1);
	check_int(errno, ==, ENOENT);
	child_process_release(&cp);

	/* A bad dir is an error too, not an exit status. */
	strbuf_reset(&test_messages);
	cmd(&cp, "true", NULL, NULL);
	cp.dir = "/nonexistent/dir";
	errno = 0;
	check_int(run_command(&cp), ==, -1);
	check_int(errno, ==, ENOENT);
	check_str(test_messages.buf,
		  "error: cannot change to '/nonexistent/dir': No such file or directory\n");
	child_process_release(&cp);

	/* No argv at all. */
	child_process_init(&cp);
	check_int(run_command(&cp), ==, -1);
	check_int(errno, ==, EINVAL);
	child_process_release(&cp);
	strbuf_release(&why);
}

static void test_capture(void)
{
	struct child_process cp;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	sh(&cp, "echo out; echo err >&2; echo out2");
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	cp.err.mode = CHILD_IO_CAPTURE;
	cp.err.buf = &err;
	strbuf_addstr(&out, "kept:");
	check_int(run_command(&cp), ==, 0);
	check_str(out.buf, "kept:out\nout2\n");
	check_str(err.buf, "err\n");
	check_int(cp.out.dropped, ==, 0);
	child_process_release(&cp);

	strbuf_reset(&out);
	sh(&cp, "echo a; echo b >&2; echo c");
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	cp.err.mode = CHILD_IO_TO_STDOUT;
	check_int(run_command(&cp), ==, 0);
	check_str(out.buf, "a\nb\nc\n");
	child_process_release(&cp);

	/* stdin is /dev/null by default: cat must not wait for a terminal. */
	strbuf_reset(&out);
	cmd(&cp, "cat", NULL, NULL);
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	cp.timeout = 5;
	check_int(run_command(&cp), ==, 0);
	check_str(out.buf, "");
	child_process_release(&cp);

	/* A capture without a buffer is a caller's mistake. */
	strbuf_reset(&test_messages);
	cmd(&cp, "true", NULL, NULL);
	cp.out.mode = CHILD_IO_CAPTURE;
	check_int(run_command(&cp), ==, -1);
	check_int(errno, ==, EINVAL);
	child_process_release(&cp);

	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_files(void)
{
	struct child_process cp;
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/out.txt", test_tmpdir());

	strbuf_addstr(&sb, "old contents, longer than the new\n");
	check_int(strbuf_write_file(&sb, path), ==, 0);

	sh(&cp, "echo hi; echo there >&2");
	cp.out.mode = CHILD_IO_FILE;
	cp.out.path = path;
	cp.err.mode = CHILD_IO_TO_STDOUT;
	check_int(run_command(&cp), ==, 0);
	child_process_release(&cp);
	strbuf_reset(&sb);
	check(strbuf_read_file(&sb, path, 0) >= 0);
	check_str(sb.buf, "hi\nthere\n");

	sh(&cp, "echo more");
	cp.out.mode = CHILD_IO_APPEND;
	cp.out.path = path;
	cp.err.mode = CHILD_IO_NULL;
	check_int(run_command(&cp), ==, 0);
	child_process_release(&cp);
	strbuf_reset(&sb);
	check(strbuf_read_file(&sb, path, 0) >= 0);
	check_str(sb.buf, "hi\nthere\nmore\n");

	/* stdin from a file. */
	strbuf_reset(&sb);
	cmd(&cp, "cat", NULL, NULL);
	cp.in.mode = CHILD_IO_FILE;
	cp.in.path = path;
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &sb;
	check_int(run_command(&cp), ==, 0);
	check_str(sb.buf, "hi\nthere\nmore\n");
	child_process_release(&cp);

	/* An unopenable file fails before anything runs. */
	strbuf_reset(&test_messages);
	cmd(&cp, "true", NULL, NULL);
	cp.out.mode = CHILD_IO_FILE;
	cp.out.path = "/nonexistent/out.txt";
	check_int(run_command(&cp), ==, -1);
	check_int(errno, ==, ENOENT);
	check(strstr(test_messages.buf, "cannot open '/nonexistent/out.txt'") != NULL);
	child_process_release(&cp);

	strbuf_release(&sb);
	free(path);
}

/* seq 1 LAST: every number of the last 64 KiB has 7 digits, 8 bytes a line. */
#define SEQ_LAST 7000000
#define CAP (64 * 1024)

static size_t seq_bytes(long last)
{
	size_t total = 0;
	long lo = 1, width = 1;

	while (lo <= last) {
		long hi = lo * 10 - 1 < last ? lo * 10 - 1 : last;

		total += (size_t)(hi - lo + 1) * (width + 1);
		lo *= 10;
		width++;
	}
	return total;
}

static void test_capture_cap(void)
{
	struct child_process cp;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, want = STRBUF_INIT;
	size_t total = seq_bytes(SEQ_LAST);
	long n;
	double t0;

	for (n = SEQ_LAST - CAP / 8 + 1; n <= SEQ_LAST; n++)
		strbuf_addf(&want, "%ld\n", n);
	check_int(want.len, ==, CAP);
	check(total > 50 * 1000 * 1000);

	/* stderr first: if it were not drained, the child would block there. */
	sh(&cp, "seq 1 7000000 >&2; seq 1 7000000");
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	cp.out.cap = CAP;
	cp.err.mode = CHILD_IO_CAPTURE;
	cp.err.buf = &err;
	cp.err.cap = CAP;
	cp.timeout = 30;
	t0 = now_seconds();
	check_int(run_command(&cp), ==, 0);
	check(now_seconds() - t0 < 20);
	check_int(out.len, ==, CAP);
	check_int(cp.out.dropped, ==, total - CAP);
	check(out.len == want.len && !memcmp(out.buf, want.buf, CAP));
	check_int(err.len, ==, CAP);
	check(err.len == want.len && !memcmp(err.buf, want.buf, CAP));
	/* bounded: cap + slack + one read, however long the output */
	check_int(out.alloc, <, 8 * CAP);
	check_int(err.alloc, <, 8 * CAP);
	child_process_release(&cp);

	/* A cap larger than the output keeps all of it. */
	strbuf_reset(&out);
	sh(&cp, "echo 12345");
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	cp.out.cap = 100;
	check_int(run_command(&cp), ==, 0);
	check_str(out.buf, "12345\n");
	check_int(cp.out.dropped, ==, 0);
	child_process_release(&cp);

	/* A tiny cap, with earlier contents left alone. */
	strbuf_reset(&out);
	strbuf_addstr(&out, "head:");
	sh(&cp, "echo 12345");
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	cp.out.cap = 3;
	check_int(run_command(&cp), ==, 0);
	check_str(out.buf, "head:45\n");
	check_int(cp.out.dropped, ==, 3);
	child_process_release(&cp);

	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&want);
}

static void timeout_sleep(int no_pidfd)
{
	struct child_process cp;
	struct strbuf why = STRBUF_INIT;
	double t0;

	run_command_no_pidfd = no_pidfd;
	cmd(&cp, "sleep", "100", NULL);
	cp.timeout = 0.3;
	t0 = now_seconds();
	check_int(run_command(&cp), ==, -1);
	check(now_seconds() - t0 >= 0.3);
	check(now_seconds() - t0 < 0.3 + 1.0);
	check_int(cp.timed_out, ==, 1);
	check_int(cp.signal, ==, SIGTERM);
	check(cp.seconds >= 0.3 && cp.seconds < 1.3);
	describe(&why, &cp);
	check_str(why.buf, "timed out after 0.3 s");
	child_process_release(&cp);
	run_command_no_pidfd = 0;
	strbuf_release(&why);
}

static void test_timeout(void)
{
	timeout_sleep(0);
}

static void test_timeout_no_pidfd(void)
{
	timeout_sleep(1);
}

static void test_timeout_kill(void)
{
	struct child_process cp;
	double t0;

	sh(&cp, "trap '' TERM; sleep 100; echo not reached");
	cp.timeout = 0.3;
	cp.grace = 0.4;
	t0 = now_seconds();
	check_int(run_command(&cp), ==, -1);
	check(now_seconds() - t0 >= 0.7);
	check(now_seconds() - t0 < 0.7 + 1.0);
	check_int(cp.timed_out, ==, 1);
	check_int(cp.signal, ==, SIGKILL);
	check(test_group_gone(cp.pid));
	child_process_release(&cp);
}

static void test_grandchildren(void)
{
	struct child_process cp;
	struct strbuf out = STRBUF_INIT;
	double t0;

	sh(&cp, "sleep 100 & sleep 100 & wait");
	cp.timeout = 0.3;
	cp.grace = 0.5;
	check_int(run_command(&cp), ==, -1);
	check_int(cp.timed_out, ==, 1);
	check(test_group_gone(cp.pid));
	child_process_release(&cp);

	/* The same when the whole group ignores TERM. */
	sh(&cp, "trap '' TERM; sleep 100 & sleep 100 & wait");
	cp.timeout = 0.3;
	cp.grace = 0.2;
	check_int(run_command(&cp), ==, -1);
	check_int(cp.signal, ==, SIGKILL);
	check(test_group_gone(cp.pid));
	child_process_release(&cp);

	/*
	 * A leader that exits leaving a background child holding stdout:
	 * no timeout set, yet we must not wait 100 s for EOF.
	 */
	sh(&cp, "sleep 100 & echo started");
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	t0 = now_seconds();
	check_int(run_command(&cp), ==, 0);
	check(now_seconds() - t0 < 1.5);
	check_str(out.buf, "started\n");
	check(test_group_gone(cp.pid));
	child_process_release(&cp);
	strbuf_release(&out);
}

/* A child writing without end is stopped once its file passes watch_max. */
static void test_watch(void)
{
	struct child_process cp;
	struct strbuf why = STRBUF_INIT, want = STRBUF_INIT;
	char *path = xstrfmt("%s/flood.txt", test_tmpdir());
	struct stat st;
	double t0;

	sh(&cp, "while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done");
	cp.out.mode = CHILD_IO_FILE;
	cp.out.path = path;
	strvec_push(&cp.watch, "/nonexistent/is/never/too/large");
	strvec_push(&cp.watch, path);
	cp.watch_max = 100000;
	t0 = now_seconds();
	check_int(run_command(&cp), ==, -1);
	check(now_seconds() - t0 < 5);
	check(!cp.timed_out);
	check_str(cp.exceeded, path);
	check_int(cp.signal, ==, SIGTERM);
	check(!stat(path, &st) && st.st_size > 100000);
	describe(&why, &cp);
	strbuf_addf(&want, "was stopped: '%s' grew beyond 100000 bytes", path);
	check_str(why.buf, want.buf);
	check(test_group_gone(cp.pid));
	child_process_release(&cp);

	/* Under the cap nothing happens. */
	sh(&cp, "echo small");
	cp.out.mode = CHILD_IO_FILE;
	cp.out.path = path;
	strvec_push(&cp.watch, path);
	cp.watch_max = 100000;
	check_int(run_command(&cp), ==, 0);
	check(!cp.exceeded);
	child_process_release(&cp);
	strbuf_release(&why);
	strbuf_release(&want);
	free(path);
}

static void test_signal(void)
{
	struct child_process cp;
	struct strbuf why = STRBUF_INIT;

	sh(&cp, "kill -SEGV $$");
	check_int(run_command(&cp), ==, -1);
	check_int(cp.signal, ==, SIGSEGV);
	check_int(cp.exit_code, ==, -1);
	check_int(cp.timed_out, ==, 0);
	describe(&why, &cp);
	check_str(why.buf, "killed by signal 11 (Segmentation fault)");
	child_process_release(&cp);

	sh(&cp, "kill -KILL $$");
	check_int(run_command(&cp), ==, -1);
	describe(&why, &cp);
	check_str(why.buf, "killed by signal 9 (Killed)");
	child_process_release(&cp);
	strbuf_release(&why);
}

static void test_env(void)
{
	struct child_process cp;
	struct strbuf out = STRBUF_INIT;

	setenv("KCP_TEST_GONE", "parent", 1);
	setenv("KCP_TEST_KEPT", "kept", 1);
	setenv("KCP_TEST_OVER", "parent", 1);
	sh(&cp, "echo \"${KCP_TEST_GONE-unset} $KCP_TEST_KEPT $KCP_TEST_OVER $KCP_TEST_NEW\"");
	strvec_push(&cp.env, "KCP_TEST_GONE");
	strvec_push(&cp.env, "KCP_TEST_OVER=first");
	strvec_push(&cp.env, "KCP_TEST_OVER=child=with=equals");
	strvec_push(&cp.env, "KCP_TEST_NEW=");
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	check_int(run_command(&cp), ==, 0);
	check_str(out.buf, "unset kept child=with=equals \n");
	child_process_release(&cp);

	/* The parent's environment is untouched. */
	check_str(getenv("KCP_TEST_GONE"), "parent");
	check_str(getenv("KCP_TEST_OVER"), "parent");
	unsetenv("KCP_TEST_GONE");
	unsetenv("KCP_TEST_KEPT");
	unsetenv("KCP_TEST_OVER");
	strbuf_release(&out);
}

static void test_dir(void)
{
	struct child_process cp;
	struct strbuf out = STRBUF_INIT;
	char real[PATH_MAX];
	char *want;

	check(realpath(test_tmpdir(), real) != NULL);
	want = xstrfmt("%s\n", real);
	cmd(&cp, "pwd", "-P", NULL);
	cp.dir = test_tmpdir();
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	check_int(run_command(&cp), ==, 0);
	check_str(out.buf, want);
	child_process_release(&cp);
	free(want);
	strbuf_release(&out);
}

static size_t done_count;

static void count_done(struct child_process *cp UNUSED, size_t i, void *data)
{
	size_t *order = data;

	order[done_count++] = i;
}

static void test_parallel(void)
{
	struct child_process cmds[8];
	size_t order[8], i;
	double t0, elapsed;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		cmd(&cmds[i], "sleep", "0.3", NULL);
	done_count = 0;
	t0 = now_seconds();
	check_int(run_commands_parallel(cmds, ARRAY_SIZE(cmds), 4, count_done, order), ==, 0);
	elapsed = now_seconds() - t0;
	check(elapsed >= 0.55);
	check(elapsed < 1.2);
	check_int(done_count, ==, 8);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		check_int(cmds[i].exit_code, ==, 0);
		child_process_release(&cmds[i]);
	}

	/* Failures are counted, whether at start or at exit. */
	cmd(&cmds[0], "true", NULL, NULL);
	cmd(&cmds[1], "kcp-no-such-program", NULL, NULL);
	cmds[1].silent_exec_failure = 1;
	cmd(&cmds[2], "false", NULL, NULL);
	cmd(&cmds[3], "true", NULL, NULL);
	done_count = 0;
	check_int(run_commands_parallel(cmds, 4, 2, count_done, order), ==, 2);
	check_int(done_count, ==, 4);
	check_int(cmds[1].start_errno, ==, ENOENT);
	check_int(cmds[2].exit_code, ==, 1);
	for (i = 0; i < 4; i++)
		child_process_release(&cmds[i]);
}

static void test_wait_any(void)
{
	struct child_process a, b, c;
	struct child_process *all[4];

	cmd(&a, "sleep", "0.4", NULL);
	cmd(&b, "sleep", "0.05", NULL);
	sh(&c, "sleep 0.2; exit 4");
	check_int(start_command(&a), ==, 0);
	check_int(start_command(&b), ==, 0);
	check_int(start_command(&c), ==, 0);
	all[0] = &a;
	all[1] = NULL;
	all[2] = &b;
	all[3] = &c;
	check_int(wait_any_command(all, 4), ==, 2);
	check_int(b.exit_code, ==, 0);
	check_int(wait_any_command(all, 4), ==, 3);
	check_int(c.exit_code, ==, 4);
	check_int(wait_any_command(all, 4), ==, 0);
	check_int(wait_any_command(all, 4), ==, -1);
	check_int(finish_command(&a), ==, -1);
	child_process_release(&a);
	child_process_release(&b);
	child_process_release(&c);
}

/*
 * A middle process starts `sleep 100` (with or without the flag), tells us
 * its pid and dies of SIGKILL, so no handler of its own runs.  The sleep is
 * orphaned to us (the subreaper); returns how it ended: the signal that
 * killed it within 3 s, or 0 when it was still running (then it is killed).
 */
static int orphan_fate(int flag)
{
	struct child_process cp;
	int fds[2], status;
	pid_t middle, pid = -1;
	double deadline;

	if (pipe(fds))
		return -1;
	middle = fork();
	if (middle < 0)
		return -1;
	if (!middle) {
		close(fds[0]);
		cmd(&cp, "sleep", "100", NULL);
		cp.kill_on_parent_death = flag;
		if (start_command(&cp))
			_exit(1);
		(void)!write(fds[1], &cp.pid, sizeof(cp.pid));
		raise(SIGKILL);
		_exit(1);
	}
	close(fds[1]);
	if (read(fds[0], &pid, sizeof(pid)) != sizeof(pid))
		pid = -1;
	close(fds[0]);
	waitpid(middle, &status, 0);
	if (pid <= 0)
		return -1;
	deadline = now_seconds() + (flag ? 3 : 0.3);
	while (now_seconds() < deadline) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid)
			return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 0;
}

static void test_kill_on_parent_death(void)
{
	/* Without the flag the orphan lives on; with it, it dies with its parent. */
	check_int(orphan_fate(0), ==, 0);
	check_int(orphan_fate(1), ==, SIGKILL);
}

/* Whether pid is gone (or a zombie) within seconds. */
static int pid_gone_within(pid_t pid, double seconds)
{
	double deadline = now_seconds() + seconds;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	while (now_seconds() < deadline) {
		struct strbuf stat = STRBUF_INIT;
		const char *paren;
		int zombie;

		waitpid(pid, NULL, WNOHANG);
		if (strbuf_read_file(&stat, path, 0) < 0)
			return 1;
		paren = strrchr(stat.buf, ')');
		zombie = paren && paren[1] == ' ' && paren[2] == 'Z';
		strbuf_release(&stat);
		if (zombie)
			return 1;
		usleep(10000);
	}
	return 0;
}

static int pid_gone(pid_t pid)
{
	return pid_gone_within(pid, 3);
}

/* Runs `sh -c script` (contained or not); returns the pid it printed first. */
static pid_t run_printing_pid(const char *script, int contain, struct child_process *cp)
{
	struct strbuf out = STRBUF_INIT;
	pid_t pid;

	sh(cp, script);
	cp->contain = contain;
	cp->out.mode = CHILD_IO_CAPTURE;
	cp->out.buf = &out;
	run_command(cp);
	pid = (pid_t)strtol(out.buf, NULL, 10);
	strbuf_release(&out);
	return pid;
}

static void test_contain(void)
{
	struct child_process cp;
	struct strbuf why = STRBUF_INIT;
	pid_t escaped;

	/* Without it, a grandchild in a session of its own lives on... */
	/* (the sleep lets setsid() happen before the group is killed) */
	escaped = run_printing_pid("setsid sleep 100 >/dev/null & echo $!; sleep 0.2", 0, &cp);
	check(escaped > 0 && !pid_gone_within(escaped, 0.3));
	if (escaped > 0)
		kill(escaped, SIGKILL);
	child_process_release(&cp);
	/* ... with it, not. */
	escaped = run_printing_pid("setsid sleep 100 & echo $!; sleep 0.2", 1, &cp);
	check_int(cp.exit_code, ==, 0);
	check(escaped > 0 && pid_gone(escaped));
	child_process_release(&cp);

	/* The keeper ends as the child did. */
	sh(&cp, "exit 3");
	cp.contain = 1;
	check_int(run_command(&cp), ==, -1);
	check_int(cp.exit_code, ==, 3);
	check(test_group_gone(cp.pid));
	child_process_release(&cp);
	sh(&cp, "kill -SEGV $$");
	cp.contain = 1;
	check_int(run_command(&cp), ==, -1);
	check_int(cp.signal, ==, SIGSEGV);
	child_process_release(&cp);

	/* Timeouts reach the child through its group. */
	sh(&cp, "setsid sleep 100 & sleep 100");
	cp.contain = 1;
	cp.timeout = 0.3;
	check_int(run_command(&cp), ==, -1);
	check_int(cp.timed_out, ==, 1);
	check_int(cp.signal, ==, SIGTERM);
	check(cp.seconds < 2);
	describe(&why, &cp);
	check_str(why.buf, "timed out after 0.3 s");
	child_process_release(&cp);

	/* A program that cannot be executed is a failed start, as without. */
	cmd(&cp, "/dev/null", NULL, NULL);
	cp.contain = 1;
	cp.silent_exec_failure = 1;
	check_int(start_command(&cp), ==, -1);
	check_int(cp.start_errno, ==, EACCES);
	child_process_release(&cp);
	strbuf_release(&why);
}

/*
 * A middle process runs a contained child that starts two sleeps, one in
 * a session of its own, and dies of SIGKILL: the child and both sleeps
 * must go with it, though only the child had PR_SET_PDEATHSIG.
 */
static void test_contain_parent_death(void)
{
	char *file = xstrfmt("%s/pids", test_tmpdir());
	char *script = xstrfmt("setsid sleep 100 & a=$!; sleep 100 & echo $a $! $$ >%s.tmp; "
			       "mv %s.tmp %s; wait", file, file, file);
	struct strbuf pids = STRBUF_INIT;
	long a = 0, b = 0, c = 0;
	pid_t middle;
	int i;

	middle = fork();
	if (!middle) {
		struct child_process cp;

		sh(&cp, script);
		cp.contain = 1;
		if (start_command(&cp))
			_exit(1);
		pause();
		_exit(0);
	}
	for (i = 0; i < 300 && strbuf_read_file(&pids, file, 0) < 0; i++)
		usleep(10000);
	check(sscanf(pids.buf, "%ld %ld %ld", &a, &b, &c) == 3);
	kill(middle, SIGKILL);
	waitpid(middle, NULL, 0);
	check(a > 0 && pid_gone((pid_t)a));
	check(b > 0 && pid_gone((pid_t)b));
	check(c > 0 && pid_gone((pid_t)c));
	strbuf_release(&pids);
	free(script);
	free(file);
}

/* "The first line of PROG --version", the one way every caller reads it. */
static void test_first_line(void)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;

	check_int(run_command_first_line(&out, "printf", "one two\\nthree\\n", &why), ==, 0);
	check_str(out.buf, "one two");
	check_str(why.buf, "");
	check_int(run_command_first_line(&out, "false", "--version", &why), ==, -2);
	check_str(why.buf, "exited with status 1");
	strbuf_reset(&why);
	check_int(run_command_first_line(&out, "/nonexistent/kcp-prog", "--version", &why), ==, -1);
	check(strstr(why.buf, "No such file") != NULL);
	check_int(run_command_first_line(&out, "/nonexistent/kcp-prog", "--version", NULL), ==, -1);
	strbuf_release(&out);
	strbuf_release(&why);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	test_capture_start();
	/* Orphaned grandchildren come back to us, so we can check they died. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	TEST(test_exit_codes);
	TEST(test_missing_program);
	TEST(test_capture);
	TEST(test_files);
	TEST(test_capture_cap);
	TEST(test_timeout);
	TEST(test_timeout_no_pidfd);
	TEST(test_timeout_kill);
	TEST(test_grandchildren);
	TEST(test_watch);
	TEST(test_signal);
	TEST(test_env);
	TEST(test_dir);
	TEST(test_parallel);
	TEST(test_wait_any);
	TEST(test_kill_on_parent_death);
	TEST(test_contain);
	TEST(test_contain_parent_death);
	TEST(test_first_line);
	strbuf_release(&test_messages);
	return test_done();
}
