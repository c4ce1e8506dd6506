#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Shards: a real experiment run whole and as 3 GNU parallel jobs, merged: the same guest-time values.
# Debian's 6.1 tinyconfig and +PRINTK_TIME (two kernels, cached), boot, 3 rounds and a warm-up,
# seed 1.  First unsharded, then as 3 shards through GNU parallel (2 at a time on this 2-core
# host), merged.  Then what a second merge adds, the guest-time samples (boot time, the
# workload's time, instructions) of both compared run for run, the warm-ups every shard measured
# again compared with the experiment's (the cross-host A/A check, on one host here), and the
# report of each on the instruction count.  KCP_TEST_CACHE names a cache holding the kernels
# (make check's, build/test-cache); else the user's.
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-shards}
CACHE=${KCP_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kconfperf}
SRC=/usr/src/linux-source-6.1.tar.xz
mkdir -p "$D"
cd "$D"
rm -rf whole sharded
"$K" plan --cache "$CACHE" --source "$SRC" --base tinyconfig --options PRINTK_TIME \
	--no-baseline-again --dir whole -q >/dev/null
"$K" build --dir whole -q >/dev/null
cp -R whole sharded

RUN="-w boot --runs 3 --warmup 1 --seed 1 --accel tcg"
echo "\$ kconfperf run --dir whole $RUN"
t0=$(date +%s)
"$K" run --dir whole $RUN -q
echo "($(( $(date +%s) - t0 )) s)"
echo
echo "\$ parallel -N0 -j 2 kconfperf run --dir sharded $RUN --shard {#}/3 ::: 1 2 3"
t0=$(date +%s)
parallel --will-cite -N0 -j 2 "$K" run --dir sharded $RUN --shard {#}/3 -q ::: 1 2 3
echo "($(( $(date +%s) - t0 )) s)"
echo
echo "\$ kconfperf merge --dir sharded"
"$K" merge --dir sharded 2>&1 | sed 's/^kconfperf: //'
echo
echo "\$ kconfperf merge --dir sharded    # again"
"$K" merge --dir sharded 2>&1 | sed 's/^kconfperf: //'
echo
values() {
	sqlite3 "$1/kconfperf.db" "SELECT v.name, r.warmup, r.round, r.layout_seed, r.boot_s,
		s.metric, s.iteration, s.value FROM run r JOIN variant v ON v.id = r.variant_id
		JOIN sample s ON s.run_id = r.id ORDER BY 1, 2, 3, 6, 7"
}
values whole >whole.values
values sharded >sharded.values
echo "guest-time samples, run for run: $(wc -l <whole.values) whole, $(wc -l <sharded.values) sharded," \
	"$(if cmp -s whole.values sharded.values; then echo identical; else echo DIFFERENT; fi)"
echo
echo "\$ kconfperf report --dir sharded --metric instructions"
"$K" report --dir sharded --metric instructions | sed -n '/^baseline/,/^$/p'
"$K" report --dir whole --metric instructions >whole.report
"$K" report --dir sharded --metric instructions >sharded.report
echo "the report of the whole experiment: $(if cmp -s whole.report sharded.report; then
	echo the same; else echo DIFFERENT; fi)"
