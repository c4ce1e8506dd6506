/* test-shard-merge.c: unit tests for merging a shard's runs into its experiment: exact, once, refused when conditions differ. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/profile.h"
#include "store/shard-merge.h"
#include "store/store-meter.h"
#include "store/store.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

static struct store *new_store_keyed(const char *name, const char *xkey)
{
	char *path = xstrfmt("%s/%s.db", test_tmpdir(), name);
	struct store *st = NULL;
	const char *names[] = { "baseline", "CONFIG_X=y" };
	size_t i;

	check_int(store_open(&st, path, 1), ==, 0);
	free(path);
	for (i = 0; i < 2; i++) {
		struct store_variant v = STORE_VARIANT_INIT;
		struct store_build b = STORE_BUILD_INIT;

		v.name = (char *)names[i];
		v.kind = (char *)(i ? "oat" : "baseline");
		v.config_hash = (char *)(i ? "hx" : "h0");
		v.status = VARIANT_OK;
		v.position = (int)i;
		check_int(store_put_variant(st, &v), ==, 0);
		b.key = (char *)(i ? xkey : "k0");
		b.config_hash = v.config_hash;
		b.status = BUILD_OK;
		b.image = (char *)"/cache/bzImage";
		check_int(store_put_build(st, &b), ==, 0);
	}
	check_int(store_set_meta(st, "plan_key", "p1"), ==, 0);
	check_int(store_set_meta(st, "seed", "7"), ==, 0);
	check_int(store_set_meta(st, "clock", "icount:0"), ==, 0);
	check_int(store_set_meta(st, "qemu_version", "QEMU emulator version 7.2.22"), ==, 0);
	return st;
}

static struct store *new_store(const char *name)
{
	return new_store_keyed(name, "kx");
}

static int64_t variant_id(struct store *st, const char *name)
{
	struct store_variant *v;
	size_t nr, i;
	int64_t id = -1;

	check_int(store_get_variants(st, &v, &nr), ==, 0);
	for (i = 0; i < nr; i++)
		if (!strcmp(v[i].name, name))
			id = v[i].id;
	store_variants_free(v, nr);
	return id;
}

/* A run of variant in round (warm-up when < 0), icount, its values from value. */
static void add(struct store *st, const char *variant, int round, double value,
		const char *started, int meter)
{
	struct store_run r = STORE_RUN_INIT;
	struct store_sample s[2] = {
		{ 0, "time", "s", value, 0 }, { 1, "time", "s", value * 1.01, 0 },
	};

	r.variant_id = variant_id(st, variant);
	r.workload = (char *)"boot";
	r.round = round;
	r.warmup = round < 0;
	r.accel = (char *)"tcg";
	r.status = RUN_OK;
	r.wall_s = 2.5;
	r.boot_s = value / 2;
	r.started = (char *)started;
	r.clock = VM_CLOCK_ICOUNT;
	r.icount_shift = 0;
	r.layout_seed = 1000 + round;
	check_int(store_add_run(st, &r, s, 2), ==, 0);
	if (meter) {
		struct store_meter m = STORE_METER_INIT;
		struct profile p;
		const struct profile *ph[STORE_METER_NR_PHASES] = { NULL, NULL, NULL };

		profile_init(&p);
		profile_add(&p, "start_kernel", 1234);
		profile_add(&p, "__lock_acquire", 99);
		ph[STORE_METER_BOOT] = &p;
		m.total = 5000;
		m.kernel = 1333;
		m.has_map = 1;
		check_int(store_add_meter(st, r.id, &m, ph), ==, 0);
		profile_release(&p);
	}
}

