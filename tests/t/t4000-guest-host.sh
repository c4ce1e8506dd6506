#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4000: kcp-guest --host runs every workload and writes the line protocol
# that `kconfperf workloads --check-output` accepts; host and guest agree on
# the workload table.  Needs $KCP_BUILD/kcp-guest (built by make), no VM.
. "$(dirname "$0")/lib.sh"

GUEST=$KCP_BUILD/kcp-guest
[ -x "$GUEST" ] || test_skip_all "no $GUEST (run make)"

# run_ok NAME ARGS...: runs the guest in --host mode into NAME.out, which
# must be a complete run; NAME.check gets what kconfperf read from it.
run_ok() {
	name=$1
	shift
	"$GUEST" --host "$@" >"$name.out" 2>"$name.err" || {
		echo "kcp-guest $* exited $?"
		cat "$name.out" "$name.err"
		return 1
	}
	kconfperf workloads --check-output "$name.out" >"$name.check" || {
		cat "$name.out"
		return 1
	}
}

# samples NAME: the number of sample lines kconfperf read from NAME.out.
samples() {
	grep -c "^sample " "$1.check"
}

test_expect_success 'kconfperf workloads lists every workload but the test ones' '
	kconfperf workloads >out &&
	for w in boot hackbench syscall fork pipe files dd pagefault exec; do
		test_grep "^$w\$" out || exit 1
	done &&
	! grep -q "^hang\$" out &&
	! grep -q "^panic\$" out &&
	test_grep "^    groups=1 " out &&
	test_grep "throughput in MB/s, higher is better" out
'

test_expect_success 'workloads --all adds hang and panic; NAME shows one' '
	kconfperf workloads --all >out &&
	test_grep "^hang\$" out &&
	test_grep "^panic\$" out &&
	kconfperf workloads dd >out &&
	test_grep "^dd\$" out &&
	test_grep "^    bs=1M " out &&
	! grep -q "^hackbench" out
'

test_expect_success 'an unknown workload name fails, listing the workloads' '
	kconfperf workloads hackbnch 2>err;
	test $? = 1 &&
	test_grep "did you mean .hackbench.? (workloads: boot, hackbench" err
'

test_expect_success 'workloads --cmdline renders every parameter' '
	kconfperf workloads --cmdline hackbench:groups=2,mode=thread >out &&
	echo "kcp.workload=hackbench kcp.iterations=3 kcp.groups=2 kcp.fds=20 kcp.loops=10 kcp.datasize=100 kcp.mode=thread kcp.ipc=socket" >expect &&
	test_cmp expect out
'

test_expect_success 'workloads --cmdline rejects a bad spec, naming what exists' '
	! kconfperf workloads --cmdline hackbench:grups=2 2>err &&
	test_grep "has no parameter .grups. (parameters: iterations, groups, fds" err &&
	! kconfperf workloads --cmdline pipe:trips=0 2>err &&
	test_grep "trips: .0. is out of range (1 to 100000000)" err
'

test_expect_success 'boot' '
	run_ok boot --workload=boot &&
	test "$(samples boot)" = 1 &&
	test_grep "^ready boot_s=" boot.check &&
	test_grep "^done$" boot.check
'

test_expect_success 'hackbench, processes over sockets' '
	run_ok hb --workload=hackbench --groups=2 --loops=5 --iterations=2 &&
	test "$(samples hb)" = 2 &&
	test_grep "workload=hackbench iter=1 time=.* s (lower is better)" hb.check
'

test_expect_success 'hackbench, threads over pipes, bigger messages' '
	run_ok hbt --workload=hackbench --mode=thread --ipc=pipe --fds=5 --loops=20 --datasize=4K &&
	test "$(samples hbt)" = 3
'

test_expect_success 'syscall' '
	run_ok sys --workload=syscall --calls=10000 &&
	test "$(samples sys)" = 3 &&
	test_grep "time=.* ns" sys.check
'

test_expect_success 'fork, and fork+exec of itself' '
	run_ok fork --workload=fork --forks=20 --iterations=1 &&
	run_ok forkexec --workload=fork --forks=20 --exec=1 --iterations=1 &&
	test_grep "time=.* us" forkexec.check
'

test_expect_success 'pipe' '
	run_ok pipe --workload=pipe --trips=500 &&
	test "$(samples pipe)" = 3
'

test_expect_success 'files, in a directory of our own' '
	mkdir files &&
	run_ok files --workload=files --count=50 --size=10000 --dir="$TRASH/files" &&
	test "$(samples files)" = 3 &&
	test -z "$(ls files)"
'

test_expect_success 'dd reads a file (O_DIRECT where the file system has it)' '
	dd if=/dev/zero of=disk.img bs=64k count=16 2>/dev/null &&
	if "$GUEST" --host --workload=dd --dev="$TRASH/disk.img" --bs=64K --count=16 \
		--iterations=1 >probe.out 2>&1; then direct=1; else direct=0; fi &&
	run_ok dd --workload=dd --dev="$TRASH/disk.img" --bs=64K --count=16 --direct=$direct &&
	test_grep "throughput=.* MB/s (higher is better)" dd.check
