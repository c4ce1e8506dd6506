/* test-protocol.c: the KCP line parser, the workload table and --workload spec checks. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "run/protocol.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "run/workload-spec.h"
#include "run/workload-table.h"
#include "util/wrapper.h"

static int parse(struct protocol_result *r, const char *text)
{
	return protocol_parse_buffer(r, text, strlen(text), "results.txt");
}

static void test_good_run(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf why = STRBUF_INIT;

	test_capture_start();
	check_int(parse(&r,
		"KCP 1 ready boot_s=0.812 workload=hackbench clocksource=tsc\n"
		"KCP 1 sample workload=hackbench iter=0 metric=time unit=s better=lower value=0.2345\n"
		"KCP 1 sample workload=hackbench iter=1 metric=time unit=s better=lower value=2.5e-1\n"
		"KCP 1 done\n"), ==, 0);
	check_str(test_messages.buf, "");
	check(r.ready);
	check_double(r.boot_seconds, 0.812, 1e-12);
	check_str(r.clocksource, "tsc");
	check_int(r.nr_samples, ==, 2);
	check_str(r.samples[0].workload, "hackbench");
	check_int(r.samples[1].iteration, ==, 1);
	check_str(r.samples[1].metric, "time");
	check_str(r.samples[1].unit, "s");
	check_double(r.samples[1].value, 0.25, 1e-12);
	check_int(r.samples[1].higher_is_better, ==, 0);
	check(r.done);
	check(!r.error && !r.invalid);
	check_int(r.lines, ==, 4);
	check_int(protocol_result_complete(&r, &why), ==, 1);
	check_str(why.buf, "");
	protocol_result_release(&r);
	strbuf_release(&why);
	test_capture_stop();
}

static void test_throughput_and_crlf(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;

	test_capture_start();
	/* a serial line may end in \r\n, and the last line need not end at all */
	check_int(parse(&r,
		"KCP 1 sample workload=dd iter=0 metric=throughput unit=MB/s better=higher value=512.5\r\n"
		"KCP 1 done"), ==, 0);
	check_int(r.nr_samples, ==, 1);
	check_int(r.samples[0].higher_is_better, ==, 1);
	check_str(r.samples[0].unit, "MB/s");
	check(!r.ready);	/* a runner need not say ready */
	check(r.done);
	check_str(test_messages.buf, "");
	protocol_result_release(&r);
	test_capture_stop();
}

static void test_garbage_is_ignored(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;

	test_capture_start();
	check_int(parse(&r,
		"booting...\n"
		"\n"
		"KCPX 1 done\n"
		"kcp 1 done\n"
		" KCP 1 done\n"
		"[    0.123] KCP 1 sample not at the line start\n"
		"\x01\xff binary \x7f\n"
		"KCP 1 ready boot_s=1\n"
		"Run 1: 12.3 s\n"
		"KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=3\n"
		"KCP 1 done\n"
		"reboot: Power down\n"), ==, 0);
	check_str(test_messages.buf, "");
	check(r.ready);
	check_int(r.nr_samples, ==, 1);
	check(r.done);
	check_int(r.lines, ==, 12);
	protocol_result_release(&r);
	test_capture_stop();
}

static void test_guest_error(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf why = STRBUF_INIT;

	test_capture_start();
	check_int(parse(&r,
		"KCP 1 ready boot_s=0.5\n"
		"KCP 1 sample workload=dd iter=0 metric=throughput unit=MB/s better=higher value=100\n"
		"KCP 1 error msg=\"dd: cannot open '/dev/vda': No such \\\"file\\\" \\\\ dir\"\n"),
		  ==, 0);
	check_str(r.error, "dd: cannot open '/dev/vda': No such \"file\" \\ dir");
	check_int(r.nr_samples, ==, 1);
	check_int(protocol_result_complete(&r, &why), ==, 0);
	check(strstr(why.buf, "guest error: dd: cannot open") != NULL);
	protocol_result_release(&r);
	strbuf_release(&why);
	test_capture_stop();
}