static void test_merge_exact_and_once(void)
{
	struct store *exp = new_store("exp"), *sh = new_store("shard");
	struct merge_result r = MERGE_RESULT_INIT;
	struct store_sample_row *rows;
	struct store_run *runs;
	size_t nr, nruns, i;
	char *v;
	int found = 0;

	check_int(store_set_meta(sh, "shard", "run 2/3"), ==, 0);
	check_int(store_set_meta(sh, "host", "worker1"), ==, 0);
	check_int(store_set_meta(sh, "workloads", "boot"), ==, 0);
	add(exp, "baseline", -1, 1.0, "T1", 0);
	/* the shard's warm-up, measured again on its host: identical values */
	add(sh, "baseline", -1, 1.0, "T2", 0);
	add(sh, "baseline", 1, 1.1, "T3", 1);
	add(sh, "CONFIG_X=y", 1, 1.5, "T4", 0);
	check_int(shard_merge(exp, sh, "shards/run-2-of-3", &r), ==, 0);
	check_int(r.added, ==, 2);
	check_int(r.present, ==, 1);
	check_int(r.aa_compared, ==, 1);
	check_int(r.aa_identical, ==, 1);
	check_int(store_count_runs(exp), ==, 3);
	merge_result_release(&r);
	/* again: nothing added */
	check_int(shard_merge(exp, sh, "shards/run-2-of-3", &r), ==, 0);
	check_int(r.added, ==, 0);
	check_int(r.present, ==, 3);
	check_int(store_count_runs(exp), ==, 3);
	merge_result_release(&r);
	/* facts: taken when missing, and the record of the merge */
	v = store_get_meta(exp, "host");
	check_str(v, "worker1");
	free(v);
	v = store_get_meta(exp, "merged run 2/3");
	check_str(v, "shards/run-2-of-3: partial, 3 runs merged; host worker1; measured again: "
		  "1 of 1 identical");
	free(v);
	/* the shard ran to its end: merged again, it says so */
	check_int(store_set_meta(sh, "shard_complete", "yes"), ==, 0);
	check_int(shard_merge(exp, sh, "shards/run-2-of-3", &r), ==, 0);
	merge_result_release(&r);
	v = store_get_meta(exp, "merged run 2/3");
	check(v && strstr(v, ": complete, 3 runs merged"));
	free(v);
	v = store_get_meta(exp, "shard");
	check(v == NULL);
	free(v);
	/* samples and meter counts came with the runs */
	check_int(store_get_samples(exp, &rows, &nr), ==, 0);
	check_int(nr, ==, 6);
	store_sample_rows_free(rows, nr);
	check_int(store_get_runs(exp, &runs, &nruns), ==, 0);
	for (i = 0; i < nruns; i++) {
		struct store_meter m = STORE_METER_INIT;
		struct profile p;

		profile_init(&p);
		if (runs[i].round == 1 && runs[i].variant_id == variant_id(exp, "baseline")) {
			check_int(store_get_meter(exp, runs[i].id, &m), ==, 1);
			check_int(m.total, ==, 5000);
			check_int(store_get_run_profile(exp, runs[i].id, STORE_METER_BOOT, &p), ==, 1);
			check_int(p.nr, ==, 2);
			check_double(runs[i].boot_s, 0.55, 1e-12);
			found = 1;
		}
		store_meter_release(&m);
		profile_release(&p);
	}
	check(found);
	store_runs_free(runs, nruns);
	store_close(exp);
	store_close(sh);
}

static void test_aa_differs(void)
{
	struct store *exp = new_store("exp2"), *sh = new_store("shard2");
	struct merge_result r = MERGE_RESULT_INIT;

	add(exp, "CONFIG_X=y", -1, 1.0, "T1", 0);
	add(sh, "CONFIG_X=y", -1, 1.0000001, "T2", 0);
	/* copied from the experiment when the shard was made: the same run */
	add(exp, "baseline", -1, 1.0, "T5", 0);
	add(sh, "baseline", -1, 1.0, "T5", 0);
	check_int(shard_merge(exp, sh, "s", &r), ==, 0);
	check_int(r.aa_compared, ==, 1);
	check_int(r.aa_identical, ==, 0);
	check_str(r.aa_first_diff, "CONFIG_X=y boot warm-up 1");
	merge_result_release(&r);
	store_close(exp);
	store_close(sh);
}

