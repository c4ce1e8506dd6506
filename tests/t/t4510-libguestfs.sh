#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4510: the libguestfs workload's checks that need no appliance: it is
# listed, it brings its harness profile into a plan, a kernel without that
# profile is refused naming it (the tinyconfig kernel t3200 builds, from
# the shared test cache), and it cannot go to a --runner.
# Booting the appliance for real is tests/slow/t9100 (make check-slow).
. "$(dirname "$0")/lib.sh"
test_need_kernel_source

test_expect_success 'kconfperf workloads lists libguestfs and its tool' '
	kconfperf workloads libguestfs >out &&
	test_grep "^libguestfs" out &&
	test_grep "libguestfs-test-tool on the host" out &&
	test_grep "tool=/usr/bin/libguestfs-test-tool" out
'

test_expect_success 'plan --harness libguestfs merges and records the profile' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --base tinyconfig \
		--harness libguestfs --options PRINTK_TIME --dir planned -q >/dev/null &&
	test "$(sqlite3 planned/kconfperf.db "SELECT value FROM meta WHERE key = \"harness\"")" = \
		"x86_64,libguestfs" &&
	sqlite3 planned/kconfperf.db "SELECT config FROM variant WHERE name = \"baseline\"" >config &&
	test_grep "^CONFIG_SCSI_VIRTIO=y" config &&
	test_grep "^CONFIG_VIRTIO_CONSOLE=y" config &&
	test_grep "^CONFIG_EXT4_FS=y" config
'

# The experiment test_kernel leaves: tinyconfig with the base profile only.
test_kernel >/dev/null 2>&1
kd=$TRASH/.test-kernel

# The one rule (workload_spec_profiles()) refuses the plan without the
# profile; the libguestfs runner's own check of the kernel's config, what
# it lacks symbol by symbol, is test-guestfs's.
test_expect_failure_code 1 'a kernel without the profile is refused before any boot' '
	cp -R "$kd" bare &&
	kconfperf run --dir bare --workload libguestfs --runs 1 --warmup 0 2>err;
	rc=$?; cat err &&
	test_grep "needs the harness profile libguestfs, which the plan in .* lacks" err &&
	test_grep "plan again with --harness libguestfs" err &&
	test "$(sqlite3 bare/kconfperf.db "SELECT count(*) FROM run")" = 0 &&
	! test -e bare/guestfs/*/prepared &&
	exit $rc
'

test_expect_failure_code 1 'the workload cannot go to a --runner' '
	cp -R "$kd" runner &&
	kconfperf run --dir runner --workload libguestfs --runner /bin/true 2>err;
	rc=$?; cat err &&
	test_grep "libguestfs workload boots the kernel on this host: it cannot use --runner" err &&
	exit $rc
'

test_done
