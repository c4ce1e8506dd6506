#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4600 (make check-slow): cmd: workloads on real 6.1 kernels under qemu TCG (icount): the
# host's programs inside the guest over virtio-9p, scratch disks through
# lvm, dm-crypt and ext4, --extract, failures inside the guest, and a sweep
# that reports a program's time and its own number per variant beside a
# parameter series.  Kernels: the tinyconfig baseline with the harness
# profiles 9p, disk, crypt and ramdisk ($TEST_CMD_HARNESS), seeded from a
# kept tinyconfig tree, and its PRINTK_TIME variant (a leaf, seeded from
# its tree): the one cmd: kernel pair the suite builds, shared by every
# test here.  With them cached it took 5 minutes here (22 guest boots, a dd
# on a ram disk 6 s, bonnie++ at icount shift 5 about 40 s); from a cold
# cache, with the meter in every run, 1619 s, so it left make check for CI's
# hour.  t4500 checks the host side of cmd: workloads in seconds.
. "$(dirname "$0")/../t/lib.sh"
test_need_kernel_source
GUEST=$KCP_BUILD/kcp-guest
[ -x "$GUEST" ] || test_skip_all "no $GUEST (make builds it)"
command -v qemu-system-x86_64 >/dev/null || test_skip_all "no qemu-system-x86_64"
for tool in lvm cryptsetup mkfs.ext4 dd gcc bonnie++; do
	command -v "$tool" >/dev/null || test_skip_all "no $tool on this host (run scripts/deps)"
done

DD='cmd:dd if=/dev/kcp/vda of=/dev/null bs=8k count=2000 iflag=direct'
MBS='throughput,MB/s,higher,re:([0-9.]+) [kMG]?B/s'

# (paths without blanks: the test cache and Debian's tarball)
SWEEP_ARGS="--cache $KCP_TEST_CACHE --source $KSRC_TARBALL --base tinyconfig
	--harness $TEST_CMD_HARNESS --options PRINTK_TIME --no-baseline-again --runs 3 --warmup 0 --seed 11
	--timeout 300"

test_expect_success 'sweep runs a host program in the guest and reports its time and number' '
	kconfperf sweep $SWEEP_ARGS --workload "$DD" --scratch 64M:lvm,crypt --extract "$MBS" \
		--workload hackbench:groups=1,2,loops=5,iterations=1 --dir exp >report.txt 2>err ||
		{ cat err; exit 1; }
	cat report.txt &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run WHERE status = \"ok\"")" = 18 &&
	test_grep "^workload: *cmd:dd if=/dev/kcp/vda .* --scratch 64M:lvm,crypt --extract" report.txt &&
	test_grep "^metric: *throughput (MB/s), higher is better: taken from the program" report.txt &&
	test_grep "^metric: *time (s), lower is better: the program.s wall time in the guest" report.txt &&
	test_grep "^clock: *guest time counted in instructions" report.txt &&
	awk "/^metric: *throughput/ { t = 1 } /^metric: *time/ { t = 0 } t" report.txt >mbs &&
	test_grep "^baseline  *[0-9.]* MB/s" mbs &&
	test_grep "^CONFIG_PRINTK_TIME=y  *[0-9.]* MB/s" mbs
'

test_expect_success 'the plan took the profiles, and each run kept the output' '
	test "$(sqlite3 exp/kconfperf.db "SELECT value FROM meta WHERE key = \"harness\"")" = \
		"x86_64,9p,disk,crypt,ramdisk,fast-boot" &&
	ls exp/runs/baseline/*/r0/output.txt >outputs &&
	test_grep "records out" "$(grep "cmd_dd" outputs | head -n 1)" &&
	! ls exp/runs/baseline/*/r0/scratch-*.img 2>/dev/null
'

test_expect_success 'the series is one table, a row per value, in every format' '
	test_grep "^series: *hackbench:iterations=1,groups=1,2,loops=5$" report.txt &&
	test_grep "^Amean     1  " report.txt &&
	test_grep "^Amean     2  " report.txt &&
	! grep -q "^workload: *hackbench" report.txt &&
	kconfperf report --dir exp --format mmtests >mm &&
	test_grep "^kconfperf hackbench:iterations=1,groups=1,2,loops=5 time (s)" mm &&
	test_grep "^Amean     2 " mm &&
	kconfperf report --dir exp --format markdown >md &&
	test_grep "^| groups | baseline | CONFIG_PRINTK_TIME=y |$" md &&
	jq -e "[.kconfperf.series[] | select(.param == \"groups\")][0].rows | length == 2" \
		exp/report.json &&
	kconfperf report --dir exp --format html >html &&
	test_grep "<table class=\"summary series\">" html
'

