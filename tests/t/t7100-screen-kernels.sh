#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t7100: kconfperf screen on real kernels: Debian's 6.1 sources, a tinyconfig
# baseline, PRINTK_TIME (costs nothing), PROVE_LOCKING (expensive) and
# LOCKDEP (a no-op), hackbench under qemu.  The screen must leave LOCKDEP out
# with its reason, find PROVE_LOCKING and not PRINTK_TIME, report the tree,
# agree with the usual statistics, and resume after kill -9 without losing
# or duplicating a run.  It decides on hackbench's own time, which under
# icount counts instructions (host load cannot move it; the layouts the
# runs sample spread it by a few percent), with a 10% threshold.  Kernels
# come from the shared test
# cache (baseline, PRINTK_TIME and PROVE_LOCKING alone are t3200's and
# t6000's); "all" (PRINTK_TIME + PROVE_LOCKING) is built here.
. "$(dirname "$0")/lib.sh"
test_need_kernel_source

SCREEN_ARGS="--cache $KCP_TEST_CACHE --source $KSRC_TARBALL --base tinyconfig
	--options PRINTK_TIME,PROVE_LOCKING,LOCKDEP --workload hackbench:loops=20
	--threshold 10 --max-runs 30 --confirm-runs 4 --seed 7"

screen() {
	kconfperf screen $SCREEN_ARGS "$@"
}

runs() {
	sqlite3 "$1/kconfperf.db" "SELECT count(*) FROM run"
}

# exits CODE: runs the rest of the line and checks its exit status
exits() {
	want=$1
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] || { echo "exit $got, expected $want: $*"; return 1; }
}

test_expect_success 'screen rejects a second workload and --design' '
	exits 2 screen --workload boot --dir bad 2>err &&
	test_grep "one workload" err &&
	exits 2 screen --design all --dir bad 2>err &&
	test_grep "unknown option .--design." err
'

test_expect_success 'a screen killed mid-way' '
	# kconfperf itself, not a subshell running it, is the one killed
	kconfperf screen $SCREEN_ARGS --dir exp --quiet >/dev/null 2>&1 &
	pid=$! &&
	n=0 &&
	while [ "$(runs exp 2>/dev/null || echo 0)" -lt 6 ] && [ $n -lt 2400 ]; do
		sleep 0.5; n=$((n + 1))
	done &&
	kill -9 $pid; wait $pid;
	before=$(runs exp) &&
	echo "stored before the kill: $before" &&
	test "$before" -ge 6 &&
	echo "$before" >before
'

test_expect_success 'resumes and finishes without duplicating a run' '
	screen --dir exp >report.txt 2>err &&
	cat report.txt && cat err &&
	test_grep "resuming the screen" err &&
	test "$(runs exp)" -gt "$(cat before)" &&
	test -z "$(sqlite3 exp/kconfperf.db "SELECT variant_id, workload, round, warmup FROM run
		GROUP BY variant_id, workload, round, warmup HAVING count(*) > 1")"
'

test_expect_success 'no qemu outlives the killed screen' '
	! pgrep -f "qemu-system.*$(pwd)/exp/" >/dev/null
'

test_expect_success 'LOCKDEP is left out with its reason' '
	test_grep "not screened:" report.txt &&
	test_grep "CONFIG_LOCKDEP=y: .*hidden.*selected by PROVE_LOCKING" report.txt
'

test_expect_success 'PROVE_LOCKING is found, PRINTK_TIME is not' '
	test_grep "^found 1 option costing more than 10.0%" report.txt &&
	jq -e ".found == [\"CONFIG_PROVE_LOCKING=y\"]" exp/screen.json
'

test_expect_success 'the tree shows each group, its cost and the decision' '
	test_grep "bifurcation tree" report.txt &&
	test_grep "^    1-2 .*split: interval above the threshold" report.txt &&
	test_grep "CONFIG_PROVE_LOCKING=y .*found" report.txt &&
	test_grep "CONFIG_PRINTK_TIME=y .*dropped" report.txt &&
	jq -e ".tree | length == 3" exp/screen.json
'

test_expect_success 'the usual statistics agree: PROVE_LOCKING alone is a significant cost' '
	awk "/^metric: *time/ { t = 1 } /^metric: *wall/ { t = 0 } t" report.txt >time.txt &&
	cat time.txt &&
	grep "^CONFIG_PROVE_LOCKING=y" time.txt >row &&
	test_grep "(+[0-9.]*%).*\\*" row &&
	test_grep "^all " time.txt
'

db() {
	sqlite3 exp/kconfperf.db "$1"
}

test_expect_success 'every kernel is built once, all from the nearest tree' '
	test "$(db "SELECT count(*) FROM build WHERE status != \"ok\" AND status != \"cached\"")" = 0 &&
	test "$(db "SELECT count(DISTINCT config_hash) FROM variant WHERE status IN (\"ok\", \"partial\")")" = 4 &&
	# PRINTK_TIME + PROVE_LOCKING is one symbol away from PROVE_LOCKING alone
	# (t6000 built it), and 43 from the baseline
	all=$(db "SELECT b.seeded_from FROM build b JOIN variant v ON v.config_hash = b.config_hash WHERE v.name = \"all\"") &&
	pl=$(db "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash WHERE v.name = \"CONFIG_PROVE_LOCKING=y\"") &&
	echo "all seeded from $all, PROVE_LOCKING is $pl" &&
	test -n "$pl" && test "$all" = "$pl"
'

test_expect_success 'the same screen again builds and runs nothing' '
	before=$(runs exp) &&
	screen --dir exp >again.txt 2>err &&
	test "$(runs exp)" = "$before" &&
	! test_grep "screen: building" err &&
	test_cmp report.txt again.txt
'

test_expect_success 'kconfperf report shows the screen and the HTML has its tree' '
	kconfperf report --dir exp >rep.txt &&
	test_grep "bifurcation tree" rep.txt &&
	grep -c "<section id=\"screen\">" exp/report.html >n &&
	test "$(cat n)" = 1
'

test_expect_success 'runs that fail are results: groups unresolved, exit 1, nothing lost' '
	# a runner that boots nothing: every run fails (the kernels are cached)
	exits 1 screen --runner false --dir failing >out 2>err &&
	cat out err &&
	test_grep "variants that failed or resolved differently:" out &&
	test_grep "run 1 of .*: exit-failed: runner exited with status 1" out &&
	test_grep "2 options in unresolved groups were not screened" out &&
	test "$(runs failing)" -ge 2 &&
	jq -e ".found == [] and .unresolved == 2" failing/screen.json
'

test_expect_success 'another screen in the same directory is refused' '
	exits 1 screen --threshold 15 --dir exp 2>err &&
	test_grep "other inputs" err
'

test_done
