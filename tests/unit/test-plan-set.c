/* test-plan-set.c: unit tests for the key of a plan over several sources. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "plan/plan-set.h"
#include "util/wrapper.h"
#include "test-lib.h"

/* A source set of fake sources: the key reads identities and labels, never trees. */
static void fake_set(struct source_set *ss, const char *const *ids, const char *const *labels,
		     size_t nr)
{
	size_t i;

	memset(ss, 0, sizeof(*ss));
	ss->v = xcalloc(nr, sizeof(*ss->v));
	ss->nr = ss->alloc = nr;
	for (i = 0; i < nr; i++) {
		ss->v[i].ks.id = xstrdup(ids[i]);
		ss->v[i].ks.tree = xstrdup("/nonexistent");
		ss->v[i].ks.version = xstrdup("6.1.192");
		ss->v[i].ks.origin = xstrdup("x.tar.xz");
		strvec_init(&ss->v[i].ks.patched);
		ss->v[i].label = xstrdup(labels[i]);
		ss->v[i].base = -1;
	}
}

static void test_key(void)
{
	struct plan_options o = PLAN_OPTIONS_INIT;
	struct source_set lone, two, renamed, swapped, patched;
	char k_lone[SHA256_HEX_SIZE], k_input[SHA256_HEX_SIZE], k_two[SHA256_HEX_SIZE];
	char k_renamed[SHA256_HEX_SIZE], k_swapped[SHA256_HEX_SIZE], k_patched[SHA256_HEX_SIZE];
	char k_again[SHA256_HEX_SIZE];

	o.base = "tinyconfig";
	o.options = "PROVE_LOCKING,LOCK_STAT";
	o.work_dir = test_tmpdir();
	fake_set(&lone, (const char *[]){ "tar:61" }, (const char *[]){ "" }, 1);
	fake_set(&two, (const char *[]){ "tar:61", "tar:612" }, (const char *[]){ "6.1", "6.12" }, 2);
	fake_set(&renamed, (const char *[]){ "tar:61", "tar:612" },
		 (const char *[]){ "old", "6.12" }, 2);
	fake_set(&swapped, (const char *[]){ "tar:612", "tar:61" },
		 (const char *[]){ "6.12", "6.1" }, 2);
	fake_set(&patched, (const char *[]){ "tar:61", "patch:1" },
		 (const char *[]){ "6.1", "6.1+fix" }, 2);

	/* A lone source keeps the key it had before there could be several. */
	o.source = &lone.v[0].ks;
	check_int(plan_input_key(&o, k_input), ==, 0);
	check_int(plan_set_key(&o, &lone, k_lone), ==, 0);
	check_str(k_lone, k_input);
	/* Every source, its label and their order are in the key. */
	check_int(plan_set_key(&o, &two, k_two), ==, 0);
	check_int(plan_set_key(&o, &two, k_again), ==, 0);
	check_str(k_two, k_again);
	check(strcmp(k_two, k_lone));
	check_int(plan_set_key(&o, &renamed, k_renamed), ==, 0);
	check(strcmp(k_two, k_renamed));
	check_int(plan_set_key(&o, &swapped, k_swapped), ==, 0);
	check(strcmp(k_two, k_swapped));
	check_int(plan_set_key(&o, &patched, k_patched), ==, 0);
	check(strcmp(k_two, k_patched));
	/* So are the options, for every source. */
	o.options = "PROVE_LOCKING";
	check_int(plan_set_key(&o, &two, k_again), ==, 0);
	check(strcmp(k_two, k_again));
	/* Without options, several sources still make a key (their baselines). */
	o.options = NULL;
	check_int(plan_set_key(&o, &two, k_again), ==, 0);
	check(strcmp(k_two, k_again));

	source_set_release(&lone);
	source_set_release(&two);
	source_set_release(&renamed);
	source_set_release(&swapped);
	source_set_release(&patched);
	plan_options_release(&o);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_key);
	return test_done();
}
