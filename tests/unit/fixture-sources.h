/* fixture-sources.h: a fixed experiment of three kernel sources in a store, for the analyze and report unit tests. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef FIXTURE_SOURCES_H
#define FIXTURE_SOURCES_H

/*
 * fixture_sources_experiment(path) writes into a new database an
 * experiment of three sources: 6.1, 6.12 and 6.1+fix (6.1 with fix.patch),
 * each with these variants (factors against that source's baseline; the
 * baselines themselves 1.00, 1.04 and 0.95 of 6.1's):
 *
 *                            6.1          6.12              6.1+fix
 *   baseline                 1.00         1.04              0.95
 *   CONFIG_PROVE_LOCKING=y   x1.70        x1.95 (sets NEW_DEP too)  x1.70
 *   CONFIG_PRINTK_TIME=y     x1.00        x1.00             x1.00
 *   CONFIG_NEW=y             no-op: unknown symbol   x1.10  no-op: unknown symbol
 *
 * on the workload "boot" (one "time" sample per run, s), 6 runs each with
 * wall and boot, about 1% noise from a fixed sequence.  Builds: 6.1's
 * baseline 200 s from scratch, 6.1+fix's 20 s seeded from it.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/store.h"
#include "util/wrapper.h"

struct fixture_source_variant {
	const char *source, *name, *kind;
	enum variant_status status;
	const char *reason, *config;
	double factor;
};

static const struct fixture_source_variant fixture_source_variants[] = {
	{ "6.1", "baseline", "baseline", VARIANT_OK, NULL, "CONFIG_A=y\n", 1.00 },
	{ "6.1", "CONFIG_PROVE_LOCKING=y", "oat", VARIANT_OK, NULL,
	  "CONFIG_A=y\nCONFIG_LOCKDEP=y\nCONFIG_PROVE_LOCKING=y\n", 1.70 },
	{ "6.1", "CONFIG_PRINTK_TIME=y", "oat", VARIANT_OK, NULL,
	  "CONFIG_A=y\nCONFIG_PRINTK_TIME=y\n", 1.00 },
	{ "6.1", "CONFIG_NEW=y", "oat", VARIANT_NO_OP, "CONFIG_NEW: unknown symbol",
	  "CONFIG_A=y\n", 1.00 },
	{ "6.12", "baseline", "baseline", VARIANT_OK, NULL, "CONFIG_A=y\n", 1.00 },
	{ "6.12", "CONFIG_PROVE_LOCKING=y", "oat", VARIANT_OK, NULL,
	  "CONFIG_A=y\nCONFIG_LOCKDEP=y\nCONFIG_NEW_DEP=y\nCONFIG_PROVE_LOCKING=y\n", 1.95 },
	{ "6.12", "CONFIG_PRINTK_TIME=y", "oat", VARIANT_OK, NULL,
	  "CONFIG_A=y\nCONFIG_PRINTK_TIME=y\n", 1.00 },
	{ "6.12", "CONFIG_NEW=y", "oat", VARIANT_OK, NULL, "CONFIG_A=y\nCONFIG_NEW=y\n", 1.10 },
	{ "6.1+fix", "baseline", "baseline", VARIANT_OK, NULL, "CONFIG_A=y\n", 1.00 },
	{ "6.1+fix", "CONFIG_PROVE_LOCKING=y", "oat", VARIANT_OK, NULL,
	  "CONFIG_A=y\nCONFIG_LOCKDEP=y\nCONFIG_PROVE_LOCKING=y\n", 1.70 },
	{ "6.1+fix", "CONFIG_PRINTK_TIME=y", "oat", VARIANT_OK, NULL,
	  "CONFIG_A=y\nCONFIG_PRINTK_TIME=y\n", 1.00 },
	{ "6.1+fix", "CONFIG_NEW=y", "oat", VARIANT_NO_OP, "CONFIG_NEW: unknown symbol",
	  "CONFIG_A=y\n", 1.00 },
};
#define FIXTURE_SOURCE_VARIANTS (ARRAY_SIZE(fixture_source_variants))
#define FIXTURE_SOURCE_RUNS 6

/* The baseline factor of a source against 6.1's. */
static double fixture_source_scale(const char *source)
{
	return !strcmp(source, "6.12") ? 1.04 : !strcmp(source, "6.1+fix") ? 0.95 : 1.0;
}

