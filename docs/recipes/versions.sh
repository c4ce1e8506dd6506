#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Versions (seed 000's question): did the lock debugging options get slower from 6.1 to 6.12?
# Both sources in one experiment, each planned with its own Kconfig and measured against its
# own baseline in the same rounds; prints the tables that set 6.12 beside 6.1 (syscall's time per
# call, then boot's busy instructions) with each option's change of cost.  Builds LOCK_STAT and PRINTK_TIME on both versions.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-versions}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz --source /usr/src/linux-source-6.12.tar.xz \
	--base tinyconfig --options PROVE_LOCKING,LOCK_STAT,PRINTK_TIME,DEBUG_NOTIFIERS,SLUB_TINY \
	--workload boot --workload syscall --seed 6 --dir "$D" >/dev/null
# (each report to a file first: a report that fails fails the recipe)
"$K" report --dir "$D" --workload syscall --metric time >"$D/syscall.txt"
sed -n '/^6.12 against 6.1/,$p' "$D/syscall.txt"
"$K" report --dir "$D" --workload boot --metric instructions >"$D/boot.txt"
sed -n '/^6.12 against 6.1/,/^$/p' "$D/boot.txt"