static void test_incomplete(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf why = STRBUF_INIT;

	check_int(protocol_result_complete(&r, &why), ==, 0);
	check_str(why.buf, "no output");
	parse(&r, "KCP 1 ready boot_s=0.5\n");
	strbuf_reset(&why);
	check_int(protocol_result_complete(&r, &why), ==, 0);
	check_str(why.buf, "no 'done' line (ready, no samples)");
	parse(&r, "KCP 1 sample workload=x iter=4 metric=time unit=s better=lower value=1\n");
	strbuf_reset(&why);
	check_int(protocol_result_complete(&r, NULL), ==, 0);
	check_int(protocol_result_complete(&r, &why), ==, 0);
	check_str(why.buf, "no 'done' line (last sample iter=4)");
	protocol_result_release(&r);
	strbuf_release(&why);
}

/* Feeds one bad line after a ready line; checks the message names it and what is wrong. */
static void check_malformed(const char *line, const char *what)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;

	test_capture_start();
	strbuf_addf(&text, "noise\nKCP 1 ready boot_s=1\n%s\n", line);
	check_int(parse(&r, text.buf), ==, -1);
	if (!check(r.invalid && starts_with(r.invalid, "results.txt:3: ")) ||
	    !check(r.invalid && strstr(r.invalid, what)))
		fprintf(stderr, "#   line: %s\n#   message: %s\n", line,
			r.invalid ? r.invalid : "(none)");
	/* the run's output is a result: nothing is printed for it */
	check_str(test_messages.buf, "");
	check_int(r.nr_invalid, ==, 1);
	check_int(r.nr_samples, ==, 0);
	check_int(protocol_result_complete(&r, &why), ==, 0);
	check(!strncmp(why.buf, "malformed output: ", 18));
	protocol_result_release(&r);
	strbuf_release(&text);
	strbuf_release(&why);
	test_capture_stop();
}

static void test_malformed(void)
{
	check_malformed("KCP  ready", "no protocol version");
	check_malformed("KCP one ready", "no protocol version");
	check_malformed("KCP 1", "no protocol version");
	check_malformed("KCP 1 ", "no kind");
	check_malformed("KCP 1 finished", "unknown kind 'finished'");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=fast",
			"bad number 'fast' for value");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=nan",
			"bad number 'nan'");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=1e999",
			"bad number '1e999'");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=0x10",
			"bad number");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=",
			"empty 'value='");
	check_malformed("KCP 1 sample workload=x iter=-1 metric=time unit=s better=lower value=1",
			"bad iteration number '-1'");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s value=1",
			"sample without 'better='");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=less value=1",
			"better='less' is not lower or higher");
	check_malformed("KCP 1 sample workload=x iter=0 iter=1 metric=time unit=s better=lower value=1",
			"'iter=' given twice");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=1 junk",
			"expected key=value");
	check_malformed("KCP 1 error msg=\"unterminated", "unterminated quoted value");
	check_malformed("KCP 1 error msg=\"bad \\n escape\"", "bad escape");
	check_malformed("KCP 1 error msg=\"a\"b", "text after a closing quote");
	check_malformed("KCP 1 error msg=a\"b", "quote inside a bare value");
	check_malformed("KCP 1 error", "error without 'msg='");
	check_malformed("KCP 1 ready boot_s=2", "a second ready line");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=-1",
			"negative value '-1' for a time");
	check_malformed("KCP 1 sample workload=x iter=0 metric=throughput unit=MB/s better=higher "
			"value=-2e3", "negative value '-2e3' for a throughput");
	/* one range for times and values (store/sample-range.h, import's too) */
	check_malformed("KCP 1 sample workload=x iter=0 metric=throughput unit=MB/s better=higher "
			"value=1e308", "value=1e308 MB/s throughput, which is more than 1e15");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=1e-12",
			"value=1e-12 s time, which is below a nanosecond");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=ms better=lower value=2e10",
			"which is more than 1e7 s (116 days)");
	check_malformed("KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=0",
			"which is below a nanosecond");
}

