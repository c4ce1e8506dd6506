/* fixture-experiment.h: a fixed experiment in a store, for the analyze and report unit tests. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef FIXTURE_EXPERIMENT_H
#define FIXTURE_EXPERIMENT_H

/*
 * Included by test-analyze.c and test-report.c (one definition each).
 * fixture_experiment(path) writes this experiment into a new database:
 *
 *   baseline                     ok, 5 runs + 1 warm-up
 *   all                          partial (LOCKDEP is hidden), x1.80
 *   CONFIG_PROVE_LOCKING=y       oat, x1.45
 *   CONFIG_DEBUG_KMEMLEAK=y      oat, x1.20
 *   CONFIG_LOCKDEP=y             oat, no-op (hidden)
 *   CONFIG_LOCK_STAT=y           oat, same-as CONFIG_PROVE_LOCKING=y
 *   CONFIG_FAILSLAB=y            oat, its build failed
 *   CONFIG_CMDLINE="<script>..." oat, x1.00, a hostile string value
 *   CONFIG_KASAN=y               oat, 2 runs so far
 *   CONFIG_UBSAN=y               oat, both runs timed out
 *   all-CONFIG_PROVE_LOCKING=y   loo, x1.22
 *   all-CONFIG_LOCKDEP=y         loo, same-as all
 *
 * on the workload "hackbench:groups=2" (samples "time", s, 3 iterations
 * per run), with wall and boot per run, accel tcg.  Values are the factor
 * times a base value times a fixed pseudo-random noise (about 2% sd), so
 * every run of the tests sees the same numbers.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/store-claims.h"
#include "store/store-findings.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

#define FIXTURE_WORKLOAD "hackbench:groups=2"
#define FIXTURE_SCRIPT "CONFIG_CMDLINE=\"<script>alert('x')</script> & \\\"q\\\"\""

struct fixture_variant {
	const char *name, *kind;
	enum variant_status status;
	const char *same_as, *reason, *diff;
	double factor;
	int runs;		/* measured runs (after one warm-up) */
	int timeout;		/* every run times out */
	int build_failed;
	long long bzimage;
};

static const struct fixture_variant fixture_variants[] = {
	{ "baseline", "baseline", VARIANT_OK, NULL, NULL, "", 1.0, 5, 0, 0, 1048576 },
	{ "all", "all", VARIANT_PARTIAL, NULL, "CONFIG_LOCKDEP=y: hidden, selected by PROVE_LOCKING",
	  "+DEBUG_KMEMLEAK y\n+LOCKDEP y\n PROVE_LOCKING n -> y\n", 1.80, 5, 0, 0, 1310720 },
	{ "CONFIG_PROVE_LOCKING=y", "oat", VARIANT_OK, NULL, NULL,
	  "+LOCKDEP y\n+TRACE_IRQFLAGS y\n PROVE_LOCKING n -> y\n", 1.45, 5, 0, 0, 1200000 },
	{ "CONFIG_DEBUG_KMEMLEAK=y", "oat", VARIANT_OK, NULL, NULL, "+DEBUG_KMEMLEAK y\n",
	  1.20, 5, 0, 0, 1100000 },
	{ "CONFIG_LOCKDEP=y", "oat", VARIANT_NO_OP, NULL,
	  "hidden symbol: no prompt; selected by PROVE_LOCKING, LOCK_STAT", "", 1.0, 0, 0, 0, 0 },
	{ "CONFIG_LOCK_STAT=y", "oat", VARIANT_SAME_AS, "CONFIG_PROVE_LOCKING=y", NULL,
	  "+LOCKDEP y\n LOCK_STAT n -> y\n", 1.0, 0, 0, 0, 0 },
	{ "CONFIG_FAILSLAB=y", "oat", VARIANT_OK, NULL, NULL, " FAILSLAB n -> y\n", 1.0, 0, 0, 1, 0 },
	{ FIXTURE_SCRIPT, "oat", VARIANT_OK, NULL, NULL,
	  " CMDLINE \"\" -> \"<script>alert('x')</script> & \\\"q\\\"\"\n", 1.0, 5, 0, 0, 1048600 },
	{ "CONFIG_KASAN=y", "oat", VARIANT_OK, NULL, NULL, "+KASAN y\n", 2.5, 2, 0, 0, 2097152 },
	{ "CONFIG_UBSAN=y", "oat", VARIANT_OK, NULL, NULL, "+UBSAN y\n", 1.0, 2, 1, 0, 1500000 },
	{ "all-CONFIG_PROVE_LOCKING=y", "loo", VARIANT_OK, NULL, NULL, "+DEBUG_KMEMLEAK y\n",
	  1.22, 5, 0, 0, 1110000 },
	{ "all-CONFIG_LOCKDEP=y", "loo", VARIANT_SAME_AS, "all", NULL,
	  "+DEBUG_KMEMLEAK y\n+LOCKDEP y\n PROVE_LOCKING n -> y\n", 1.0, 0, 0, 0, 0 },
};

