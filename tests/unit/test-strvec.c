/* test-strvec.c: unit tests for strvec and levenshtein. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "util/levenshtein.h"
#include "util/strvec.h"
#include "test-lib.h"

static void test_push_and_terminate(void)
{
	struct strvec sv = STRVEC_INIT;
	char buf[8] = "make";

	check(sv.v[0] == NULL);
	strvec_push(&sv, buf);
	buf[0] = 'X';	/* push copies */
	strvec_pushf(&sv, "-j%d", 2);
	check_int(sv.nr, ==, 2);
	check_str(sv.v[0], "make");
	check_str(sv.v[1], "-j2");
	check(sv.v[2] == NULL);
	strvec_pop(&sv);
	check_int(sv.nr, ==, 1);
	check(sv.v[1] == NULL);
	strvec_clear(&sv);
	check_int(sv.nr, ==, 0);
	check(sv.v[0] == NULL);
}

static void test_split_and_find(void)
{
	struct strvec sv = STRVEC_INIT;

	strvec_split(&sv, ",oat,,all loo,", ", ");
	check_int(sv.nr, ==, 3);
	check_str(sv.v[0], "oat");
	check_str(sv.v[2], "loo");
	check_int(strvec_find(&sv, "all"), ==, 1);
	check_int(strvec_find(&sv, "screen"), ==, -1);
	check_int(strvec_push_unique(&sv, "all"), ==, 0);
	check_int(strvec_push_unique(&sv, "screen"), ==, 1);
	check_int(sv.nr, ==, 4);
	strvec_clear(&sv);
}

static void test_levenshtein(void)
{
	check_int(levenshtein("", ""), ==, 0);
	check_int(levenshtein("sweep", "sweep"), ==, 0);
	check_int(levenshtein("swep", "sweep"), ==, 1);
	check_int(levenshtein("kitten", "sitting"), ==, 3);
	check_int(levenshtein("", "abc"), ==, 3);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_push_and_terminate);
	TEST(test_split_and_find);
	TEST(test_levenshtein);
	return test_done();
}
