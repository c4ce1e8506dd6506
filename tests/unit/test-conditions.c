/* test-conditions.c: unit tests for an experiment's typed conditions (store/conditions.h). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/conditions.h"
#include "store/store.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

static struct store *open_store(const char *name)
{
	char *path = xstrfmt("%s/%s", test_tmpdir(), name);
	struct store *st = NULL;

	check_int(store_open(&st, path, 1), ==, 0);
	free(path);
	return st;
}

/* The clock is stored by its name and read back as the enum, shift and all. */
static void test_clock_names(void)
{
	struct strbuf sb = STRBUF_INIT;
	enum vm_clock clock;
	int shift;

	vm_clock_format(&sb, VM_CLOCK_ICOUNT, 0);
	check_str(sb.buf, "icount:0");
	check_int(vm_clock_scan(&clock, &shift, sb.buf), ==, 0);
	check_int(clock, ==, VM_CLOCK_ICOUNT);
	check_int(shift, ==, 0);
	check_int(vm_clock_scan(&clock, &shift, "icount-idle:3"), ==, 0);
	check_int(clock, ==, VM_CLOCK_ICOUNT_IDLE);
	check_int(shift, ==, 3);
	check_int(vm_clock_scan(&clock, &shift, "host"), ==, 0);
	check_int(clock, ==, VM_CLOCK_HOST);
	check_int(shift, ==, -1);
	/* runs older than the clock ran on host time */
	check_int(vm_clock_scan(&clock, &shift, NULL), ==, 0);
	check_int(clock, ==, VM_CLOCK_HOST);
	check_int(vm_clock_scan(&clock, &shift, "wall"), ==, -1);
	check_int(vm_clock_scan(&clock, &shift, "host:2"), ==, -1);
	check_int(vm_clock_scan(&clock, &shift, "icount:"), ==, -1);
	strbuf_release(&sb);
}

/* A stored clock and --clock follow one rule (store/vm-clock.h); so do the accelerators. */
static void test_one_rule(void)
{
	static const char *const texts[] = {
		"icount", "icount:0", "icount:10", "icount-idle:3", "host", "auto",
		"icount:11", "icount:62", "icount:+3", "icount: 3", "icount:-1", "host:2", "wall",
	};
	enum vm_clock clock, parsed;
	enum vm_accel accel;
	int shift, parsed_shift;
	size_t i;

	test_capture_start();
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		int scanned = vm_clock_scan(&clock, &shift, texts[i]);

		if (!check_int(vm_clock_parse(&parsed, &parsed_shift, texts[i]), ==, scanned))
			fprintf(stderr, "#   clock: %s\n", texts[i]);
		if (!scanned) {
			check_int(parsed, ==, clock);
			check_int(parsed_shift, ==, shift);
		}
	}
	check_int(vm_clock_scan(&clock, &shift, "icount:10"), ==, 0);
	check_int(shift, ==, VM_ICOUNT_SHIFT_MAX);
	check_int(vm_clock_scan(&clock, &shift, "icount:11"), ==, -1);
	/* a runner is stored as such, never chosen by name */
	check_int(vm_accel_from_name(&accel, "runner"), ==, 0);
	check_int(accel, ==, VM_ACCEL_RUNNER);
	check_int(vm_accel_parse(&accel, "runner"), ==, -1);
	check_int(vm_accel_parse(&accel, "tcg"), ==, 0);
	check_int(accel, ==, VM_ACCEL_TCG);
	test_capture_stop();
	check(strstr(test_messages.buf, "'runner' is not an accelerator"));
}

static void set(struct conditions *c)
{
	c->kconfperf = xstrdup("0.9");
	c->arch = xstrdup("x86_64");
	c->compiler = xstrdup("gcc (Debian 12.2.0-14) 12.2.0");
	c->qemu_version = xstrdup("QEMU emulator version 7.2.15");
	c->accel = VM_ACCEL_TCG;
	c->clock = VM_CLOCK_ICOUNT;
	c->icount_shift = 0;
	c->smp = 1;
	c->meter = xstrdup("on");
	c->guest = xstrdup("abc123");
}

