/* test-metric.c: unit tests for the metrics every run has (store/metric.h). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/metric.h"
#include "test-lib.h"

static void test_kinds_round_trip(void)
{
	enum metric_kind k;

	for (k = METRIC_WALL; k <= METRIC_INSTRUCTIONS; k++)
		check_int(metric_kind_of(metric_kind_name(k)), ==, k);
	check_str(metric_kind_name(METRIC_WALL), "wall");
	check_str(metric_kind_name(METRIC_BOOT), "boot");
	check_str(metric_kind_name(METRIC_INSTRUCTIONS), "instructions");
	check(metric_kind_name(METRIC_SAMPLE) == NULL);
	check(metric_kind_name((enum metric_kind)99) == NULL);
}

/* A workload's own metric is any other name, whatever it looks like. */
static void test_others_are_samples(void)
{
	check_int(metric_kind_of("time"), ==, METRIC_SAMPLE);
	check_int(metric_kind_of("Wall"), ==, METRIC_SAMPLE);
	check_int(metric_kind_of("walls"), ==, METRIC_SAMPLE);
	check_int(metric_kind_of(""), ==, METRIC_SAMPLE);
	check_int(metric_kind_of(NULL), ==, METRIC_SAMPLE);
	check(metric_is_every_runs("wall"));
	check(metric_is_every_runs("boot"));
	check(!metric_is_every_runs("instructions"));
	check(!metric_is_every_runs("time"));
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_kinds_round_trip);
	TEST(test_others_are_samples);
	return test_done();
}
