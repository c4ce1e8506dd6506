#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t9300 (make check-slow): a real experiment, Debian's 6.1 tinyconfig and
# +PRINTK_TIME (the suite's kernels, from the shared test cache), boot, 3
# rounds and a warm-up, run whole and as 3 shards through a one-node Slurm
# this test starts (lib-slurm.sh), through GNU parallel, and through GNU
# parallel over ssh to a real sshd on 127.0.0.1 (lib-sshd.sh): merged, the
# guest-time values are the whole experiment's run for run and the verdicts
# the same; the warm-ups every shard measured again are identical across
# shards; a cancelled array task rerun with its index completes the
# experiment.  Also Slurm's own cost per array task on this host.  About
# 5 minutes of runs on a loaded 2-core host.
. "$(dirname "$0")/../t/lib.sh"
test_need_kernel_source
command -v sqlite3 >/dev/null || test_skip_all "no sqlite3"

RUN="-w boot --runs 3 --warmup 1 --seed 3 --accel tcg"

# values DIR: each run's guest-time values, by variant, warm-up and round.
values() {
	sqlite3 "$1/kconfperf.db" "SELECT v.name, r.warmup, r.round, r.layout_seed, r.boot_s,
		s.metric, s.iteration, s.value FROM run r JOIN variant v ON v.id = r.variant_id
		JOIN sample s ON s.run_id = r.id ORDER BY 1, 2, 3, 6, 7"
}

test_expect_success 'setup: two real kernels; the experiment run whole' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --base tinyconfig \
		--options PRINTK_TIME --no-baseline-again --dir plan -q >/dev/null &&
	kconfperf build --dir plan -q >/dev/null &&
	for d in whole sl-exp cancelled par; do cp -R plan $d || exit 1; done &&
	kconfperf run --dir whole $RUN -q &&
	values whole >whole.values &&
	test "$(wc -l <whole.values)" = 16 &&
	kconfperf report --dir whole --metric instructions >whole.report
'

. "$SRC_DIR/tests/t/lib-slurm.sh"
if slurm_start; then
	test_expect_success 'Slurm: an array of 8 empty tasks, the engine cost per task' '
		t0=$(date +%s.%N) &&
		jid=$(sbatch --parsable --array=0-7 -o /dev/null --wrap true) &&
		wait_jobs $jid &&
		echo "8 empty array tasks on 2 CPUs in $(echo "$(date +%s.%N) - $t0" | bc) s" >slurm-cost
	'
	test_expect_success 'Slurm: 3 shards by sbatch --array, merged: the whole values and verdicts' '
		t0=$(date +%s.%N) &&
		jid=$(sbatch --parsable --array=0-2 -o "$SL/task-%a.out" --chdir "$TRASH" \
			--wrap "kconfperf run --dir sl-exp $RUN --shard auto/3 -q") &&
		wait_jobs $jid &&
		echo "3 shards of 4 real boot runs each in $(echo "$(date +%s.%N) - $t0" | bc) s" >>slurm-cost &&
		cat "$SL"/task-*.out &&
		kconfperf merge --dir sl-exp 2>err &&
		cat err &&
		test_grep "shards of 3: all merged" err &&
		test "$(grep -c "measured again with the same layout seed: 2 of 2 identical" err)" = 2 &&
		values sl-exp >slurm.values && test_cmp whole.values slurm.values &&
		kconfperf report --dir sl-exp --metric instructions | grep -v "^shards:" >slurm.report &&
		test_cmp whole.report slurm.report &&
		kconfperf merge --dir sl-exp 2>err &&
		test "$(grep -c " 0 runs added" err)" = 3
	'
	test_expect_success 'Slurm: a cancelled array task, run again with its index, completes it' '
		jid=$(sbatch --parsable --array=0-2 -o "$SL/c-%a.out" --chdir "$TRASH" \
			--wrap "kconfperf run --dir cancelled $RUN --shard auto/3 -q") &&
		_i=0 &&
		# (sqlite3 would create an empty database where the shard is still being made)
		until [ -e cancelled/shards/run-2-of-3/kconfperf.db ] &&
		      [ "$(sqlite3 cancelled/shards/run-2-of-3/kconfperf.db "SELECT count(*) FROM run")" -ge 1 ]; do
			_i=$((_i + 1)); [ $_i -lt 1200 ] || exit 1; sleep 0.1
		done &&
		scancel "${jid}_1" &&
		wait_jobs $jid &&
		n=$(sqlite3 cancelled/shards/run-2-of-3/kconfperf.db "SELECT count(*) FROM run") &&
		echo "the cancelled task had stored $n of its 4 runs" &&
		test "$n" -lt 4 &&
		kconfperf merge --dir cancelled 2>err &&
		cat err &&
		test_grep "shards of 3: merged 1, 3; partial 2" err &&
		jid=$(sbatch --parsable --array=1 -o "$SL/c-again.out" --chdir "$TRASH" \
			--wrap "kconfperf run --dir cancelled $RUN --shard auto/3") &&
		wait_jobs $jid &&
		cat "$SL/c-again.out" &&
		test_grep "stored already" "$SL/c-again.out" &&
		kconfperf merge --dir cancelled 2>err &&
		test_grep "shards of 3: all merged" err &&
		values cancelled >cancelled.values && test_cmp whole.values cancelled.values
	'
	[ -s slurm-cost ] && say "# Slurm: $(tr "\n" ";" <slurm-cost)"
else
	test_skip 'Slurm job arrays' "$(cat "$SL/why")"
fi
slurm_stop

if command -v parallel >/dev/null; then
	test_expect_success 'GNU parallel: 3 shards, merged: the whole values' '
		parallel --will-cite -N0 -j 2 kconfperf run --dir par $RUN --shard {#}/3 -q ::: 1 2 3 &&
		kconfperf merge --dir par -q &&
		values par >par.values && test_cmp whole.values par.values
	'
else
	test_skip 'GNU parallel' "no parallel (scripts/deps installs it)"
fi

# The same shards over ssh: GNU parallel --sshlogin through the real ssh to
# a real sshd this test starts on 127.0.0.1 (lib-sshd.sh: its own keys,
# config and port); each job says which connection it ran in.
. "$SRC_DIR/tests/t/lib-sshd.sh"
if command -v parallel >/dev/null && sshd_installed; then
	sshd_start; sshd_rc=$?
	test_expect_success 'GNU parallel over ssh to 127.0.0.1: 3 shards, merged: the whole values' '
		sshd_ok &&
		cp -R plan sshx &&
		parallel --will-cite -N0 --ssh "ssh -F $SSHD/ssh_config" -S 1/kcp-a,1/kcp-b \
			--workdir "$TRASH" "echo \"\$SSH_CONNECTION\" >>ssh.log &&
			PATH=$TRASH/bin:\$PATH kconfperf run --dir sshx $RUN --shard auto/3 -q" \
			::: a b c &&
		cat ssh.log &&
		test "$(grep -c "^127\.0\.0\.1 [0-9]* 127\.0\.0\.1 [0-9]*$" ssh.log)" = 3 &&
		kconfperf merge --dir sshx -q &&
		values sshx >sshx.values && test_cmp whole.values sshx.values
	'
	sshd_stop
else
	test_skip 'GNU parallel over ssh' "no parallel or no sshd (scripts/deps installs them)"
fi

test_done
