#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Shards through Slurm: the shards recipe's experiment as a job array on a one-node cluster.
# Starts munged, slurmctld and slurmd of its own on 127.0.0.1 (tests/t/lib-slurm.sh: its own
# munge key, slurm.conf, state and spool in the recipe's directory) and stops them at the end.
# Debian's 6.1 tinyconfig and +PRINTK_TIME (cached), boot, 3 rounds and a warm-up, seed 1: the
# experiment whole, then sbatch --array=0-2 of run --shard auto/3, merged; one array task
# cancelled mid-run and resubmitted with its index.  KCP_TEST_CACHE as in the shards recipe.
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-shards-slurm}
CACHE=${KCP_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kconfperf}
SRC=/usr/src/linux-source-6.1.tar.xz
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$D"
D=$(cd "$D" && pwd)
cd "$D"
rm -rf whole arr cancelled slurm
TRASH=$D
. "$top/tests/t/lib-slurm.sh"
slurm_start || { cat "$SL/why"; exit 1; }
"$K" plan --cache "$CACHE" --source "$SRC" --base tinyconfig --options PRINTK_TIME \
	--no-baseline-again --dir whole -q >/dev/null
"$K" build --dir whole -q >/dev/null
cp -R whole arr
cp -R whole cancelled
RUN="-w boot --runs 3 --warmup 1 --seed 1 --accel tcg"
"$K" run --dir whole $RUN -q
echo "\$ sinfo"
sinfo
echo
echo "\$ sbatch --array=0-2 --wrap 'kconfperf run --dir arr $RUN --shard auto/3'"
t0=$(date +%s)
jid=$(sbatch --parsable --array=0-2 -o "$SL/arr-%a.out" --chdir "$D" \
	--wrap "$K run --dir arr $RUN --shard auto/3 -q")
wait_jobs "$jid"
echo "(all 3 tasks done in $(( $(date +%s) - t0 )) s)"
echo
echo "\$ kconfperf merge --dir arr"
"$K" merge --dir arr 2>&1 | sed 's/^kconfperf: //'
values() {
	sqlite3 "$1/kconfperf.db" "SELECT v.name, r.warmup, r.round, r.layout_seed, r.boot_s,
		s.metric, s.iteration, s.value FROM run r JOIN variant v ON v.id = r.variant_id
		JOIN sample s ON s.run_id = r.id ORDER BY 1, 2, 3, 6, 7"
}
same() {
	values "$1" >"$1.values"
	values whole >whole.values
	echo "guest-time samples against the whole experiment's, run for run:" \
		"$(if cmp -s whole.values "$1.values"; then echo identical; else echo DIFFERENT; fi)"
}
same arr
echo
echo "\$ sbatch --array=0-2 ...; scancel JOB_1 once its shard has stored a run"
jid=$(sbatch --parsable --array=0-2 -o "$SL/c-%a.out" --chdir "$D" \
	--wrap "$K run --dir cancelled $RUN --shard auto/3 -q")
until [ -e cancelled/shards/run-2-of-3/kconfperf.db ] &&
      [ "$(sqlite3 cancelled/shards/run-2-of-3/kconfperf.db "SELECT count(*) FROM run")" -ge 1 ]; do
	sleep 0.2
done
scancel "${jid}_1"
wait_jobs "$jid"
echo "\$ kconfperf merge --dir cancelled"
"$K" merge --dir cancelled 2>&1 | sed 's/^kconfperf: //'
echo
echo "\$ sbatch --array=1 --wrap 'kconfperf run --dir cancelled $RUN --shard auto/3'"
jid=$(sbatch --parsable --array=1 -o "$SL/again.out" --chdir "$D" \
	--wrap "$K run --dir cancelled $RUN --shard auto/3")
wait_jobs "$jid"
sed -n 's/^kconfperf: \(.*stored already.*\)/\1/p' "$SL/again.out"
echo "\$ kconfperf merge --dir cancelled"
"$K" merge --dir cancelled 2>&1 | sed 's/^kconfperf: //'
same cancelled
slurm_stop
