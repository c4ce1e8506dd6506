#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4300: boot a real kernel under qemu TCG with kcp-guest and check how each kind of run is recorded.
. "$(dirname "$0")/lib.sh"

KERNEL=$(test_kernel) || KERNEL=
GUEST=$KCP_BUILD/kcp-guest
[ -r "$KERNEL" ] || test_skip_all "no kernel: set KCP_TEST_KERNEL to a bzImage"
[ -x "$GUEST" ] || test_skip_all "no $GUEST (make builds it)"
command -v qemu-system-x86_64 >/dev/null || test_skip_all "no qemu-system-x86_64"

# Seconds since an arbitrary point, with a fraction.
now() {
	date +%s.%N
}

# elapsed START: seconds from START to now
elapsed() {
	echo "$1 $(now)" | awk '{ printf "%.1f\n", $2 - $1 }'
}

# less_than A B: A < B, for decimals
less_than() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

vm() {
	kconfperf vm --kernel "$KERNEL" --initramfs initramfs.gz --accel tcg "$@"
}

test_expect_success 'the initramfs holds kcp-guest as /init' '
	kconfperf initramfs -o initramfs.gz --guest "$GUEST" &&
	gzip -dc initramfs.gz | cpio -t --quiet >list &&
	test_grep "^init$" list &&
	test_grep "^dev/console$" list
'

test_expect_success 'a boot run is ok and reports its boot time' '
	mkdir boot &&
	vm -w boot --dir boot --timeout 60 >out &&
	test_grep "^status: ok$" out &&
	test_grep "^accel: tcg$" out &&
	test_grep "^boot_s: [0-9]*\.[0-9]*$" out &&
	test_grep "^seconds: [0-9]*\.[0-9]*$" out &&
	test_grep "^KCP 1 done" boot/results.txt &&
	test_grep "reboot: Power down" boot/console.txt
'

test_expect_success 'under icount a run repeats to the nanosecond with the same layout seed' '
	for i in 1 2; do
		mkdir -p same$i &&
		vm -w fork:iterations=2,forks=50 --layout-seed 7 --dir same$i >same$i/out ||
		return 1
	done &&
	test_grep "^clock: icount (shift 0, 1 instruction = 1 ns)$" same1/out &&
	test_grep "^clocksource: " same1/out &&
	grep "^sample:\|^boot_s:" same1/out >s1 &&
	grep "^sample:\|^boot_s:" same2/out >s2 &&
	# boot_s, and each iteration'"'"'s time and the meter'"'"'s instructions
	test "$(wc -l <s1)" = 5 &&
	test "$(grep -c "^sample: fork instructions [01] [0-9.]* insn$" s1)" = 2 &&
	test_cmp s1 s2
'

# Another seed moves the layout, and through kcp.phase='s padding (vm.h)
# where the timer ticks fall in the boot: seeds sample the boot's tick
# phase instead of every run of a kernel landing on the same tick.
test_expect_success 'another layout seed moves the layout and the boot'"'"'s tick phase' '
	mkdir -p other &&
	vm -w fork:iterations=2,forks=50 --layout-seed 8 --dir other >other/out &&
	grep "^sample:" other/out >s3 && grep "^sample:" same1/out >s1b &&
	! test_cmp s1b s3 &&
	for seed in 9 10 11 12; do
		mkdir -p phase$seed &&
		vm -w boot --layout-seed $seed --dir phase$seed >phase$seed/out &&
		vm -w boot --layout-seed $seed --dir phase$seed --print-command >phase$seed/cmd ||
		return 1
	done &&
	cat phase*/out | grep "^boot_s:" | sort -u >boots &&
	cat boots &&
	test "$(wc -l <boots)" -gt 1 &&
	cat phase*/cmd | grep -o "kcp.phase=x*" | sort -u >phases &&
	test "$(wc -l <phases)" -gt 1
'

test_expect_success '--clock host: qemu without icount, and the run says so' '
	mkdir -p host &&
	vm -w boot --clock host --dir host >host/out &&
	test_grep "^clock: host$" host/out &&
	vm -w boot --clock host --dir host --print-command >host/command &&
	! grep -e "-icount" host/command
'

test_expect_success '--print-command prints a shell command that does the same run' '
	mkdir cmd &&
	vm -w boot --dir cmd --print-command >command &&
	test_grep "^qemu-system-x86_64 -accel tcg -cpu qemu64 " command &&
	test_grep " -icount shift=0,sleep=off -rtc base=2001-01-01T00:00:00,clock=vm -plugin file=[^ ]*/kcp-meter.so,out=[^ ]*cmd/meter.txt," command &&
	test_grep "-append .console=ttyS0 quiet panic=-1 noapictimer .* norandmaps nokaslr kcp.layout=00000000000000000000 kcp.phase= kcp.workload=boot.$" command &&
	! test -e cmd/results.txt &&
	sh command &&
	test_grep "^KCP 1 done" cmd/results.txt &&
	test_grep "^end$" cmd/meter.txt