/* One save and one load: every field comes back as it went, typed. */
static void test_save_and_load(void)
{
	struct store *st = open_store("round.db");
	struct conditions c = CONDITIONS_INIT, back = CONDITIONS_INIT;
	char *raw;

	set(&c);
	check_int(conditions_save(&c, st), ==, 0);
	/* the clock by the enum's name, as runs before this module stored it */
	raw = store_get_meta(st, "clock");
	check_str(raw, "icount:0");
	free(raw);
	/* unknown fields are left as stored */
	check(store_get_meta(st, "mem_mb") == NULL);
	check_int(conditions_load(&back, st), ==, 0);
	check_str(back.compiler, "gcc (Debian 12.2.0-14) 12.2.0");
	check_int(back.accel, ==, VM_ACCEL_TCG);
	check_int(back.clock, ==, VM_CLOCK_ICOUNT);
	check_int(back.icount_shift, ==, 0);
	check_int(back.smp, ==, 1);
	check_int(back.mem_mb, ==, -1);
	check(conditions_metered(&back));
	check(conditions_first_difference(&c, &back) == NULL);
	conditions_release(&back);
	/* a value it cannot read is an error that names the condition */
	check_int(store_set_meta(st, "accel", "warp"), ==, 0);
	test_capture_start();
	check_int(conditions_load(&back, st), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "condition accel is 'warp'") != NULL);
	conditions_release(&back);
	conditions_release(&c);
	store_close(st);
}

/* Field by field, in the table's order; unknown on one side is no difference. */
static void test_first_difference(void)
{
	struct conditions a = CONDITIONS_INIT, b = CONDITIONS_INIT;

	set(&a);
	set(&b);
	check(conditions_first_difference(&a, &b) == NULL);
	b.icount_shift = 2;
	check_str(conditions_first_difference(&a, &b), "clock");
	b.icount_shift = 0;
	free(b.compiler);
	b.compiler = xstrdup("clang version 16");
	check_str(conditions_first_difference(&a, &b), "compiler");
	b.accel = VM_ACCEL_KVM;
	check_str(conditions_first_difference(&a, &b), "accel");
	check(conditions_differ(&a, &b, "compiler"));
	check(!conditions_differ(&a, &b, "smp"));
	free(b.kconfperf);
	b.kconfperf = xstrdup("1.0");	/* another version of kconfperf compares */
	b.accel = VM_ACCEL_TCG;
	free(b.compiler);
	b.compiler = NULL;		/* unknown: no difference */
	check(conditions_first_difference(&a, &b) == NULL);
	conditions_release(&a);
	conditions_release(&b);
}

static void add(void *data, const char *label, const char *value)
{
	strbuf_addf(data, "%s=%s;", label, value);
}

/* What the reports list, from the one table. */
static void test_listed(void)
{
	struct conditions c = CONDITIONS_INIT;
	struct strbuf sb = STRBUF_INIT;

	set(&c);
	conditions_each_listed(&c, add, &sb);
	check_str(sb.buf, "arch=x86_64;accel=tcg;qemu version=QEMU emulator version 7.2.15;"
		  "compiler=gcc (Debian 12.2.0-14) 12.2.0;");
	strbuf_reset(&sb);
	check_int(conditions_format(&sb, &c, "clock"), ==, 0);
	check_str(sb.buf, "icount:0");
	check_int(conditions_format(&sb, &c, "nonsense"), ==, -1);
	strbuf_release(&sb);
	conditions_release(&c);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_clock_names);
	TEST(test_one_rule);
	TEST(test_save_and_load);
	TEST(test_first_difference);
	TEST(test_listed);
	return test_done();
}
