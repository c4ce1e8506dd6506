#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cmd: (seed 003's workload): gcc compiling two of kconfperf's own files inside the guest.
# The host's tree is read over virtio-9p (the checkout must not be under /tmp, /run,
# /var/tmp or /mnt, which the guest covers with tmpfs); -c writes the objects to the guest's
# /tmp.  Prints the report's first table, the program's guest time.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-cmd-compile}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz --base tinyconfig --harness disk,crypt,ramdisk \
	--options PRINTK_TIME --no-baseline-again --runs 3 --warmup 0 --seed 3 --timeout 900 \
	--workload "cmd:gcc -O2 -D_GNU_SOURCE -I$TOP/src -c $TOP/src/util/strbuf.c $TOP/src/util/strvec.c" \
	--dir "$D" >/dev/null
# The checkout's path is this machine's, not the recipe's: print it as TOP.
"$K" report --dir "$D" --metric time | sed -n '1,/^$/p; /^baseline/,/^$/p' | sed "s|$TOP|TOP|g"
