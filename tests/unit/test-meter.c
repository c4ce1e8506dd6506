/* test-meter.c: unit tests for the meter's file, the metrics it gives, its storage and profiles. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/profile-format.h"
#include "run/meter.h"
#include "run/protocol.h"
#include "store/metric.h"
#include "store/profile.h"
#include "store/store-meter.h"
#include "store/store.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/*
 * A syscall run as the plugin writes it: init, two iterations, power off.
 * Each mark: TOTAL PRE KERNEL KOTHER USER IDLE, PRE + KERNEL + KOTHER +
 * USER = TOTAL.
 */
static const char syscall_file[] =
	"kcp-meter 1\n"
	"target x86_64\n"
	"map 3 symbols\n"
	"extable 383\n"
	"guest markers 4\n"
	"mark init -1 1000 600 380 0 20 30\n"
	"mark begin 0 2000 600 1300 0 100 50\n"
	"mark end 0 5000 600 4000 0 400 60\n"
	"mark begin 1 5500 600 4450 0 450 70\n"
	"mark end 1 8600 600 7450 0 550 70\n"
	"mark poweroff -1 9000 600 7800 0 600 80\n"
	"total 9100 600 7900 0 600 80\n"
	"started 9101\n"
	"ops 8000 900 42\n"
	"fn boot 300 start_kernel\n"
	"fn boot 50 do_idle\n"
	"fn boot 600 [before-kernel]\n"
	"fn work 5000 __x64_sys_getppid\n"
	"fn work 1000 __x64_sys_getppid\n"
	"fn work 20 do_idle\n"
	"fn work 400 [user]\n"
	"fn all 9100 start_kernel\n"
	"end\n";

static void syscall_proto(struct protocol_result *p)
{
	const char *lines =
		"KCP 1 ready boot_s=0.1 workload=syscall\n"
		"KCP 1 sample workload=syscall iter=0 metric=time unit=ns better=lower value=10 per=100\n"
		"KCP 1 sample workload=syscall iter=1 metric=time unit=ns better=lower value=10 per=100\n"
		"KCP 1 done\n";

	protocol_result_init(p);
	check_int(protocol_parse_buffer(p, lines, strlen(lines), "results.txt"), ==, 0);
}

static void test_parse(void)
{
	struct meter_result m;
	struct strbuf why = STRBUF_INIT;

	meter_result_init(&m);
	check_int(meter_parse(&m, syscall_file, strlen(syscall_file), "meter.txt", &why), ==, 0);
	check_str(why.buf, "");
	check_str(m.target, "x86_64");
	check(m.has_map);
	check(m.has_guest);
	check_int(m.nr_marks, ==, 6);
	check_int(m.marks[2].kind, ==, METER_MARK_END);
	check_int(m.marks[3].iter, ==, 1);
	check_int(m.total.total, ==, 9100);
	check_int(meter_busy(&m.total), ==, 9020);
	check_int(m.extable, ==, 383);
	check_int(m.op_adds, ==, 8000);
	check_int(m.op_watches, ==, 900);
	check_int(m.op_calls, ==, 42);
	/* the two __x64_sys_getppid symbols are one entry */
	check_int(m.phases[STORE_METER_WORK].nr, ==, 3);
	check_double(profile_find(&m.phases[STORE_METER_WORK], "__x64_sys_getppid")->count,
		     6000, 0);
	check_int(m.phases[STORE_METER_ALL].nr, ==, 1);
	/* the boot phase is the kernel's start to init: what ran before is left out */
	check_int(m.phases[STORE_METER_BOOT].nr, ==, 2);
	check(profile_find(&m.phases[STORE_METER_BOOT], "[before-kernel]") == NULL);
	meter_result_release(&m);
	strbuf_release(&why);
}

