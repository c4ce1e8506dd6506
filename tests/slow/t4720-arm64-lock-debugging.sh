#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4720 (make check-slow): seed 004 as a recipe, on arm64: tinyconfig with
# and without PROVE_LOCKING (which brings the lock-debugging group with it:
# LOCKDEP, DEBUG_LOCK_ALLOC, DEBUG_SPINLOCK, DEBUG_MUTEXES, DEBUG_RWSEMS,
# DEBUG_RT_MUTEXES, DEBUG_WW_MUTEX_SLOWPATH), booted under
# qemu-system-aarch64, on boot and on dd reading a RAM disk through the
# block layer and the page cache, the guest's nearest to bonnie++'s
# sequential block input.  Kernels: t4700's two arm64 kernels (lib.sh
# ARM64_LOCK_PLAN_ARGS), the baseline shared with t4700; the script takes about 3 minutes of runs, kept
# out of make check's tight budget.
. "$(dirname "$0")/../t/lib.sh"
test_need_arm64
command -v sqlite3 >/dev/null || test_skip_all "no sqlite3"

DD=dd:dev=/dev/ram0,direct=0,bs=16k,count=1024,iterations=1

# own_table NAME: the report's table of the own metric of the workload
# called NAME (its spec is printed canonically, parameters in their order).
own_table() {
	awk -v w="$1" '/^workload:/ { split($2, n, ":"); in_w = n[1] == w; next }
		in_w && /^metric:/ { t = ($2 == "time" || $2 == "throughput") }
		in_w && t' report.txt
}

test_expect_success 'sweep: PROVE_LOCKING on and off on arm64, boot and dd from a RAM disk' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" $ARM64_LOCK_PLAN_ARGS --workload boot \
		--workload "$DD" --runs 3 --warmup 0 --seed 4 --dir exp >report.txt 2>err &&
	cat report.txt &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run WHERE status = \"ok\"")" = 18
'

test_expect_success 'the lock-debugging group came with PROVE_LOCKING' '
	kconfperf plan --dir exp --show CONFIG_PROVE_LOCKING=y >diff &&
	for s in DEBUG_LOCK_ALLOC DEBUG_MUTEXES DEBUG_RWSEMS DEBUG_SPINLOCK; do
		test_grep "^ $s n -> y$" diff || exit 1
	done &&
	test_grep "^+LOCKDEP y$" diff
'

test_expect_success 'PROVE_LOCKING is a significant cost on boot' '
	own_table boot >boot.txt &&
	grep "^CONFIG_PROVE_LOCKING=y" boot.txt >row &&
	test_grep "(+[0-9.]*%).*\\*" row
'

test_expect_success 'PROVE_LOCKING is a significant loss of RAM disk throughput' '
	own_table dd >dd.txt &&
	cat dd.txt &&
	test_grep "^metric: *throughput (MB/s), higher is better" dd.txt &&
	grep "^CONFIG_PROVE_LOCKING=y" dd.txt >row &&
	test_grep "(-[0-9.]*%).*\\*" row &&
	test_grep "^A/A control: baseline-again .*, not marked" dd.txt
'

test_done
