#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job: five debug options on Debian's 6.1 tinyconfig with SLUB, alone and together, boot
# and syscall.  README.md's first command.  Prints the text report: a table per workload and
# metric, each with its A/A control and the multiplicativity check, then what was not measured
# and why.  SLUB, not tinyconfig's SLOB: SLOB's first-fit search follows where the timer ticks
# fall, so its boot's instructions vary by 0.6% across runs (SLUB's by 0.005%), and no
# distribution kernel uses it (it left Linux in 6.4).
# From a cold cache it builds six kernels (an hour on a 2-core machine); cached, ~15 minutes.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-main-job}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--base tinyconfig --base-add CONFIG_SLUB=y \
	--options PROVE_LOCKING,LOCKDEP,PRINTK_TIME,DEBUG_NOTIFIERS,SCHED_STACK_END_CHECK \
	--design oat,all --workload boot --workload syscall --dir "$D" >/dev/null
"$K" report --dir "$D"
