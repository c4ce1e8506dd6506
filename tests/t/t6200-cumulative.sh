#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t6200: a named group and the cumulative design, swept on real kernels:
# PRINTK_TIME (costs nothing), then the group "lockdebug" (PROVE_LOCKING,
# and LOCKDEP, which is hidden: alone it is a no-op, in the group
# PROVE_LOCKING selects it), hackbench under qemu.  The plan, the sweep and every
# report format show the group and the steps; the step that adds lockdebug
# is a significant cost against the step before it.  Kernels come from the
# shared test cache: baseline, PRINTK_TIME and PROVE_LOCKING alone are
# t3200's and t6000's, PRINTK_TIME + PROVE_LOCKING is t7100's (built here,
# seeded from PROVE_LOCKING's tree, when this script runs first).
. "$(dirname "$0")/lib.sh"
test_need_kernel_source

cat >options <<'EOF'
# one candidate, then the lock debugging as one variant
CONFIG_PRINTK_TIME=y
group lockdebug
	CONFIG_PROVE_LOCKING=y
	LOCKDEP
endgroup
EOF

PLAN_ARGS="--cache $KCP_TEST_CACHE --source $KSRC_TARBALL --base tinyconfig
	--options options --design oat,cumulative"
SWEEP_ARGS="$PLAN_ARGS --workload hackbench:loops=20 --runs 3 --warmup 0 --seed 7
	--no-baseline-again"

sweep() {
	# shellcheck disable=SC2086
	kconfperf sweep $SWEEP_ARGS "$@"
}

test_expect_success 'the plan has the group and the steps' '
	# shellcheck disable=SC2086
	kconfperf plan $PLAN_ARGS --dir plan >plan.out 2>plan.err &&
	cat plan.out &&
	test_grep "^lockdebug  *ok  *2 " plan.out &&
	test_grep "^+CONFIG_PRINTK_TIME=y  *same-as CONFIG_PRINTK_TIME=y" plan.out &&
	test_grep "^+lockdebug  *ok  *3 " plan.out &&
	test_grep "^cumulative: 2 steps, each +OPTION adds it to the step before" plan.out &&
	test_grep "^  lockdebug: CONFIG_PROVE_LOCKING=y CONFIG_LOCKDEP=y$" plan.out
'

test_expect_success 'a plan error names the options file and line' '
	printf "PRINTK_TIME\ngroup lockdebug\nPROVE_LOCKING\n" >bad &&
	! kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --base tinyconfig \
		--options bad --dir badplan 2>err &&
	cat err &&
	test_grep "error: bad:2: group .lockdebug. has no endgroup" err
'

test_expect_success 'sweep builds what the cache lacks, runs and reports' '
	sweep --dir exp >report.txt 2>err &&
	cat err report.txt &&
	test -s exp/report.html && test -s exp/report.json
'

# baseline, PRINTK_TIME, lockdebug and +lockdebug are the kernels
# (+CONFIG_PRINTK_TIME=y is PRINTK_TIME's): 4 x 3 runs.
test_expect_success 'four kernels measured, the steps among them' '
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run WHERE status = \"ok\"")" = 12 &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM variant WHERE kind = \"cumulative\"")" = 2
'

# On hackbench's guest time (icount: host load cannot move it).
test_expect_success 'text: the step that adds lockdebug is a significant cost' '
	awk "/^metric: *time/ { t = 1 } /^metric: *wall/ { t = 0 } t" report.txt >time.txt &&
	grep "^+lockdebug " time.txt >row &&
	cat row &&
	test_grep "step +[0-9.]*% \[+[0-9.]*% .. +[0-9.]*%\] \*" row &&
	grep "^+CONFIG_PRINTK_TIME=y " time.txt | grep "step [-+][0-9.]*%" &&
	test_grep "step: a cumulative step against the step before it" time.txt &&
	test_grep "^  lockdebug: CONFIG_PROVE_LOCKING=y CONFIG_LOCKDEP=y$" report.txt
'

test_expect_success 'json: the steps and the group' '
	jq -e "[.results[] | select(.kconfperf.metric == \"time\" and .command == \"+lockdebug\")][0]
		| .kconfperf.step.number == 2 and .kconfperf.step.adds == \"lockdebug\"
		  and .kconfperf.step.against == \"+CONFIG_PRINTK_TIME=y\"
		  and .kconfperf.step.marker == \"*\"" exp/report.json &&
	jq -e "[.results[] | select(.command == \"lockdebug\")][0].kconfperf.group.members
		== [\"CONFIG_PROVE_LOCKING=y\", \"CONFIG_LOCKDEP=y\"]" exp/report.json &&
	jq -e ".kconfperf.groups[0].name == \"lockdebug\"" exp/report.json
'

test_expect_success 'markdown, mmtests, csv, svg and html show them too' '
	kconfperf report --dir exp --format markdown >report.md &&
	test_grep "| Step against the step before |" report.md &&
	test_grep "^| lockdebug | CONFIG_PROVE_LOCKING=y CONFIG_LOCKDEP=y |$" report.md &&
	kconfperf report --dir exp --format mmtests >report.mmtests &&
	grep "^Astep     time " report.mmtests | grep "\*" &&
	test_grep "^group lockdebug: CONFIG_PROVE_LOCKING=y CONFIG_LOCKDEP=y$" report.mmtests &&
	kconfperf report --dir exp --format csv >report.csv &&
	test_grep "^.+lockdebug,hackbench:loops=20,[0-9]*,[0-9]*,[0-9]*,time,.*,cumulative,2.$" report.csv &&
	kconfperf report --dir exp --format svg >report.svg &&
	test_grep "+steps stack, coloured by their increment" report.svg &&
	test_grep "<section id=\"groups\">" exp/report.html &&
	test_grep "<th>Step against the step before</th>" exp/report.html &&
	test_grep "badge group\">group: CONFIG_PROVE_LOCKING=y CONFIG_LOCKDEP=y<" exp/report.html
'

test_expect_success 'the same sweep again runs and builds nothing' '
	sweep --dir exp >again.txt 2>err &&
	cat err &&
	test_grep "nothing to run" err &&
	! grep "building " err
'

test_done
