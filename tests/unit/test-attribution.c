/* test-attribution.c: unit tests for stats/attribution: where an option's instructions go. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "stats/attribution.h"
#include "test-lib.h"

static void fill(struct profile *p, const char *const *names, const double *counts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		profile_add(p, names[i], counts[i]);
	profile_merge(p);
}

/* Two builds: a clone in one is its function in the other; idle is no row. */
static void test_rows_and_shares(void)
{
	static const char *const bn[] = { "a.isra.0", "a", "b", "do_idle", "[user]" };
	static const double bc[] = { 10, 5, 20, 100, 7 };
	static const char *const vn[] = { "a", "b", "c.constprop.0", "do_idle", "[user]",
					  "[kernel-other]" };
	static const double vc[] = { 40, 20, 3, 50, 9, 1 };
	struct profile base = PROFILE_INIT, variant = PROFILE_INIT;
	struct attribution a = ATTRIBUTION_INIT;
	double sum = 0;
	size_t i;

	fill(&base, bn, bc, 5);
	fill(&variant, vn, vc, 6);
	attribution_compute(&a, &base, &variant, 31);
	check_double(a.base.busy, 42, 0);
	check_double(a.variant.busy, 73, 0);
	check_double(a.change, 31, 0);
	check_double(a.base.kernel, 135, 0);
	check_double(a.base.idle, 100, 0);
	check_double(a.base.user, 7, 0);
	check_double(a.variant.other, 1, 0);
	/* b did not change; do_idle is the idle loop's */
	if (check_int(a.nr_rows, ==, 4)) {
		check_str(a.rows[0].name, "a");
		check_double(a.rows[0].base, 15, 0);
		check_double(a.rows[0].change, 25, 0);
		check_double(a.rows[0].share, 25.0 / 31, 1e-12);
		check_str(a.rows[1].name, "c");
		check_str(a.rows[2].name, "[user]");
		check_str(a.rows[3].name, "[kernel-other]");
	}
	for (i = 0; i < a.nr_rows; i++)
		sum += a.rows[i].change;
	check_double(sum, a.change, 0);
	check(a.adds_up);
	check_double(a.residual, 0, 0);
	/* the profiles were left as they were */
	check(profile_find(&base, "a.isra.0") != NULL);

	/* a measured change the profiles miss by more than 1% does not add up */
	attribution_compute(&a, &base, &variant, 35);
	check(!a.adds_up);
	check_double(a.residual, -4, 1e-12);
	attribution_compute(&a, &base, &variant, 31.2);
	check(a.adds_up);
	attribution_compute(&a, &base, &variant, NAN);
	check(!a.adds_up);
	check(isnan(a.residual));

	attribution_release(&a);
	profile_release(&base);
	profile_release(&variant);
}

/* Removed instructions are rows too, by the size of the change; the rest sum up. */
static void test_removed_and_top(void)
{
	static const char *const bn[] = { "x", "y", "z" };
	static const double bc[] = { 100, 10, 1 };
	static const char *const vn[] = { "x", "y", "w" };
	static const double vc[] = { 40, 12, 5 };
	struct profile base = PROFILE_INIT, variant = PROFILE_INIT;
	struct attribution a = ATTRIBUTION_INIT;
	double rb, rv;

	fill(&base, bn, bc, 3);
	fill(&variant, vn, vc, 3);
	attribution_compute(&a, &base, &variant, -54);
	check(a.adds_up);
	if (check_int(a.nr_rows, ==, 4)) {
		check_str(a.rows[0].name, "x");
		check_double(a.rows[0].change, -60, 0);
		check_double(a.rows[0].share, 60.0 / 54, 1e-12);
		check_str(a.rows[1].name, "w");
		check_str(a.rows[2].name, "y");
		check_str(a.rows[3].name, "z");
	}
	check_int(attribution_top(&a, 2, &rb, &rv), ==, 2);
	check_double(rb, 11, 0);
	check_double(rv, 12, 0);
	check_int(attribution_top(&a, 0, &rb, &rv), ==, 4);
	check_double(rb, 0, 0);
	check_int(attribution_top(&a, 10, &rb, &rv), ==, 4);

	/* no change at all: no rows, shares undefined, and it adds up */
	attribution_compute(&a, &base, &base, 0);
	check_int(a.nr_rows, ==, 0);
	check(a.adds_up);
	attribution_release(&a);
	profile_release(&base);
	profile_release(&variant);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_rows_and_shares);
	TEST(test_removed_and_top);
	return test_done();
}
