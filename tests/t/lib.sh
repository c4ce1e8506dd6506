# SPDX-License-Identifier: GPL-3.0-or-later
# tests/t/lib.sh: sourced by every integration test (after git's test-lib.sh).
#
#   . "$(dirname "$0")/lib.sh"
#   test_expect_success 'what it checks' '
#           kconfperf config diff a b >out &&
#           test_cmp expect out
#   '
#   test_done
#
# Each script runs in its own scratch directory ($TRASH), removed when all
# its tests pass.  $KCP_BIN is the binary under test (make check sets it);
# `kconfperf` on PATH runs it.  $SRC_DIR is the repository's top directory.
# A test that needs something this machine lacks calls test_skip_all REASON.

set -u
TEST_NAME=$(basename "$0" .sh)
SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
KCP_BUILD=${KCP_BUILD:-$SRC_DIR/build}
KCP_BIN=${KCP_BIN:-$KCP_BUILD/kconfperf}
FIXTURES=$SRC_DIR/tests/fixtures
# Kernel sources, extracted trees and kernel builds are content-addressed, so
# every test script shares one cache: a kernel built by one test is reused
# by the next, and a second `make check` builds nothing.
KCP_TEST_CACHE=${KCP_TEST_CACHE:-$KCP_BUILD/test-cache}
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
export KCP_TEST_CACHE KSRC_TARBALL
# Real data vendored from ../shared/data, so a clone tests itself.
DATA=$FIXTURES/data
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/kcp-$TEST_NAME.XXXXXX")
mkdir -p "$TRASH/bin"
ln -s "$KCP_BIN" "$TRASH/bin/kconfperf"
PATH=$TRASH/bin:$PATH
export PATH KCP_BIN KCP_BUILD SRC_DIR
cd "$TRASH" || exit 1

test_count=0
test_passed=0
test_failed=0
test_skipped=0

say() { printf '%s\n' "$*"; }

test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		test_passed=$((test_passed + 1))
		say "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		sed 's/^/#    /' "$TRASH/.out" | tail -n 40
	fi
}

test_expect_failure_code() {
	# test_expect_failure_code CODE 'desc' 'commands': the last command must exit CODE
	test_count=$((test_count + 1))
	(eval "$3") >"$TRASH/.out" 2>&1
	rc=$?
	if [ "$rc" = "$1" ]; then
		test_passed=$((test_passed + 1))
		say "ok $test_count - $2"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $2 (exit $rc, expected $1)"
		sed 's/^/#    /' "$TRASH/.out" | tail -n 40
	fi
}

# test_cmp EXPECTED ACTUAL: show a diff when they differ.
test_cmp() {
	diff -u "$1" "$2"
}

# test_grep PATTERN FILE: like grep -q, but shows the file on failure.
test_grep() {
	if ! grep -q -e "$1" "$2"; then
		echo "no '$1' in $2:"
		cat "$2"
		return 1
	fi
}

# Skips the whole script when Debian's kernel sources are not installed
# (scripts/deps installs them, so CI never skips).
test_need_kernel_source() {
	[ -r "$KSRC_TARBALL" ] || test_skip_all "no $KSRC_TARBALL (run scripts/deps)"
}

# test_kernel: prints the path of a bzImage to boot: $KCP_TEST_KERNEL when
# set, else the tinyconfig baseline that t3200 builds (with the harness's
# needs) from Debian's 6.1 sources into the shared test cache, built here if
# this script runs first.  Fails when it cannot be had.
test_kernel() {
	if [ -n "${KCP_TEST_KERNEL:-}" ]; then
		echo "$KCP_TEST_KERNEL"
		return 0
	fi
	[ -r "$KSRC_TARBALL" ] || return 1
	_kd=$TRASH/.test-kernel
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--base tinyconfig --options PRINTK_TIME --dir "$_kd" -q >/dev/null 2>&1 &&
	kconfperf build --dir "$_kd" -q >/dev/null 2>&1 &&
	sqlite3 "$_kd/kconfperf.db" "SELECT b.image FROM build b JOIN variant v
		ON v.config_hash = b.config_hash WHERE v.name = 'baseline'"
}

