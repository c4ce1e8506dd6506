#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2070: shards on the fast tier (lib-fast.sh): run --shard I/N and the job
# engines' index variables, merge giving exactly the unsharded experiment's
# samples, a second merge adding nothing, a refused shard naming its field,
# a missing or killed shard leaving the experiment resumable, build --shard
# one kernel per job, and cache export/import between caches, verified.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

# samples DIR: every sample with its run's place in the schedule.
samples() {
	q "$1" "SELECT v.name, r.workload, r.warmup, r.round, r.seq, s.iteration, s.metric, s.value
		FROM sample s JOIN run r ON r.id = s.run_id JOIN variant v ON v.id = r.variant_id
		ORDER BY 1, 2, 3, 4, 6, 7"
}

RUN="--runner $FAKE_RUNNER --workload boot --workload syscall --runs 6 --warmup 1"

test_expect_success 'setup: plan and build three variants; the unsharded experiment' '
	fake_plan plan DEBUG_A,DEBUG_B >/dev/null &&
	kconfperf build --dir plan -q >/dev/null &&
	for d in ref ref2 exp part bad noseed killed; do cp -R plan $d || exit 1; done &&
	kconfperf run --dir ref $RUN --seed 11 -q &&
	test "$(q ref "SELECT count(*) FROM run")" = 42
'

test_expect_success 'the fake runner is deterministic: the same seed gives the same samples' '
	kconfperf run --dir ref2 $RUN --seed 11 -q &&
	samples ref >ref.samples && samples ref2 >ref2.samples &&
	test_cmp ref.samples ref2.samples
'

test_expect_success 'run --shard: whole rounds r mod N, every warm-up, a directory each' '
	for i in 1 2 3; do
		kconfperf run --dir exp $RUN --seed 11 --shard $i/3 -q || exit 1
	done &&
	test "$(q exp "SELECT count(*) FROM run")" = 0 &&
	for i in 1 2 3; do
		s=exp/shards/run-$i-of-3 &&
		test "$(q $s "SELECT value FROM meta WHERE key = \"shard\"")" = "run $i/3" &&
		test "$(q $s "SELECT count(*) FROM run WHERE warmup = 1")" = 6 &&
		test "$(q $s "SELECT count(*) FROM run WHERE warmup = 0")" = 12 &&
		test "$(q $s "SELECT count(*) FROM run WHERE warmup = 0 AND round % 3 != $i - 1")" = 0 &&
		# each round whole: every variant once, seq 0..2
		test "$(q $s "SELECT count(*) FROM (SELECT workload, round FROM run
			GROUP BY workload, round, warmup HAVING count(DISTINCT variant_id) = 3
			AND min(seq) = 0 AND max(seq) = 2)")" = 6 || exit 1
	done
'

test_expect_success 'merge: the shards give the unsharded samples, run for run' '
	kconfperf merge --dir exp 2>err &&
	cat err &&
	test_grep "merged .exp/shards/run-1-of-3.: 18 runs added, 0 present" err &&
	test_grep "merged .exp/shards/run-2-of-3.: 12 runs added, 6 present" err &&
	test_grep "shards of 3: all merged" err &&
	test "$(q exp "SELECT count(*) FROM run")" = 42 &&
	samples exp >exp.samples &&
	test_cmp ref.samples exp.samples &&
	# the same verdicts on the guest metrics (wall is host time, which differs)
	kconfperf report --dir ref --metric time >ref.report &&
	kconfperf report --dir exp --metric time >exp.report &&
	test_grep "^shards:   of 3: all merged$" exp.report &&
	grep -v "^shards:" exp.report >exp.report2 &&
	test_cmp ref.report exp.report2 &&
	kconfperf report --dir ref --metric boot >ref.report &&
	kconfperf report --dir exp --metric boot | grep -v "^shards:" >exp.report &&
	test_cmp ref.report exp.report
'

test_expect_success 'merge again adds nothing' '
	kconfperf merge --dir exp 2>err &&
	cat err &&
	test "$(grep -c "0 runs added" err)" = 3 &&
	test "$(q exp "SELECT count(*) FROM run")" = 42 &&
	test "$(q exp "SELECT count(*) FROM sample")" = "$(q ref "SELECT count(*) FROM sample")" &&
	test "$(q exp "SELECT value FROM meta WHERE key = \"merged run 1/3\"")" = \
		"exp/shards/run-1-of-3: complete, 18 runs merged; host $(q exp "SELECT value FROM meta WHERE key = \"host\"")"
'

