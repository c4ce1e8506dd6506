/* test-status.c: unit tests for the variant, build and run status names. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/status.h"
#include "test-lib.h"

static void test_variant_names_round_trip(void)
{
	enum variant_status s, got;

	for (s = 0; s < VARIANT_STATUS_NR; s++) {
		check(variant_status_name(s) != NULL);
		got = VARIANT_STATUS_NR;
		check_int(variant_status_parse(&got, variant_status_name(s)), ==, 0);
		check_int(got, ==, s);
	}
	check_str(variant_status_name(VARIANT_NO_OP), "no-op");
	check_str(variant_status_name(VARIANT_SAME_AS), "same-as");
	check(variant_status_name(VARIANT_STATUS_NR) == NULL);
	check(variant_status_name((enum variant_status)-1) == NULL);
}

static void test_unknown_names_are_refused(void)
{
	enum variant_status v = VARIANT_SAME_AS;
	enum build_status b = BUILD_FAILED;
	enum run_status r = RUN_PANIC;

	check_int(variant_status_parse(&v, "failed"), ==, -1);
	check_int(variant_status_parse(&v, "OK"), ==, -1);
	check_int(variant_status_parse(&v, ""), ==, -1);
	check_int(variant_status_parse(&v, NULL), ==, -1);
	check_int(v, ==, VARIANT_SAME_AS);	/* untouched */
	check_int(build_status_parse(&b, "cached"), ==, -1);
	check_int(b, ==, BUILD_FAILED);
	check_int(run_status_parse(&r, "failed"), ==, -1);
	check_int(run_status_parse(&r, "error"), ==, -1);
	check_int(r, ==, RUN_PANIC);
}

static void test_build_and_run_names(void)
{
	enum build_status b;
	enum run_status r;

	for (b = 0; b < BUILD_STATUS_NR; b++) {
		enum build_status got = BUILD_STATUS_NR;

		check_int(build_status_parse(&got, build_status_name(b)), ==, 0);
		check_int(got, ==, b);
	}
	for (r = 0; r < RUN_STATUS_NR; r++) {
		enum run_status got = RUN_STATUS_NR;

		check_int(run_status_parse(&got, run_status_name(r)), ==, 0);
		check_int(got, ==, r);
	}
	check_str(build_status_name(BUILD_FAILED), "failed");
	check_str(run_status_name(RUN_OK), "ok");
	check_str(run_status_name(RUN_GUEST_ERROR), "guest-error");
	check_str(run_status_name(RUN_EXIT_FAILED), "exit-failed");
	check(run_status_name(RUN_STATUS_NR) == NULL);
}

static void test_measured_variants(void)
{
	check(variant_is_measured(VARIANT_OK));
	check(variant_is_measured(VARIANT_PARTIAL));
	check(!variant_is_measured(VARIANT_NO_OP));
	check(!variant_is_measured(VARIANT_SAME_AS));
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_variant_names_round_trip);
	TEST(test_unknown_names_are_refused);
	TEST(test_build_and_run_names);
	TEST(test_measured_variants);
	return test_done();
}