# The arm64 tests' kernels: tinyconfig with the ramdisk profile, and
# +PRINTK_TIME (a leaf: seeded from the baseline, it rebuilds a few files),
# cross-built for arm64 into the shared test cache.  t4700 and t4710 plan
# the same baseline, so whichever runs first builds it (1019 s here on a
# loaded host) and the other finds it cached.  PROVE_LOCKING rebuilds
# nearly everything (962 s more), so its verdict on arm64 is
# tests/slow/t4720's, planned with ARM64_LOCK_PLAN_ARGS on the same baseline.
ARM64_PLAN_ARGS="--arch arm64 --source $KSRC_TARBALL --base tinyconfig --harness ramdisk
	--options PRINTK_TIME"
ARM64_LOCK_PLAN_ARGS="--arch arm64 --source $KSRC_TARBALL --base tinyconfig --harness ramdisk
	--options PROVE_LOCKING"

# Skips the script unless it can build and boot arm64 kernels.
test_need_arm64() {
	test_need_kernel_source
	command -v aarch64-linux-gnu-gcc >/dev/null ||
		test_skip_all "no aarch64-linux-gnu-gcc (scripts/deps installs gcc-aarch64-linux-gnu)"
	command -v qemu-system-aarch64 >/dev/null ||
		test_skip_all "no qemu-system-aarch64 (scripts/deps installs qemu-system-arm)"
	[ -x "$KCP_BUILD/kcp-guest-arm64" ] ||
		test_skip_all "no $KCP_BUILD/kcp-guest-arm64 (make builds it with aarch64-linux-gnu-gcc)"
}

# test_kernel_arm64 DIR: plans and builds the arm64 kernels in DIR and
# prints the baseline's Image.
test_kernel_arm64() {
	kconfperf plan --cache "$KCP_TEST_CACHE" $ARM64_PLAN_ARGS --dir "$1" -q >/dev/null &&
	kconfperf build --dir "$1" -q >/dev/null &&
	sqlite3 "$1/kconfperf.db" "SELECT b.image FROM build b JOIN variant v
		ON v.config_hash = b.config_hash WHERE v.name = 'baseline'"
}

# The harness profiles of the test baseline that runs host programs:
# cmd: workloads over virtio-9p and scratch disks with ext4, lvm and
# dm-crypt, on the host or in the guest's memory.
TEST_CMD_HARNESS=9p,disk,crypt,ramdisk

# test_skip 'desc' REASON: a test this machine cannot run, counted and shown
# as skipped with its reason (a skip is a result, never a pass).
test_skip() {
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	say "ok $test_count - $1 # SKIP $2"
}

test_skip_all() {
	say "# skipping $TEST_NAME: $*"
	say "0 passed, 0 failed, 1 skipped"
	rm -rf "$TRASH"
	exit 0
}

test_done() {
	say "$test_passed passed, $test_failed failed, $test_skipped skipped"
	cd /
	if [ "$test_failed" = 0 ] && [ -z "${KCP_KEEP_TRASH:-}" ]; then
		rm -rf "$TRASH"
	else
		say "# scratch files kept in $TRASH"
	fi
	[ "$test_failed" = 0 ]
}

# meter_equals_qemu DIR WORKLOAD [RUN-ARGS...]: runs the baseline's WORKLOAD
# run of experiment DIR under tests/t/qmp-icount.py, which asks qemu for its
# own instruction count (QMP query-replay) once the guest has powered off,
# and checks that the meter's total (meter.txt) is that count and that more
# instructions started than retired (the faults).  Leaves WORKLOAD-command
# (qemu's command line) and WORKLOAD-icount in the current directory.
meter_equals_qemu() {
	meq_dir=$1 meq_w=$2
	shift 2
	kconfperf run --dir "$meq_dir" --workload "$meq_w" "$@" --print-command baseline \
		>"$meq_w-command" &&
	test_grep " -plugin file=.*kcp-meter.so,out=.*/meter.txt,map=.*System.map,guest=" \
		"$meq_w-command" &&
	python3 "$SRC_DIR/tests/t/qmp-icount.py" "$TRASH/qmp.sock" "$meq_w-command" >"$meq_w-icount" &&
	meq_txt=$meq_dir/runs/baseline/$meq_w/command/meter.txt &&
	meq_total=$(awk '/^total / { print $2 }' "$meq_txt") &&
	meq_started=$(awk '/^started / { print $2 }' "$meq_txt") &&
	echo "$meq_w: qemu $(cat "$meq_w-icount"), meter $meq_total, started $meq_started" &&
	test "$meq_total" = "$(cat "$meq_w-icount")" &&
	test "$meq_started" -gt "$meq_total"
}
