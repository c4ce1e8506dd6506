/* fixture-steps.h: an experiment with a named group and the cumulative design, for analyze and report tests. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef FIXTURE_STEPS_H
#define FIXTURE_STEPS_H

/*
 * Included after fixture-experiment.h (for its noise and variant rows).
 * fixture_steps_experiment(path) writes, on the same workload:
 *
 *   baseline                   ok, 5 runs + 1 warm-up
 *   CONFIG_PRINTK_TIME=y       oat, x1.00
 *   lockdebug                  oat, a group (PROVE_LOCKING, DEBUG_ATOMIC_SLEEP), x1.70
 *   CONFIG_LOCKDEP=y           oat, no-op (hidden)
 *   CONFIG_DEBUG_KMEMLEAK=y    oat, x1.20
 *   all                        x2.05
 *   +CONFIG_PRINTK_TIME=y      step 1, same-as CONFIG_PRINTK_TIME=y
 *   +lockdebug                 step 2, x1.70
 *   +CONFIG_LOCKDEP=y          step 3, same-as +lockdebug (it adds nothing)
 *   +CONFIG_DEBUG_KMEMLEAK=y   step 4, same-as all
 *
 * so the increments are ~0%, +70%, the same kernel, and +20.6%.
 */

static const struct fixture_variant fixture_steps_variants[] = {
	{ "baseline", "baseline", VARIANT_OK, NULL, NULL, "", 1.0, 5, 0, 0, 1048576 },
	{ "CONFIG_PRINTK_TIME=y", "oat", VARIANT_OK, NULL, NULL, " PRINTK_TIME n -> y\n",
	  1.0, 5, 0, 0, 1048600 },
	{ "lockdebug", "oat", VARIANT_OK, NULL, NULL,
	  "+LOCKDEP y\n PROVE_LOCKING n -> y\n DEBUG_ATOMIC_SLEEP n -> y\n", 1.70, 5, 0, 0, 1200000 },
	{ "CONFIG_LOCKDEP=y", "oat", VARIANT_NO_OP, NULL,
	  "hidden symbol: no prompt; selected by PROVE_LOCKING", "", 1.0, 0, 0, 0, 0 },
	{ "CONFIG_DEBUG_KMEMLEAK=y", "oat", VARIANT_OK, NULL, NULL, "+DEBUG_KMEMLEAK y\n",
	  1.20, 5, 0, 0, 1100000 },
	{ "all", "all", VARIANT_PARTIAL, NULL, "CONFIG_LOCKDEP=y: hidden, selected by PROVE_LOCKING",
	  "+DEBUG_KMEMLEAK y\n+LOCKDEP y\n PROVE_LOCKING n -> y\n", 2.05, 5, 0, 0, 1310720 },
	{ "+CONFIG_PRINTK_TIME=y", "cumulative", VARIANT_SAME_AS, "CONFIG_PRINTK_TIME=y", NULL,
	  " PRINTK_TIME n -> y\n", 1.0, 0, 0, 0, 0 },
	{ "+lockdebug", "cumulative", VARIANT_OK, NULL, NULL,
	  "+LOCKDEP y\n PRINTK_TIME n -> y\n PROVE_LOCKING n -> y\n", 1.70, 5, 0, 0, 1200100 },
	{ "+CONFIG_LOCKDEP=y", "cumulative", VARIANT_SAME_AS, "+lockdebug", NULL,
	  "+LOCKDEP y\n PRINTK_TIME n -> y\n PROVE_LOCKING n -> y\n", 1.0, 0, 0, 0, 0 },
	{ "+CONFIG_DEBUG_KMEMLEAK=y", "cumulative", VARIANT_SAME_AS, "all", NULL,
	  "+DEBUG_KMEMLEAK y\n+LOCKDEP y\n PROVE_LOCKING n -> y\n", 1.0, 0, 0, 0, 0 },
};

