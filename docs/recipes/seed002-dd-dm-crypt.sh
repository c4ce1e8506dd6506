#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Seed 002 (cmd:): dd with O_DIRECT through dm-crypt on LVM on a RAM disk, the lock-debugging group.
# PROVE_LOCKING and DEBUG_ATOMIC_SLEEP together (--design all) against the baseline, the
# disk in the guest's memory so the reads are the kernel's own instructions.  Prints the
# report: a table per metric (the meter's instructions, throughput, the program's guest time,
# wall, boot), where the group's instructions go, the image sizes and what the kernels said.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-seed002}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--base tinyconfig --harness disk,crypt,ramdisk \
	--options PROVE_LOCKING,DEBUG_ATOMIC_SLEEP --design all --max-runs 8 --warmup 0 --seed 2 \
	--timeout 900 --workload 'cmd:dd if=/dev/kcp/vda of=/dev/null bs=8k count=2000 iflag=direct' \
	--scratch 64M:ram,lvm,crypt --extract 'throughput,MB/s,higher,re:([0-9.]+) [kMG]?B/s' \
	--dir "$D" >/dev/null
"$K" report --dir "$D"
