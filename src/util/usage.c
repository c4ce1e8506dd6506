/* usage.c: error, warning and die, formatted the same everywhere. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/usage.h"

int quiet;
static message_sink_fn sink;
static void *sink_data;

void set_message_sink(message_sink_fn fn, void *data)
{
	sink = fn;
	sink_data = data;
}

static int stdout_failed;

int stdout_error(const char *name)
{
	if (stdout_failed++)
		return -1;
	if (name)
		return error_errno("cannot write '%s'", name);
	return error_errno("cannot write to standard output");
}

int finish_stdout(int status)
{
	if (!fflush(stdout) && !ferror(stdout))
		return status;
	if (errno == EPIPE)
		return status;
	stdout_error(NULL);
	return 1;
}

/*
 * Messages name what users and guests wrote (variant names, a runner's
 * error line): no control character of theirs reaches the terminal raw
 * (escape.h), only the lines and tabs of a message.  No malloc here: this
 * is how an allocation failure is said.
 */
static void report(const char *kind, const char *fmt, va_list ap, int err)
{
	char raw[4096], msg[4 * sizeof(raw)];
	int n = vsnprintf(raw, sizeof(raw), fmt, ap);

	if (n < 0)
		raw[0] = '\0';
	if (err) {
		size_t len = strlen(raw);
		snprintf(raw + len, sizeof(raw) - len, ": %s", strerror(err));
	}
	text_escape_lines(msg, sizeof(msg), raw);
	if (sink) {
		sink(kind, msg, sink_data);
		return;
	}
	/* What went to stdout before comes first; a failed flush is said here. */
	if (fflush(stdout) && errno != EPIPE)
		stdout_error(NULL);
	if (*kind)
		fprintf(stderr, "kconfperf: %s: %s\n", kind, msg);
	else
		fprintf(stderr, "kconfperf: %s\n", msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, 0);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, err);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", fmt, ap, 0);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	report("", fmt, ap, 0);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, 0);
	va_end(ap);
	exit(1);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, err);
	va_end(ap);
	exit(1);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, 0);
	va_end(ap);
	exit(2);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "kconfperf: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
