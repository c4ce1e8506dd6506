#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Claims: what Kconfig's help texts say an option costs, beside what it measures (6.1 tinyconfig
# with SLUB).  Plan records each option's cost sentence; the report sets it beside the measurement
# per workload, says which options are no-ops on this base and why, and gives vmlinux's text, data
# and bss beside bzImage.  KCP_CACHE, when set, is the build cache (--cache).
# The base is tinyconfig with what the options need: SLUB (KFENCE and KASAN need SLAB or SLUB;
# tinyconfig has SLOB) and SYSFS (KASAN with SLUB).  KASAN, UNWINDER_FRAME_POINTER and KFENCE
# each rebuild the whole kernel (KASAN and the frame pointer change every compile), so from a
# cold cache this takes about an hour on two cores.  Swept but no-ops, the report says why:
# KASAN_INLINE (inside 'if KASAN': it is KASAN's instrumentation type, to set together with it)
# and GCC_PLUGIN_STACKLEAK (GCC_PLUGINS needs gcc's plugin headers, Debian's gcc-12-plugin-dev).
# Left out: ZERO_CALL_USED_REGS (help: "<1%"), another whole rebuild.
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-claims}
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--base tinyconfig --base-add CONFIG_SLUB=y --base-add CONFIG_SYSFS=y \
	--options INIT_ON_FREE_DEFAULT_ON,INIT_ON_ALLOC_DEFAULT_ON,KFENCE,KASAN,KASAN_INLINE,UNWINDER_FRAME_POINTER,GCC_PLUGIN_STACKLEAK \
	--workload boot --workload syscall --runs 3 --seed 26 --dir "$D" >/dev/null
"$K" report --dir "$D"