/* A metric's first sample fixes its unit and direction (L2 of issue 25). */
static void test_metric_unit_is_fixed(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	int i;

	check_int(parse(&r, "KCP 1 sample workload=x iter=0 metric=t unit=s better=lower value=2\n"
			"KCP 1 sample workload=x iter=1 metric=t unit=ms better=higher value=3\n"
			"KCP 1 sample workload=x iter=2 metric=t unit=s better=higher value=3\n"
			"KCP 1 sample workload=x iter=3 metric=t unit=s better=lower value=4\n"
			"KCP 1 sample workload=x iter=0 metric=u unit=ns better=lower value=1\n"
			"KCP 1 done\n"), ==, -1);
	check_int(r.nr_samples, ==, 3);
	check_int(r.nr_invalid, ==, 2);
	check(r.invalid && strstr(r.invalid, "results.txt:2: metric 't' with unit=ms better=higher, "
				  "but its first sample had unit=s better=lower"));
	for (i = 0; i < (int)r.nr_samples; i++)
		check(!strcmp(r.samples[i].unit, r.samples[i].metric[0] == 't' ? "s" : "ns"));
	protocol_result_release(&r);
}

/* Seconds of CPU this process has used: a loaded host does not slow it. */
static double cpu_seconds(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

/*
 * 40,000 distinct metrics took 10 s to parse: the caps stop the parse, and
 * a run at the sample cap parses in linear time (100,000 samples of one
 * metric were 5e9 comparisons).  CPU time, so that a busy host cannot fail it.
 */
static void test_caps_and_linear_time(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf text = STRBUF_INIT;
	double t0;
	int i;

	strbuf_addstr(&text, "KCP 1 ready boot_s=1\n");
	for (i = 0; i < 40000; i++)
		strbuf_addf(&text, "KCP 1 sample workload=x iter=0 metric=m%d unit=s better=lower "
			    "value=1\n", i);
	strbuf_addstr(&text, "KCP 1 done\n");
	t0 = cpu_seconds();
	check_int(parse(&r, text.buf), ==, -1);
	check(cpu_seconds() - t0 < 1);
	check_int(r.nr_samples, ==, KCP_METRICS_MAX);
	check(r.capped);
	check(!r.done);
	check(r.invalid && strstr(r.invalid, "more than 64 metrics"));
	check_int(r.nr_invalid, ==, 1);
	protocol_result_release(&r);

	strbuf_reset(&text);
	for (i = 0; i < KCP_SAMPLES_MAX + 10; i++)
		strbuf_addf(&text, "KCP 1 sample workload=x iter=%d metric=time unit=s better=lower "
			    "value=1\n", i);
	t0 = cpu_seconds();
	check_int(parse(&r, text.buf), ==, -1);
	check(cpu_seconds() - t0 < 2);
	check_int(r.nr_samples, ==, KCP_SAMPLES_MAX);
	check(r.invalid && strstr(r.invalid, "more than 100000 samples"));
	protocol_result_release(&r);
	/* a duplicate is still found among many */
	check_int(parse(&r, "KCP 1 sample workload=x iter=7 metric=a unit=s better=lower value=1\n"
			"KCP 1 sample workload=x iter=7 metric=b unit=s better=lower value=1\n"
			"KCP 1 sample workload=x iter=7 metric=a unit=s better=lower value=1\n"),
		  ==, -1);
	check(r.invalid && strstr(r.invalid, "a second sample for metric 'a' iter=7"));
	check_int(r.nr_samples, ==, 2);
	protocol_result_release(&r);
	strbuf_release(&text);
}

/* A run asked for one workload takes no line about another. */
static void test_other_workload(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;

	r.workload = "boot";
	check_int(parse(&r, "KCP 1 ready boot_s=1 workload=boot\n"
		"KCP 1 sample workload=boot iter=0 metric=time unit=s better=lower value=1\n"
		"KCP 1 done\n"), ==, 0);
	check_int(protocol_result_complete(&r, NULL), ==, 1);
	protocol_result_release(&r);

	r.workload = "boot";
	check_int(parse(&r, "KCP 1 ready boot_s=1 workload=fork\n"), ==, -1);
	check_str(r.invalid, "results.txt:1: ready for workload 'fork', but this run is of "
		  "'boot' in 'KCP 1 ready boot_s=1 workload=fork'");
	check(!r.ready);
	protocol_result_release(&r);

	r.workload = "boot";
	check_int(parse(&r, "KCP 1 ready boot_s=1\n"
		"KCP 1 sample workload=hackbench iter=0 metric=time unit=s better=lower value=1\n"),
		  ==, -1);
	check(starts_with(r.invalid, "results.txt:2: a sample of workload 'hackbench', but this "
			  "run is of 'boot'"));
	check_int(r.nr_samples, ==, 0);
	protocol_result_release(&r);

	/* Without a workload to expect (workloads --check-output), any goes. */
	check_int(parse(&r, "KCP 1 ready boot_s=1 workload=fork\n"), ==, 0);
	protocol_result_release(&r);
}

static void test_version_mismatch(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;

	test_capture_start();
	check_int(parse(&r, "KCP 2 ready boot_s=1\nKCP 1 done\n"), ==, -1);
	check_str(r.invalid, "results.txt:1: protocol version 2, but this kconfperf "
		  "reads version 1 in 'KCP 2 ready boot_s=1'");
	check(!r.ready);
	check(r.done);	/* parsing goes on after a bad line */
	check_int(protocol_result_complete(&r, NULL), ==, 0);
	protocol_result_release(&r);
	test_capture_stop();
}

static void test_order(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;

	test_capture_start();
	check_int(parse(&r,
		"KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=1\n"
		"KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=2\n"
		"KCP 1 ready boot_s=1\n"
		"KCP 1 done\n"
		"KCP 1 sample workload=x iter=1 metric=time unit=s better=lower value=1\n"),
		  ==, -1);
	check(starts_with(r.invalid, "results.txt:2: a second sample for metric 'time' iter=0"));
	check_int(r.nr_invalid, ==, 3);
	check_int(r.nr_samples, ==, 1);
	check_double(r.samples[0].value, 1, 0);
	protocol_result_release(&r);

	check_int(parse(&r,
		"KCP 1 sample workload=x iter=0 metric=time unit=s better=lower value=1\n"
		"KCP 1 ready boot_s=1\n"), ==, -1);
	check(starts_with(r.invalid, "results.txt:2: ready after samples"));
	protocol_result_release(&r);

	check_int(parse(&r, "KCP 1 done\n"
		"KCP 1 sample workload=x iter=1 metric=time unit=s better=lower value=1\n"), ==, -1);
	check(starts_with(r.invalid, "results.txt:2: 'sample' after the run's 'done' line"));
	check_str(test_messages.buf, "");
	protocol_result_release(&r);
	test_capture_stop();
}

static void test_long_and_nul_lines(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf line = STRBUF_INIT;
	static const char nul_line[] = "KCP 1 done\0 x";

	test_capture_start();
	strbuf_addstr(&line, "KCP 1 error msg=");
	strbuf_addchars(&line, 'x', KCP_LINE_MAX);
	check_int(protocol_parse_line(&r, line.buf, line.len, "out", 7), ==, -1);
	check(starts_with(r.invalid, "out:7: line longer than"));
	/* the excerpt in the message is cut short */
	check(strlen(r.invalid) < 400);
	check_int(protocol_parse_line(&r, nul_line, sizeof(nul_line) - 1, "out", 8), ==, -1);
	check(starts_with(r.invalid, "out:7: "));
	check_int(r.nr_invalid, ==, 2);
	check(!r.done);
	check_int(protocol_parse_line(&r, "hello", 5, "out", 9), ==, 0);
	check_int(protocol_parse_line(&r, "KCP 1 done", 10, "out", 10), ==, 1);
	protocol_result_release(&r);
	check_int(protocol_parse_line(&r, nul_line, sizeof(nul_line) - 1, "out", 8), ==, -1);
	check(starts_with(r.invalid, "out:8: NUL byte"));
	protocol_result_release(&r);
	strbuf_release(&line);
	test_capture_stop();
}

/* A runner printing `yes "KCP 1 junk"`: one message, and a count. */
static void test_malformed_flood(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	int i;

	test_capture_start();
	strbuf_addstr(&text, "KCP 1 ready boot_s=1\n");
	for (i = 0; i < 100000; i++)
		strbuf_addstr(&text, "KCP 1 junk\n");
	strbuf_addstr(&text, "KCP 1 done\n");
	check_int(parse(&r, text.buf), ==, -1);
	check_str(test_messages.buf, "");
	check_int(r.nr_invalid, ==, 100000);
	check(r.done);
	check_int(protocol_result_complete(&r, &why), ==, 0);
	check_str(why.buf, "malformed output: results.txt:2: unknown kind 'junk' (ready, sample, "
		  "done or error) in 'KCP 1 junk' (and 99999 more malformed lines)");
	protocol_result_release(&r);
	check_int(parse(&r, "KCP 1 junk\nKCP 1 junk\n"), ==, -1);
	strbuf_reset(&why);
	protocol_add_invalid(&why, &r);
	check(ends_with(why.buf, "'KCP 1 junk' (and 1 more malformed line)"));
	protocol_result_release(&r);
	strbuf_release(&text);
	strbuf_release(&why);
	test_capture_stop();
}

static void test_quote_round_trip(void)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf line = STRBUF_INIT;

	strbuf_addstr(&line, "KCP 1 error msg=");
	protocol_quote(&line, "a \"quoted\" back\\slash\tand\nnewline");
	check_str(line.buf, "KCP 1 error msg=\"a \\\"quoted\\\" back\\\\slash?and?newline\"");
	check_int(protocol_parse_line(&r, line.buf, line.len, "x", 1), ==, 1);
	check_str(r.error, "a \"quoted\" back\\slash?and?newline");
	protocol_result_release(&r);
	strbuf_release(&line);
}

