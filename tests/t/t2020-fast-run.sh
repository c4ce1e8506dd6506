#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2020: the fast tier's run stage, with the fake runner (lib-fast.sh): the
# seeded schedule, the choice of seed, resuming after kill -9 with exact
# counts, failed runs, in seconds.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

# orders DIR: "round seq variant" of every run, in the order they ran.
orders() {
	q "$1" "SELECT r.round, r.seq, v.name FROM run r JOIN variant v ON v.id = r.variant_id
		ORDER BY r.id"
}

# samples DIR: every sample with its run's place in the schedule.
samples() {
	q "$1" "SELECT v.name, r.round, s.iteration, s.value FROM sample s
		JOIN run r ON r.id = s.run_id JOIN variant v ON v.id = r.variant_id
		ORDER BY v.name, r.round, s.iteration"
}

# built: three variants to run; solo: one (NOSUCH is a no-op, not run),
# for the tests of one run's output.
test_expect_success 'setup: plan and build three variants' '
	fake_plan exp DEBUG_A,DEBUG_B >/dev/null &&
	kconfperf build --dir exp -q &&
	cp -R exp ref && cp -R exp other && cp -R exp noseed && cp -R exp built &&
	fake_plan solo NOSUCH >/dev/null &&
	kconfperf build --dir solo -q
'

test_expect_success 'run: each round runs every variant once, warm-ups first' '
	fake_run exp --runs 4 --warmup 1 --seed 7 2>err &&
	cat err &&
	test "$(q exp "SELECT count(*) FROM run WHERE status = \"ok\"")" = 15 &&
	test "$(q exp "SELECT count(*) FROM sample")" = 45 &&
	test "$(q exp "SELECT count(*) FROM run WHERE warmup = 1 AND round = -1")" = 3 &&
	test "$(q exp "SELECT count(*) FROM (SELECT round FROM run GROUP BY round
		HAVING count(*) = 3 AND count(DISTINCT variant_id) = 3
		AND min(seq) = 0 AND max(seq) = 2)")" = 5 &&
	test "$(q exp "SELECT min(id) FROM run WHERE warmup = 0")" -gt \
	     "$(q exp "SELECT max(id) FROM run WHERE warmup = 1")" &&
	test "$(grep -c "^kconfperf: \[[0-9]*/15\] boot .*: ok in " err)" = 15
'

test_expect_success 'run: the rounds are shuffled, and the same seed gives the same orders' '
	orders exp >exp.orders &&
	q exp "SELECT group_concat(v.name, \" \") FROM (SELECT * FROM run ORDER BY round, seq) r
		JOIN variant v ON v.id = r.variant_id GROUP BY r.round" >rounds &&
	cat rounds &&
	test "$(sort -u rounds | wc -l)" -gt 1 &&
	fake_run other --runs 4 --warmup 1 --seed 7 -q &&
	orders other >other.orders &&
	test_cmp exp.orders other.orders &&
	samples exp >exp.samples && samples other >other.samples &&
	test_cmp exp.samples other.samples
'

