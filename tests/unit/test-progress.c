/* test-progress.c: unit tests for the progress line shared by the build and run stages. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>
#include <unistd.h>

#include "test-lib.h"
#include "util/progress.h"
#include "util/strbuf.h"

static void check_duration(double seconds, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	progress_add_duration(&sb, seconds);
	check_str(sb.buf, want);
	strbuf_release(&sb);
}

static void test_durations(void)
{
	check_duration(0, "0s");
	check_duration(0.4, "0s");
	check_duration(59.4, "59s");
	check_duration(59.6, "1m00s");
	check_duration(252, "4m12s");
	check_duration(3599, "59m59s");
	check_duration(3600, "1h00m");
	check_duration(3725, "1h02m");
	check_duration(-3, "0s");
}

static void test_counts(void)
{
	struct progress p;
	struct strbuf sb = STRBUF_INIT;

	progress_start(&p, PROGRESS_LINES, 40);
	progress_add_count(&p, &sb, 3);
	check_str(sb.buf, "[3/40] ");
	progress_stop(&p);
	strbuf_reset(&sb);
	progress_start(&p, PROGRESS_LINES, 0);
	progress_add_count(&p, &sb, 3);
	check_str(sb.buf, "[3] ");
	progress_stop(&p);
	strbuf_release(&sb);
}

static void test_lines_and_estimates(void)
{
	struct progress p;

	test_capture_start();
	progress_start(&p, PROGRESS_LINES, 4);
	/* nothing finished, no estimate: no time left */
	progress_show(&p, "build baseline", 0);
	progress_done(&p, 240);
	/* the caller's estimate per item: 3 left x 60 s */
	progress_show(&p, "build CONFIG_A=y", 60);
	progress_done(&p, 60);
	/* else the mean of the finished ones: 2 left x 150 s */
	progress_show(&p, "build CONFIG_B=y", 0);
	progress_stop(&p);
	test_capture_stop();
	check_str(test_messages.buf,
		  ": [1/4] build baseline (elapsed 0s)\n"
		  ": [2/4] build CONFIG_A=y (elapsed 0s, about 3m00s left)\n"
		  ": [3/4] build CONFIG_B=y (elapsed 0s, about 5m00s left)\n");
}

static void test_terminal_mode_is_silent_off_a_terminal(void)
{
	struct progress p;

	if (isatty(2)) {
		test_skip("stderr is a terminal");
		return;
	}
	test_capture_start();
	progress_start(&p, PROGRESS_TERMINAL, 2);
	check(!progress_in_place(&p));
	progress_show(&p, "hackbench round 1/2 baseline", 0);
	progress_stop(&p);
	test_capture_stop();
	check_str(test_messages.buf, "");
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_durations);
	TEST(test_counts);
	TEST(test_lines_and_estimates);
	TEST(test_terminal_mode_is_silent_off_a_terminal);
	return test_done();
}
