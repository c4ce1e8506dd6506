#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4700: --arch arm64 end to end: a sweep cross-builds Debian's 6.1
# tinyconfig and +PRINTK_TIME for arm64, boots both under
# qemu-system-aarch64 -M virt and reports them on guest time; runs repeat to
# the nanosecond per layout seed; the instruction meter's total is qemu's
# own count; mixed-arch mistakes are clear errors.
# Kernels: the two arm64 kernels of lib.sh's ARM64_PLAN_ARGS (shared with
# t4710; t4720 adds PROVE_LOCKING), the baseline 1019 s from a cold cache on a
# loaded host here; then the script takes 3-6 minutes.
. "$(dirname "$0")/lib.sh"
test_need_arm64
command -v sqlite3 >/dev/null || test_skip_all "no sqlite3"

q() {
	sqlite3 "$1/kconfperf.db" "$2"
}

test_expect_success 'an x86 .config with --arch arm64 is refused, naming the mistake' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --arch arm64 \
		--base "$FIXTURES/kconfig-index/tiny-6.1.config" --options PROVE_LOCKING \
		--dir mixed 2>err; test $? = 2 &&
	test_grep "is a .config for x86_64 (CONFIG_X86_64=y), not for --arch arm64" err &&
	test ! -e mixed/kconfperf.db
'

test_expect_success 'an arch kconfperf has no machine for is refused, listing those it has' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --arch riscv \
		--base tinyconfig --options PROVE_LOCKING --dir riscv 2>err; test $? = 2 &&
	test_grep "cannot build and boot arch .riscv. (it can: x86_64, arm64)" err
'

test_expect_success 'sweep --arch arm64 builds, boots under qemu-system-aarch64 and reports' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" $ARM64_PLAN_ARGS --workload boot \
		--runs 3 --warmup 0 --seed 4500 --dir exp >report.txt 2>err &&
	cat report.txt &&
	test "$(q exp "SELECT count(*) FROM run WHERE status = \"ok\"")" = 9
'

test_expect_success 'the kernels are arm64 Images, built with the cross compiler' '
	test "$(q exp "SELECT value FROM meta WHERE key = \"arch\"")" = arm64 &&
	test "$(q exp "SELECT value FROM meta WHERE key = \"cross_compile\"")" = aarch64-linux-gnu- &&
	test "$(q exp "SELECT value FROM meta WHERE key = \"harness\"")" = arm64,ramdisk &&
	q exp "SELECT image FROM build" >images &&
	test "$(wc -l <images)" = 2 &&
	while read -r image; do
		case "$image" in */Image) ;; *) echo "not an Image: $image"; exit 1 ;; esac &&
		# the arm64 Image header: "ARM\x64" at offset 56
		test "$(od -An -c -j56 -N3 "$image" | tr -d " ")" = ARM || exit 1
	done <images &&
	q exp "SELECT config FROM variant WHERE name = \"baseline\"" >baseline.config &&
	test_grep "^CONFIG_ARM64=y" baseline.config &&
	test_grep "^CONFIG_SERIAL_AMBA_PL011_CONSOLE=y" baseline.config &&
	test_grep "^CONFIG_VIRTIO_CONSOLE=y" baseline.config &&
	test_grep "^CONFIG_CC_VERSION_TEXT=\"aarch64-linux-gnu-gcc" baseline.config
'

test_expect_success 'runs used qemu-system-aarch64 -M virt, icount and the arm64 guest' '
	test "$(q exp "SELECT value FROM meta WHERE key = \"qemu\"")" = qemu-system-aarch64 &&
	test "$(q exp "SELECT value FROM meta WHERE key = \"cpu\"")" = cortex-a57 &&
	test "$(q exp "SELECT DISTINCT clock FROM run")" = icount &&
	test "$(q exp "SELECT DISTINCT clocksource FROM run")" = arch_sys_counter &&
	kconfperf run --dir exp --workload boot --print-command baseline >cmd &&
	test_grep "^qemu-system-aarch64 -M virt -accel tcg -cpu cortex-a57 " cmd &&
	test_grep "virtconsole,chardev=kcp-results" cmd &&
	test_grep "console=ttyAMA0 quiet panic=-1 norandmaps nokaslr kcp.layout=" cmd &&
	test_grep " -plugin file=[^ ]*kcp-meter.so,out=[^ ]*,map=[^ ]*System.map," cmd
'

# qemu counts instructions itself under -icount (QMP query-replay): the
# meter's total must be that count, to the instruction, on arm64 as on x86
# (t4400).  An instruction that takes a data abort (a page fault) starts
# twice and retires once: a boot of the baseline has 44 such aborts,
# hackbench 1,806 (qemu's -d int log), and the meter counts retirements
# (docs/meter.md).  Two runs of a few seconds each.
test_expect_success 'meter: its total is qemu'"'"'s own instruction count, on boot and hackbench' '
	command -v python3 >/dev/null || { echo "no python3"; false; } &&
	for w in boot hackbench; do
		meter_equals_qemu exp $w &&
		test_grep "^qemu-system-aarch64 " $w-command || return 1
	done
'