test_expect_success 'seed: the stored seed is kept, another one is refused' '
	test "$(q exp "SELECT value FROM meta WHERE key = \"seed\"")" = 7 &&
	fake_run exp --runs 5 --warmup 1 2>err &&
	test_grep "3 runs of 3 variants (15 stored already), runner, .* seed 7" err &&
	{ fake_run exp --runs 6 --warmup 1 --seed 8 2>err; rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	test_grep "holds runs ordered with --seed 7; --seed 8 would reorder the rounds" err &&
	test "$(q exp "SELECT count(*) FROM run")" = 18
'

test_expect_success 'seed: more rounds keep the rounds already run as they were' '
	orders exp | head -n 15 >first15 &&
	test_cmp exp.orders first15
'

test_expect_success 'seed: without --seed a new one is drawn, stored and used again' '
	fake_run noseed --runs 1 --warmup 0 -q &&
	seed=$(q noseed "SELECT value FROM meta WHERE key = \"seed\"") &&
	echo "seed $seed" &&
	test -n "$seed" &&
	fake_run noseed --runs 3 --warmup 0 2>err &&
	test_grep " seed $seed$" err &&
	test "$(q noseed "SELECT count(*) FROM run")" = 9
'

test_expect_success 'resume: kill -9 mid-way, the same command again gives exact counts' '
	mkdir state &&
	{ KCP_FAKE_STATE=$TRASH/state KCP_FAKE_STALL_AT=8 kconfperf run --dir ref \
		--runner "$FAKE_RUNNER" --workload boot --runs 4 --warmup 1 --seed 7 -q & } &&
	pid=$! &&
	wait_for state/stalled &&
	kill -9 $pid &&
	wait $pid;
	test "$(q ref "SELECT count(*) FROM run")" = 7 &&
	gone $(cat state/runner.pid) &&
	fake_run ref --runs 4 --warmup 1 --seed 7 2>err &&
	cat err &&
	test_grep "8 runs of 3 variants (7 stored already)" err &&
	test "$(q ref "SELECT count(*) FROM run")" = 15 &&
	test "$(q ref "SELECT count(*) FROM sample")" = 45 &&
	test "$(q ref "SELECT count(*) FROM (SELECT DISTINCT variant_id, round FROM run)")" = 15 &&
	orders ref | sort >ref.sorted && sort exp.orders >exp.sorted &&
	test_cmp exp.sorted ref.sorted &&
	samples ref >ref.samples &&
	test_cmp exp.samples ref.samples
'

test_expect_success 'a failed run is stored with its reason, and the others go on' '
	cp -R noseed failing &&
	{ KCP_FAKE_FAIL_VARIANT=CONFIG_DEBUG_B=y fake_run failing --runs 4 --warmup 0 2>err; rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	test_grep "warning: \[[1-3]/3\] boot round 4/4 CONFIG_DEBUG_B=y: guest-error: guest error: the fake workload failed" err &&
	test "$(q failing "SELECT count(*) FROM run WHERE status = \"guest-error\"")" = 1 &&
	test "$(q failing "SELECT count(*) FROM run")" = 12 &&
	test_grep "3 runs in .* s: 2 ok, 1 failed" err
'

test_expect_success 'a second run of the same experiment is refused, naming the first' '
	{ sleep 30 & } &&
	owner=$! &&
	printf "%s 0\n" $owner >exp/kconfperf.lock &&
	hold_lock exp/kconfperf.lock 30 &&
	holder=$! &&
	sleep 0.3 &&
	{ fake_run exp --runs 9 2>err; rc=$?; } &&
	kill $owner $holder; cat err &&
	test "$rc" = 3 &&
	test_grep "another kconfperf is working in .*exp. (pid $owner)" err &&
	test "$(q exp "SELECT count(*) FROM run")" = 18
'

# runner NAME BODY: a runner script in $TRASH, NAME, that runs the shell BODY.
runner() {
	printf '#!/bin/sh\n%s\n' "$2" >"$TRASH/$1" &&
	chmod +x "$TRASH/$1"
}

test_expect_success 'protocol: a flood of malformed lines is one message with a count' '
	cp -R solo flood &&
	runner flood.sh "yes \"KCP 1 junk\" | head -n 200000" &&
	{ kconfperf run --dir flood --runner "$TRASH/flood.sh" -w boot --runs 1 --warmup 0 \
		2>err; rc=$?; } &&
	head -c 3000 err &&
	test "$rc" = 1 &&
	test "$(wc -l <err)" -lt 10 &&
	test "$(q flood "SELECT count(*) FROM run WHERE status = \"malformed\"")" = 1 &&
	q flood "SELECT DISTINCT error FROM run" >reasons &&
	cat reasons &&
	test "$(wc -l <reasons)" = 1 &&
	test_grep "^malformed output: results.txt:1: unknown kind .junk. .* in .KCP 1 junk. (and 199999 more malformed lines)$" reasons
'

# 64 MiB of noise between the samples and "done": reading only the end,
# kconfperf used to lose the samples and store an ok run without them.
test_expect_success 'output cap: a run that writes more than 64 MiB fails, saying why' '
	cp -R solo big &&
	runner big.sh "echo \"KCP 1 sample workload=boot iter=0 metric=time unit=s better=lower value=1\"
		yes noise | head -c 70000000
		echo \"KCP 1 done\"" &&
	{ kconfperf run --dir big --runner "$TRASH/big.sh" -w boot --runs 1 --warmup 0 \
		2>err; rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	test "$(q big "SELECT count(*) FROM run WHERE status = \"ok\"")" = 0 &&
	test "$(q big "SELECT count(*) FROM run WHERE status = \"malformed\"")" = 1 &&
	test_grep "more output than a run may write: .results.txt. grew beyond 64 MiB" err
'

