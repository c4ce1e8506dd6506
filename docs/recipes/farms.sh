#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Farms: a leaf option built through ccache, after the same kernel without it: the build table.
# A private CCACHE_DIR; the second build of the same files is all cache hits but one
# configuration probe.  (tests/t/t3300, t3310, t3320 do the same with ccache, distcc and icecc
# on a farm of this machine alone, and compare the bzImages.)  A build cache of its own, so the
# baseline is built through ccache too (from scratch: ~8 minutes on 2 CPUs), filling it.
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-farms}
export CCACHE_DIR="$D/ccache"
mkdir -p "$CCACHE_DIR"
"$K" plan --cache "$D/cache" --source /usr/src/linux-source-6.1.tar.xz --base tinyconfig \
	--options DUMMY_CONSOLE_COLUMNS=81 --no-baseline-again --dir "$D/exp" -q >/dev/null
"$K" build --dir "$D/exp" --cc-wrapper ccache 2>&1 | sed -n '/^variant  *build/,$p'