static void test_refused(void)
{
	struct store *exp = new_store("exp3"), *sh = new_store("shard3");
	struct merge_difference d = MERGE_DIFFERENCE_INIT;
	struct merge_result r = MERGE_RESULT_INIT;

	add(sh, "baseline", 0, 1.0, "T1", 0);
	check_int(merge_conditions_differ(exp, sh, &d), ==, 0);
	/* only one side knows a fact: no difference */
	check_int(store_set_meta(sh, "kconfperf", "0.1.0"), ==, 0);
	check_int(merge_conditions_differ(exp, sh, &d), ==, 0);
	/* kconfperf's version: compared when both know it */
	check_int(store_set_meta(exp, "kconfperf", "0.1.1"), ==, 0);
	check_int(merge_conditions_differ(exp, sh, &d), ==, 1);
	check_str(d.field, "kconfperf");
	merge_difference_release(&d);
	check_int(store_set_meta(exp, "kconfperf", "0.1.0"), ==, 0);
	check_int(store_set_meta(sh, "qemu_version", "QEMU emulator version 8.0.0"), ==, 0);
	check_int(merge_conditions_differ(exp, sh, &d), ==, 1);
	check_str(d.field, "qemu_version");
	check_str(d.here, "QEMU emulator version 7.2.22");
	check_str(d.there, "QEMU emulator version 8.0.0");
	merge_difference_release(&d);
	test_capture_start();
	check_int(shard_merge(exp, sh, "shards/run-1-of-2", &r), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "shard 'shards/run-1-of-2' was run with another "
		     "qemu_version") != NULL);
	check_int(store_count_runs(exp), ==, 0);
	merge_result_release(&r);
	store_close(sh);
	/* the kernels: another build of a variant's config */
	sh = new_store_keyed("shard4", "kx-rebuilt");
	check_int(merge_conditions_differ(exp, sh, &d), ==, 1);
	check_str(d.field, "kernel of CONFIG_X=y");
	check_str(d.here, "kx");
	check_str(d.there, "kx-rebuilt");
	merge_difference_release(&d);
	store_close(exp);
	store_close(sh);
}

static void test_standing(void)
{
	struct strvec kv = STRVEC_INIT, missing = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	shard_standing(&sb, &kv, &missing);
	check_int(sb.len, ==, 0);
	{
		const char *f[] = { "host", "vm", "merged run 1/3",
				    "s1: 9 runs added, 0 present; host a", "merged run 3/3",
				    "s3: 6 runs added, 3 present; host b; measured again: "
				    "2 of 3 identical", NULL };

		strvec_pushv(&kv, f);
	}
	shard_standing(&sb, &kv, &missing);
	check_str(sb.buf, "of 3: merged 1, 3; missing 2; measured again with the same layout "
		  "seed: 2 of 3 identical");
	check_int(missing.nr, ==, 1);
	check_str(missing.v[0], "2/3");
	strbuf_reset(&sb);
	strvec_push(&kv, "merged run 2/3");
	strvec_push(&kv, "s2: partial, 1 runs merged; host c");
	shard_standing(&sb, &kv, NULL);
	check_str(sb.buf, "of 3: merged 1, 3; partial 2; measured again with the same layout "
		  "seed: 2 of 3 identical");
	strbuf_reset(&sb);
	strvec_clear(&kv);
	{
		const char *f[] = { "merged run 1/3", "s1: complete, 9 runs merged; host a",
				    "merged run 3/3", "s3: complete, 9 runs merged; host b; "
				    "measured again: 2 of 3 identical", "merged run 2/3",
				    "s2: complete, 9 runs merged; host c", NULL };

		strvec_pushv(&kv, f);
	}
	shard_standing(&sb, &kv, NULL);
	check_str(sb.buf, "of 3: all merged; measured again with the same layout seed: "
		  "2 of 3 identical");
	strbuf_release(&sb);
	strvec_clear(&kv);
	strvec_clear(&missing);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_merge_exact_and_once);
	TEST(test_aa_differs);
	TEST(test_refused);
	TEST(test_standing);
	return test_done();
}
