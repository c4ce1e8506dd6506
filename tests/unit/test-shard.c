/* test-shard.c: unit tests for --shard I/N, the engines' index variables, and what a shard holds. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "kbuild/kbuild-variants.h"
#include "run/schedule.h"
#include "store/store.h"
#include "test-lib.h"
#include "util/shard.h"
#include "util/strbuf.h"
#include "util/usage.h"

static void clear_env(void)
{
	unsetenv("SLURM_ARRAY_TASK_ID");
	unsetenv("JOB_COMPLETION_INDEX");
	unsetenv("PARALLEL_SEQ");
}

static void test_parse(void)
{
	struct shard sh = SHARD_INIT;
	char buf[32];

	check_int(shard_parse(&sh, "1/3"), ==, 0);
	check_int(sh.index, ==, 0);
	check_int(sh.count, ==, 3);
	check_int(shard_parse(&sh, "3/3"), ==, 0);
	check_int(sh.index, ==, 2);
	shard_format(&sh, buf, sizeof(buf));
	check_str(buf, "3/3");
	check_int(shard_parse(&sh, "1/1"), ==, 0);
	test_capture_start();
	check_int(shard_parse(&sh, "0/3"), ==, -1);
	check_int(shard_parse(&sh, "4/3"), ==, -1);
	check_int(shard_parse(&sh, "1/0"), ==, -1);
	check_int(shard_parse(&sh, "3"), ==, -1);
	check_int(shard_parse(&sh, "-1/3"), ==, -1);
	check_int(shard_parse(&sh, "1/3x"), ==, -1);
	check_int(shard_parse(&sh, "1/100001"), ==, -1);
	check_int(shard_parse(&sh, "/3"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "I counts from 1 to N (3)") != NULL);
}

static void test_engines(void)
{
	struct shard sh = SHARD_INIT;

	clear_env();
	test_capture_start();
	check_int(shard_parse(&sh, "auto/3"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "none of SLURM_ARRAY_TASK_ID") != NULL);
	/* GNU parallel counts from 1 */
	setenv("PARALLEL_SEQ", "3", 1);
	check_int(shard_parse(&sh, "auto/3"), ==, 0);
	check_int(sh.index, ==, 2);
	setenv("PARALLEL_SEQ", "0", 1);
	test_capture_start();
	check_int(shard_parse(&sh, "auto/3"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "PARALLEL_SEQ is '0' (GNU parallel, 1-based)") != NULL);
	/* Kubernetes from 0, and before PARALLEL_SEQ */
	setenv("JOB_COMPLETION_INDEX", "0", 1);
	check_int(shard_parse(&sh, "auto/3"), ==, 0);
	check_int(sh.index, ==, 0);
	/* Slurm from 0, first of all */
	setenv("SLURM_ARRAY_TASK_ID", "2", 1);
	check_int(shard_parse(&sh, "auto/3"), ==, 0);
	check_int(sh.index, ==, 2);
	setenv("SLURM_ARRAY_TASK_ID", "3", 1);
	test_capture_start();
	check_int(shard_parse(&sh, "auto/3"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "SLURM_ARRAY_TASK_ID is '3'") != NULL);
	clear_env();
}

static void test_has(void)
{
	struct shard none = SHARD_INIT, two = { 1, 3 };

	check(shard_has_round(&none, 5));
	check(shard_has_item(&none, 5));
	check(!shard_has_round(&two, 0));
	check(shard_has_round(&two, 1));
	check(shard_has_round(&two, 4));
	check(!shard_has_round(&two, 5));
	check(shard_has_item(&two, 7));
}

static const char *const workloads[] = { "boot", "syscall:calls=1000" };

/* The shards' schedules hold every round once, as the unsharded one orders it. */
static void test_schedule_shards(void)
{
	struct schedule_options o = { 0 };
	struct schedule all = SCHEDULE_INIT;
	int seen[2][7][5];
	int k, n = 3;
	size_t i;

	memset(seen, 0, sizeof(seen));
	o.seed = 42;
	o.workloads = workloads;
	o.nr_workloads = 2;
	o.nr_variants = 5;
	o.runs = 7;
	o.warmup = 1;
	schedule_make(&all, &o);
	for (k = 0; k < n; k++) {
		struct schedule one = SCHEDULE_INIT;

		o.shard.index = k;
		o.shard.count = n;
		schedule_make(&one, &o);
		for (i = 0; i < one.nr; i++) {
			const struct schedule_run *r = &one.runs[i];
			size_t j;

			if (r->warmup) {
				check_int(r->round, ==, -1);
				continue;
			}
			check_int(r->round % n, ==, k);
			seen[r->workload][r->round][r->variant]++;
			/* the same place in the same round as unsharded */
			for (j = 0; j < all.nr; j++)
				if (all.runs[j].workload == r->workload && all.runs[j].round == r->round &&
				    all.runs[j].variant == r->variant)
					check_int(all.runs[j].seq, ==, r->seq);
		}
		/* every warm-up round in every shard */
		check_int(one.runs[0].warmup, ==, 1);
		schedule_release(&one);
	}
	for (i = 0; i < 2 * 7 * 5; i++)
		check_int(((int *)seen)[i], ==, 1);
	schedule_release(&all);
}

static void variant(struct store_variant *v, const char *name, const char *kind,
		    const char *hash, enum variant_status status)
{
	memset(v, 0, sizeof(*v));
	v->name = (char *)name;
	v->kind = (char *)kind;
	v->config_hash = (char *)hash;
	v->source = (char *)"";
	v->status = status;
}

/* Builds: one distinct kernel per job, each with its baseline as the seed. */
static void test_build_select(void)
{
	struct store_variant v[6], out[6];
	struct shard sh = { 0, 3 };
	size_t n, kernels;

	variant(&v[0], "baseline", "baseline", "h0", VARIANT_OK);
	variant(&v[1], "baseline-again", VARIANT_AA_NAME, "h0", VARIANT_OK);
	variant(&v[2], "A", "oat", "h1", VARIANT_OK);
	variant(&v[3], "B", "oat", "h0", VARIANT_NO_OP);
	variant(&v[4], "C", "oat", "h2", VARIANT_OK);
	variant(&v[5], "D", "oat", "h1", VARIANT_SAME_AS);
	n = kbuild_shard_select(out, v, 6, &sh, &kernels);
	check_int(kernels, ==, 3);
	check_int(n, ==, 1);
	check_str(out[0].name, "baseline");
	sh.index = 1;
	n = kbuild_shard_select(out, v, 6, &sh, &kernels);
	check_int(n, ==, 2);
	check_str(out[0].name, "baseline");
	check_str(out[1].name, "A");
	sh.index = 2;
	n = kbuild_shard_select(out, v, 6, &sh, &kernels);
	check_int(n, ==, 2);
	check_str(out[1].name, "C");
	sh.count = 5;
	sh.index = 4;
	check_int(kbuild_shard_select(out, v, 6, &sh, &kernels), ==, 0);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_parse);
	TEST(test_engines);
	TEST(test_has);
	TEST(test_schedule_shards);
	TEST(test_build_select);
	return test_done();
}
