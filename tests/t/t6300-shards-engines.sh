#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t6300: an experiment's shards through the job engines people run, on the
# fake kernel and runner (lib-fast.sh), so it takes seconds:
#   - GNU parallel, on this host (the index from {#}) and through
#     --sshlogin with the real ssh to a real OpenSSH sshd this test starts
#     on 127.0.0.1 (lib-sshd.sh: its own host and client keys, port,
#     sshd_config, ssh_config and known_hosts; where sshd as root lacks
#     /run/sshd it runs in a mount namespace of its own), the index from
#     PARALLEL_SEQ; sshd's log must show a login and a session per job;
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

	. "$SRC_DIR/tests/t/lib-sshd.sh"
	if sshd_installed; then
		sshd_start; sshd_rc=$?
		test_expect_success 'GNU parallel --sshlogin to a real sshd on 127.0.0.1: two logins, PARALLEL_SEQ carried over' '
			sshd_ok &&
			cat "$SSHD/sshd_config" "$SSHD/ssh_config" &&
			n0=$(grep -c "^Starting session: command for $(id -un) from 127.0.0.1" "$SSHD/sshd.log") &&
			parallel --will-cite -N0 --ssh "ssh -F $SSHD/ssh_config" -S 1/kcp-a,1/kcp-b \
				--workdir "$TRASH" "echo \"\$SSH_CONNECTION\" >>ssh.log &&
				PATH=$TRASH/bin:\$PATH kconfperf run --dir ssh $RUN --shard auto/3 -q" \
				::: a b c &&
			cat ssh.log &&
			test "$(grep -c "^127\.0\.0\.1 [0-9]* 127\.0\.0\.1 [0-9]*$" ssh.log)" = 3 &&
			grep "^Accepted publickey for\|^Starting session" "$SSHD/sshd.log" &&
			n1=$(grep -c "^Starting session: command for $(id -un) from 127.0.0.1" "$SSHD/sshd.log") &&
			test $((n1 - n0)) = 3 &&
			# each job in a session of this sshd: its client port, as the job saw it
			while read -r _ port _; do
				grep -q "^Accepted publickey for $(id -un) from 127.0.0.1 port $port " "$SSHD/sshd.log" &&
				grep -q "^Starting session: command for $(id -un) from 127.0.0.1 port $port " "$SSHD/sshd.log" ||
				{ echo "no login from port $port in sshd.log"; exit 1; }
			done <ssh.log &&
			ls ssh/shards >dirs && test "$(wc -l <dirs)" = 3 &&
			kconfperf merge --dir ssh -q &&
			samples ssh >ssh.samples && test_cmp ref.samples ssh.samples
		'
	else
		test_skip 'GNU parallel over ssh' "$(cat "$SSHD/why")"
	fi
	sshd_stop
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
