#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t6300: an experiment's shards through the job engines people run, on the
# fake kernel and runner (lib-fast.sh), so it takes seconds:
#   - GNU parallel, on this host and through --sshlogin (with a stand-in
#     for ssh that runs the job here: an sshd needs /run/sshd, a system
#     directory this test does not touch), the index from {#} and from
#     PARALLEL_SEQ;
#   - Slurm job arrays, on a one-node cluster this test starts on 127.0.0.1
#     (its own munge key and socket, slurm.conf, state and spool directories,
#     ports) and stops by their pid files: sbatch --array runs the shards,
#     the index from SLURM_ARRAY_TASK_ID; one array task is cancelled
#     mid-run and the experiment still completes when it is run again.
# Each ends with merge giving the unsharded experiment's samples.  A part
# whose engine is not installed or will not start is skipped, with why.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

samples() {
	q "$1" "SELECT v.name, r.workload, r.warmup, r.round, r.seq, s.iteration, s.metric, s.value
		FROM sample s JOIN run r ON r.id = s.run_id JOIN variant v ON v.id = r.variant_id
		ORDER BY 1, 2, 3, 4, 6, 7"
}

RUN="--runner $FAKE_RUNNER --workload boot --runs 6 --warmup 1 --seed 5"

test_expect_success 'setup: plan and build three variants; the unsharded experiment' '
	fake_plan plan DEBUG_A,DEBUG_B >/dev/null &&
	kconfperf build --dir plan -q >/dev/null &&
	for d in ref par ssh sl-exp; do cp -R plan $d || exit 1; done &&
	kconfperf run --dir ref $RUN -q &&
	samples ref >ref.samples
'

if command -v parallel >/dev/null; then
	test_expect_success 'GNU parallel: --shard {#}/3 and auto/3, merged: the unsharded samples' '
		parallel --will-cite -N0 -j 3 kconfperf run --dir par $RUN --shard {#}/3 -q ::: a b c &&
		ls par/shards >dirs && test "$(wc -l <dirs)" = 3 &&
		kconfperf merge --dir par 2>err &&
		cat err &&
		test_grep "shards of 3: all merged" err &&
		samples par >par.samples && test_cmp ref.samples par.samples &&
		cp -R plan par2 &&
		parallel --will-cite -N0 -j 2 kconfperf run --dir par2 $RUN --shard auto/3 -q ::: a b c &&
		kconfperf merge --dir par2 -q &&
		samples par2 >par2.samples && test_cmp ref.samples par2.samples
	'

	test_expect_success 'GNU parallel --sshlogin: the jobs of two logins, PARALLEL_SEQ carried over' '
		{
			echo "#!/bin/sh" &&
			echo "# ssh HOST [--] COMMAND...: run here, as sshd would run it there" &&
			echo "while [ \$# -gt 1 ]; do case \$1 in -l|-p|-o|-i) shift 2;; -*) shift;; *) break;; esac; done" &&
			echo "echo \"\$1\" >>\"$TRASH/ssh.log\"" &&
			echo "shift" &&
			echo "[ \"\${1:-}\" = -- ] && shift" &&
			echo "exec sh -c \"\$*\""
		} >fake-ssh &&
		cat fake-ssh &&
		chmod +x fake-ssh &&
		parallel --will-cite -N0 --ssh "$TRASH/fake-ssh" -S 1/127.0.0.1,1/localhost \
			--workdir "$TRASH" "PATH=$TRASH/bin:\$PATH kconfperf run --dir ssh $RUN --shard auto/3 -q" \
			::: a b c &&
		test "$(wc -l <ssh.log)" = 3 &&
		kconfperf merge --dir ssh -q &&
		samples ssh >ssh.samples && test_cmp ref.samples ssh.samples
	'
else
	test_skip 'GNU parallel' "no parallel (scripts/deps installs it)"
fi

. "$SRC_DIR/tests/t/lib-slurm.sh"
if slurm_start; then
	test_expect_success 'Slurm: sbatch --array=0-2 runs the shards, merged: the unsharded samples' '
		t0=$(date +%s.%N) &&
		jid=$(sbatch --parsable --array=0-2 -o "$SL/task-%a.out" --chdir "$TRASH" \
			--wrap "kconfperf run --dir sl-exp $RUN --shard auto/3 -q") &&
		wait_jobs $jid &&
		t1=$(date +%s.%N) &&
		echo "3 array tasks of 9 fake runs each in $(echo "$t1 - $t0" | bc) s" >slurm-time &&
		cat "$SL"/task-*.out &&
		ls sl-exp/shards >dirs && test "$(wc -l <dirs)" = 3 &&
		kconfperf merge --dir sl-exp 2>err &&
		cat err &&
		test_grep "shards of 3: all merged" err &&
		samples sl-exp >slurm.samples && test_cmp ref.samples slurm.samples
	'

	test_expect_success 'Slurm: a cancelled array task leaves the experiment resumable' '
		cp -R plan cancelled &&
		cat >slow-runner <<-EOS &&
		#!/bin/sh
		sleep 0.5
		exec "$FAKE_RUNNER"
		EOS
		chmod +x slow-runner &&
		jid=$(sbatch --parsable --array=0-2 -o "$SL/c-%a.out" --chdir "$TRASH" \
			--wrap "kconfperf run --dir cancelled --runner $TRASH/slow-runner --workload boot \
				--runs 6 --warmup 1 --seed 5 --shard auto/3 -q") &&
		_i=0 &&
		# (sqlite3 would create an empty database where the shard is still being made)
		until [ -e cancelled/shards/run-2-of-3/kconfperf.db ] &&
		      [ "$(q cancelled/shards/run-2-of-3 "SELECT count(*) FROM run")" -ge 2 ]; do
			_i=$((_i + 1)); [ $_i -lt 300 ] || exit 1; sleep 0.1
		done &&
		scancel "${jid}_1" &&
		wait_jobs $jid &&
		n=$(q cancelled/shards/run-2-of-3 "SELECT count(*) FROM run") &&
		echo "# the cancelled task had stored $n of its 9 runs" &&
		test "$n" -lt 9 &&
		kconfperf merge --dir cancelled 2>err &&
		cat err &&
		test_grep "shards of 3: merged 1, 3; partial 2" err &&
		test "$(q cancelled "SELECT count(*) FROM run")" -lt 21 &&
		jid=$(sbatch --parsable --array=1 -o "$SL/c-again.out" --chdir "$TRASH" \
			--wrap "kconfperf run --dir cancelled --runner $TRASH/slow-runner --workload boot \
				--runs 6 --warmup 1 --seed 5 --shard auto/3") &&
		wait_jobs $jid &&
		cat "$SL/c-again.out" &&
		test_grep "stored already" "$SL/c-again.out" &&
		kconfperf merge --dir cancelled 2>err &&
		cat err &&
		test_grep "shards of 3: all merged" err &&
		test "$(q cancelled "SELECT count(*) FROM run")" = 21 &&
		samples cancelled >cancelled.samples && test_cmp ref.samples cancelled.samples
	'
	[ -s slurm-time ] && say "# Slurm: $(cat slurm-time)"
else
	test_skip 'Slurm job arrays' "$(cat "$SL/why")"
fi
slurm_stop

test_done