/* Each broken file is refused, naming the line. */
static void test_parse_refuses(void)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "kcp-meter 2\n", "meter.txt:1: not the meter's counts" },
		{ "kcp-meter 1\ntotal 10 1 2 3 4 1\n", "incomplete (no 'end' line)" },
		{ "kcp-meter 1\ntotal 10 1 2 3 5 1\nend\n", "meter.txt:2: cannot read" },
		{ "kcp-meter 1\ntotal 10 1 2 3 4 3\nend\n", "meter.txt:2:" },	/* idle > kernel */
		{ "kcp-meter 1\nfn later 1 x\ntotal 0 0 0 0 0 0\nend\n", "meter.txt:2:" },
		{ "kcp-meter 1\nfn all x y\ntotal 0 0 0 0 0 0\nend\n", "meter.txt:2:" },
		{ "kcp-meter 1\nend\n", "meter.txt:2:" },		/* end before total */
		{ "kcp-meter 1\ntotal 0 0 0 0 0 0\nend\nfn all 1 x\n", "meter.txt:4:" },
		{ "kcp-meter 1\nmark nope -1 0 0 0 0 0 0\n", "meter.txt:2:" },
		{ "kcp-meter 1\nextable many\n", "meter.txt:2:" },
		{ "kcp-meter 1\ntotal 0 0 0 0 0 0\nops 1 2 3 4\n", "meter.txt:3:" },
		{ "kcp-meter 1\ntotal 0 0 0 0 0 0\nops 1 2 x\n", "meter.txt:3:" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct meter_result m;
		struct strbuf why = STRBUF_INIT;

		meter_result_init(&m);
		check_int(meter_parse(&m, cases[i].text, strlen(cases[i].text), "meter.txt", &why),
			  ==, -1);
		if (!check(strstr(why.buf, cases[i].why) != NULL))
			fprintf(stderr, "case %zu: %s\n", i, why.buf);
		check_int(m.nr_marks, ==, 0);
		meter_result_release(&m);
		strbuf_release(&why);
	}
}

static double sample_value(const struct protocol_result *p, const char *metric, unsigned iter)
{
	size_t i;

	for (i = 0; i < p->nr_samples; i++)
		if (!strcmp(p->samples[i].metric, metric) && p->samples[i].iteration == iter)
			return p->samples[i].value;
	return NAN;
}

static void test_samples(void)
{
	struct meter_result m;
	struct protocol_result p;
	struct strbuf why = STRBUF_INIT;

	meter_result_init(&m);
	check_int(meter_parse(&m, syscall_file, strlen(syscall_file), "meter.txt", &why), ==, 0);
	syscall_proto(&p);
	check_double(p.samples[0].per, 100, 0);
	check_int(meter_add_samples(&p, &m, "syscall", &why), ==, 0);
	/* busy (total - idle) from begin to end, per call */
	check_double(sample_value(&p, METRIC_INSTRUCTIONS_NAME, 0), ((5000 - 60) - (2000 - 50)) / 100.0, 1e-12);
	check_double(sample_value(&p, METRIC_INSTRUCTIONS_NAME, 1), ((8600 - 70) - (5500 - 70)) / 100.0, 1e-12);
	check_str(p.samples[2].unit, METER_UNIT);
	check_int(p.samples[2].higher_is_better, ==, 0);
	/* twice is refused: the run has the metric already */
	check_int(meter_add_samples(&p, &m, "syscall", &why), ==, -1);
	protocol_result_release(&p);

	/* boot: from the kernel's start to init, idle and what ran before the kernel excluded */
	protocol_result_init(&p);
	strbuf_reset(&why);
	check_int(meter_add_samples(&p, &m, "boot", &why), ==, 0);
	check_double(sample_value(&p, METRIC_INSTRUCTIONS_NAME, 0), 1000 - 30 - 600, 0);
	protocol_result_release(&p);

	/* libguestfs: every busy instruction of the appliance */
	protocol_result_init(&p);
	check_int(meter_add_samples(&p, &m, "libguestfs", &why), ==, 0);
	check_double(sample_value(&p, METRIC_INSTRUCTIONS_NAME, 0), 9100 - 80, 0);
	protocol_result_release(&p);

	/* an iteration the meter did not see framed gives no samples and says so */
	syscall_proto(&p);
	p.samples[1].iteration = 2;
	strbuf_reset(&why);
	check_int(meter_add_samples(&p, &m, "syscall", &why), ==, -1);
	check(strstr(why.buf, "iteration 2") != NULL);
	protocol_result_release(&p);
	meter_result_release(&m);

	/* no init marker: a boot run has no instructions to report */
	meter_result_init(&m);
	check_int(meter_parse(&m, "kcp-meter 1\ntotal 5 5 0 0 0 0\nend\n", 34, "m", &why), ==, 0);
	protocol_result_init(&p);
	strbuf_reset(&why);
	check_int(meter_add_samples(&p, &m, "boot", &why), ==, -1);
	check(strstr(why.buf, "init") != NULL);
	protocol_result_release(&p);
	meter_result_release(&m);
	strbuf_release(&why);
}

