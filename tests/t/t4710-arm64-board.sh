#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4710: scripts/board-runner, the --runner for a real board booted over
# TFTP with a serial console, end to end against a "board" that is
# qemu-system-aarch64: powering on boots what the runner put in the TFTP
# directory (pxelinux.cfg/default, as U-Boot's `pxe boot` would), its one
# serial line is the console, and the runner picks the protocol lines out of
# it.  Kernels: t4700's two arm64 kernels (lib.sh ARM64_PLAN_ARGS), cached.
. "$(dirname "$0")/lib.sh"
test_need_arm64
command -v sqlite3 >/dev/null || test_skip_all "no sqlite3"
command -v mkfifo >/dev/null || test_skip_all "no mkfifo"

RUNNER=$SRC_DIR/scripts/board-runner
BOARD=$TRASH/board
TFTP=$TRASH/tftp
mkdir -p "$BOARD" "$TFTP"

# The board: power-on reads the TFTP directory like a bootloader and starts
# qemu with its serial port on a FIFO; the connection reads that FIFO;
# power-off stops qemu, as cutting power would.
cat >"$BOARD/power-on" <<'EOF'
#!/bin/sh
set -eu
cfg=$BOARD_TFTP_DIR/pxelinux.cfg/default
kernel=$(sed -n 's/^[[:space:]]*kernel //p' "$cfg")
initrd=$(sed -n 's/^[[:space:]]*initrd //p' "$cfg")
append=$(sed -n 's/^[[:space:]]*append //p' "$cfg")
echo "board: booting $kernel, $initrd: $append" >>"$BOARD_STATE/log"
qemu-system-aarch64 -M virt -cpu cortex-a57 -m 512 -display none -nic none -no-reboot \
	-serial "file:$BOARD_STATE/uart" -kernel "$BOARD_TFTP_DIR/$kernel" \
	-initrd "$BOARD_TFTP_DIR/$initrd" -append "$append" </dev/null >>"$BOARD_STATE/log" 2>&1 &
echo $! >"$BOARD_STATE/qemu.pid"
EOF
cat >"$BOARD/power-off" <<'EOF'
#!/bin/sh
if [ -s "$BOARD_STATE/qemu.pid" ]; then
	kill "$(cat "$BOARD_STATE/qemu.pid")" 2>/dev/null
	rm -f "$BOARD_STATE/qemu.pid"
fi
echo off >>"$BOARD_STATE/power-offs"
EOF
chmod +x "$BOARD/power-on" "$BOARD/power-off"
rm -f "$BOARD/uart"
mkfifo "$BOARD/uart"

BOARD_TFTP_DIR=$TFTP
BOARD_STATE=$BOARD
BOARD_CONNECT="cat $BOARD/uart"
BOARD_POWER_ON=$BOARD/power-on
BOARD_POWER_OFF=$BOARD/power-off
export BOARD_TFTP_DIR BOARD_STATE BOARD_CONNECT BOARD_POWER_ON BOARD_POWER_OFF

q() {
	sqlite3 "$1/kconfperf.db" "$2"
}

# no_board_qemu: no qemu booting from the TFTP directory is left (up to 3 s).
no_board_qemu() {
	i=0
	while ps -eo args | grep -F "$TFTP/" | grep -v grep >/dev/null; do
		i=$((i + 1))
		[ $i -lt 30 ] || { ps -eo pid,args | grep -F "$TFTP/"; return 1; }
		sleep 0.1
	done
}

test_expect_success 'the arm64 kernels (t4700 builds them)' '
	test_kernel_arm64 "$TRASH/kern" >image &&
	test -s "$(cat image)"
'

test_expect_success 'sweep --runner board-runner: every run boots the board and is ok' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" $ARM64_PLAN_ARGS --workload syscall \
		--runner "$RUNNER" --runs 2 --warmup 0 --seed 4600 --dir exp >report.txt 2>err &&
	cat report.txt &&
	test "$(q exp "SELECT count(*) FROM run WHERE status = \"ok\" AND accel = \"runner\"")" = 6 &&
	test "$(q exp "SELECT count(*) FROM sample WHERE metric = \"time\"")" = 18 &&
	test "$(wc -l <"$BOARD/power-offs")" = 6 &&
	no_board_qemu
'

test_expect_success 'the board booted what kconfperf built, with its console and results line' '
	q exp "SELECT image FROM build" >images &&
	found=0 &&
	while read -r i; do
		if cmp -s "$i" "$TFTP/Image"; then found=1; fi
	done <images &&
	test $found = 1 &&
	cmp exp/initramfs.gz "$TFTP/initramfs.gz" &&
	cat "$TFTP/pxelinux.cfg/default" &&
	test_grep "^	kernel Image$" "$TFTP/pxelinux.cfg/default" &&
	test_grep "^	initrd initramfs.gz$" "$TFTP/pxelinux.cfg/default" &&
	test_grep "^	append console=ttyAMA0 quiet panic=-1 kcp.workload=syscall .* kcp.results=/dev/console$" \
		"$TFTP/pxelinux.cfg/default"
'

test_expect_success 'the console is the serial stream; the results are its KCP lines' '
	r=$(ls -d exp/runs/baseline/syscall*/r0) &&
	test_grep "reboot: Power down" "$r/console.txt" &&
	test_grep "^KCP 1 ready " "$r/results.txt" &&
	test_grep "^KCP 1 done" "$r/results.txt" &&
	! grep -v "^KCP " "$r/results.txt"
'

test_expect_success 'a panic on the board is recorded as a panic' '
	kconfperf vm --arch arm64 --runner "$RUNNER" --kernel "$(cat image)" \
		--initramfs exp/initramfs.gz -w panic --dir panic >panic.out; test $? = 1 &&
	cat panic.out &&
	test_grep "^status: panic" panic.out &&
	test_grep "^reason: kernel panic" panic.out &&
	no_board_qemu
'

test_expect_success 'a hung board is stopped at the timeout and powered off' '
	offs=$(wc -l <"$BOARD/power-offs") &&
	kconfperf vm --arch arm64 --runner "$RUNNER" --kernel "$(cat image)" \
		--initramfs exp/initramfs.gz -w hang --timeout 15 --dir hang >hang.out; test $? = 1 &&
	cat hang.out &&
	test_grep "^status: timeout" hang.out &&
	test_grep "the guest was ready" hang.out &&
	test "$(wc -l <"$BOARD/power-offs")" -gt "$offs" &&
	no_board_qemu
'

test_expect_success 'a board the runner cannot reach fails the run, saying why' '
	BOARD_TFTP_DIR=$TRASH/no-such-dir kconfperf vm --arch arm64 --runner "$RUNNER" \
		--kernel "$(cat image)" --initramfs exp/initramfs.gz --dir unreachable \
		>unreachable.out; test $? = 1 &&
	test_grep "^status: exit-failed" unreachable.out &&
	test_grep "BOARD_TFTP_DIR .*is not a directory" unreachable.out
'

test_done
