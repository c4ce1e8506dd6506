/* test-lib.h: kconfperf's small unit-test harness. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef TEST_LIB_H
#define TEST_LIB_H

#include <string.h>
#include <sys/types.h>

struct strbuf;

/*
 * A test file defines static void test_*(void) functions and a main() that
 * runs them with TEST(fn) and returns test_done().  A test passes when every
 * check in it holds.  Output is one "ok N - name" / "not ok N - name" line per
 * test (" # SKIP reason" for a skipped one), the failing checks with file:line,
 * and a last line "N passed, N failed, N skipped".
 * Run a test binary with a name as argument to run only tests whose name
 * contains it.
 */
void test_init(int argc, char **argv);
void test_run(const char *name, void (*fn)(void));
int test_done(void);
/*
 * Marks the running test skipped, with the reason (a prerequisite this
 * machine lacks); it counts as skipped, not passed, unless a check in it
 * failed.  The test function returns after calling it.
 */
void test_skip(const char *why);

int check_impl(int ok, const char *expr, const char *file, int line);
int check_int_impl(long long a, const char *op, long long b, const char *expr,
		   const char *file, int line);
int check_str_impl(const char *a, const char *b, const char *expr,
		   const char *file, int line);
int check_double_impl(double a, double b, double rel, const char *expr,
		      const char *file, int line);

#define TEST(fn) test_run(#fn, fn)
#define check(cond) check_impl(!!(cond), #cond, __FILE__, __LINE__)
#define check_int(a, op, b) \
	check_int_impl((long long)(a), #op, (long long)(b), #a " " #op " " #b, __FILE__, __LINE__)
#define check_str(a, b) check_str_impl((a), (b), #a " == " #b, __FILE__, __LINE__)
/* Relative difference |a-b|/max(|a|,|b|) at most rel (absolute when both are tiny). */
#define check_double(a, b, rel) \
	check_double_impl((a), (b), (rel), #a " ~= " #b, __FILE__, __LINE__)

/* Directory for a test's scratch files, created on demand and removed at exit. */
const char *test_tmpdir(void);

/*
 * What the code under test says through error(), warning() and note(), as
 * "kind: msg\n" lines.  test_capture_start() empties test_messages and
 * collects into it instead of printing; test_capture_stop() prints again.
 */
extern struct strbuf test_messages;
void test_capture_start(void);
void test_capture_stop(void);

/*
 * Whether process group pgid is gone, waiting up to 3 seconds.  For a test
 * that made itself a child subreaper (PR_SET_CHILD_SUBREAPER): the group's
 * orphans come back to it, so they are reaped here first.
 */
int test_group_gone(pid_t pgid);

#endif