/* The options each variant holds, one label a line (store_variant.options). */
static const char *fixture_steps_options(const char *name, const char *kind)
{
	if (!strcmp(kind, "all") || !strcmp(name, "+CONFIG_DEBUG_KMEMLEAK=y"))
		return "CONFIG_PRINTK_TIME=y\nlockdebug\nCONFIG_LOCKDEP=y\nCONFIG_DEBUG_KMEMLEAK=y\n";
	if (!strcmp(name, "+CONFIG_PRINTK_TIME=y"))
		return "CONFIG_PRINTK_TIME=y\n";
	if (!strcmp(name, "+lockdebug"))
		return "CONFIG_PRINTK_TIME=y\nlockdebug\n";
	if (!strcmp(name, "+CONFIG_LOCKDEP=y"))
		return "CONFIG_PRINTK_TIME=y\nlockdebug\nCONFIG_LOCKDEP=y\n";
	return strcmp(kind, "oat") ? "" : name;
}

static int fixture_steps_experiment(const char *path)
{
	const size_t nr_variants = ARRAY_SIZE(fixture_steps_variants);
	struct store *st;
	unsigned seed = 7;
	size_t i;
	int round, ret = -1;

	if (store_open(&st, path, 1))
		return -1;
	if (store_set_meta(st, "kernel_version", "6.1.158") ||
	    store_set_meta(st, "base", "tinyconfig") ||
	    store_set_meta(st, "host", "testhost (2 CPUs)") ||
	    store_set_meta(st, "designs", "oat,all,cumulative") ||
	    store_set_meta(st, "groups", "lockdebug CONFIG_PROVE_LOCKING=y\n"
			   "lockdebug CONFIG_DEBUG_ATOMIC_SLEEP=y\n"))
		goto out;
	for (i = 0; i < nr_variants; i++) {
		const struct fixture_variant *f = &fixture_steps_variants[i];
		struct store_variant v = STORE_VARIANT_INIT;
		struct store_build b = STORE_BUILD_INIT;
		char hash[32];

		snprintf(hash, sizeof(hash), "step%02zu", i);
		v.name = (char *)f->name;
		v.kind = (char *)f->kind;
		v.status = f->status;
		v.same_as = (char *)f->same_as;
		v.reason = (char *)f->reason;
		v.effective_diff = (char *)f->diff;
		v.options = (char *)fixture_steps_options(f->name, f->kind);
		v.config_hash = hash;
		v.position = (int)i;
		if (store_put_variant(st, &v))
			goto out;
		if (!f->bzimage)
			continue;
		b.key = hash;
		b.config_hash = hash;
		b.status = BUILD_OK;
		b.seconds = 10 + i;
		b.bzimage_size = f->bzimage;
		b.vmlinux_size = f->bzimage * 4;
		if (store_put_build(st, &b))
			goto out;
	}
	for (round = -1; round < 5; round++) {
		for (i = 0; i < nr_variants; i++) {
			const struct fixture_variant *f = &fixture_steps_variants[i];
			struct store_run r = STORE_RUN_INIT;
			struct store_sample s;
			double n = fixture_noise(&seed) * 0.02;

			if (!f->runs || round >= f->runs)
				continue;
			if (fixture_variant_id(st, f->name, &r.variant_id))
				goto out;
			r.workload = (char *)FIXTURE_WORKLOAD;
			r.round = round;
			r.seq = (int)i;
			r.warmup = round < 0;
			r.accel = (char *)"tcg";
			r.status = RUN_OK;
			r.wall_s = 2.0 * f->factor * (1 + n);
			r.boot_s = NAN;
			s.iteration = 0;
			s.metric = "time";
			s.unit = "s";
			s.higher_is_better = 0;
			s.value = 0.5 * f->factor * (1 + n);
			if (store_add_run(st, &r, &s, 1))
				goto out;
		}
	}
	ret = 0;
out:
	store_close(st);
	return ret;
}

#endif