static void test_table(void)
{
	size_t i;
	int id;

	/* every default passes its own check, every workload's params are unique */
	for (i = 0; i < nr_workload_params; i++) {
		const struct workload_param *p = &workload_params[i];
		char why[256] = "";

		if (!check_int(workload_param_check(p, p->def, NULL, why, sizeof(why)), ==, 0))
			fprintf(stderr, "#   %s %s: %s\n", workload_table[p->workload].name,
				p->name, why);
		check(workload_param_find(p->workload, p->name) == p);
	}
	for (id = 0; id < NR_WORKLOADS; id++) {
		const struct workload_info *w = &workload_table[id];

		check_int(workload_find(w->name), ==, id);
		check(!strcmp(w->metric, "time") || !strcmp(w->metric, "throughput"));
		check_int(w->higher_is_better, ==, !strcmp(w->metric, "throughput"));
		/* every guest workload that measures has iterations (libguestfs: one test a run;
		 * cmd runs its program once a boot) */
		if (id != WORKLOAD_boot && !(w->flags & (WL_TEST | WL_HOST | WL_COMMAND)))
			check(workload_param_find(id, "iterations") != NULL);
	}
	check_int(workload_find("nope"), ==, -1);
	check(workload_param_find(WORKLOAD_boot, "iterations") == NULL);
	check_str(workload_table[WORKLOAD_dd].unit, "MB/s");
}

