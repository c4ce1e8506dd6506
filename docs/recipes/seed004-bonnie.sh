#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Seed 004 (cmd:): bonnie++'s sequential block input and output on ext4 on a RAM disk, lock debugging on and off.
# The same two kernels as seed002-dd-dm-crypt, so only runs.  --clock icount-idle:5 (an
# instruction is 32 ns) so that bonnie++'s reads take long enough for it to report them.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-seed004}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--base tinyconfig --harness disk,crypt,ramdisk \
	--options PROVE_LOCKING,DEBUG_ATOMIC_SLEEP --design all --runs 3 --warmup 0 --seed 4 --timeout 900 \
	--clock icount-idle:5 --mem 1024 \
	--workload 'cmd:bonnie++ -d /mnt/vda -s 256M -r 128 -n 0 -u root -f -b -D -q' --scratch 300M:ram,ext4 \
	--extract 'seq_block_input,K/s,higher,csv:18' --extract 'seq_block_output,K/s,higher,csv:12' \
	--dir "$D" >/dev/null
"$K" report --dir "$D"
