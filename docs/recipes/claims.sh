#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Claims: what Kconfig's help texts say an option costs, beside what it measures (6.1 tinyconfig).
# Plan records each option's cost sentence; the report sets it beside the measurement per
# workload, says which options are no-ops on this base and why, and gives vmlinux's text, data
# and bss beside bzImage.  KCP_CACHE, when set, is the build cache (--cache).
# Left out of the sweep: ZERO_CALL_USED_REGS (help: "<1%") resolves, but it adds
# -fzero-call-used-regs to every compile, a rebuild of the whole kernel (~440 s of two cores);
# KASAN, KASAN_INLINE, KFENCE, GCC_PLUGIN_STACKLEAK and UNWINDER_FRAME_POINTER are swept but
# resolve to no-ops on tinyconfig (the report says why); each would be a whole rebuild too.
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-claims}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--base tinyconfig --options INIT_ON_FREE_DEFAULT_ON,INIT_ON_ALLOC_DEFAULT_ON,KFENCE,KASAN,KASAN_INLINE,UNWINDER_FRAME_POINTER,GCC_PLUGIN_STACKLEAK \
	--workload boot --workload syscall --runs 3 --seed 26 --dir "$D" >/dev/null
"$K" report --dir "$D"
