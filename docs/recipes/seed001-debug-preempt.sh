#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Seed 001: DEBUG_PREEMPT on hackbench at 1, 4, 7 and 12 groups (a series), on a PREEMPT tinyconfig.
# DEBUG_PREEMPT is a no-op on tinyconfig (docs/recipes/plan.sh says why); --base-add
# CONFIG_PREEMPT=y makes it settable.  SLUB, not tinyconfig's SLOB, as in the main job: SLOB's
# first-fit search moved the cost at 1 group from +13% to +27% between two runs.  Prints the
# series table, then as mmtests prints it.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-seed001}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--base tinyconfig --base-add CONFIG_PREEMPT=y --base-add CONFIG_SLUB=y \
	--options DEBUG_PREEMPT --no-baseline-again --runs 5 --seed 1 --timeout 900 \
	--workload hackbench:groups=1,4,7,12 --dir "$D" >/dev/null
# The series table: its header, a blank line, the rows; it ends at the next blank line.
"$K" report --dir "$D" --metric time | awk '/^series:/ { p = 1 } p && /^$/ && ++n == 2 { print; exit } p'
"$K" report --dir "$D" --metric time --format mmtests