/* A fixed sequence with mean ~0 and sd ~1 (sum of uniforms from an LCG). */
/* The stored id of the variant called name, into *id; -1 when the store cannot say. */
static int fixture_variant_id(struct store *st, const char *name, int64_t *id)
{
	struct store_variant *all;
	size_t nr, k;

	if (store_get_variants(st, &all, &nr))
		return -1;
	for (k = 0; k < nr; k++)
		if (!strcmp(all[k].name, name))
			*id = all[k].id;
	store_variants_free(all, nr);
	return 0;
}

static double fixture_noise(unsigned *state)
{
	double sum = 0;
	int i;

	for (i = 0; i < 12; i++) {
		*state = *state * 1103515245u + 12345u;
		sum += ((*state >> 8) & 0xFFFF) / 65536.0;
	}
	return sum - 6;
}

/*
 * The kernel's reports of some runs (store-findings.h): PROVE_LOCKING's
 * rounds 0 and 2 print a lockdep report, round 1 of it and of the baseline
 * the same WARN (text with markup, which every writer must escape).
 */
static int fixture_findings(struct store *st, const char *variant, int64_t run_id, int round)
{
	struct store_finding f[2] = {
		{ .kind = FINDING_LOCKDEP, .count = 1,
		  .line = (char *)"WARNING: possible circular locking dependency detected",
		  .text = (char *)"[    1.102588] WARNING: possible circular locking dependency "
			  "detected\n[    1.103049] swapper/0/1 is trying to acquire lock:\n" },
		{ .kind = FINDING_WARNING, .count = 2,
		  .line = (char *)"WARNING at kernel/fake.c:12 fake_<init>",
		  .text = (char *)"[    0.912455] WARNING: CPU: 0 PID: 1 at kernel/fake.c:12 "
			  "fake_<init>+0x8a/0x1f0 & more\n" },
	};

	if (!strcmp(variant, "CONFIG_PROVE_LOCKING=y") && (round == 0 || round == 2))
		return store_add_findings(st, run_id, f, 1);
	if ((!strcmp(variant, "CONFIG_PROVE_LOCKING=y") || !strcmp(variant, "baseline")) &&
	    round == 1)
		return store_add_findings(st, run_id, f + 1, 1);
	return 0;
}