static void test_store_counts(void)
{
	struct meter_result m;
	struct protocol_result p;
	struct store_meter sm = STORE_METER_INIT;
	struct strbuf why = STRBUF_INIT;

	meter_result_init(&m);
	check_int(meter_parse(&m, syscall_file, strlen(syscall_file), "meter.txt", &why), ==, 0);
	syscall_proto(&p);
	meter_store_counts(&sm, &m, &p);
	/* the run ends at the power-off marker */
	check_int(sm.total, ==, 9000);
	check_int(sm.idle, ==, 80);
	check_int(sm.kernel, ==, 7800);
	check_int(sm.boot, ==, 370);
	check_int(sm.work, ==, (4940 - 1950) + (8530 - 5430));
	check_int(sm.iterations, ==, 2);
	check_double(sm.ops, 200, 0);
	check(sm.has_map);
	store_meter_release(&sm);
	protocol_result_release(&p);
	meter_result_release(&m);
	strbuf_release(&why);
}

static void test_normalize(void)
{
	struct profile p = PROFILE_INIT;

	check_int(profile_base_len("foo.isra.0"), ==, 3);
	check_int(profile_base_len("foo.constprop.0.cold"), ==, 3);
	check_int(profile_base_len("foo"), ==, 3);
	check_int(profile_base_len(".cold"), ==, 5);
	profile_add(&p, "lock_acquire.part.0", 3);
	profile_add(&p, "lock_acquire", 4);
	profile_add(&p, "lock_acquire.cold", 1);
	profile_add(&p, "slob_alloc.constprop.0", 2);
	profile_add(&p, "do_idle", 5);
	profile_normalize(&p);
	check_int(p.nr, ==, 3);
	check_double(profile_find(&p, "lock_acquire")->count, 8, 0);
	check_double(profile_find(&p, "slob_alloc")->count, 2, 0);
	check(profile_find(&p, "slob_alloc.constprop.0") == NULL);
	check(profile_is_idle("do_idle"));
	check(profile_is_idle("default_idle.isra.0"));
	check(!profile_is_idle("do_idle_and_more"));
	check_double(profile_busy(&p), 10, 0);
	check_double(profile_total(&p), 15, 0);
	profile_release(&p);
}

