#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Seed 000 replayed: libguestfs-test-tool on Debian's 6.1 config, slimmed, four of the 114 debug options.
# bench/replay-seed000 with the default subset (PROVE_LOCKING, DEBUG_KMEMLEAK, DEBUG_NOTIFIERS,
# EXT4_DEBUG), 6 rounds, without re-planning all 114 (PLAN114=0).  Hours: Debian's config
# builds in ~15 minutes a kernel here, and a libguestfs run takes 15-65 s.  Prints its table
# beside the published figures (the meter's busy instructions, wall time, the appliance's guest
# clock), each metric's spread across runs, and where PROVE_LOCKING's and DEBUG_KMEMLEAK's
# instructions go.  KCP_CACHE, when set, is the build cache.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
D=${RECIPE_DIR:-recipe-seed000}
PLAN114=0 RUNS=6 "$TOP/bench/replay-seed000" "$D" | sed -n '/^variant  *published/,/^runtime:/p' | sed '$d'