static int fixture_experiment(const char *path)
{
	struct store *st;
	unsigned seed = 42;
	size_t i;
	int round, ret = -1;

	if (store_open(&st, path, 1))
		return -1;
	if (store_set_meta(st, "kernel_version", "6.1.158") ||
	    store_set_meta(st, "source", "/usr/src/linux-source-6.1.tar.xz") ||
	    store_set_meta(st, "base", "tinyconfig") ||
	    store_set_meta(st, "host", "testhost (2 CPUs)") ||
	    store_set_meta(st, "qemu", "QEMU emulator version 7.2.15") ||
	    store_set_meta(st, "compiler", "gcc (Debian 12.2.0-14) 12.2.0") ||
	    store_set_meta(st, "seed", "42") ||
	    store_set_meta(st, "runs", "5") ||
	    store_set_meta(st, "warmups", "1") ||
	    store_set_meta(st, "accel", "tcg") || store_set_meta(st, "clock", "icount:0") ||
	    store_set_meta(st, "smp", "1") || store_set_meta(st, "mem_mb", "512") ||
	    store_set_meta(st, "cpu", "qemu64") || store_set_meta(st, "machine", "pc") ||
	    store_set_meta(st, "firmware", "SeaBIOS 1.16.2-debian-1.16.2-1") ||
	    store_set_meta(st, "kernel_cmdline", "console=ttyS0 quiet panic=-1 "
			   "kcp.layout=<per run> kcp.workload=hackbench"))
		goto out;
	for (i = 0; i < ARRAY_SIZE(fixture_variants); i++) {
		const struct fixture_variant *f = &fixture_variants[i];
		struct store_variant v = STORE_VARIANT_INIT;
		struct store_build b = STORE_BUILD_INIT;
		char hash[32];

		snprintf(hash, sizeof(hash), "hash%02zu", i);
		v.name = (char *)f->name;
		v.kind = (char *)f->kind;
		v.status = f->status;
		v.same_as = (char *)f->same_as;
		v.reason = (char *)f->reason;
		v.effective_diff = (char *)f->diff;
		v.options = (char *)(strcmp(f->kind, "oat") ? "" : f->name);
		v.config_hash = hash;
		/* the environment: KASAN's kernel is preemptible at 1000 Hz */
		v.config = (char *)(strcmp(f->name, "CONFIG_KASAN=y") ?
				    "CONFIG_HZ=250\nCONFIG_NO_HZ_IDLE=y\n"
				    "CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n" :
				    "CONFIG_HZ=1000\nCONFIG_PREEMPT=y\nCONFIG_PREEMPT_DYNAMIC=y\n"
				    "CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n");
		v.position = (int)i;
		v.added = (int)strlen(f->diff) % 5;
		if (store_put_variant(st, &v))
			goto out;
		if (!f->bzimage && !f->build_failed)
			continue;
		b.key = hash;
		b.config_hash = hash;
		b.status = f->build_failed ? BUILD_FAILED : BUILD_OK;
		b.seconds = 100 + i;
		b.bzimage_size = f->bzimage;
		b.vmlinux_size = f->bzimage * 4;
		/* vmlinux by section; the script variant's bzImage is +24 B, its text +37 B */
		if (f->bzimage) {
			b.sections.text = f->bzimage * 2 + (long long)(i * i) * 37;
			b.sections.data = f->bzimage / 2 + (long long)i * 8;
			b.sections.bss = 409600;
			b.symbols.text = f->bzimage + (long long)i * 52;
			b.symbols.data = f->bzimage / 3 + (long long)(i % 2);
			b.symbols.bss = 300000 - (long long)(i % 2);
		}
		b.log_path = (char *)"logs/build-failslab.log";
		b.log_tail = (char *)(f->build_failed ?
				      "  CC      mm/failslab.o\nmm/failslab.c:12: error: "
				      "'x' undeclared\n" : "");
		if (store_put_build(st, &b))
			goto out;
	}
	/* what two options' help texts claim (markup that every writer must escape) */
	{
		struct store_claim claims[] = {
			{ (char *)"", (char *)"KASAN", (char *)"lib/Kconfig.kasan:68",
			  (char *)"The performance slowdown is ~x3." },
			{ (char *)"", (char *)"PROVE_LOCKING", (char *)"lib/Kconfig.debug:1339",
			  (char *)"Makes <locking> about 50% slower & more." },
			{ (char *)"", (char *)"NOT_IN_ANY_VARIANT", (char *)"Kconfig:1",
			  (char *)"Costs 90%." },
		};

		if (store_put_claims(st, claims, 3))
			goto out;
	}
	for (round = -1; round < 5; round++) {
		for (i = 0; i < ARRAY_SIZE(fixture_variants); i++) {
			const struct fixture_variant *f = &fixture_variants[i];
			struct store_run r = STORE_RUN_INIT;
			struct store_sample s[3];
			size_t it;
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
			r.status = f->timeout ? RUN_TIMEOUT : RUN_OK;
			r.error = (char *)(f->timeout ? "no result in 60 s" : NULL);
			r.wall_s = f->timeout ? 60.0 : 2.0 * f->factor * (1 + n);
			r.boot_s = f->timeout ? NAN : 0.8 * (1 + (f->factor - 1) / 4) *
				(1 + fixture_noise(&seed) * 0.01);
			for (it = 0; it < 3; it++) {
				s[it].iteration = (int)it;
				s[it].metric = "time";
				s[it].unit = "s";
				s[it].higher_is_better = 0;
				s[it].value = 0.5 * f->factor * (1 + n) *
					(1 + fixture_noise(&seed) * 0.01);
			}
			if (store_add_run(st, &r, s, f->timeout ? 0 : 3) ||
			    fixture_findings(st, f->name, r.id, round))
				goto out;
		}
	}
	ret = 0;
out:
	store_close(st);
	return ret;
}

#endif
