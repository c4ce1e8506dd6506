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
# test adds the patched 6.1 baseline (seconds, seeded).  The kernel's own
# reports: a second patch, whose initcall inverts two locks, on the baseline
# and PROVE_LOCKING (t6000's), both patched kernels seeded likewise.  Runs are judged on
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

# The kernel's own reports (issue 26): an initcall that takes two locks in
# both orders.  Nothing can deadlock there, but lockdep says so: the
# patched PROVE_LOCKING kernel reports it in every run, its baseline (the
# same patch without lockdep) and the unpatched kernels never.  Both patched
# kernels are built from the unpatched trees (seconds).
cat >lock-inversion.patch <<'EOF'
--- a/kernel/reboot.c
+++ b/kernel/reboot.c
@@ -1310,3 +1310,26 @@
 late_initcall(reboot_ksysfs_init);
 
 #endif
+
+/*
+ * kconfperf's test of the kernel's own reports (tests/t/t6100-patch.sh):
+ * two locks taken in both orders, one after the other.  No deadlock can
+ * happen here, but lockdep (PROVE_LOCKING) reports the inversion; without
+ * it the kernel says nothing.
+ */
+static DEFINE_SPINLOCK(kcp_lock_a);
+static DEFINE_SPINLOCK(kcp_lock_b);
+
+static int __init kcp_lock_inversion(void)
+{
+	spin_lock(&kcp_lock_a);
+	spin_lock(&kcp_lock_b);
+	spin_unlock(&kcp_lock_b);
+	spin_unlock(&kcp_lock_a);
+	spin_lock(&kcp_lock_b);
+	spin_lock(&kcp_lock_a);
+	spin_unlock(&kcp_lock_a);
+	spin_unlock(&kcp_lock_b);
+	return 0;
+}
+late_initcall(kcp_lock_inversion);
EOF

test_expect_success 'kernel reports: lockdep finds the patch'"'"'s lock inversion, only under PROVE_LOCKING' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--patch lock-inversion.patch --base tinyconfig --options PROVE_LOCKING \
		--no-baseline-again --workload boot --runs 2 --seed 5 --dir lockdep \
		>lockdep.txt 2>lockdep.err &&
	cat lockdep.err lockdep.txt &&
	sql lockdep "SELECT DISTINCT v.name, f.kind, f.line FROM finding f
		JOIN run r ON r.id = f.run_id JOIN variant v ON v.id = r.variant_id" >found &&
	cat found &&
	test "$(cat found)" = "6.1+lock-inversion:CONFIG_PROVE_LOCKING=y|lockdep|WARNING: possible circular locking dependency detected" &&
	test_grep "^  6.1+lock-inversion:CONFIG_PROVE_LOCKING=y: 3 of 3 runs: WARNING: possible circular locking dependency detected (lockdep; not in the baseline: 0 of 3 runs)$" \
		lockdep.txt &&
	for f in markdown mmtests json html; do
		kconfperf report --dir lockdep --format $f >lockdep.$f &&
		test_grep "possible circular locking dependency detected" lockdep.$f || exit 1
	done &&
	test_grep "kcp_lock_inversion" lockdep.html &&
	test_grep "kcp_lock_a" lockdep.json
'

test_expect_success 'the environment names what differs: the patched kernels' '
	sed -n "/^measured under:/,\$p" lockdep.txt >env && cat env &&
	test_grep "^  kernel        6.1 (6.1.192)$" env &&
	test_grep "^                differs: 6.1+lock-inversion:baseline: 6.1+lock-inversion (6.1.192 with lock-inversion.patch); " env &&
	test_grep "^  command line  console=ttyS0 quiet panic=-1 .*kcp.layout=<per run>" env &&
	test_grep "^  firmware      SeaBIOS" env &&
	for f in markdown json html; do
		kconfperf report --dir lockdep --format $f >env.$f &&
		test_grep "lock-inversion.patch" env.$f || exit 1
	done
'

test_done
