/* test-schedule.c: unit tests for the run schedule (randomized complete blocks, warm-ups, resume). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/schedule.h"
#include "test-lib.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const two_workloads[] = { "hackbench", "syscall:calls=1000" };

static void opts(struct schedule_options *o, uint64_t seed, size_t variants,
		 int runs, int warmup)
{
	memset(o, 0, sizeof(*o));
	o->seed = seed;
	o->workloads = two_workloads;
	o->nr_workloads = 2;
	o->nr_variants = variants;
	o->runs = runs;
	o->warmup = warmup;
}

static int same_run(const struct schedule_run *a, const struct schedule_run *b)
{
	return a->workload == b->workload && a->variant == b->variant &&
	       a->round == b->round && a->warmup == b->warmup && a->seq == b->seq;
}

static int same_schedule(const struct schedule *a, const struct schedule *b)
{
	size_t i;

	if (a->nr != b->nr)
		return 0;
	for (i = 0; i < a->nr; i++)
		if (!same_run(&a->runs[i], &b->runs[i]))
			return 0;
	return 1;
}

static void test_blocks_are_permutations(void)
{
	struct schedule_options o;
	struct schedule s = SCHEDULE_INIT;
	size_t i, v, n = 7;

	opts(&o, 42, n, 5, 2);
	schedule_make(&s, &o);
	check_int(s.nr, ==, 2 * (5 + 2) * n);
	/* Rounds are contiguous blocks of n runs, each variant once, seq 0..n-1. */
	for (i = 0; i < s.nr; i += n) {
		int seen[16] = { 0 };

		for (v = 0; v < n; v++) {
			const struct schedule_run *r = &s.runs[i + v];

			check_int(r->workload, ==, s.runs[i].workload);
			check_int(r->round, ==, s.runs[i].round);
			check_int(r->seq, ==, (int)v);
			check_int(r->warmup, ==, r->round < 0);
			check(r->variant < n);
			seen[r->variant]++;
		}
		for (v = 0; v < n; v++)
			check_int(seen[v], ==, 1);
	}
	schedule_release(&s);
}

static void test_warmups_first(void)
{
	struct schedule_options o;
	struct schedule s = SCHEDULE_INIT;
	static const int rounds[] = { -1, -2, -3, 0, 1, 2, 3 };
	size_t i, n = 3;

	opts(&o, 7, n, 4, 3);
	schedule_make(&s, &o);
	/* Workload 0's warm-ups -1..-3, its rounds 0..3, then workload 1's. */
	for (i = 0; i < s.nr; i++) {
		size_t block = i / n;

		check_int(s.runs[i].workload, ==, block / 7);
		check_int(s.runs[i].round, ==, rounds[block % 7]);
	}
	schedule_release(&s);

	/* No warm-up, no runs. */
	opts(&o, 7, n, 2, 0);
	schedule_make(&s, &o);
	check_int(s.nr, ==, 2 * 2 * n);
	check_int(s.runs[0].round, ==, 0);
	schedule_release(&s);
	opts(&o, 7, n, 0, 0);
	schedule_make(&s, &o);
	check_int(s.nr, ==, 0);
	schedule_release(&s);
}

static void test_reproducible_by_seed(void)
{
	struct schedule_options o;
	struct schedule a = SCHEDULE_INIT, b = SCHEDULE_INIT;

	opts(&o, 12345, 10, 6, 1);
	schedule_make(&a, &o);
	schedule_make(&b, &o);
	check(same_schedule(&a, &b));
	schedule_release(&b);

	o.seed = 12346;
	schedule_make(&b, &o);
	check(!same_schedule(&a, &b));
	schedule_release(&a);
	schedule_release(&b);
}

/* Golden values: the algorithm is part of the record (a stored seed must replay). */
static void test_known_order(void)
{
	size_t order[5], i;
	char got[16] = "";

	schedule_round_order(order, 5, 1, "hackbench", 0);
	for (i = 0; i < 5; i++)
		got[i] = (char)('0' + order[i]);
	check_str(got, "21430");	/* also computed by a Python transcription */
}

static void test_rounds_and_workloads_differ(void)
{
	size_t a[10], b[10];
	int round, differ = 0;

	schedule_round_order(a, 10, 99, "hackbench", 0);
	for (round = 1; round < 20; round++) {
		schedule_round_order(b, 10, 99, "hackbench", round);
		differ += memcmp(a, b, sizeof(a)) != 0;
	}
	/* 10! orders: a repeat among 19 rounds would be a bug. */
	check_int(differ, ==, 19);
	schedule_round_order(b, 10, 99, "hackbench", -1);
	check(memcmp(a, b, sizeof(a)) != 0);
	schedule_round_order(b, 10, 99, "hackbench:groups=2", 0);
	check(memcmp(a, b, sizeof(a)) != 0);
}

/* Every order of 3 variants about equally often: an unbiased shuffle. */
static void test_uniform(void)
{
	int counts[6] = { 0 }, round, k;
	double chi2 = 0, expect;
	size_t o[3];

	for (round = 0; round < 6000; round++) {
		schedule_round_order(o, 3, 2024, "hackbench", round);
		/* Lehmer code of the permutation: 0..5. */
		k = (int)o[0] * 2 + (o[1] > o[2]);
		counts[k]++;
	}
	expect = 1000;
	for (k = 0; k < 6; k++)
		chi2 += (counts[k] - expect) * (counts[k] - expect) / expect;
	/* 5 degrees of freedom: P(chi2 > 20.5) = 0.001. */
	check(chi2 < 20.5);
}

