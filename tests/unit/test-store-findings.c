/* test-store-findings.c: unit tests for the kernel's reports stored per run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-claims.h"
#include "store/store-findings.h"
#include "store/store.h"
#include "test-lib.h"
#include "util/wrapper.h"

static int64_t add_run(struct store *st, int64_t variant_id, int round)
{
	struct store_run r = STORE_RUN_INIT;
	int64_t id;

	r.variant_id = variant_id;
	r.workload = xstrdup("boot");
	r.round = round;
	r.accel = xstrdup("tcg");
	r.status = RUN_OK;
	r.wall_s = 1.0;
	r.boot_s = NAN;
	check_int(store_add_run(st, &r, NULL, 0), ==, 0);
	id = r.id;
	store_run_release(&r);
	return id;
}

static void test_findings_round_trip_per_run(void)
{
	char *path = xstrfmt("%s/f.db", test_tmpdir());
	struct store *st;
	struct store_variant v = STORE_VARIANT_INIT;
	struct store_finding in[2] = {
		{ .kind = FINDING_LOCKDEP, .count = 1,
		  .line = (char *)"WARNING: possible circular locking dependency detected",
		  .text = (char *)"[ 1.0] WARNING: possible circular locking dependency detected\n" },
		{ .kind = FINDING_WARNING, .count = 3, .line = (char *)"WARNING at fs/x.c:1 f",
		  .text = NULL },
	};
	struct store_finding *out = NULL;
	size_t nr = 0;
	int64_t r0, r1;

	check_int(store_open(&st, path, 1), ==, 0);
	v.name = xstrdup("baseline");
	v.kind = xstrdup("baseline");
	v.status = VARIANT_OK;
	check_int(store_put_variant(st, &v), ==, 0);
	r0 = add_run(st, v.id, 0);
	r1 = add_run(st, v.id, 1);
	check_int(store_get_findings(st, &out, &nr), ==, 0);
	check_int(nr, ==, 0);
	check_int(store_add_findings(st, r1, in, 2), ==, 0);
	check_int(store_add_findings(st, r0, in + 1, 1), ==, 0);
	check_int(store_add_findings(st, r0, NULL, 0), ==, 0);
	check_int(store_get_findings(st, &out, &nr), ==, 0);
	if (check_int(nr, ==, 3)) {
		check_int(out[0].run_id, ==, r0);
		check_int(out[0].kind, ==, FINDING_WARNING);
		check_int(out[0].count, ==, 3);
		check_str(out[0].text, "");
		check_int(out[1].run_id, ==, r1);
		check_int(out[1].position, ==, 0);
		check_int(out[1].kind, ==, FINDING_LOCKDEP);
		check_str(out[1].line, in[0].line);
		check_str(out[1].text, in[0].text);
		check_int(out[2].position, ==, 1);
	}
	store_findings_free(out, nr);
	store_variant_release(&v);
	store_close(st);
	free(path);
}

/* vmlinux's section sizes per build (schema 6); unknown ones are NULL, read back as -1. */
static void test_build_sections_round_trip(void)
{
	char *path = xstrfmt("%s/b.db", test_tmpdir());
	struct store *st;
	struct store_build b = STORE_BUILD_INIT, got = STORE_BUILD_INIT;

	check_int(store_open(&st, path, 1), ==, 0);
	b.key = xstrdup("k1");
	b.config_hash = xstrdup("h1");
	b.status = BUILD_OK;
	b.bzimage_size = 1602560;
	b.sections = (struct store_sizes){ 6541056, 1934424, 614400 };
	b.symbols = (struct store_sizes){ 2799064, 1597707, 285746 };
	check_int(store_put_build(st, &b), ==, 0);
	check_int(store_get_build_by_hash(st, "h1", &got), ==, 1);
	check_int(got.sections.text, ==, 6541056);
	check_int(got.sections.data, ==, 1934424);
	check_int(got.sections.bss, ==, 614400);
	check_int(got.symbols.text, ==, 2799064);
	check_int(got.symbols.data, ==, 1597707);
	check_int(got.symbols.bss, ==, 285746);
	store_build_release(&got);
	store_build_release(&b);
	b.key = xstrdup("k2");
	b.config_hash = xstrdup("h2");
	check_int(store_put_build(st, &b), ==, 0);
	check_int(store_get_build_by_hash(st, "h2", &got), ==, 1);
	check_int(got.sections.text, ==, -1);
	check_int(got.sections.bss, ==, -1);
	check_int(got.symbols.text, ==, -1);
	check_int(got.symbols.bss, ==, -1);
	store_build_release(&got);
	store_build_release(&b);
	store_close(st);
	free(path);
}

/* The plan's claims replace the ones before; positions count per source and symbol. */
static void test_claims_round_trip(void)
{
	char *path = xstrfmt("%s/c.db", test_tmpdir());
	struct store *st;
	struct store_claim in[] = {
		{ (char *)"", (char *)"KASAN_GENERIC", (char *)"lib/Kconfig.kasan:68",
		  (char *)"The performance slowdown is ~x3." },
		{ (char *)"", (char *)"KASAN_GENERIC", (char *)"lib/Kconfig.kasan:68",
		  (char *)"Adds an overhead of ~50% for dynamic allocations." },
		{ (char *)"6.12", (char *)"KFENCE", (char *)"lib/Kconfig.kfence:6",
		  (char *)"KFENCE is designed to have negligible cost." },
	};
	struct store_claim *out = NULL;
	size_t nr = 0;

	check_int(store_open(&st, path, 1), ==, 0);
	check_int(store_put_claims(st, in + 2, 1), ==, 0);
	check_int(store_put_claims(st, in, 3), ==, 0);
	check_int(store_get_claims(st, &out, &nr), ==, 0);
	if (check_int(nr, ==, 3)) {
		check_str(out[0].symbol, "KASAN_GENERIC");
		check_str(out[0].sentence, in[0].sentence);
		check_str(out[1].sentence, in[1].sentence);
		check_str(out[2].source, "6.12");
		check_str(out[2].location, "lib/Kconfig.kfence:6");
	}
	store_claims_free(out, nr);
	check_int(store_put_claims(st, NULL, 0), ==, 0);
	check_int(store_get_claims(st, &out, &nr), ==, 0);
	check_int(nr, ==, 0);
	store_claims_free(out, nr);
	store_close(st);
	free(path);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_findings_round_trip_per_run);
	TEST(test_build_sections_round_trip);
	TEST(test_claims_round_trip);
	return test_done();
}