static double fixture_source_noise(unsigned *state)
{
	double sum = 0;
	int i;

	for (i = 0; i < 12; i++) {
		*state = *state * 1103515245u + 12345u;
		sum += ((*state >> 8) & 0xFFFF) / 65536.0;
	}
	return sum - 6;
}

static int fixture_sources_experiment(const char *path)
{
	static const struct store_source sources[] = {
		{ .label = (char *)"6.1", .origin = (char *)"/usr/src/linux-source-6.1.tar.xz",
		  .id = (char *)"tar:61", .tree = (char *)"/c/61", .version = (char *)"6.1.192" },
		{ .label = (char *)"6.12", .origin = (char *)"/usr/src/linux-source-6.12.tar.xz",
		  .id = (char *)"tar:612", .tree = (char *)"/c/612", .version = (char *)"6.12.117" },
		{ .label = (char *)"6.1+fix", .origin = (char *)"/usr/src/linux-source-6.1.tar.xz",
		  .id = (char *)"patch:1", .tree = (char *)"/c/p1", .version = (char *)"6.1.192",
		  .patch = (char *)"fix.patch", .base = (char *)"6.1" },
	};
	struct store *st;
	unsigned seed = 7;
	int64_t ids[FIXTURE_SOURCE_VARIANTS];
	size_t i;
	int round, ret = -1;

	if (store_open(&st, path, 1))
		return -1;
	if (store_set_meta(st, "kernel_version", "6.1.192") ||
	    store_set_meta(st, "base", "tinyconfig") ||
	    store_set_meta(st, "host", "testhost (2 CPUs)") ||
	    store_put_sources(st, sources, 3))
		goto out;
	for (i = 0; i < FIXTURE_SOURCE_VARIANTS; i++) {
		const struct fixture_source_variant *f = &fixture_source_variants[i];
		struct store_variant v = STORE_VARIANT_INIT;
		struct store_build b = STORE_BUILD_INIT;
		char name[128], hash[32];
		int rc;

		snprintf(name, sizeof(name), "%s:%s", f->source, f->name);
		snprintf(hash, sizeof(hash), "shash%02zu", i);
		v.name = name;
		v.source = (char *)f->source;
		v.kind = (char *)f->kind;
		v.status = f->status;
		v.reason = (char *)f->reason;
		v.config = (char *)f->config;
		v.config_hash = hash;
		v.position = (int)i;
		if (store_put_variant(st, &v))
			goto out;
		ids[i] = v.id;
		if (f->status != VARIANT_OK)
			continue;
		b.key = hash;
		b.config_hash = hash;
		b.status = BUILD_OK;
		b.seconds = !strcmp(f->source, "6.1+fix") ? 20 + (double)i : 200 + (double)i;
		b.seeded_from = !strcmp(f->source, "6.1+fix") ? (char *)"shash00" : NULL;
		b.bzimage_size = 1048576 + (int64_t)i;
		rc = store_put_build(st, &b);
		if (rc)
			goto out;
	}
	for (round = 0; round < FIXTURE_SOURCE_RUNS; round++) {
		for (i = 0; i < FIXTURE_SOURCE_VARIANTS; i++) {
			const struct fixture_source_variant *f = &fixture_source_variants[i];
			struct store_run r = STORE_RUN_INIT;
			struct store_sample s;
			double n = fixture_source_noise(&seed) * 0.01;
			double base = 1.5 * fixture_source_scale(f->source);

			if (f->status != VARIANT_OK)
				continue;
			r.variant_id = ids[i];
			r.workload = (char *)"boot";
			r.round = round;
			r.seq = (int)i;
			r.accel = (char *)"tcg";
			r.status = RUN_OK;
			r.wall_s = 3.0 * base * f->factor * (1 + n);
			r.boot_s = NAN;
			s.iteration = 0;
			s.metric = "time";
			s.unit = "s";
			s.higher_is_better = 0;
			s.value = base * f->factor * (1 + n);
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