static void check_value(int id, const char *name, const char *value,
			unsigned long long expect_num, const char *expect_why)
{
	const struct workload_param *p = workload_param_find(id, name);
	unsigned long long num = 12345;
	char why[256] = "";
	int ret;

	if (!check(p != NULL))
		return;
	ret = workload_param_check(p, value, &num, why, sizeof(why));
	if (expect_why) {
		check_int(ret, ==, -1);
		check_str(why, expect_why);
	} else {
		check_int(ret, ==, 0);
		check_int(num, ==, expect_num);
	}
}

static void test_param_values(void)
{
	check_value(WORKLOAD_hackbench, "groups", "4", 4, NULL);
	check_value(WORKLOAD_hackbench, "groups", "0", 0, "'0' is out of range (1 to 100)");
	check_value(WORKLOAD_hackbench, "groups", "-1", 0, "'-1' is not a whole number");
	check_value(WORKLOAD_hackbench, "groups", "4k", 0, "'4k' is not a whole number");
	check_value(WORKLOAD_hackbench, "groups", "", 0, "'' is not a whole number");
	check_value(WORKLOAD_hackbench, "loops", "99999999999999999999999", 0,
		    "'99999999999999999999999' is out of range (1 to 1000000)");
	check_value(WORKLOAD_hackbench, "datasize", "4K", 4096, NULL);
	check_value(WORKLOAD_hackbench, "datasize", "4X", 0,
		    "'4X' is not a size (bytes, with an optional K, M or G suffix)");
	check_value(WORKLOAD_pagefault, "size", "1G", 1ULL << 30, NULL);
	check_value(WORKLOAD_pagefault, "size", "17179869184G", 0,
		    "'17179869184G' is out of range (4096 to 68719476736)");
	check_value(WORKLOAD_dd, "bs", "4096", 4096, NULL);
	check_value(WORKLOAD_dd, "bs", "1000", 0, "'1000' is not a multiple of 512 bytes");
	check_value(WORKLOAD_hackbench, "mode", "thread", 0, NULL);
	check_value(WORKLOAD_hackbench, "mode", "fiber", 0, "'fiber' is not process or thread");
	check_value(WORKLOAD_hackbench, "mode", "proc", 0, "'proc' is not process or thread");
	check_value(WORKLOAD_fork, "exec", "2", 0, "'2' is not 0 or 1");
	check_value(WORKLOAD_files, "dir", "/mnt/x", 0, NULL);
	check_value(WORKLOAD_files, "dir", "tmp", 0, "'tmp' is not an absolute path");
	check_value(WORKLOAD_files, "dir", "/a b", 0,
		    "'/a b' contains a space, quote, comma, '=', backslash or control character");
}

