#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t6000: kconfperf sweep end to end on real kernels: Debian's 6.1 sources, a
# tinyconfig baseline, PROVE_LOCKING (expensive) and LOCKDEP (a no-op), oat
# and all, hackbench under qemu.  The expensive option must come out
# significant, the no-op must say why, the A/A control (baseline-again) must
# not be marked, and a sweep killed mid-way must resume without losing or
# duplicating a run.  Verdicts are judged on guest time, which under icount
# host load cannot move: the wall time of a run is reported, not judged
# here.  Kernels come from the shared test cache (t4400 builds the same
# ones).
. "$(dirname "$0")/lib.sh"
test_need_kernel_source

# (paths without blanks: the test cache and Debian's tarball)
SWEEP_ARGS="--cache $KCP_TEST_CACHE --source $KSRC_TARBALL --base tinyconfig
	--options PROVE_LOCKING,LOCKDEP --design oat,all
	--workload hackbench:loops=20 --runs 4 --warmup 1 --seed 7"

sweep() {
	kconfperf sweep $SWEEP_ARGS "$@"
}

runs() {
	sqlite3 "$1/kconfperf.db" "SELECT count(*) FROM run"
}

test_expect_success 'sweep plans, builds, runs and reports in one go' '
	sweep --dir exp >report.txt 2>err &&
	cat report.txt &&
	test -s exp/report.html && test -s exp/report.json &&
	test_grep "report: exp/report.html" err
'

# baseline, baseline-again and PROVE_LOCKING (all is the same kernel as
# PROVE_LOCKING, LOCKDEP a no-op): 3 x (1 warm-up + 4 rounds).
test_expect_success 'every planned run is stored once, all ok, each with its clock' '
	test "$(runs exp)" = 15 &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run WHERE status = \"ok\"")" = 15 &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run WHERE warmup = 1")" = 3 &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(DISTINCT layout_seed) FROM run
		WHERE clock = \"icount\" AND icount_shift = 0")" = 15
'

test_expect_success 'the report says what its numbers are' '
	test_grep "^clock: *guest time counted in instructions (icount shift 0: 1 instruction = 1 ns); host load does not move it; 12 layouts sampled$" report.txt &&
	test_grep "^clock: *host time, the whole run as the host saw it" report.txt
'

test_expect_success 'PROVE_LOCKING is a significant cost on hackbench, in guest time' '
	awk "/^metric: *time/ { t = 1 } /^metric: *wall/ { t = 0 } t" report.txt >time.txt &&
	cat time.txt &&
	grep "^CONFIG_PROVE_LOCKING=y" time.txt >row &&
	test_grep "(+[0-9.]*%).*\\*" row
'

# Each run's command line is padded by a length drawn from its layout seed
# (kcp.phase=), so the rounds sample where the timer ticks fall in a boot:
# the same kernel boots in several tick-sized steps, not at one value the
# runs could never average.  The A/A control then sees that spread, and must
# not be marked.
test_expect_success 'boot samples the tick phase; the A/A control is not marked' '
	test "$(sqlite3 exp/kconfperf.db "SELECT count(DISTINCT round(r.boot_s, 4)) > 1
		FROM run r JOIN variant v ON v.id = r.variant_id
		WHERE v.name = \"baseline\" AND r.warmup = 0")" = 1 &&
	awk "/^metric: *boot/ { t = 1 } t" report.txt >boot.txt &&
	cat boot.txt &&
	grep "^baseline-again" boot.txt >aa &&
	! grep -q "\\[+0.0% .. +0.0%\\]" aa &&
	test_grep "^A/A control: baseline-again .* not marked: as it must be$" boot.txt
'

test_expect_success 'the no-op option is reported with its reason' '
	test_grep "CONFIG_LOCKDEP=y.*no-op.*hidden" report.txt
'

