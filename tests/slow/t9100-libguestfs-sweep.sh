#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t9100 (make check-slow): the seed's workload on real kernels.  sweep with
# --workload libguestfs on Debian's 6.1 sources: a tinyconfig baseline with
# the libguestfs harness profile (which sweep adds for the workload) and
# PROVE_LOCKING, libguestfs-test-tool booting each kernel as its appliance.
# PROVE_LOCKING must come out significant on the test's wall time.  Builds
# two kernels into the shared test cache (13 and 20 minutes at -j2 from a
# cold cache on this 2-core machine under other builds' load) and runs
# 2 x (1 first boot + 1 warm-up + 5 runs) tests of 60-200 s each: 33
# minutes with the kernels cached.
. "$(dirname "$0")/../t/lib.sh"
test_need_kernel_source
command -v libguestfs-test-tool >/dev/null ||
	test_skip_all "no libguestfs-test-tool (run scripts/deps)"
[ -d /lib/modules ] || test_skip_all "no /lib/modules, which supermin needs (run scripts/deps)"

test_expect_success 'sweep --workload libguestfs measures both kernels' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --base tinyconfig \
		--options PROVE_LOCKING --no-baseline-again --workload libguestfs --runs 5 --warmup 1 --seed 13 \
		--timeout 300 --dir exp >report.txt 2>err &&
	cat report.txt &&
	all=$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run") &&
	test "$all" -ge 12 &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run WHERE status = \"ok\"")" = "$all"
'

test_expect_success 'the plan took the libguestfs profile for the workload' '
	test "$(sqlite3 exp/kconfperf.db "SELECT value FROM meta WHERE key = \"harness\"")" = \
		"x86_64,libguestfs"
'

# The verdict is on the whole test's wall time, as the seed's was.  The
# appliance's guest clock is reported too, but it is no verdict to require:
# its idle waits for the host's disk I/O are skipped by icount in amounts
# that follow host timing (docs/harness.md, "libguestfs").
test_expect_success 'PROVE_LOCKING is significant on the whole test'"'"'s wall time' '
	jq -e ".results[] | select(.command == \"CONFIG_PROVE_LOCKING=y\") | .kconfperf
		| select(.metric == \"wall\") | .marker == \"*\"" exp/report.json &&
	jq -e "[.results[] | .kconfperf | select(.metric == \"time\")] | length == 2" exp/report.json &&
	test_grep "this workload.s guest waits for the host.s disk I/O" report.txt
'

test_expect_success 'every run booted the appliance through kconfperf'"'"'s wrapper, under icount' '
	for f in exp/runs/*/libguestfs/r*/hv.txt; do
		test_grep " -icount shift=" "$f" &&
		test_grep "kcp.layout=" "$f" || return 1
	done &&
	test "$(ls exp/guestfs | wc -l)" = 2 &&
	test "$(ls exp/guestfs/*/prepared | wc -l)" = 2
'

test_done