test_expect_success 'output cap: a run that writes without end is stopped, not left to fill the disk' '
	cp -R solo endless &&
	# (200 MB and a sleep, not yes without end: a kconfperf without the cap
	# must fail this test, not fill the disk)
	runner endless.sh "echo \"KCP 1 ready boot_s=1\"; yes noise | head -c 200000000; sleep 60" &&
	start=$(date +%s) &&
	{ kconfperf run --dir endless --runner "$TRASH/endless.sh" -w boot --runs 1 --warmup 0 \
		--timeout 20 2>err; rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	test $(( $(date +%s) - start )) -lt 15 &&
	q endless "SELECT DISTINCT error FROM run" >reasons &&
	test_grep "^more output than a run may write: .results.txt. grew beyond 64 MiB, so the run was stopped$" reasons &&
	for f in endless/runs/*/boot/r0/results.txt; do
		test $(stat -c %s $f) -lt 200000000 || exit 1
	done &&
	rm -r endless/runs
'

# The runner's grandchild leaves its process group and session (setsid):
# killing the group, as run-command did, cannot reach it.
test_expect_success 'processes: a grandchild that calls setsid does not outlive its run' '
	cp -R solo escape &&
	runner escape.sh "setsid sh -c \"echo \\\$\\\$ >$TRASH/escaped.pid; exec sleep 300\" &
		while [ ! -s $TRASH/escaped.pid ]; do sleep 0.05; done
		exec $FAKE_RUNNER" &&
	kconfperf run --dir escape --runner "$TRASH/escape.sh" -w boot --runs 1 --warmup 0 -q &&
	escaped=$(cat escaped.pid) &&
	test "$(cut -d" " -f6 /proc/$escaped/stat 2>/dev/null)" != "$(cut -d" " -f6 /proc/$$/stat)" &&
	{ gone $escaped || { kill $escaped; exit 1; }; } &&
	test "$(q escape "SELECT count(*) FROM run WHERE status = \"ok\"")" = 1
'

# PR_SET_PDEATHSIG takes the runner with kconfperf, but not its children.
# --runs auto decides each workload on its own: an exact one stops after
# the first three rounds while a noisy one beside it goes on to --max-runs.
test_expect_success 'runs auto: a decided workload stops, the undecided one goes on' '
	fake_plan auto DEBUG_A >/dev/null &&
	kconfperf build --dir auto -q &&
	KCP_FAKE_NOISE="syscall=0 boot=10" kconfperf run --dir auto --runner "$FAKE_RUNNER" \
		--workload syscall --workload boot --runs auto --max-runs 5 --warmup 0 \
		--seed 3 2>err &&
	cat err &&
	test_grep "^kconfperf: runs auto: 3 rounds of syscall; every interval within ±1% (widest ±0%" err &&
	test_grep "^kconfperf: warning: runs auto, boot: stopped at --max-runs 5; the widest interval is" err &&
	test "$(q auto "SELECT count(*) FROM run WHERE workload = \"syscall\"")" = 6 &&
	test "$(q auto "SELECT count(*) FROM run WHERE workload = \"boot\"")" = 10 &&
	test "$(q auto "SELECT value FROM meta WHERE key = \"workloads\"")" = "syscall
boot"
'

test_expect_success 'processes: kill -9 of kconfperf takes the runner and all it started' '
	cp -R solo killed &&
	mkdir killed-state &&
	runner killed.sh "setsid sleep 300 & echo \$! >$TRASH/killed-state/setsid.pid
		exec $FAKE_RUNNER" &&
	{ KCP_FAKE_STATE=$TRASH/killed-state KCP_FAKE_STALL_AT=1 kconfperf run --dir killed \
		--runner "$TRASH/killed.sh" --workload boot --runs 1 --warmup 0 -q & } &&
	pid=$! &&
	wait_for killed-state/stalled &&
	kill -9 $pid &&
	wait $pid;
	pids="$(cat killed-state/runner.pid killed-state/child.pid killed-state/setsid.pid)" &&
	echo "runner, its child and a setsid child: $pids" &&
	{ gone $pids || { kill $pids; exit 1; }; }
'

test_expect_success 'protocol: a negative time is malformed output, not a sample' '
	cp -R solo negative &&
	runner negative.sh "echo \"KCP 1 sample workload=boot iter=0 metric=time unit=s better=lower value=-0.5\"
		echo \"KCP 1 done\"" &&
	{ kconfperf run --dir negative --runner "$TRASH/negative.sh" -w boot --runs 1 --warmup 0 \
		2>err; rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	test "$(q negative "SELECT count(*) FROM sample")" = 0 &&
	test "$(q negative "SELECT count(*) FROM run WHERE status = \"malformed\"")" = 1 &&
	test_grep "malformed output: results.txt:1: negative value .-0.5. for a time" err
'

test_expect_success 'protocol: samples of another workload than the one asked for are refused' '
	cp -R solo other-workload &&
	runner other.sh "echo \"KCP 1 ready boot_s=0.5 workload=boot\"
		echo \"KCP 1 sample workload=hackbench iter=0 metric=time unit=s better=lower value=0.5\"
		echo \"KCP 1 done\"" &&
	{ kconfperf run --dir other-workload --runner "$TRASH/other.sh" -w boot --runs 1 \
		--warmup 0 2>err; rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	test "$(q other-workload "SELECT count(*) FROM sample")" = 0 &&
	test_grep "results.txt:2: a sample of workload .hackbench., but this run is of .boot." err &&
	cp -R solo other-ready &&
	runner other-ready.sh "echo \"KCP 1 ready boot_s=0.5 workload=fork\"; echo \"KCP 1 done\"" &&
	{ kconfperf run --dir other-ready --runner "$TRASH/other-ready.sh" -w boot --runs 1 \
		--warmup 0 2>err; rc=$?; } &&
	test "$rc" = 1 &&
	test_grep "results.txt:1: ready for workload .fork., but this run is of .boot." err
'

# Each used to be taken: --timeout 0 as 120 s, 1e300 as no timeout,
# --smp 0 as 1, --mem 1 handed to qemu.
test_expect_success 'options: a machine that cannot be is a usage error, for run and vm' '
	cp -R built opts &&
	for bad in "timeout 0" "timeout -1" "timeout 1e300" "smp 0" "smp -2" "mem 1" "mem 0"; do
		set -- $bad
		{ fake_run opts --$1 $2 --runs 1 2>err; rc=$?; } &&
		cat err &&
		test "$rc" = 2 &&
		test_grep "^kconfperf: error: --$1 takes .*, not .$2.$" err &&
		{ kconfperf vm --runner "$FAKE_RUNNER" --$1 $2 2>err; rc=$?; } &&
		test "$rc" = 2 &&
		test_grep "^kconfperf: error: --$1 takes .*, not .$2.$" err || exit 1
	done &&
	test "$(q opts "SELECT count(*) FROM run")" = 0 &&
	fake_run opts --timeout 604800 --smp 2 --mem 64 --runs 1 --warmup 0 -q &&
	test "$(q opts "SELECT value FROM meta WHERE key = \"mem_mb\"")" = 64
'

# no_control FILE: FILE holds no control byte but newline and tab (no ESC, no C1).
no_control() {
	if LC_ALL=C grep -q "$(printf "[\001-\010\013-\037\177]")" "$1" ||
	   LC_ALL=C grep -q "$(printf "\302[\200-\237]")" "$1"; then
		echo "control bytes in $1:"; od -c "$1" | grep -E "[0-9]{3}" | head; return 1
	fi
}

# A runner (or a guest) prints an error with an escape sequence in it; the
# experiment's names come from the user.  Neither may reach the terminal raw.
test_expect_success 'terminal: guest text is escaped in run progress, warnings and vm' '
	cp -R solo escapes &&
	runner esc.sh "printf \"KCP 1 ready boot_s=1\\\\nKCP 1 error msg=\\\"\\033]0;title\\007\\033[31mred \\302\\233x\\\"\\\\n\"
		printf \"console \\033[2J\\n\" >&2" &&
	cat esc.sh && sh esc.sh | od -c | head &&
	{ kconfperf run --dir escapes --runner "$TRASH/esc.sh" -w boot --runs 1 --warmup 0 \
		2>err; rc=$?; } &&
	test "$rc" = 1 &&
	LC_ALL=C grep -q "$(printf "\033")" escapes/runs/baseline/boot/r0/results.txt &&
	cat err && no_control err &&
	test_grep "guest error: \\\\x1b\]0;title\\\\x07\\\\x1b\[31mred \\\\xc2\\\\x9bx" err &&
	{ kconfperf vm --runner "$TRASH/esc.sh" >out 2>err; rc=$?; } &&
	test "$rc" = 1 &&
	cat out err && no_control out && no_control err &&
	test_grep "^reason: guest error: \\\\x1b" out &&
	test_grep "^console \\\\x1b\[2J$" out
'

test_done