test_expect_success 'the JSON report has hyperfine fields and our verdicts' '
	jq -e ".results | length > 0" exp/report.json &&
	jq -e "[.results[] | select(.kconfperf.variant == \"CONFIG_PROVE_LOCKING=y\" and .kconfperf.metric == \"time\")][0].kconfperf.marker == \"*\"" exp/report.json &&
	# a result per metric: the meter instructions, the workload time, wall and boot
	jq -e "[.results[] | select(.command == \"baseline-again\") | .kconfperf.metric] | sort ==
		[\"boot\", \"instructions\", \"time\", \"wall\"]" exp/report.json &&
	jq -e "[.kconfperf.tables[] | select(.metric == \"boot\")][0].aa.marked == false" exp/report.json &&
	jq -e "[.results[] | select(.kconfperf.variant == \"CONFIG_PROVE_LOCKING=y\")][0].kconfperf |
		.symbol_text_size_delta > 0 and .symbol_bss_size_delta > 10000000 and .symbol_data_size > 0" exp/report.json
'

test_expect_success 'the same sweep again runs and builds nothing' '
	sweep --dir exp >again.txt 2>err &&
	cat err &&
	test_grep "nothing to run" err &&
	test "$(runs exp)" = 15
'

test_expect_success 'a sweep killed mid-way resumes without losing or duplicating runs' '
	# kconfperf itself, not a subshell running it, is the one killed
	kconfperf sweep $SWEEP_ARGS --dir killed --quiet >/dev/null 2>&1 &
	pid=$! &&
	n=0 &&
	while [ "$(runs killed 2>/dev/null || echo 0)" -lt 4 ] && [ $n -lt 600 ]; do
		sleep 0.5; n=$((n + 1))
	done &&
	kill -9 $pid; wait $pid;
	before=$(runs killed) &&
	echo "stored before the kill: $before" &&
	test "$before" -ge 4 && test "$before" -lt 15 &&
	sweep --dir killed >resumed.txt 2>err &&
	test "$(runs killed)" = 15 &&
	test -z "$(sqlite3 killed/kconfperf.db "SELECT variant_id, workload, round, warmup FROM run
		GROUP BY variant_id, workload, round, warmup HAVING count(*) > 1")"
'

test_expect_success 'no qemu outlives a killed sweep' '
	sleep 1 &&
	! pgrep -f "qemu-system-x86_64.*killed/runs" >/dev/null
'

test_expect_success '--runs auto stops once every interval is within the noise band' '
	kconfperf sweep --cache $KCP_TEST_CACHE --source $KSRC_TARBALL --base tinyconfig \
		--options PROVE_LOCKING --workload syscall:calls=30000 --runs auto --seed 3 \
		--dir auto >auto.txt 2>auto.err &&
	cat auto.err &&
	test_grep "runs auto: 3 rounds; every interval within ±1%" auto.err &&
	test "$(runs auto)" = 12
'

test_expect_success '--runs auto stops at --max-runs when the target is out of reach, and says so' '
	kconfperf sweep --cache $KCP_TEST_CACHE --source $KSRC_TARBALL --base tinyconfig \
		--options PROVE_LOCKING --workload hackbench:loops=5 --runs auto --max-runs 4 \
		--noise 0.001 --seed 3 --dir capped >capped.txt 2>capped.err &&
	cat capped.err &&
	test_grep "runs auto: stopped at --max-runs 4; the widest interval is" capped.err &&
	test "$(runs capped)" = 15
'

test_expect_failure_code 1 'other inputs in an existing experiment are refused' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --base tinyconfig \
		--options PRINTK_TIME --workload boot --runs 1 --dir exp 2>err;
	rc=$?; cat err; grep -q "give --new to start over" err || exit 9; exit $rc
'

test_expect_failure_code 2 'a sweep without a workload is a usage error' '
	kconfperf sweep --source "$KSRC_TARBALL" --base tinyconfig --options X --dir bad
'

test_done