/* Extending --runs keeps the rounds there were. */
static void test_more_runs_keep_earlier_rounds(void)
{
	struct schedule_options o;
	struct schedule five = SCHEDULE_INIT, eight = SCHEDULE_INIT;
	size_t i, j, n = 4;

	opts(&o, 5, n, 5, 1);
	o.nr_workloads = 1;
	schedule_make(&five, &o);
	o.runs = 8;
	schedule_make(&eight, &o);
	check_int(eight.nr, ==, 9 * n);
	for (i = 0; i < five.nr; i++)
		check(same_run(&five.runs[i], &eight.runs[i]));
	for (j = five.nr; j < eight.nr; j++)
		check(eight.runs[j].round >= 5);
	schedule_release(&five);
	schedule_release(&eight);
}

/* "Done" runs: a fixed pseudo-random subset, as a store would answer. */
static int done_every_third(const struct schedule_run *r, void *data)
{
	int *calls = data;

	(*calls)++;
	return (r->variant * 7 + (size_t)(r->round + 10) * 3 + r->workload) % 3 == 0;
}

static void test_resume_skips_done_keeps_order(void)
{
	struct schedule_options o;
	struct schedule full = SCHEDULE_INIT, rest = SCHEDULE_INIT;
	size_t i, j = 0;
	long dropped;
	int calls = 0, again = 0;

	opts(&o, 77, 6, 4, 1);
	schedule_make(&full, &o);
	schedule_make(&rest, &o);
	dropped = schedule_drop_done(&rest, done_every_third, &calls);
	check_int(calls, ==, full.nr);
	check(dropped > 0);
	check_int(rest.nr + (size_t)dropped, ==, full.nr);
	/* rest is exactly full without the done runs, in full's order. */
	for (i = 0; i < full.nr; i++) {
		if (done_every_third(&full.runs[i], &again))
			continue;
		if (!check(j < rest.nr))
			break;
		check(same_run(&full.runs[i], &rest.runs[j]));
		j++;
	}
	check_int(j, ==, rest.nr);
	schedule_release(&full);
	schedule_release(&rest);
}

static int done_all(const struct schedule_run *r UNUSED, void *data UNUSED)
{
	return 1;
}

static int done_fails(const struct schedule_run *r, void *data UNUSED)
{
	return r->round == 2 ? -1 : 1;
}

static void test_resume_edges(void)
{
	struct schedule_options o;
	struct schedule s = SCHEDULE_INIT;
	size_t nr;

	opts(&o, 1, 3, 3, 1);
	schedule_make(&s, &o);
	nr = s.nr;
	/* An error in the middle changes nothing. */
	check_int(schedule_drop_done(&s, done_fails, NULL), ==, -1);
	check_int(s.nr, ==, nr);
	/* Everything done: nothing left, and a second pass drops nothing. */
	check_int(schedule_drop_done(&s, done_all, NULL), ==, (long)nr);
	check_int(s.nr, ==, 0);
	check_int(schedule_drop_done(&s, done_all, NULL), ==, 0);
	schedule_release(&s);
}

static void test_one_and_no_variant(void)
{
	struct schedule_options o;
	struct schedule s = SCHEDULE_INIT;
	size_t i;

	opts(&o, 3, 1, 3, 1);
	schedule_make(&s, &o);
	check_int(s.nr, ==, 8);
	for (i = 0; i < s.nr; i++)
		check_int(s.runs[i].variant, ==, 0);
	schedule_release(&s);
	opts(&o, 3, 0, 3, 1);
	schedule_make(&s, &o);
	check_int(s.nr, ==, 0);
	schedule_release(&s);
}

static void ignore(const char *kind UNUSED, const char *msg UNUSED, void *data UNUSED)
{
}

static void test_parse_seed(void)
{
	uint64_t seed = 0;

	check_int(schedule_parse_seed(&seed, "0"), ==, 0);
	check(seed == 0);
	check_int(schedule_parse_seed(&seed, "18446744073709551615"), ==, 0);
	check(seed == UINT64_MAX);
	set_message_sink(ignore, NULL);
	check_int(schedule_parse_seed(&seed, "18446744073709551616"), ==, -1);
	check_int(schedule_parse_seed(&seed, "-1"), ==, -1);
	check_int(schedule_parse_seed(&seed, "12x"), ==, -1);
	check_int(schedule_parse_seed(&seed, ""), ==, -1);
	check_int(schedule_parse_seed(&seed, " 1"), ==, -1);
	set_message_sink(NULL, NULL);
	check(schedule_new_seed() != schedule_new_seed());
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_blocks_are_permutations);
	TEST(test_warmups_first);
	TEST(test_reproducible_by_seed);
	TEST(test_known_order);
	TEST(test_rounds_and_workloads_differ);
	TEST(test_uniform);
	TEST(test_more_runs_keep_earlier_rounds);
	TEST(test_resume_skips_done_keeps_order);
	TEST(test_resume_edges);
	TEST(test_one_and_no_variant);
	TEST(test_parse_seed);
	return test_done();
}
