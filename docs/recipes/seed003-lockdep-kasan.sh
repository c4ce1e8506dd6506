#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Patches (seed 003): what does KASAN_SANITIZE_lockdep.o := n buy back on a KASAN+LOCKDEP kernel?
# The patch is applied to a copy of 6.1 as a source of its own, each config measured against
# its unpatched twin; the patched build is seeded from the unpatched tree (seconds).  Prints
# the patch tables and the build times.
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-seed003}
mkdir -p "$D"
cat >"$D/lockdep-kasan.patch" <<'PATCH'
--- a/kernel/locking/Makefile
+++ b/kernel/locking/Makefile
@@ -6,6 +6,7 @@
 obj-y += mutex.o semaphore.o rwsem.o percpu-rwsem.o
 
 # Avoid recursion lockdep -> sanitizer -> ... -> lockdep.
+KASAN_SANITIZE_lockdep.o := n
 KCSAN_SANITIZE_lockdep.o := n
 KMSAN_SANITIZE_lockdep.o := n
 
PATCH
"$K" sweep ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz \
	--patch "lockdep-kasan=$D/lockdep-kasan.patch" \
	--base tinyconfig --base-add CONFIG_SLUB=y --base-add CONFIG_KASAN=y \
	--base-add CONFIG_PROVE_LOCKING=y --workload boot --workload syscall --workload hackbench \
	--runs 3 --seed 3 --dir "$D/exp" >/dev/null
# The patch's time tables (each workload's own samples), whatever the patched source is named.
"$K" report --dir "$D/exp" | sed -n '/^[^ ]* against 6\.1 (the patch.*: [a-z]* time (/,/^$/p; /^builds of/,/^$/p'
