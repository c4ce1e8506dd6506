#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2060: the fast boot (harness profile fast-boot, docs/harness.md): taken by
# default, kept off where the user chose a compression, switched by
# --fast-boot and --no-fast-boot; the plan and every report say what the
# kernels boot as.  On the fake kernel (lib-fast.sh), in seconds.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

# base DIR: the stored baseline's config.
base() {
	q "$1" "SELECT config FROM variant WHERE name = \"baseline\""
}

meta() {
	q "$1" "SELECT value FROM meta WHERE key = \"$2\""
}

test_expect_success 'plan: tinyconfig takes the fast boot, and the plan says so' '
	kconfperf plan --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
		--options DEBUG_A --no-baseline-again --dir fast >out &&
	cat out &&
	test_grep "^harness: x86_64,fast-boot$" out &&
	test_grep "^boot:    bzImage, LZ4 (kconfperf.s fast boot)$" out &&
	base fast >fast.config &&
	test_grep "^CONFIG_KERNEL_LZ4=y" fast.config &&
	test "$(meta fast harness)" = "x86_64,fast-boot" &&
	kconfperf plan --dir fast >again &&
	test_grep "^boot:    bzImage, LZ4" again
'

test_expect_success 'plan: --no-fast-boot keeps the kernel as configured' '
	fake_plan slow DEBUG_A --no-fast-boot >out &&
	kconfperf plan --dir slow >out &&
	cat out &&
	test_grep "^harness: x86_64$" out &&
	test_grep "^boot:    bzImage, the kernel.s default compression (--no-fast-boot)$" out &&
	base slow >slow.config &&
	! grep "^CONFIG_KERNEL_LZ4=y" slow.config
'

test_expect_success 'plan: a .config that names its compression keeps it; --fast-boot overrides' '
	sed "s/^# CONFIG_KERNEL_XZ is not set/CONFIG_KERNEL_XZ=y/" slow.config >distro.config &&
	test_grep "^CONFIG_KERNEL_XZ=y" distro.config &&
	kconfperf plan -q --cache "$CACHE" --source "$FAKE_TREE" --base "$PWD/distro.config" \
		--options DEBUG_A --no-baseline-again --dir distro &&
	test "$(meta distro boot)" = "bzImage, XZ (the baseline .config names its compression)" &&
	base distro >distro-base.config &&
	test_grep "^CONFIG_KERNEL_XZ=y" distro-base.config &&
	kconfperf plan -q --cache "$CACHE" --source "$FAKE_TREE" --base "$PWD/distro.config" \
		--options DEBUG_A --no-baseline-again --fast-boot --dir forced &&
	meta forced boot >forced.boot &&
	test_grep "^bzImage, LZ4 (--fast-boot; the baseline.s own: XZ)$" forced.boot &&
	base forced >forced.config &&
	test_grep "^CONFIG_KERNEL_LZ4=y" forced.config &&
	test_grep "^# CONFIG_KERNEL_XZ is not set" forced.config
'

test_expect_success 'plan: --base-add naming a compression keeps it' '
	fake_plan added DEBUG_A --base-add CONFIG_KERNEL_GZIP=y &&
	test "$(meta added boot)" = "bzImage, gzip (--base-add names the compression)" &&
	test "$(meta added harness)" = x86_64
'

test_expect_success 'plan: --fast-boot and --no-fast-boot are part of the plan key' '
	fake_plan keyed DEBUG_A &&
	k1=$(meta keyed plan_key) &&
	fake_plan keyed DEBUG_A --no-fast-boot &&
	k2=$(meta keyed plan_key) &&
	fake_plan keyed DEBUG_A --fast-boot &&
	k3=$(meta keyed plan_key) &&
	test "$k1" != "$k2" && test "$k2" != "$k3" && test "$k1" != "$k3" &&
	test "$(meta keyed boot)" = "bzImage, LZ4 (--fast-boot)"
'

test_expect_success 'report: every format names the boot' '
	kconfperf sweep -q --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
		--options DEBUG_A --runner "$FAKE_RUNNER" --workload boot --runs 2 --warmup 0 \
		--seed 3 --dir swept >/dev/null &&
	kconfperf report --dir swept >report.txt &&
	test_grep "^boot:     *bzImage, LZ4 (kconfperf.s fast boot)$" report.txt &&
	kconfperf report --dir swept --format markdown >report.md &&
	test_grep "boot: bzImage, LZ4" report.md &&
	kconfperf report --dir swept --format html >report.html &&
	test_grep "boot bzImage, LZ4" report.html &&
	kconfperf report --dir swept --format json >report.json &&
	test_grep "\"boot\": *\"bzImage, LZ4 (kconfperf.s fast boot)\"" report.json
'

test_expect_success 'screen: its plan takes the fast boot and says so too' '
	kconfperf screen -q --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
		--options DEBUG_A,DEBUG_FREE --runner "$FAKE_RUNNER" --workload boot \
		--dir screened >/dev/null 2>&1 &&
	test "$(meta screened harness)" = "x86_64,fast-boot" &&
	test "$(meta screened boot)" = "bzImage, LZ4 (kconfperf'"'"'s fast boot)" &&
	kconfperf report --dir screened >screen.txt &&
	test_grep "^boot:     *bzImage, LZ4" screen.txt
'

# A screen begun before the fast boot, resumed: its new kernels boot as its first did.
test_expect_success 'screen: resumed, a screen planned without the fast boot goes on without it' '
	q screened "UPDATE meta SET value = \"x86_64\" WHERE key = \"harness\"" &&
	kconfperf screen --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
		--options DEBUG_A,DEBUG_FREE --runner "$FAKE_RUNNER" --workload boot \
		--dir screened >/dev/null 2>err &&
	test_grep "planned without the fast boot (harness x86_64): so are the rest" err &&
	test "$(meta screened harness)" = x86_64 &&
	meta screened boot >screened.boot &&
	test_grep "(as the screen began, before the fast boot)" screened.boot
'

test_done