static void test_encode_decode(void)
{
	struct profile p = PROFILE_INIT;
	int64_t ids[] = { 70000, 3, 5, 1 }, *got_ids;
	uint64_t *counts;
	struct strbuf blob = STRBUF_INIT;
	size_t nr;

	profile_add(&p, "a", 7);
	profile_add(&p, "b", 1e15);
	profile_add(&p, "c", 0);
	profile_add(&p, "d", 300);
	check_int(profile_encode(&blob, &p, ids), ==, 0);
	check_int(profile_decode(blob.buf, blob.len, &got_ids, &counts, &nr), ==, 0);
	check_int(nr, ==, 4);
	/* sorted by id */
	check_int(got_ids[0], ==, 1);
	check_int(counts[0], ==, 300);
	check_int(got_ids[1], ==, 3);
	check_int(counts[1], ==, 1000000000000000LL);
	check_int(got_ids[3], ==, 70000);
	check_int(counts[3], ==, 7);
	free(got_ids);
	free(counts);

	/* a truncated blob, trailing bytes and garbage are refused */
	test_capture_start();
	check_int(profile_decode(blob.buf, blob.len - 2, &got_ids, &counts, &nr), ==, -1);
	check(got_ids == NULL);
	strbuf_addch(&blob, 'x');
	check_int(profile_decode(blob.buf, blob.len, &got_ids, &counts, &nr), ==, -1);
	check_int(profile_decode("nonsense", 8, &got_ids, &counts, &nr), ==, -1);
	/* an id twice is the caller's bug */
	ids[1] = 5;
	strbuf_reset(&blob);
	check_int(profile_encode(&blob, &p, ids), ==, -1);
	test_capture_stop();
	strbuf_release(&blob);
	profile_release(&p);
}

static void test_callgrind(void)
{
	struct profile p = PROFILE_INIT;
	struct strbuf out = STRBUF_INIT;

	profile_add(&p, "[user]", 10);
	profile_add(&p, "start_kernel", 2.6);
	profile_add(&p, "unused", 0.2);
	profile_write_callgrind(&out, &p, "kconfperf profile x", "line one\nline two");
	check_str(out.buf,
		  "desc: line one\n"
		  "desc: line two\n"
		  "cmd: kconfperf profile x\n"
		  "events: Ir\n"
		  "fl=[user]\n"
		  "fn=[user]\n"
		  "0 10\n"
		  "fl=vmlinux\n"
		  "fn=start_kernel\n"
		  "0 3\n"
		  "summary: 13\n");
	strbuf_release(&out);
	profile_release(&p);
}

/* The rows of a diff add up to the change in busy instructions. */
static void test_diff(void)
{
	struct profile a = PROFILE_INIT, b = PROFILE_INIT;
	struct strbuf out = STRBUF_INIT;

	profile_add(&a, "f", 100);
	profile_add(&a, "g", 50);
	profile_add(&a, "do_idle", 7);
	profile_add(&b, "f", 100);
	profile_add(&b, "g", 80);
	profile_add(&b, "lock_acquire", 120);
	profile_add(&b, "do_idle", 9);
	profile_merge(&a);
	profile_merge(&b);
	profile_write_diff(&out, &a, &b, "base", "lock", 1, "insn per call");
	check(strstr(out.buf, "               0              120              120    80.0%  "
			      "lock_acquire\n") != NULL);
	check(strstr(out.buf, "              50               80               30    20.0%  "
			      "(the other functions)\n") != NULL);
	check(strstr(out.buf, "             150              300              150   100.0%  "
			      "busy: the change (+100.0%)\n") != NULL);
	check(strstr(out.buf, "idle loop (left out)") != NULL);
	check(strstr(out.buf, " f\n") == NULL);	/* unchanged: no row */
	strbuf_release(&out);
	profile_release(&a);
	profile_release(&b);
}

