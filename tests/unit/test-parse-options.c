/* test-parse-options.c: unit tests for the option tables. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "util/parse-options.h"
#include "util/strvec.h"
#include "test-lib.h"

static int runs, verbose;
static double noise;
static const char *dir;
static struct strvec workloads = STRVEC_INIT;

static const char *const usage_str[] = { "kconfperf test [options] ARG...", NULL };
static const struct option opts[] = {
	OPT_INTEGER('n', "runs", &runs, "N", "runs per variant"),
	OPT_BOOL('v', "verbose", &verbose, "say more"),
	OPT_DOUBLE(0, "noise", &noise, "PCT", "noise threshold"),
	OPT_STRING(0, "dir", &dir, "DIR", "experiment directory"),
	OPT_STRING_LIST('w', "workload", &workloads, "SPEC", "a workload"),
	OPT_END(),
};

static void reset(void)
{
	runs = verbose = 0;
	noise = 0;
	dir = NULL;
	strvec_clear(&workloads);
}

static void test_long_short_and_args(void)
{
	const char *argv[] = { "test", "a", "--runs", "5", "-v", "--dir=x y",
			       "-whackbench", "b", "--workload", "boot",
			       "--noise=2.5", "--", "--runs", NULL };
	int n;

	reset();
	n = parse_options(13, argv, opts, usage_str);
	check_int(n, ==, 3);
	check_str(argv[0], "a");
	check_str(argv[1], "b");
	check_str(argv[2], "--runs");
	check(argv[3] == NULL);
	check_int(runs, ==, 5);
	check_int(verbose, ==, 1);
	check_str(dir, "x y");
	check_double(noise, 2.5, 0);
	check_int(workloads.nr, ==, 2);
	check_str(workloads.v[1], "boot");
}

static void test_negated_bool(void)
{
	const char *argv[] = { "test", "-v", "--no-verbose", NULL };

	reset();
	verbose = 1;
	check_int(parse_options(3, argv, opts, usage_str), ==, 0);
	check_int(verbose, ==, 0);
}

static void test_usage_lists_options(void)
{
	char buf[4096] = "";
	FILE *fp = fmemopen(buf, sizeof(buf) - 1, "w");

	print_usage(fp, usage_str, opts);
	fclose(fp);
	check(strstr(buf, "usage: kconfperf test [options] ARG...") != NULL);
	check(strstr(buf, "-n, --runs N") != NULL);
	check(strstr(buf, "--noise PCT") != NULL);
	check(strstr(buf, "runs per variant") != NULL);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_long_short_and_args);
	TEST(test_negated_bool);
	TEST(test_usage_lists_options);
	reset();
	return test_done();
}