'

test_expect_success 'dd past the end of the device is an error' '
	dd if=/dev/zero of=small.img bs=4k count=1 2>/dev/null &&
	! "$GUEST" --host --workload=dd --dev="$TRASH/small.img" --bs=4K --count=2 --direct=0 >out 2>err &&
	test_grep "^KCP 1 error msg=\"dd: .*small.img. ends at 4096 bytes" out &&
	! kconfperf workloads --check-output out 2>err &&
	test_grep "incomplete run: guest error: dd:" err
'

test_expect_success 'pagefault' '
	run_ok pf --workload=pagefault --size=8M &&
	test "$(samples pf)" = 3
'

test_expect_success 'exec runs a program; a nonzero exit is an error line' '
	printf "#!/bin/sh\nexit 0\n" >ok.sh && chmod +x ok.sh &&
	printf "#!/bin/sh\nexit 3\n" >fail.sh && chmod +x fail.sh &&
	run_ok exec --workload=exec --prog="$TRASH/ok.sh" --iterations=2 &&
	test "$(samples exec)" = 2 &&
	! "$GUEST" --host --workload=exec --prog="$TRASH/fail.sh" >out 2>err &&
	test_grep "^KCP 1 error msg=\"exec: .*fail.sh. exited with status 3\"" out &&
	! "$GUEST" --host --workload=exec --prog="$TRASH/missing" >out 2>err &&
	test_grep "cannot run .*missing.: No such file or directory" out
'

test_expect_success 'the guest parses the command line kconfperf renders' '
	for spec in boot hackbench:loops=2,groups=1,iterations=1 syscall:calls=1000 \
		fork:forks=5,exec=1 pipe:trips=10 pagefault:size=1M,iterations=2; do
		kconfperf workloads --cmdline "$spec" >cmdline &&
		run_ok cmd "--cmdline=console=ttyS0 quiet $(cat cmdline) panic=-1" || exit 1
	done
'

test_expect_success 'the guest takes quoted kernel words, and stops at --' '
	run_ok q "--cmdline=\"kcp.workload=syscall\" kcp.calls=\"100\" -- kcp.bogus=1" &&
	test "$(samples q)" = 3
'

test_expect_success 'the guest rejects what kconfperf rejects, with the same lists' '
	! "$GUEST" --host --workload=hackbench --grups=2 >out 2>err &&
	test_grep "has no parameter .--grups. (parameters: iterations, groups, fds, loops, datasize, mode, ipc)" out &&
	! "$GUEST" --host --workload=hackbench --mode=fiber >out 2>err &&
	test_grep "mode: .fiber. is not process or thread" out &&
	! "$GUEST" --host --workload=dd --bs=1000 >out 2>err &&
	test_grep "bs: .1000. is not a multiple of 512 bytes" out &&
	! "$GUEST" --host --workload=nope >out 2>err &&
	test_grep "unknown workload .nope. (workloads: boot, hackbench" out &&
	! "$GUEST" --host "--cmdline=kcp.groups=2" >out 2>err &&
	test_grep "no kcp.workload= on the kernel command line" out &&
	! "$GUEST" --host "--cmdline=kcp.workload=pipe kcp.trips=1 kcp.trips=2" >out 2>err &&
	test_grep "parameter .kcp.trips. given twice" out
'

test_expect_failure_code 2 'a bad parameter exits 2 with an error line' '
	"$GUEST" --host --workload=syscall --calls=many >out 2>err
'

test_expect_success 'without --host and not PID 1, kcp-guest only prints its usage' '
	"$GUEST" >out 2>err;
	test $? = 2 &&
	test_grep "^usage: kcp-guest" err &&
	test ! -s out
'

test_expect_success 'kcp-guest --exit exits at once' '
	"$GUEST" --exit
'

test_expect_success 'hang reports ready, then hangs until killed' '
	timeout 2 "$GUEST" --host --workload=hang >out 2>err;
	test $? = 124 &&
	test_grep "^KCP 1 ready " out &&
	! grep -q "done" out
'

test_expect_success 'panic only runs as init' '
	! "$GUEST" --host --workload=panic >out 2>err &&
	test_grep "^KCP 1 error msg=\"the panic workload only runs as init\"" out
'

if [ -c /dev/full ] && [ -w /dev/full ]; then
	test_expect_success 'results that cannot be written fail the run, said once' '
		"$GUEST" --host --workload=syscall --iterations=5 >/dev/full 2>err;
		test $? = 1 &&
		test_cmp - err <<-\EOF
		kcp-guest: cannot write results: No space left on device
		EOF
	'
else
	test_skip 'results that cannot be written fail the run, said once' 'no writable /dev/full'
fi

test_done