static void test_spec_parse_and_render(void)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	test_capture_start();
	check_int(workload_spec_parse(&spec, "hackbench:groups=4,mode=thread,loops=10"), ==, 0);
	check_str(test_messages.buf, "");
	check_int(spec.id, ==, WORKLOAD_hackbench);
	check_str(workload_spec_get(&spec, "groups"), "4");
	check_str(workload_spec_get(&spec, "fds"), "20");
	check(workload_spec_get(&spec, "nope") == NULL);
	workload_spec_cmdline(&spec, &sb);
	check_str(sb.buf, "kcp.workload=hackbench kcp.iterations=3 kcp.groups=4 kcp.fds=20 "
		  "kcp.loops=10 kcp.datasize=100 kcp.mode=thread kcp.ipc=socket");
	strbuf_reset(&sb);
	/* loops=10 is the default, so the canonical name leaves it out */
	workload_spec_format(&spec, &sb);
	check_str(sb.buf, "hackbench:groups=4,mode=thread");
	workload_spec_release(&spec);
	check_int(spec.id, ==, -1);

	check_int(workload_spec_parse(&spec, "boot"), ==, 0);
	strbuf_reset(&sb);
	workload_spec_cmdline(&spec, &sb);
	check_str(sb.buf, "kcp.workload=boot");
	strbuf_reset(&sb);
	workload_spec_format(&spec, &sb);
	check_str(sb.buf, "boot");
	workload_spec_release(&spec);

	check_int(workload_spec_parse(&spec, "dd:bs=4K,dev=/dev/vdb"), ==, 0);
	strbuf_reset(&sb);
	workload_spec_cmdline(&spec, &sb);
	check_str(sb.buf, "kcp.workload=dd kcp.iterations=3 kcp.dev=/dev/vdb kcp.bs=4K "
		  "kcp.count=256 kcp.direct=1");
	workload_spec_release(&spec);
	strbuf_release(&sb);
	test_capture_stop();
}

