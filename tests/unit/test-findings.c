/* test-findings.c: unit tests for the kernel reports found on a run's console. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/findings.h"
#include "store/finding-kind.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/* Console fixtures as real kernels print them (tests run from the top directory). */
#define CONSOLE_DIR "tests/fixtures/console/"

static void scan_file(struct findings *f, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char path[256];

	snprintf(path, sizeof(path), CONSOLE_DIR "%s", name);
	check(strbuf_read_file(&sb, path, 0) > 0);
	findings_scan(f, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* The finding of that kind, or NULL. */
static const struct finding *of_kind(const struct findings *f, enum finding_kind kind)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->v[i].kind == kind)
			return &f->v[i];
	return NULL;
}

static void classify(const char *line, int want, enum finding_kind want_kind, const char *norm)
{
	struct strbuf sb = STRBUF_INIT;
	enum finding_kind kind = FINDING_KIND_NR;
	int got = findings_classify_line(&kind, &sb, line, strlen(line));

	if (!check_int(got, ==, want))
		fprintf(stderr, "# line: %s\n", line);
	if (want) {
		check_str(finding_kind_name(kind), finding_kind_name(want_kind));
		check_str(sb.buf, norm);
	}
	strbuf_release(&sb);
}

static void test_kind_names_round_trip(void)
{
	enum finding_kind k, got;

	for (k = 0; k < FINDING_KIND_NR; k++) {
		check(finding_kind_name(k) != NULL);
		got = FINDING_KIND_NR;
		check_int(finding_kind_parse(&got, finding_kind_name(k)), ==, 0);
		check_int(got, ==, k);
	}
	check(finding_kind_name(FINDING_KIND_NR) == NULL);
	check_int(finding_kind_parse(&got, "WARNING"), ==, -1);
	check_int(finding_kind_parse(&got, NULL), ==, -1);
}

static void test_lines_are_classified_and_normalised(void)
{
	classify("[    0.912455][    T1] WARNING: CPU: 0 PID: 1 at kernel/locking/lockdep.c:232 "
		 "__lock_acquire+0x8a6/0x1f30", 1, FINDING_WARNING,
		 "WARNING at kernel/locking/lockdep.c:232 __lock_acquire");
	classify("<4>[    1.102588] WARNING: possible circular locking dependency detected", 1,
		 FINDING_LOCKDEP, "WARNING: possible circular locking dependency detected");
	classify("[    1.0] WARNING: possible recursive locking detected", 1, FINDING_LOCKDEP,
		 "WARNING: possible recursive locking detected");
	classify("[    1.0] WARNING: inconsistent lock state", 1, FINDING_LOCKDEP,
		 "WARNING: inconsistent lock state");
	classify("WARNING: suspicious RCU usage", 1, FINDING_LOCKDEP, "WARNING: suspicious RCU usage");
	classify("[   22.410000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:1:27]", 1,
		 FINDING_SOFT_LOCKUP, "watchdog: BUG: soft lockup - CPU#N stuck for Ns! [kworker/1:1]");
	classify("[  122.8] INFO: task kworker/0:2:41 blocked for more than 120 seconds.", 1,
		 FINDING_HUNG_TASK, "INFO: task kworker/0:2 blocked for more than 120 seconds.");
	classify("[ 30.0] rcu: INFO: rcu_preempt self-detected stall on CPU", 1, FINDING_RCU_STALL,
		 "rcu: INFO: rcu_preempt self-detected stall on CPU");
	classify("[ 30.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:", 1, FINDING_RCU_STALL,
		 "rcu: INFO: rcu_sched detected stalls on CPUs/tasks:");
	classify("BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right+0x1a6/0x1c0", 1, FINDING_KASAN,
		 "BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right");
	classify("BUG: KFENCE: use-after-free read in test_uaf+0xa6/0x234", 1, FINDING_KFENCE,
		 "BUG: KFENCE: use-after-free read in test_uaf");
	classify("kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)", 1,
		 FINDING_KMEMLEAK,
		 "kmemleak: N new suspected memory leaks (see /sys/kernel/debug/kmemleak)");
	classify("UBSAN: shift-out-of-bounds in lib/test_ubsan.c:24:9", 1, FINDING_UBSAN,
		 "UBSAN: shift-out-of-bounds in lib/test_ubsan.c:24:9");
	classify("BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580",
		 1, FINDING_ATOMIC_SLEEP,
		 "BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580");
	classify("BUG: scheduling while atomic: swapper/0/1/0x00000002", 1, FINDING_ATOMIC_SLEEP,
		 "BUG: scheduling while atomic");
	classify("BUG: kernel NULL pointer dereference, address: 0000000000000008", 1, FINDING_OOPS,
		 "BUG: kernel NULL pointer dereference, address: ADDR");
	classify("general protection fault, probably for non-canonical address 0xdffffc0000000001: "
		 "0000 [#1] PREEMPT SMP KASAN NOPTI", 1, FINDING_OOPS,
		 "general protection fault, probably for non-canonical address ADDR: "
		 "0000 [#1] PREEMPT SMP KASAN NOPTI");
	classify("Internal error: Oops: 96000005 [#1] PREEMPT SMP", 1, FINDING_OOPS,
		 "Internal error: Oops: 96000005 [#1] PREEMPT SMP");
	classify("NMI watchdog: Watchdog detected hard LOCKUP on cpu 1", 1, FINDING_HARD_LOCKUP,
		 "NMI watchdog: Watchdog detected hard LOCKUP on cpu N");
	classify("kernel BUG at mm/slub.c:379!", 1, FINDING_BUG, "kernel BUG at mm/slub.c:379!");
	classify("BUG: using smp_processor_id() in preemptible [00000000] code: swapper/0/1", 1,
		 FINDING_BUG, "BUG: using smp_processor_id() in preemptible [00000000] code: swapper/0/1");
	classify("Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009", 1,
		 FINDING_PANIC, "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009");
	/* not reports */
	classify("[    1.0] ---[ end Kernel panic - not syncing: Fatal exception ]---", 0, 0, NULL);
	classify("[    1.0] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.1.192 #1", 0, 0, NULL);
	classify("[    1.0]   Good, all 261 testcases passed! |", 0, 0, NULL);
	classify("[    1.0] DEBUG_LOCKS_WARN_ON(1)", 0, 0, NULL);
	classify("random: a WARNING: in the middle", 0, 0, NULL);
	classify("", 0, 0, NULL);
}

