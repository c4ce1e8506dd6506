#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4100: kcp-guest as /init of a real kernel under qemu (TCG): every workload
# reports ready, samples and done on ttyS1 and the kernel powers off; errors,
# a hang and a panic are reported as such.  The initramfs is made with the
# system's cpio and gzip (not kconfperf's writer, which t4200 tests).
#
# The kernel is $KCP_TEST_KERNEL, else the test cache's tinyconfig baseline (lib.sh's test_kernel);
# without one (or without qemu-system-x86_64, cpio or gzip) the script is
# skipped.  It needs serial 8250 console, initrd+gzip, devtmpfs, proc, sysfs,
# tmpfs, BINFMT_SCRIPT and virtio-blk (docs/design.md's known-good fragment).
# Each boot takes 3-10 s under TCG; KCP_BOOT_TIMEOUT (default 180) bounds one.
# The wall time of each boot is printed as a "# " line at the end.
. "$(dirname "$0")/lib.sh"

KERNEL=$(test_kernel) || KERNEL=
GUEST=$KCP_BUILD/kcp-guest
TIMEOUT=${KCP_BOOT_TIMEOUT:-180}

[ -r "$KERNEL" ] || test_skip_all "no kernel at '$KERNEL' (set KCP_TEST_KERNEL)"
for tool in qemu-system-x86_64 cpio gzip timeout bc; do
	command -v $tool >/dev/null 2>&1 || test_skip_all "no $tool"
done
[ -x "$GUEST" ] || test_skip_all "no $GUEST (run make)"

now() {
	date +%s.%N
}

# qemu NAME CMDLINE [QEMU ARGS...]: docs/design.md's known-good command line, with
# the console in NAME.console and the results port (ttyS1) in NAME.results,
# bounded by TIMEOUT.  It execs, so call it in a subshell: ( qemu ... ).
qemu() {
	name=$1
	cmdline=$2
	shift 2
	exec timeout -k 5 "$TIMEOUT" qemu-system-x86_64 -accel tcg -m 512 -display none \
		-no-reboot -nic none \
		-serial "file:$name.console" -serial "file:$name.results" \
		-kernel "$KERNEL" -initrd "$TRASH/initramfs.gz" \
		-append "console=ttyS0 quiet panic=-1 $cmdline" "$@" \
		</dev/null >"$name.qemu" 2>&1
}

# boot_cmdline NAME CMDLINE [QEMU ARGS...]: boots; fails unless qemu ends by
# itself in time.  Leaves NAME.check (what kconfperf read from the results;
# NAME.check-err says why a run is incomplete) and appends the wall time to
# $TRASH/times.
boot_cmdline() {
	name=$1
	start=$(now)
	( qemu "$@" )
	rc=$?
	printf '%-12s %6.2f s\n' "$name" "$(echo "$(now) - $start" | bc)" >>"$TRASH/times"
	if [ "$rc" != 0 ]; then
		echo "qemu exited $rc (124: timed out after $TIMEOUT s)"
		tail -n 20 "$name.console" "$name.results" "$name.qemu"
		return 1
	fi
	kconfperf workloads --check-output "$name.results" >"$name.check" 2>"$name.check-err"
	return 0
}

# boot NAME SPEC [QEMU ARGS...]: boots with the kernel parameters that
# kconfperf renders for the workload SPEC.
boot() {
	name=$1
	spec=$2
	shift 2
	kconfperf workloads --cmdline "$spec" >"$name.cmdline" || return 1
	boot_cmdline "$name" "$(cat "$name.cmdline")" "$@"
}

# complete NAME SAMPLES: the run was complete with SAMPLES samples and the
# kernel powered off.
complete() {
	if ! grep -q "^done$" "$1.check" || [ -s "$1.check-err" ]; then
		echo "incomplete run $1:"
		cat "$1.check-err" "$1.results"
		tail -n 20 "$1.console"
		return 1
	fi
	test_grep "^ready boot_s=" "$1.check" &&
	test "$(grep -c '^sample ' "$1.check")" = "$2" &&
	test_grep "reboot: Power down" "$1.console"
}