# Under icount a run repeats to the nanosecond for its layout seed, on arm64
# as on x86; the seeds differ between runs and variants, and so do the
# command line's kcp.phase= padding and where the boot's ticks fall: the A/A
# control has an interval and is not marked.  (The
# verdict on PROVE_LOCKING is tests/slow/t4720's: its kernel does not fit CI.)
test_expect_success 'the report is arm64 guest time; the A/A control is not marked' '
	awk "/^metric: *time/ { t = 1 } /^metric: *(wall|boot)/ { t = 0 } t" report.txt >own.txt &&
	cat own.txt &&
	test_grep "^kernel: *6\\.1\\.[0-9]* (arm64)$" own.txt &&
	test_grep "^clock: *guest time counted in instructions" own.txt &&
	grep "^CONFIG_PRINTK_TIME=y" own.txt >row &&
	test_grep "\\[[-+][0-9.]*% \\.\\. [-+][0-9.]*%\\]" row &&
	test_grep "^A/A control: baseline-again .* [-+][0-9.]*% \\[[-+][0-9.]*% \\.\\. [-+][0-9.]*%\\], not marked" own.txt
'

IMAGE=$(q exp "SELECT b.image FROM build b JOIN variant v ON v.config_hash = b.config_hash
	WHERE v.name = 'baseline'" 2>/dev/null)

test_expect_success 'a run repeated with its layout seed repeats to the nanosecond' '
	for i in 1 2; do
		kconfperf vm --arch arm64 --kernel "$IMAGE" --initramfs exp/initramfs.gz \
			--layout-seed 77 -w hackbench --dir vm$i >vm$i.out || exit 1
	done &&
	grep "^sample:" vm1.out >s1 && grep "^sample:" vm2.out >s2 &&
	# each iteration'"'"'s time and the instruction meter'"'"'s count (docs/meter.md)
	test "$(wc -l <s1)" = 6 &&
	test "$(grep -c "^sample: hackbench instructions [0-2] [0-9.]* insn$" s1)" = 3 &&
	test_grep "^meter: [0-9]* instructions: .* kernel (" vm1.out &&
	test_cmp s1 s2
'

test_expect_success 'the ramdisk profile gives dd a block device on arm64' '
	kconfperf vm --arch arm64 --kernel "$IMAGE" --initramfs exp/initramfs.gz \
		-w dd:dev=/dev/ram0,direct=0,bs=16k,count=1024,iterations=1 --dir dd >dd.out &&
	test_grep "^status: ok" dd.out &&
	test_grep "^sample: dd throughput 0 " dd.out
'

test_expect_success 'an x86 guest for an arm64 experiment is refused before any run' '
	KCP_GUEST_ARM64=$KCP_BUILD/kcp-guest kconfperf run --dir exp --workload syscall \
		--runs 1 --warmup 0 2>err; test $? = 1 &&
	test_grep "the guest program .*kcp-guest. is a program for x86_64, not arm64" err &&
	test "$(q exp "SELECT count(*) FROM run")" = 9
'

# A host program cannot run in an arm64 guest: --workload-exec must be an
# arm64 program, which the exec workload then runs.
test_expect_success 'exec: an x86 --workload-exec is refused, an arm64 one runs' '
	printf "int main(void) { return 0; }\n" >prog.c &&
	cc -static -o prog-x86 prog.c &&
	kconfperf run --dir exp --workload exec --workload-exec prog-x86 --runs 1 \
		--warmup 0 2>err; test $? = 1 &&
	test_grep "workload-exec .prog-x86. is a program for x86_64, not arm64" err &&
	aarch64-linux-gnu-gcc -static -o prog-arm64 prog.c &&
	kconfperf initramfs -o exec.gz --guest "$KCP_BUILD/kcp-guest-arm64" \
		--add prog-arm64:/workload &&
	kconfperf vm --arch arm64 --kernel "$IMAGE" --initramfs exec.gz -w exec \
		--dir exec >exec.out &&
	test_grep "^status: ok" exec.out &&
	test "$(grep -c "^sample: exec time" exec.out)" = 3
'

test_expect_success 'the arch is taken from an arm64 baseline .config' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--base baseline.config --options PROVE_LOCKING --dir fromconfig -q >/dev/null &&
	test "$(q fromconfig "SELECT value FROM meta WHERE key = \"arch\"")" = arm64 &&
	q fromconfig "SELECT config FROM variant WHERE name = \"baseline\"" >again.config &&
	kconfperf config diff baseline.config again.config >diff &&
	test_cmp /dev/null diff
'

test_expect_success 'a cross compiler that cannot be run is said, with its package' '
	mkdir -p nocc &&
	for t in make sh tar xz gzip; do
		p=$(command -v $t) && ln -sf "$p" nocc/$t || exit 1
	done &&
	PATH=$TRASH/bin:$TRASH/nocc kconfperf plan --cache "$KCP_TEST_CACHE" \
		$ARM64_PLAN_ARGS --dir nocompiler 2>err; test $? = 1 &&
	test_grep "arm64 kernels are built with .aarch64-linux-gnu-gcc., which cannot be run: install gcc-aarch64-linux-gnu" err &&
	kconfperf plan --cache "$KCP_TEST_CACHE" $ARM64_PLAN_ARGS --cross-compile no-such- \
		--dir nocompiler 2>err; test $? = 1 &&
	test_grep "built with .no-such-gcc. (--cross-compile no-such-), which cannot be run" err
'

test_done