static void test_lockdep_report_and_its_text(void)
{
	struct findings f = FINDINGS_INIT;
	const struct finding *x;

	scan_file(&f, "lockdep-circular.txt");
	check_int(f.nr, ==, 1);
	x = of_kind(&f, FINDING_LOCKDEP);
	if (check(x != NULL)) {
		check_str(x->line, "WARNING: possible circular locking dependency detected");
		check_int(x->count, ==, 1);
		check(!strncmp(x->text, "[    1.102588] WARNING: possible circular", 40));
		check(strstr(x->text, "jump_label_mutex") != NULL);
		check(strstr(x->text, "check_noncircular") != NULL);
	}
	findings_release(&f);
}

static void test_same_warning_twice_is_one_finding(void)
{
	struct findings f = FINDINGS_INIT;

	scan_file(&f, "warn-twice.txt");
	if (check_int(f.nr, ==, 1)) {
		check_int(f.v[0].kind, ==, FINDING_WARNING);
		check_str(f.v[0].line, "WARNING at kernel/locking/lockdep.c:232 __lock_acquire");
		check_int(f.v[0].count, ==, 2);
		/* the first report only, to its end marker */
		check(strstr(f.v[0].text, "end trace") != NULL);
		check(strstr(f.v[0].text, "crng") == NULL);
		check(strstr(f.v[0].text, "PID: 27") == NULL);
	}
	findings_release(&f);
}

static void test_oops_folds_into_its_bug_and_panic_is_apart(void)
{
	struct findings f = FINDINGS_INIT;

	scan_file(&f, "oops.txt");
	if (check_int(f.nr, ==, 2)) {
		check_int(f.v[0].kind, ==, FINDING_OOPS);
		check_str(f.v[0].line, "BUG: kernel NULL pointer dereference, address: ADDR");
		check(strstr(f.v[0].text, "Oops: 0000 [#1]") != NULL);
		check(strstr(f.v[0].text, "Kernel panic") == NULL);
		check_int(f.v[1].kind, ==, FINDING_PANIC);
		check_str(f.v[1].line, "Kernel panic - not syncing: Fatal exception");
	}
	findings_release(&f);
}

static void test_every_kind_in_one_console(void)
{
	struct findings f = FINDINGS_INIT;
	static const enum finding_kind kinds[] = {
		FINDING_SOFT_LOCKUP, FINDING_RCU_STALL, FINDING_HUNG_TASK, FINDING_KASAN,
		FINDING_KFENCE, FINDING_KMEMLEAK, FINDING_UBSAN, FINDING_ATOMIC_SLEEP,
		FINDING_ATOMIC_SLEEP, FINDING_OOPS, FINDING_HARD_LOCKUP, FINDING_LOCKDEP,
		FINDING_BUG,
	};

	scan_file(&f, "mixed.txt");
	if (check_int(f.nr, ==, ARRAY_SIZE(kinds)))
		for (size_t i = 0; i < f.nr; i++) {
			check_str(finding_kind_name(f.v[i].kind), finding_kind_name(kinds[i]));
			check(f.v[i].text && !strncmp(f.v[i].text, "[", 1));
		}
	findings_release(&f);
}

static void test_two_runs_match_and_odd_input_is_safe(void)
{
	static const char a[] = "[ 1.0] WARNING: CPU: 3 PID: 99 at fs/x.c:1 f+0x1/0x2\r\nrest";
	static const char b[] = "WARNING: CPU: 0 PID: 1 at fs/x.c:1 f+0x7/0x9";
	static const char odd[] = "[\n[ T\n<4\nBUG: \n\n\0WARNING: x\n[1.0]BUG: y";
	struct findings f = FINDINGS_INIT;

	findings_scan(&f, a, sizeof(a) - 1);
	findings_scan(&f, b, sizeof(b) - 1);
	if (check_int(f.nr, ==, 1)) {
		check_str(f.v[0].line, "WARNING at fs/x.c:1 f");
		check_int(f.v[0].count, ==, 2);
	}
	findings_release(&f);
	findings_scan(&f, odd, sizeof(odd) - 1);
	check_int(f.nr, ==, 1);		/* "BUG: y" only */
	findings_release(&f);
	findings_scan(&f, "", 0);
	check_int(f.nr, ==, 0);
	findings_release(&f);
	findings_release(NULL);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_kind_names_round_trip);
	TEST(test_lines_are_classified_and_normalised);
	TEST(test_lockdep_report_and_its_text);
	TEST(test_same_warning_twice_is_one_finding);
	TEST(test_oops_folds_into_its_bug_and_panic_is_apart);
	TEST(test_every_kind_in_one_console);
	TEST(test_two_runs_match_and_odd_input_is_safe);
	return test_done();
}
