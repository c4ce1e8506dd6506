#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# arm64 (seed 004's question on arm64): the lock-debugging group's cost on a RAM disk's sequential read.
# Cross-built kernels under qemu-system-aarch64 -M virt; dd with the page cache on, reading
# /dev/ram0 (the ramdisk harness profile).  With both kernels cached: about a minute.
# Prints the report: throughput, then boot, then wall.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-arm64}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --arch arm64 --source /usr/src/linux-source-6.1.tar.xz --base tinyconfig --harness ramdisk \
	--options PROVE_LOCKING --workload dd:dev=/dev/ram0,direct=0,bs=16k,count=1024,iterations=1 \
	--runs 5 --warmup 1 --seed 4 --dir "$D" >/dev/null
"$K" report --dir "$D"