/* Parses a bad spec; checks it fails, leaves the spec empty and says `what`. */
static void check_bad_spec(const char *text, const char *what)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;

	test_capture_start();
	check_int(workload_spec_parse(&spec, text), ==, -1);
	check_int(spec.id, ==, -1);
	check(spec.values == NULL);
	if (!check(strstr(test_messages.buf, what) != NULL))
		fprintf(stderr, "#   spec: %s\n#   message: %s", text, test_messages.buf);
	test_capture_stop();
}

static void test_spec_errors(void)
{
	check_bad_spec("hackbnch", "error: unknown workload 'hackbnch'; did you mean 'hackbench'? "
		       "(workloads: boot, hackbench, syscall, fork, pipe, files, dd, pagefault, exec, "
		       "libguestfs, cmd)");
	check_bad_spec("zzzzzzzzzzzz", "unknown workload 'zzzzzzzzzzzz' (workloads: boot,");
	check_bad_spec("", "has no name (workloads: boot,");
	check_bad_spec(":groups=1", "has no name");
	check_bad_spec("hackbench:grups=2", "workload 'hackbench' has no parameter 'grups' "
		       "(parameters: iterations, groups, fds, loops, datasize, mode, ipc)");
	check_bad_spec("boot:iterations=2", "workload 'boot' has no parameter 'iterations' "
		       "(parameters: none)");
	check_bad_spec("hackbench:groups", "workload 'hackbench:groups': 'groups' is not key=value");
	check_bad_spec("hackbench:=4", "'=4' is not key=value");
	check_bad_spec("hackbench:", "no parameters after ':'");
	check_bad_spec("hackbench:groups=1,,loops=2", "separated by single commas");
	check_bad_spec("hackbench:groups=1,", "separated by single commas");
	check_bad_spec("hackbench:groups=1 loops=2", "without spaces");
	check_bad_spec("hackbench:groups=1,groups=2", "parameter 'groups' given twice");
	check_bad_spec("hackbench:groups=x", "workload 'hackbench:groups=x': groups: "
		       "'x' is not a whole number");
	check_bad_spec("files:dir=/a\"b", "contains a space, quote");
	check_bad_spec("exec:prog=/x=y", "contains a space, quote, comma, '='");
}

static void test_spec_values_pass_to_guest_cmdline(void)
{
	/* every default renders into a command line the kernel splits into kcp.K=V words */
	int id;

	for (id = 0; id < NR_WORKLOADS; id++) {
		struct workload_spec spec = WORKLOAD_SPEC_INIT;
		struct strbuf sb = STRBUF_INIT;
		const char *name = id == WORKLOAD_cmd ? "cmd:sh -c \"echo 'a b' \\\"c\\\"\"" :
				   workload_table[id].name;

		if (!check_int(workload_spec_parse(&spec, name), ==, 0))
			continue;
		workload_spec_cmdline(&spec, &sb);
		check(!strchr(sb.buf, '"') && !strchr(sb.buf, '\t') && !strchr(sb.buf, '\n'));
		check(sb.len < 512);
		strbuf_release(&sb);
		workload_spec_release(&spec);
	}
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_good_run);
	TEST(test_throughput_and_crlf);
	TEST(test_garbage_is_ignored);
	TEST(test_guest_error);
	TEST(test_incomplete);
	TEST(test_malformed);
	TEST(test_metric_unit_is_fixed);
	TEST(test_caps_and_linear_time);
	TEST(test_other_workload);
	TEST(test_version_mismatch);
	TEST(test_order);
	TEST(test_long_and_nul_lines);
	TEST(test_malformed_flood);
	TEST(test_quote_round_trip);
	TEST(test_table);
	TEST(test_param_values);
	TEST(test_spec_parse_and_render);
	TEST(test_spec_errors);
	TEST(test_spec_values_pass_to_guest_cmdline);
	strbuf_release(&test_messages);
	return test_done();
}