test_expect_success 'a missing shard leaves the experiment resumable: run finishes it' '
	kconfperf run --dir part $RUN --seed 11 --shard 1/3 -q &&
	kconfperf run --dir part $RUN --seed 11 --shard 3/3 -q &&
	kconfperf merge --dir part 2>err &&
	cat err &&
	test_grep "shards of 3: merged 1, 3; missing 2" err &&
	kconfperf run --dir part $RUN 2>err &&
	test_grep "12 runs of 3 variants (30 stored already)" err &&
	samples part >part.samples &&
	test_cmp ref.samples part.samples
'

test_expect_success 'a shard with other conditions is refused, naming it and the field' '
	kconfperf run --dir bad $RUN --seed 11 --shard 1/2 -q &&
	cp "$FAKE_RUNNER" other-runner.sh &&
	kconfperf run --dir bad --runner "$TRASH/other-runner.sh" --workload boot \
		--workload syscall --runs 6 --warmup 1 --seed 11 --shard 2/2 -q &&
	{ kconfperf merge --dir bad 2>err; rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	test_grep "error: shard .bad/shards/run-2-of-2. was run with another runner: .*fake-runner.sh. in the experiment, .*other-runner.sh. in the shard: not merged" err &&
	test "$(q bad "SELECT count(*) FROM run")" = 24 &&
	test_grep "shards of 2: merged 1; missing 2" err
'

test_expect_success 'shards of another seed are refused; a shard needs a seed' '
	{ kconfperf run --dir noseed $RUN --shard 1/2 -q 2>err; rc=$?; } &&
	test "$rc" = 1 &&
	test_grep "has no seed yet: give every shard the same --seed N" err &&
	kconfperf run --dir noseed $RUN --seed 1 --shard 1/2 -q &&
	kconfperf run --dir noseed $RUN --seed 2 --shard 2/2 -q &&
	{ kconfperf merge --dir noseed 2>err; rc=$?; } &&
	test "$rc" = 1 &&
	test_grep "run-2-of-2. was run with another seed: .1. in the experiment, .2. in the shard" err
'

test_expect_success 'a shard directory that is not a copy of the plan is refused, not used' '
	cp -R plan stray &&
	mkdir -p stray/shards/run-1-of-2 &&
	: >stray/shards/run-1-of-2/kconfperf.db &&
	{ kconfperf run --dir stray $RUN --seed 1 --shard 1/2 2>err; rc=$?; } &&
	test "$rc" = 1 &&
	test_grep "run-1-of-2. holds no plan: it is not a shard of .stray." err &&
	fake_plan stray DEBUG_A >/dev/null &&
	rm -rf stray/shards/run-1-of-2 &&
	kconfperf run --dir stray $RUN --seed 1 --shard 2/2 -q &&
	fake_plan stray DEBUG_B >/dev/null &&
	{ kconfperf run --dir stray $RUN --seed 1 --shard 2/2 2>err; rc=$?; } &&
	test "$rc" = 1 &&
	test_grep "was made from another plan than .stray. holds now" err
'

test_expect_failure_code 2 '--shard cannot go with --runs auto' '
	kconfperf run --dir noseed --runner "$FAKE_RUNNER" --workload boot --runs auto --shard 1/2
'

test_expect_failure_code 2 '--shard I/N counts I from 1' '
	kconfperf run --dir noseed $RUN --shard 0/2 2>err; rc=$?; test_grep "I counts from 1 to N (2)" err; exit $rc
'

test_expect_success '--shard auto/N: Slurm and Kubernetes from 0, GNU parallel from 1' '
	cp -R plan auto &&
	SLURM_ARRAY_TASK_ID=0 kconfperf run --dir auto $RUN --seed 11 --shard auto/3 -q &&
	JOB_COMPLETION_INDEX=1 kconfperf run --dir auto $RUN --seed 11 --shard auto/3 -q &&
	PARALLEL_SEQ=3 kconfperf run --dir auto $RUN --seed 11 --shard auto/3 -q &&
	ls auto/shards >dirs &&
	printf "run-1-of-3\nrun-2-of-3\nrun-3-of-3\n" >expect &&
	test_cmp expect dirs &&
	{ SLURM_ARRAY_TASK_ID=3 kconfperf run --dir auto $RUN --shard auto/3 2>err; rc=$?; } &&
	test "$rc" = 2 &&
	test_grep "SLURM_ARRAY_TASK_ID is .3. (Slurm.s sbatch --array, 0-based): a shard of 3 is 0 to 2" err &&
	kconfperf merge --dir auto -q &&
	samples auto >auto.samples &&
	test_cmp ref.samples auto.samples
'

test_expect_success 'a killed shard resumes when run again: nothing lost or duplicated' '
	mkdir state &&
	{ KCP_FAKE_STATE=$TRASH/state KCP_FAKE_STALL_AT=5 kconfperf run --dir killed $RUN \
		--seed 11 --shard 2/3 -q & } &&
	pid=$! &&
	wait_for state/stalled &&
	kill -9 $pid &&
	wait $pid;
	gone $(cat state/runner.pid) &&
	test "$(q killed/shards/run-2-of-3 "SELECT count(*) FROM run")" = 4 &&
	kconfperf merge --dir killed 2>err &&
	test_grep "4 runs added" err &&
	test_grep "shards of 3: merged none; partial 2" err &&
	kconfperf run --dir killed $RUN --seed 11 --shard 2/3 2>err &&
	test_grep "14 runs of 3 variants (4 stored already)" err &&
	kconfperf run --dir killed $RUN --seed 11 --shard 1/3 -q &&
	kconfperf run --dir killed $RUN --seed 11 --shard 3/3 -q &&
	kconfperf merge --dir killed 2>err &&
	cat err &&
	test_grep "shards of 3: all merged" err &&
	test "$(q killed "SELECT count(*) FROM run")" = 42 &&
	samples killed >killed.samples &&
	test_cmp ref.samples killed.samples
'

test_expect_success 'build --shard: one distinct kernel per job, each in a cache of its own' '
	fake_plan farm DEBUG_A,DEBUG_B --cache "$TRASH/head-cache" >/dev/null &&
	for i in 1 2 3 4; do
		kconfperf build --dir farm --shard $i/4 --cache "$TRASH/cache-$i" >out-$i 2>err-$i ||
		exit 1
	done &&
	test_grep "shard 1/4 of the plan.s 3 distinct kernels" err-1 &&
	test_grep "none is this shard.s" err-4 &&
	grep -c " built " out-2 >n && test "$(cat n)" = 2 &&
	test_grep "CONFIG_DEBUG_A=y  built" out-2 &&
	test_grep "CONFIG_DEBUG_B=y  built" out-3 &&
	ls cache-1/builds cache-2/builds cache-3/builds | grep -c "^[0-9a-f]\{64\}$" >n &&
	test "$(cat n)" = 5 &&
	test "$(q farm "SELECT count(*) FROM build")" = 0
'

test_expect_success 'cache export and import: the head builds nothing' '
	for i in 1 2 3; do
		for k in $(ls cache-$i/builds); do
			kconfperf cache export --cache "$TRASH/cache-$i" $k k-$i-$k.tar.gz >>exported ||
			exit 1
		done
	done &&
	kconfperf cache import --cache "$TRASH/head-cache" k-*.tar.gz >imported &&
	cat imported &&
	test "$(grep -c "in the cache already" imported)" = 2 &&
	kconfperf build --dir farm 2>err &&
	test_grep "0 built, 3 cached, 0 failed" err &&
	kconfperf run --dir farm $RUN --seed 11 -q &&
	samples farm >farm.samples &&
	test_cmp ref.samples farm.samples
'

test_expect_success 'cache import refuses a damaged or mislabelled entry' '
	k=$(ls cache-2/builds | head -n 1) &&
	mkdir t && tar -C t -xzf k-2-$k.tar.gz &&
	echo "CONFIG_DEBUG_B=y" >>t/$k/config &&
	tar -C t -czf changed.tar.gz $k &&
	{ kconfperf cache import --cache "$TRASH/fresh" changed.tar.gz 2>err; rc=$?; } &&
	test "$rc" = 1 && test_grep "the checksum of .config. is" err &&
	sha=$(sha256sum t/$k/config | cut -d" " -f1) &&
	sed -i "s/^sha256=[0-9a-f]* config$/sha256=$sha config/" t/$k/MANIFEST &&
	tar -C t -czf relabelled.tar.gz $k &&
	{ kconfperf cache import --cache "$TRASH/fresh" relabelled.tar.gz 2>err; rc=$?; } &&
	test "$rc" = 1 && test_grep "not the $k it is filed under: not imported" err &&
	echo x >t/$k/evil && tar -C t -czf extra.tar.gz $k &&
	{ kconfperf cache import --cache "$TRASH/fresh" extra.tar.gz 2>err; rc=$?; } &&
	test "$rc" = 1 && test_grep "holds .$k/evil., which is no part of one kconfperf cache entry" err &&
	test ! -e fresh/builds/$k
'

test_done
