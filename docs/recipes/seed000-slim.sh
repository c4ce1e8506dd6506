#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Seed 000's kernel: Debian's 6.1 amd64 config, slimmed, boots and passes libguestfs-test-tool.
# The slimmed baseline (--slim, the libguestfs profile, no debug info) and DEBUG_NOTIFIERS
# seeded from its tree, booted under TCG with boot and libguestfs, 3 rounds.  The baseline
# builds in ~15 minutes here.  Prints the build table (each kernel's build time as the cache
# recorded it: "cached" once it is there, whichever run built it), then the boot and the
# libguestfs guest-time tables, each with its workload, metric and clock lines.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-seed000-slim}
mkdir -p "$D"
xz -dc /usr/src/linux-config-6.1/config.amd64_none_amd64.xz >"$D/debian.config"
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--base "$D/debian.config" --slim \
	--base-add CONFIG_DEBUG_INFO_NONE=y --options DEBUG_NOTIFIERS --no-baseline-again \
	--workload boot --workload libguestfs --runs 3 --warmup 1 --timeout 900 --dir "$D/exp" >/dev/null
"$K" build --dir "$D/exp" 2>/dev/null
echo
# Each report to a file first: a report that fails fails the recipe.  The boot workload's own
# time is its boot to init.
"$K" report --dir "$D/exp" --workload boot --metric time >"$D/boot.txt"
"$K" report --dir "$D/exp" --workload libguestfs --metric time >"$D/libguestfs.txt"
sed -n '/^workload:/p; /^metric:/p; /^clock:/p; /^baseline/,/^$/p' "$D/boot.txt" "$D/libguestfs.txt"
