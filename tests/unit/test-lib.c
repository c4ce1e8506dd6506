/* test-lib.c: kconfperf's small unit-test harness. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "util/strbuf.h"
#include "test-lib.h"
#include "util/usage.h"
#include "util/wrapper.h"

static int passed, failed, skipped, number;
static int current_failed;
static char *current_skip;
static const char *filter;
static char *tmpdir;

void test_init(int argc, char **argv)
{
	if (argc > 1)
		filter = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static void remove_tmpdir(void)
{
	if (tmpdir)
		remove_tree(tmpdir);
}

const char *test_tmpdir(void)
{
	if (!tmpdir) {
		char templ[] = "/tmp/kcp-unit-XXXXXX";

		if (!mkdtemp(templ)) {
			perror("mkdtemp");
			exit(1);
		}
		tmpdir = xstrdup(templ);
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

struct strbuf test_messages = STRBUF_INIT;

static void capture(const char *kind, const char *msg, void *data UNUSED)
{
	strbuf_addf(&test_messages, "%s: %s\n", kind, msg);
}

void test_capture_start(void)
{
	strbuf_reset(&test_messages);
	set_message_sink(capture, NULL);
}

void test_capture_stop(void)
{
	set_message_sink(NULL, NULL);
}

int test_group_gone(pid_t pgid)
{
	double deadline = now_seconds() + 3;

	while (now_seconds() < deadline) {
		pid_t got = waitpid(-pgid, NULL, WNOHANG);

		if (got < 0 && errno == ECHILD)
			break;
		if (!got)
			usleep(10000);
	}
	return kill(-pgid, 0) < 0 && errno == ESRCH;
}

void test_run(const char *name, void (*fn)(void))
{
	if (filter && !strstr(name, filter))
		return;
	current_failed = 0;
	current_skip = NULL;
	fn();
	number++;
	fflush(stderr);
	if (current_skip && !current_failed) {
		skipped++;
		printf("ok %d - %s # SKIP %s\n", number, name, current_skip);
	} else if (current_failed) {
		failed++;
		printf("not ok %d - %s\n", number, name);
	} else {
		passed++;
		printf("ok %d - %s\n", number, name);
	}
}

int test_done(void)
{
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}

void test_skip(const char *why)
{
	free(current_skip);
	current_skip = xstrdup(why);
}

int check_impl(int ok, const char *expr, const char *file, int line)
{
	if (!ok) {
		current_failed = 1;
		fflush(stdout);
		fprintf(stderr, "# %s:%d: check failed: %s\n", file, line, expr);
	}
	return ok;
}

int check_int_impl(long long a, const char *op, long long b, const char *expr,
		   const char *file, int line)
{
	int ok;

	if (!strcmp(op, "=="))
		ok = a == b;
	else if (!strcmp(op, "!="))
		ok = a != b;
	else if (!strcmp(op, "<"))
		ok = a < b;
	else if (!strcmp(op, "<="))
		ok = a <= b;
	else if (!strcmp(op, ">"))
		ok = a > b;
	else
		ok = a >= b;
	if (!ok) {
		check_impl(0, expr, file, line);
		fprintf(stderr, "#   left: %lld\n#  right: %lld\n", a, b);
	}
	return ok;
}

/* A compared string as C would write it, on one line of the TAP output: "a\nb", or NULL. */
static void print_quoted(const char *label, const char *s)
{
	fprintf(stderr, "# %6s: ", label);
	if (!s) {
		fputs("NULL\n", stderr);
		return;
	}
	fputc('"', stderr);
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", stderr);
		else if (*s == '\t')
			fputs("\\t", stderr);
		else if (*s == '"' || *s == '\\')
			fprintf(stderr, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(stderr, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, stderr);
	}
	fputs("\"\n", stderr);
}

int check_str_impl(const char *a, const char *b, const char *expr,
		   const char *file, int line)
{
	int ok = (a && b) ? !strcmp(a, b) : a == b;

	if (!ok) {
		check_impl(0, expr, file, line);
		print_quoted("left", a);
		print_quoted("right", b);
	}
	return ok;
}

int check_double_impl(double a, double b, double rel, const char *expr,
		      const char *file, int line)
{
	double scale = fmax(fabs(a), fabs(b));
	int ok;

	if (isnan(a) || isnan(b))
		ok = isnan(a) && isnan(b);
	else if (isinf(a) || isinf(b))
		ok = a == b;
	else
		ok = fabs(a - b) <= rel * (scale > 1e-300 ? scale : 1.0);
	if (!ok) {
		check_impl(0, expr, file, line);
		fprintf(stderr, "#   left: %.17g\n#  right: %.17g\n", a, b);
	}
	return ok;
}
