#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t6100: a kernel patch on real kernels: 6.1 with a one-line patch (seed
# 003's, to kernel/locking/Makefile) measured against its unpatched twin,
# the patched kernel built from the unpatched one's object tree.  A patch
# that does not apply stops the plan, naming its hunk, before anything is
# built.  Two kernel versions in one sweep are tests/slow/t6110's (6.12's
# kernels are builds from scratch, past CI's hour).
#
# Kernels: the 6.1 baseline comes from the shared test cache (t3200); this
# test adds the patched 6.1 baseline (seconds, seeded).  Runs are judged on
# guest time (icount), which host load cannot move.
. "$(dirname "$0")/lib.sh"
test_need_kernel_source

# A one-line change as seed 003 has it: lockdep.c without KASAN.
cat >lockdep-kasan.patch <<'EOF'
--- a/kernel/locking/Makefile
+++ b/kernel/locking/Makefile
@@ -6,6 +6,7 @@
 obj-y += mutex.o semaphore.o rwsem.o percpu-rwsem.o
 
 # Avoid recursion lockdep -> sanitizer -> ... -> lockdep.
+KASAN_SANITIZE_lockdep.o := n
 KCSAN_SANITIZE_lockdep.o := n
 KMSAN_SANITIZE_lockdep.o := n
 
EOF
# The same change made for a tree that has other context there.
sed 's/^ KCSAN_SANITIZE_lockdep.o := n$/ KCSAN_SANITIZE_spinlock.o := n/' \
	lockdep-kasan.patch >stale.patch

sql() {
	sqlite3 "$1/kconfperf.db" "$2"
}

test_expect_success 'a patch that does not apply stops the plan before any build' '
	test_must_fail_with() { "$@"; test $? = 1; } &&
	test_must_fail_with kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--patch stale.patch --base tinyconfig --dir stale 2>stale.err &&
	cat stale.err &&
	test_grep "stale.patch:3: hunk #1 of kernel/locking/Makefile does not apply to 6.1.192" \
		stale.err &&
	! test -d stale/logs &&
	{ ! test -e stale/kconfperf.db || test "$(sql stale "SELECT count(*) FROM variant")" = 0; }
'

test_expect_success 'a patched kernel, measured against its unpatched twin' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--patch lockdep-kasan.patch --base tinyconfig --workload boot --runs 3 \
		--seed 5 --dir patch >patch.txt 2>patch.err &&
	cat patch.err patch.txt &&
	sed -n "/^6.1+lockdep-kasan against 6.1 (the patch lockdep-kasan.patch, config for config): boot time/,/^workload:/p" \
		patch.txt >twin.txt &&
	test_grep "^baseline  *[0-9.]* s  *[0-9.]* s  *[-+][0-9.]*% \\[" twin.txt
'

test_expect_success 'the patched kernel was built from the unpatched tree, incrementally' '
	base=$(sql patch "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"6.1:baseline\"") &&
	seed=$(sql patch "SELECT b.seeded_from FROM build b JOIN variant v
		ON v.config_hash = b.config_hash WHERE v.name = \"6.1+lockdep-kasan:baseline\"") &&
	test -n "$base" && test "$seed" = "$base" &&
	test_grep "^  baseline  *[0-9.]* s (seeded from the unpatched tree), unpatched [0-9.]* s$" \
		patch.txt &&
	log=$(sql patch "SELECT b.log_path FROM build b JOIN variant v
		ON v.config_hash = b.config_hash WHERE v.name = \"6.1+lockdep-kasan:baseline\"") &&
	compiled=$(grep -c "^  CC " "$log" || :) &&
	echo "the patched build compiled $compiled files" &&
	test "$compiled" -lt 40
'

test_done