KERNEL=$(sqlite3 exp/kconfperf.db "SELECT b.image FROM build b JOIN variant v
	ON v.config_hash = b.config_hash WHERE v.name = 'baseline'" 2>/dev/null) || KERNEL=

vm() {
	kconfperf vm --kernel "$KERNEL" --initramfs exp/initramfs.gz --accel tcg --timeout 300 "$@"
}

test_expect_success 'ext4 on a scratch disk: the guest makes it, mounts it, the program writes' '
	vm -w "cmd:dd if=/dev/zero of=/mnt/vda/f bs=64k count=64 conv=fsync" --scratch 32M:ext4 \
		--extract "$MBS" --dir ext4 >out ||
		{ cat out ext4/console.txt; exit 1; }
	test_grep "^status: ok$" out &&
	test_grep "^sample: cmd throughput 0 " out &&
	test_grep "4194304 bytes" ext4/output.txt
'

# A disk in the guest's memory: no image on the host, the same stack on
# /dev/ram0, and its reads are instructions only, so two runs agree to a
# percent (on a virtio disk their waits follow the host: +-30% here).
test_expect_success 'a ram disk: lvm and dm-crypt on /dev/ram0, MB/s that repeats' '
	vm -w "$DD" --scratch 64M:ram,lvm,crypt --print-command >cmdline &&
	test_grep "brd.rd_nr=1 brd.rd_size=65536" cmdline &&
	! grep -q "scratch-vda.img" cmdline &&
	for i in 1 2; do
		vm -w "$DD" --scratch 64M:ram,lvm,crypt --extract "$MBS" --layout-seed 7 \
			--dir ram$i >out$i ||
			{ cat out$i ram$i/console.txt; exit 1; }
		test_grep "^status: ok$" out$i || exit 1
	done &&
	! ls ram1/scratch-*.img 2>/dev/null &&
	test_grep "16384000 bytes" ram1/output.txt &&
	a=$(sed -n "s/^sample: cmd throughput 0 \([0-9.]*\) MB\/s$/\1/p" out1) &&
	b=$(sed -n "s/^sample: cmd throughput 0 \([0-9.]*\) MB\/s$/\1/p" out2) &&
	echo "MB/s: $a and $b" &&
	awk -v a="$a" -v b="$b" "BEGIN { d = (a - b) / a; exit !(a > 0 && d < 0.01 && d > -0.01) }"
'

# The recipes for seeds 003 and 004 (docs/recipes/cmd-compile.sh,
# seed004-bonnie.sh), one run each: here only that they run and yield
# their numbers.
# The compile's source is written in the guest: the guest mounts tmpfs on
# /tmp, /run, /var/tmp and /mnt over the host's root, so a clone of this
# tree under /tmp (as CI's may be) is not there to compile; the headers
# gcc reads come from the host's /usr/include over 9p.
# bonnie++ prints +++++ for a test done in under 0.5 s of guest time: at
# icount shift 0 a 256 MB read is, so the recipe counts 32 ns an
# instruction (shift 5; docs/recipes/seed004-bonnie.sh).
CC_RECIPE="cmd:printf '#include <stdio.h>\\n#include <stdlib.h>\\n#include <string.h>\\nint main(int argc, char **argv)\\n{\\n\\tchar b[64];\\n\\n\\tsnprintf(b, sizeof(b), \"%%s:%%d\", argv[0], argc);\\n\\tputs(b);\\n\\treturn strlen(b) > 3 ? EXIT_SUCCESS : EXIT_FAILURE;\\n}\\n' >t.c && gcc -O2 -c t.c && test -s t.o"
test_expect_success 'recipe 003: a compile in the guest, with the host headers' '
	vm -w "$CC_RECIPE" --dir cc >out ||
		{ cat out cc/console.txt; exit 1; }
	test_grep "^status: ok$" out &&
	test_grep "^sample: cmd time 0 [0-9.]* s$" out
'

test_expect_success 'recipe 004: bonnie++ on ext4 on a ram disk, sequential block input' '
	vm -w "cmd:bonnie++ -d /mnt/vda -s 256M -r 128 -n 0 -u root -f -b -D -q" \
		--scratch 300M:ram,ext4 --mem 1024 --clock icount-idle:5 \
		--extract "seq_block_input,K/s,higher,csv:18" \
		--extract "seq_block_output,K/s,higher,csv:12" --dir bonnie >out ||
		{ cat out bonnie/console.txt; exit 1; }
	test_grep "^status: ok$" out &&
	test_grep "^sample: cmd seq_block_input 0 [0-9]* K/s$" out &&
	test_grep "^sample: cmd seq_block_output 0 [0-9]* K/s$" out &&
	test_grep "^1\.98,2\.00a," bonnie/output.txt
'

test_expect_success 'a program that fails in the guest is a failed run with its reason' '
	vm -w "cmd:sh -c \"echo no such thing >&2; exit 4\"" --dir fail >out
	rc=$?
	cat out &&
	test "$rc" = 1 &&
	test_grep "^status: guest-error$" out &&
	test_grep "^reason: guest error: cmd: .* exited with status 4; its last line: no such thing$" out
'

test_expect_success 'output without the number is a failed run' '
	vm -w "cmd:echo 42 apples" --extract "$MBS" --dir nomatch >out
	rc=$?
	cat out &&
	test "$rc" = 1 &&
	test_grep "^status: malformed$" out &&
	test_grep "no line matches re:.*the last: .42 apples." out
'

test_expect_success 'a program that hangs times out' '
	vm -w "cmd:sh -c \"while :; do :; done\"" --timeout 40 --dir hang >out
	rc=$?
	cat out &&
	test "$rc" = 1 &&
	test_grep "^status: timeout$" out &&
	test_grep "running .sh -c" hang/console.txt
'

test_done