static void test_storage(void)
{
	char *path = xstrfmt("%s/meter.db", test_tmpdir());
	struct store *st;
	struct store_variant v = STORE_VARIANT_INIT;
	struct store_run r = STORE_RUN_INIT, r2 = STORE_RUN_INIT;
	struct store_meter m = STORE_METER_INIT, got = STORE_METER_INIT;
	struct profile boot = PROFILE_INIT, work = PROFILE_INIT, back = PROFILE_INIT;
	const struct profile *phases[STORE_METER_NR_PHASES] = { &boot, &work, NULL };
	int nr_runs;

	check_int(store_open(&st, path, 1), ==, 0);
	v.name = xstrdup("baseline");
	v.kind = xstrdup("baseline");
	v.status = VARIANT_OK;
	check_int(store_put_variant(st, &v), ==, 0);
	r.variant_id = v.id;
	r.workload = xstrdup("syscall");
	r.status = RUN_OK;
	r.boot_s = NAN;
	check_int(store_add_run(st, &r, NULL, 0), ==, 0);
	m.total = 9100;
	m.before_kernel = 600;
	m.kernel = 7900;
	m.user = 600;
	m.idle = 80;
	m.boot = 370;
	m.work = 5050;
	m.iterations = 2;
	m.ops = 200;
	m.has_map = 1;
	profile_add(&boot, "start_kernel", 300);
	profile_add(&boot, "do_idle", 50);
	profile_add(&work, "__x64_sys_getppid", 6000);
	profile_add(&work, "lock_acquire.part.0", 20);
	profile_add(&work, "lock_acquire", 20);
	profile_merge(&boot);
	profile_merge(&work);
	check_int(store_add_meter(st, r.id, &m, phases), ==, 0);

	check_int(store_get_meter(st, r.id, &got), ==, 1);
	check_int(got.total, ==, 9100);
	check_int(got.work, ==, 5050);
	check_double(got.ops, 200, 0);
	check(got.note == NULL);
	check_int(store_get_run_profile(st, r.id, STORE_METER_WORK, &back), ==, 1);
	check_int(back.nr, ==, 3);
	check_double(profile_find(&back, "lock_acquire.part.0")->count, 20, 0);
	profile_release(&back);
	check_int(store_get_run_profile(st, r.id, STORE_METER_ALL, &back), ==, 0);

	/* a second run with other counts: the variant's profile is their mean, per operation */
	r2.variant_id = v.id;
	r2.workload = xstrdup("syscall");
	r2.round = 1;
	r2.status = RUN_OK;
	r2.boot_s = NAN;
	check_int(store_add_run(st, &r2, NULL, 0), ==, 0);
	profile_release(&work);
	profile_add(&work, "__x64_sys_getppid", 8000);
	m.ops = 400;
	check_int(store_add_meter(st, r2.id, &m, phases), ==, 0);
	check_int(store_get_variant_profile(st, v.id, "syscall", STORE_METER_WORK, 1, &back,
					    &nr_runs), ==, 0);
	check_int(nr_runs, ==, 2);
	check_double(profile_find(&back, "__x64_sys_getppid")->count, (6000 / 200.0 + 8000 / 400.0) / 2, 1e-12);
	/* normalised: the clone and its function are one */
	check_double(profile_find(&back, "lock_acquire")->count, 40 / 200.0 / 2, 1e-12);
	profile_release(&back);
	check_int(store_get_variant_profile(st, v.id, "syscall", STORE_METER_WORK, 0, &back,
					    &nr_runs), ==, 0);
	check_double(profile_find(&back, "__x64_sys_getppid")->count, 7000, 1e-12);
	profile_release(&back);
	check_int(store_get_variant_profile(st, v.id, "hackbench", STORE_METER_WORK, 1, &back,
					    &nr_runs), ==, 0);
	check_int(nr_runs, ==, 0);
	/* a run's counts are stored once */
	test_capture_start();
	check_int(store_add_meter(st, r.id, &m, phases), ==, -1);
	test_capture_stop();
	store_close(st);

	/* a read-only open reads them too */
	check_int(store_open_readonly(&st, path), ==, 0);
	check_int(store_get_meter(st, r.id, &got), ==, 1);
	check_int(got.boot, ==, 370);
	store_close(st);

	store_meter_release(&got);
	profile_release(&back);
	profile_release(&boot);
	profile_release(&work);
	store_variant_release(&v);
	store_run_release(&r);
	store_run_release(&r2);
	free(path);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_parse);
	TEST(test_parse_refuses);
	TEST(test_samples);
	TEST(test_store_counts);
	TEST(test_normalize);
	TEST(test_encode_decode);
	TEST(test_callgrind);
	TEST(test_diff);
	TEST(test_storage);
	return test_done();
}