# guest_error NAME PATTERN: the run ended in an error line matching PATTERN
# and the kernel still powered off.
guest_error() {
	test_grep "^KCP 1 error msg=\".*$2" "$1.results" &&
	test_grep "incomplete run: guest error" "$1.check-err" &&
	test_grep "reboot: Power down" "$1.console"
}

test_expect_success 'an initramfs with kcp-guest as /init (system cpio)' '
	mkdir -p root/dev &&
	cp "$GUEST" root/init &&
	printf "#!/init --exit\n" >root/workload &&
	printf "#!/init\n" >root/workload-fails &&
	chmod +x root/workload root/workload-fails &&
	(cd root && find . | cpio -o -H newc --quiet | gzip -1) >initramfs.gz &&
	truncate -s 8M disk.img
'

test_expect_success 'boot' '
	boot boot boot &&
	complete boot 1
'

test_expect_success 'hackbench, processes over sockets' '
	boot hb hackbench:loops=2,iterations=2 &&
	complete hb 2
'

test_expect_success 'hackbench, threads over pipes' '
	boot hbt hackbench:loops=2,iterations=2,mode=thread,ipc=pipe &&
	complete hbt 2
'

test_expect_success 'syscall' '
	boot sys syscall:calls=20000 &&
	complete sys 3
'

test_expect_success 'fork, and fork+exec of /init' '
	boot fork fork:forks=20,iterations=2 &&
	complete fork 2 &&
	boot forkexec fork:forks=10,exec=1,iterations=2 &&
	complete forkexec 2
'

test_expect_success 'pipe' '
	boot pipe pipe:trips=300 &&
	complete pipe 3
'

test_expect_success 'files on the tmpfs /tmp' '
	boot files files:count=100 &&
	complete files 3
'

test_expect_success 'dd reads the virtio disk with O_DIRECT' '
	boot dd dd:bs=64K,count=64 -drive file="$TRASH/disk.img",format=raw,if=virtio &&
	complete dd 3 &&
	test_grep "throughput=.* MB/s (higher is better)" dd.check
'

test_expect_success 'pagefault' '
	boot pf pagefault:size=16M &&
	complete pf 3
'

test_expect_success 'exec runs /workload' '
	boot exec exec:iterations=2 &&
	complete exec 2
'

test_expect_success 'exec: a failing program is an error line, then power off' '
	boot execfail exec:prog=/workload-fails &&
	guest_error execfail "exec: ./workload-fails. exited with status 2"
'

test_expect_success 'dd without a disk is an error line, then power off' '
	boot nodisk dd &&
	guest_error nodisk "dd: cannot open ./dev/vda. with O_DIRECT"
'

test_expect_success 'an unknown kcp.* parameter is an error line, then power off' '
	boot_cmdline badparam "kcp.workload=pipe kcp.trps=1" &&
	guest_error badparam "workload .pipe. has no parameter .kcp.trps. (parameters: iterations, trips)"
'

test_expect_success 'no kcp.workload is an error line, then power off' '
	boot_cmdline noworkload "" &&
	guest_error noworkload "no kcp.workload= on the kernel command line"
'

test_expect_success 'hang: ready, then nothing until the host kills qemu' '
	( qemu hang "kcp.workload=hang" ) &
	qpid=$! &&
	i=0 &&
	while ! grep -q "^KCP 1 ready" hang.results 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt "$TIMEOUT" ]; then
			kill $qpid
			echo "no ready line after $TIMEOUT s"
			exit 1
		fi
		sleep 1
	done &&
	sleep 2 &&
	kill -0 $qpid &&
	kill $qpid &&
	wait $qpid;
	! grep -q "done" hang.results &&
	! grep -q "Power down" hang.console
'

test_expect_success 'panic: the kernel panics and qemu exits by itself' '
	boot panic panic &&
	test_grep "^KCP 1 ready" panic.results &&
	! grep -q "^KCP 1 done" panic.results &&
	test_grep "Kernel panic - not syncing" panic.console
'

if [ -s "$TRASH/times" ]; then
	say "# wall time of each qemu run:"
	sed 's/^/#   /' "$TRASH/times"
fi
test_done