'

# Whether KVM works here decides what --accel auto must do: the probe runs
# once, and each case below asserts what it names or is a counted skip.
mkdir auto &&
start=$(now) &&
kconfperf vm --kernel "$KERNEL" --initramfs initramfs.gz --accel auto \
	--print-command --dir auto >auto/command 2>auto/err
auto_took=$(elapsed $start)
if grep -q "using kvm" auto/err; then
	test_expect_success '--accel auto uses KVM where it works' '
		test_grep "^qemu-system-x86_64 -accel kvm " auto/command
	'
	test_skip '--accel auto bounds a KVM that hangs' 'KVM works on this machine'
else
	test_expect_success '--accel auto decides quickly that KVM does not work here, and says so' '
		echo "decided in $auto_took s" &&
		cat auto/err &&
		test_grep "^kconfperf: kvm probe: .*; using tcg$" auto/err &&
		test_grep "^qemu-system-x86_64 -accel tcg " auto/command &&
		less_than "$auto_took" 10
	'

	test_expect_success '--accel auto bounds a KVM that hangs (here: any -cpu but host)' '
		start=$(now) &&
		kconfperf vm --kernel "$KERNEL" --initramfs initramfs.gz --accel auto \
			--cpu qemu64 --print-command --dir auto2 >command 2>err &&
		took=$(elapsed $start) &&
		echo "decided in $took s" &&
		cat err &&
		test_grep "^kconfperf: kvm probe: .*; using tcg$" err &&
		less_than "$took" 10
	'
fi

test_expect_success 'a hanging guest is killed at the timeout and recorded as a timeout' '
	mkdir hang &&
	start=$(now) &&
	! vm -w hang --dir "$TRASH/hang" --timeout 20 >out &&
	took=$(elapsed $start) &&
	cat out &&
	test_grep "^status: timeout$" out &&
	test_grep "^reason: timed out after 20 s (the guest was ready" out &&
	less_than "$took" 24 &&
	test -z "$(ps -eo args | grep -F "$TRASH/hang/" | grep -v grep)"
'

test_expect_success 'a kernel panic is recorded as a panic' '
	mkdir panic &&
	! vm -w panic --dir panic --timeout 60 >out &&
	cat out &&
	test_grep "^status: panic$" out &&
	test_grep "^reason: kernel panic" out &&
	test_grep "^Kernel panic - not syncing" out
'

test_expect_success 'a workload that fails is recorded as a guest error' '
	mkdir error &&
	! vm -w dd:dev=/dev/nonexistent --dir error --timeout 60 >out &&
	cat out &&
	test_grep "^status: guest-error$" out &&
	test_grep "^reason: guest error: .*/dev/nonexistent" out
'

test_expect_success 'the dd workload reads a virtio disk attached with --disk' '
	mkdir dd &&
	head -c 8388608 /dev/zero >disk.raw &&
	vm -w dd:count=8,iterations=2 --disk disk.raw --dir dd --timeout 60 >out &&
	cat out &&
	test_grep "^status: ok$" out &&
	test_grep "^sample: dd throughput 1 [0-9.]* MB/s$" out
'

test_expect_success 'a --runner that boots qemu itself gets the run and is parsed the same' '
	mkdir runner &&
	KCP_RUNNER_LOG=$TRASH/runner-env \
	kconfperf vm --kernel "$KERNEL" --initramfs initramfs.gz -w boot --dir runner \
		--runner "$FIXTURES/runner-qemu.sh" --timeout 60 >out &&
	cat out &&
	test_grep "^status: ok$" out &&
	test_grep "^accel: runner$" out &&
	test_grep "^boot_s: " out &&
	test_grep "^KCP_KERNEL=/" runner-env &&
	test_grep "^KCP_INITRAMFS=$TRASH/initramfs.gz$" runner-env &&
	test_grep "^KCP_CMDLINE=console=ttyS0 quiet panic=-1 kcp.workload=boot$" runner-env &&
	test_grep "^KCP_WORKLOAD=boot$" runner-env &&
	test_grep "reboot: Power down" runner/console.txt
'

test_expect_success 'a hanging --runner times out the same way' '
	mkdir runner-hang &&
	! kconfperf vm --kernel "$KERNEL" --initramfs initramfs.gz -w hang \
		--dir runner-hang --runner "$FIXTURES/runner-qemu.sh" --timeout 20 >out &&
	cat out &&
	test_grep "^status: timeout$" out &&
	test_grep "^accel: runner$" out
'

test_done
