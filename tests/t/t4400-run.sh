#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4400: kconfperf run on real 6.1 kernels (tinyconfig and +PROVE_LOCKING):
# every run stored at once, resumable after kill -9, failures recorded.
. "$(dirname "$0")/lib.sh"
test_need_kernel_source
command -v qemu-system-x86_64 >/dev/null || test_skip_all "no qemu-system-x86_64"
command -v sqlite3 >/dev/null || test_skip_all "no sqlite3"
[ -x "$KCP_BUILD/kcp-guest" ] || test_skip_all "no $KCP_BUILD/kcp-guest (make builds it)"

# q DIR SQL: query an experiment's database (it may be being written).
q() {
	sqlite3 -cmd ".timeout 10000" "$1/kconfperf.db" "$2"
}

runs_of() {
	q "$1" "SELECT count(*) FROM run"
}

# wait_runs DIR N: until DIR holds at least N runs (at most 5 minutes).
wait_runs() {
	i=0
	while [ "$(runs_of "$1")" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || { echo "still $(runs_of "$1") runs, wanted $2"; return 1; }
		sleep 0.5
	done
}

# no_qemu_in DIR: no qemu with a file under DIR is left (after up to 3 s).
no_qemu_in() {
	i=0
	while ps -eo args | grep -F "$1/runs/" | grep -v grep >/dev/null; do
		i=$((i + 1))
		[ $i -lt 30 ] || { ps -eo pid,pgid,args | grep -F "$1/runs/"; return 1; }
		sleep 0.1
	done
}

plan_build() {
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--base tinyconfig --options PROVE_LOCKING --no-baseline-again \
		--dir "$1" -q >"$1.plan" &&
	kconfperf build --dir "$1" -q >"$1.build"
}

# The variants' hackbench means, "baseline MEAN" and "CONFIG_PROVE_LOCKING=y MEAN".
MEANS="SELECT v.name, avg(s.value) FROM sample s JOIN run r ON r.id = s.run_id
	JOIN variant v ON v.id = r.variant_id
	WHERE r.warmup = 0 AND r.status = 'ok' AND r.workload = 'hackbench' AND s.metric = 'time'
	GROUP BY v.name ORDER BY v.position"

RUN="kconfperf run --dir exp --workload hackbench"

test_expect_success 'plan and build tinyconfig and +PROVE_LOCKING (cached once built)' '
	plan_build "$TRASH/exp" &&
	cat exp.build &&
	test "$(q exp "SELECT count(*) FROM build WHERE status = \"ok\"")" = 2
'

test_expect_success 'run: 2 variants x (1 warm-up + 5 rounds) of hackbench, all ok' '
	$RUN --runs 5 --warmup 1 --seed 3 2>err &&
	cat err &&
	test "$(runs_of exp)" = 12 &&
	test "$(q exp "SELECT count(*) FROM run WHERE status = \"ok\"")" = 12 &&
	test "$(q exp "SELECT count(*) FROM run WHERE warmup = 1 AND round = -1")" = 2 &&
	test "$(q exp "SELECT count(*) FROM sample WHERE metric = \"time\"")" = 36 &&
	test "$(q exp "SELECT count(*) FROM run WHERE boot_s > 0 AND wall_s > boot_s")" = 12 &&
	# not a terminal: one line per run
	test "$(grep -c "^kconfperf: \[[0-9]*/12\] hackbench .*: ok in " err)" = 12
'

# The instruction meter (docs/meter.md) counted every one of those runs.
test_expect_success 'meter: every run has instructions per iteration, totals and a profile' '
	test "$(q exp "SELECT value FROM meta WHERE key = \"meter\"")" = on &&
	test_grep "^kconfperf: instruction meter on" err &&
	test "$(q exp "SELECT count(*) FROM sample WHERE metric = \"instructions\"
		AND unit = \"insn\" AND value > 0")" = 36 &&
	test "$(q exp "SELECT count(*) FROM meter WHERE has_map = 1 AND boot > 0
		AND work > 0 AND iterations = 3 AND note IS NULL
		AND total = before_kernel + kernel + kernel_other + user_space")" = 12 &&
	test "$(q exp "SELECT count(*) FROM meter_profile WHERE phase = \"work\"")" = 12 &&
	# nokaslr: the map holds, so nearly all of the kernel is in its functions
	test "$(q exp "SELECT count(*) FROM meter WHERE kernel_other * 100 < kernel")" = 12
'

test_expect_success 'meter: PROVE_LOCKING costs instructions, and lockdep is where they went' '
	kconfperf profile --dir exp --diff baseline CONFIG_PROVE_LOCKING=y --top 8 >diff &&
	cat diff &&
	sed -n "3,6p" diff >top &&
	test_grep "lock_acquire" top &&
	test_grep "busy: the change (+[0-9.]*%)" diff &&
	base=$(q exp "SELECT avg(s.value) FROM sample s JOIN run r ON r.id = s.run_id
		JOIN variant v ON v.id = r.variant_id WHERE s.metric = \"instructions\"
		AND v.name = \"baseline\" AND r.warmup = 0") &&
	lock=$(q exp "SELECT avg(s.value) FROM sample s JOIN run r ON r.id = s.run_id
		JOIN variant v ON v.id = r.variant_id WHERE s.metric = \"instructions\"
		AND v.name = \"CONFIG_PROVE_LOCKING=y\" AND r.warmup = 0") &&
	echo "instructions per iteration: $base -> $lock" &&
	awk -v a="$base" -v b="$lock" "BEGIN { exit !(b > 1.5 * a) }" &&
	# the profile rows add up to the instructions metric (busy, per iteration)
	kconfperf profile --dir exp --top 0 baseline >base.txt &&
	busy=$(awk "/busy \\(idle excluded\\)/ { print \$1 }" base.txt) &&
	awk -v a="$base" -v b="$busy" "BEGIN { d = a - b; exit !(d < 1 && d > -1) }" &&
	# the report says where the cost goes, and that the rows add up
	kconfperf report --dir exp --workload hackbench >report.txt &&
	sed -n "/^where the cost goes: CONFIG_PROVE_LOCKING=y on hackbench/,\$p" report.txt >where &&
	cat where &&
	sed -n "5,8p" where >where-top &&
	test_grep "lock_acquire" where-top &&
	test_grep "^the rows add up to the measured change" where &&
	kconfperf report --dir exp --workload hackbench --format json >report.json &&
	test_grep "\"where\"" report.json
'

test_expect_success 'meter: callgrind_annotate reads a variant profile' '
	if ! command -v callgrind_annotate >/dev/null; then
		echo "no callgrind_annotate (valgrind; scripts/deps installs it)"; false
	fi &&
	kconfperf profile --dir exp --format callgrind -o lock.cg CONFIG_PROVE_LOCKING=y &&
	callgrind_annotate lock.cg >annotated &&
	head -30 annotated &&
	test_grep "PROGRAM TOTALS" annotated &&
	test_grep "vmlinux:__lock_acquire" annotated &&
	test_grep "Events recorded: *Ir" annotated
'

test_expect_success 'auto fell back to tcg, said so, and every run records it' '
	if grep "using kvm" err; then
		test "$(q exp "SELECT DISTINCT accel FROM run")" = kvm
	else
		test_grep "^kconfperf: kvm probe: .*; using tcg$" err &&
		test "$(q exp "SELECT DISTINCT accel FROM run")" = tcg &&
		test "$(q exp "SELECT value FROM meta WHERE key = \"accel\"")" = tcg
	fi
'

test_expect_success 'the conditions are stored in meta' '
	q exp "SELECT key || \"=\" || value FROM meta" >meta &&
	cat meta &&
	test_grep "^seed=3$" meta &&
	test_grep "^smp=1$" meta &&
	test_grep "^mem_mb=512$" meta &&
	test_grep "^runs=5$" meta &&
	test_grep "^warmup=1$" meta &&
	test_grep "^workloads=hackbench$" meta &&
	test_grep "^qemu_version=QEMU emulator version " meta &&
	test_grep "^host=$(uname -n)$" meta &&
	test_grep "^cpu_model=." meta &&
	test_grep "^initramfs_sha256=[0-9a-f]\{64\}$" meta
'

test_expect_success 'each round ran both variants once, in a seeded random order' '
	test "$(q exp "SELECT count(*) FROM (SELECT round FROM run GROUP BY round
		HAVING count(*) = 2 AND min(seq) = 0 AND max(seq) = 1)")" = 6 &&
	q exp "SELECT group_concat(v.name, \" \") FROM (SELECT * FROM run ORDER BY round, seq) r
		JOIN variant v ON v.id = r.variant_id GROUP BY r.round" >orders &&
	cat orders &&
	test "$(sort -u orders | wc -l)" = 2
'

test_expect_success 'PROVE_LOCKING makes hackbench at least 1.5x slower' '
	q exp "$MEANS" >means &&
	cat means &&
	awk -F"|" "NR == 1 { b = \$2 } NR == 2 { p = \$2 }
		END { printf \"ratio %.2f\\n\", p / b; exit !(b > 0 && p >= 1.5 * b) }" means
'

test_expect_success 'the same command again stores nothing new' '
	$RUN --runs 5 --warmup 1 --accel tcg 2>err2 &&
	cat err2 &&
	test_grep "nothing to run: all 12 runs are stored" err2 &&
	test "$(runs_of exp)" = 12
'

test_expect_success 'a second run of the same experiment is refused, naming the first' '
	{ sleep 30 & } &&
	owner=$! &&
	printf "%s 0\n" $owner >exp/kconfperf.lock &&
	{ flock -o exp/kconfperf.lock sleep 30 & } &&
	holder=$! &&
	sleep 0.5 &&
	{ $RUN --runs 6 --warmup 1 --accel tcg 2>err3; rc=$?; } &&
	kill $owner $holder; cat err3 &&
	test "$rc" = 3 &&
	test_grep "another kconfperf is working in .*exp. (pid $owner)" err3 &&
	test "$(runs_of exp)" = 12
'

test_expect_success '--print-command prints the qemu command of a run, which works' '
	$RUN --accel tcg --print-command CONFIG_PROVE_LOCKING=y >command &&
	cat command &&
	image=$(q exp "SELECT b.image FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"CONFIG_PROVE_LOCKING=y\"") &&
	test_grep "^qemu-system-x86_64 -accel tcg -cpu qemu64 -m 512 -smp 1 " command &&
	test_grep " -kernel $image -initrd $TRASH/exp/initramfs.gz " command &&
	test_grep "kcp.workload=hackbench kcp.iterations=3 " command &&
	sh command &&
	test_grep "^KCP 1 done" exp/runs/CONFIG_PROVE_LOCKING=y/hackbench/command/results.txt &&
	test "$(runs_of exp)" = 12
'

# qemu counts instructions itself under -icount (QMP query-replay): the
# meter's total must be that count, to the instruction.  An instruction
# that faults starts twice and retires once (a boot of these kernels has 35
# such page faults, hackbench's forks 1,181): the meter counts retirements
# too (docs/meter.md).
test_expect_success 'meter: its total is qemu'"'"'s own instruction count, on boot and hackbench' '
	command -v python3 >/dev/null || { echo "no python3"; false; } &&
	for w in boot hackbench; do
		meter_equals_qemu exp $w --accel tcg || return 1
	done
'

# On x86_64 the build cache keeps the kernel's exception table beside
# System.map, and the meter takes a callback only at the rep strings that
# may fault (user space, early boot, the copies to and from user space):
# hackbench started its rep strings 29.4 M times, once a callback each,
# before; now about 1 M callbacks in 278 M instructions.
test_expect_success 'meter: the exception table spares most rep strings their callback' '
	test_grep ",extable=.*/extable" hackbench-command &&
	txt=exp/runs/baseline/hackbench/command/meter.txt &&
	test "$(awk "/^extable / { print \$2 }" $txt)" -gt 100 &&
	awk "/^total / { t = \$2 } /^ops / { c = \$4 } END { exit !(c > 0 && 50 * c < t) }" $txt
'

test_expect_success 'meter: a run repeated with its layout seed gives identical counts' '
	kernel=$(q exp "SELECT b.image FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"baseline\"") &&
	for i in 1 2; do
		kconfperf vm --kernel "$kernel" --initramfs exp/initramfs.gz --accel tcg \
			--layout-seed 77 --workload syscall:calls=20000,iterations=2 --dir seed$i >vm$i &&
		cat vm$i || return 1
	done &&
	test_grep "^meter: [0-9]* instructions" vm1 &&
	grep -E "^(fn|mark) " seed1/meter.txt >counts1 &&
	grep -E "^(fn|mark) " seed2/meter.txt >counts2 &&
	test $(grep -c "^fn all " counts1) -gt 1000 &&
	test_cmp counts1 counts2
'

# The fast boot (docs/harness.md): exp's kernels are LZ4 bzImages; the same
# baseline with --no-fast-boot is tinyconfig's XZ (a seeded build of the
# compression alone).  One layout seed boots the same kernel to init on both,
# within 0.05% (measured: 5.6 k of 131.1 M instructions, tick phase and SLOB
# after a longer firmware phase; layout seeds move it 0.7%), while the
# instructions before the kernel fall more than tenfold (911.5 M to 31.9 M).
test_expect_success 'fast boot: LZ4 and XZ boot the same kernel alike, LZ4 far sooner' '
	test "$(q exp "SELECT value FROM meta WHERE key = \"harness\"")" = x86_64,fast-boot &&
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" --base tinyconfig \
		--options PRINTK --no-baseline-again --no-fast-boot --dir xz -q >xz.plan &&
	test "$(q xz "SELECT value FROM meta WHERE key = \"boot\"")" = "bzImage, XZ (--no-fast-boot)" &&
	kconfperf build --dir xz -q >xz.build &&
	for d in exp xz; do
		kernel=$(q $d "SELECT b.image FROM build b JOIN variant v ON
			v.config_hash = b.config_hash WHERE v.name = \"baseline\"") &&
		kconfperf vm --kernel "$kernel" --initramfs exp/initramfs.gz --accel tcg \
			--layout-seed 5 --workload boot --dir fast-$d >fast-$d.out &&
		cat fast-$d.out || return 1
	done &&
	lz4=$(sed -n "s/^sample: boot instructions 0 \([0-9]*\) insn$/\1/p" fast-exp.out) &&
	xz=$(sed -n "s/^sample: boot instructions 0 \([0-9]*\) insn$/\1/p" fast-xz.out) &&
	lz4_pre=$(sed -n "s/^meter: [0-9]* instructions: \([0-9]*\) before the kernel.*/\1/p" fast-exp.out) &&
	xz_pre=$(sed -n "s/^meter: [0-9]* instructions: \([0-9]*\) before the kernel.*/\1/p" fast-xz.out) &&
	echo "boot to init: LZ4 $lz4, XZ $xz; before the kernel: LZ4 $lz4_pre, XZ $xz_pre" &&
	awk -v a="$lz4" -v b="$xz" "BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 1e8 && d <= b * 5e-4) }" &&
	awk -v a="$lz4_pre" -v b="$xz_pre" "BEGIN { exit !(a > 0 && a * 10 < b) }"
'

test_expect_success 'SIGTERM stops a run at once; finished runs are kept, qemu is gone' '
	$RUN --runs 8 --warmup 1 --accel tcg 2>term.err &
	pid=$! &&
	wait_runs exp 13 &&
	sleep 1 &&
	kill -TERM $pid &&
	{ wait $pid; test $? = 143; } &&
	no_qemu_in "$TRASH/exp" &&
	test "$(q exp "SELECT count(*) FROM run WHERE status != \"ok\"")" = 0
'

test_expect_success 'kill -9 in the middle loses no finished run and leaves no qemu' '
	n=$(runs_of exp) &&
	$RUN --runs 8 --warmup 1 --accel tcg 2>kill.err &
	pid=$! &&
	wait_runs exp $((n + 3)) &&
	sleep 1 &&
	kill -9 $pid &&
	{ wait $pid; test $? = 137; } &&
	no_qemu_in "$TRASH/exp" &&
	test "$(runs_of exp)" -ge $((n + 3))
'

test_expect_success 'rerunning completes exactly 2 x (8 + 1) runs, no duplicates' '
	$RUN --runs 8 --warmup 1 --accel tcg 2>resume.err &&
	cat resume.err &&
	test "$(runs_of exp)" = 18 &&
	test "$(q exp "SELECT count(*) FROM run WHERE status = \"ok\"")" = 18 &&
	q exp "SELECT variant_id, workload, round, warmup FROM run
		GROUP BY variant_id, workload, round, warmup HAVING count(*) > 1" >dups &&
	test_cmp /dev/null dups &&
	test "$(q exp "SELECT value FROM meta WHERE key = \"seed\"")" = 3
'

test_expect_success 'a hanging guest is a recorded timeout, and the runs go on' '
	start=$(date +%s) &&
	! kconfperf run --dir exp --workload hang --runs 1 --warmup 0 --timeout 5 \
		--accel tcg 2>hang.err &&
	cat hang.err &&
	test "$(q exp "SELECT count(*) FROM run WHERE workload = \"hang\" AND status = \"timeout\"")" = 2 &&
	test "$(grep -c "warning: .* hang round 1/1 .*: timeout: timed out after 5 s" hang.err)" = 2 &&
	test $(($(date +%s) - start)) -lt 40 &&
	no_qemu_in "$TRASH/exp"
'

test_expect_success 'a kernel panic is a recorded failure with its console' '
	! kconfperf run --dir exp --workload panic --runs 1 --warmup 0 --accel tcg 2>panic.err &&
	cat panic.err &&
	test "$(q exp "SELECT count(*) FROM run WHERE workload = \"panic\" AND status = \"panic\"")" = 2 &&
	q exp "SELECT error || \"\n\" || console_tail FROM run WHERE workload = \"panic\" LIMIT 1" >panic.row &&
	test_grep "^kernel panic" panic.row &&
	test_grep "Kernel panic - not syncing" panic.row
'

test_expect_success 'different conditions in one experiment are refused' '
	! $RUN --runs 9 --smp 2 --accel tcg 2>smp.err &&
	test_grep "holds runs made with --smp 1; runs with --smp 2 would not compare" smp.err &&
	! $RUN --runs 9 --seed 4 --accel tcg 2>seed.err &&
	test_grep "ordered with --seed 3" seed.err &&
	! $RUN --runs 9 --no-meter --accel tcg 2>meter.err &&
	test_grep "holds runs made with the instruction meter on; runs with it off (--no-meter) would not compare" meter.err &&
	test "$(runs_of exp)" = 22
'

test_expect_failure_code 2 'an unknown workload is a usage error that suggests the right one' '
	kconfperf run --dir exp --workload hackbenhc 2>err;
	rc=$?; cat err;
	grep -q "unknown workload .hackbenhc.; did you mean .hackbench." err && exit $rc
'

test_expect_success 'a missing qemu is said plainly, and nothing is stored' '
	! PATH=$TRASH/bin kconfperf run --dir exp --workload boot --runs 1 2>noqemu.err &&
	cat noqemu.err &&
	test_grep "cannot run .qemu-system-x86_64.: No such file or directory (install qemu-system-x86" noqemu.err &&
	! kconfperf run --dir exp --workload boot --runs 1 --qemu /nonexistent/qemu 2>noqemu2.err &&
	test_grep "cannot run ./nonexistent/qemu." noqemu2.err &&
	test "$(runs_of exp)" = 22
'

test_expect_success '--workload-exec: no program, a dynamic one and a script are refused' '
	! kconfperf run --dir exp --workload exec --runs 1 2>e1 &&
	test_grep "give the program with --workload-exec FILE" e1 &&
	! kconfperf run --dir exp --workload exec --workload-exec /bin/true --runs 1 2>e2 &&
	test_grep "dynamically linked" e2 &&
	printf "#!/bin/sh\nexit 0\n" >script.sh && chmod +x script.sh &&
	! kconfperf run --dir exp --workload exec --workload-exec script.sh --runs 1 2>e3 &&
	test_grep "is a script" e3
'

test_expect_success '--runner boots each run with an external command' '
	plan_build "$TRASH/rexp" &&
	printf "int main(void) { volatile long i; for (i = 0; i < 10000000; i++) ; return 0; }\n" >prog.c &&
	cc -static -O2 -o prog prog.c &&
	kconfperf run --dir rexp --workload boot --workload exec --workload-exec prog \
		--runs 1 --warmup 0 --runner "$FIXTURES/runner-qemu.sh" 2>runner.err &&
	cat runner.err &&
	test "$(q rexp "SELECT count(*) FROM run WHERE status = \"ok\" AND accel = \"runner\"")" = 4 &&
	test "$(q rexp "SELECT count(*) FROM sample s JOIN run r ON r.id = s.run_id
		WHERE r.workload = \"exec\"")" = 6 &&
	test "$(q rexp "SELECT value FROM meta WHERE key = \"runner\"")" = "$FIXTURES/runner-qemu.sh" &&
	test -s rexp/runs/baseline/config &&
	! kconfperf run --dir rexp --workload boot --runs 2 --warmup 0 --accel tcg 2>mix.err &&
	test_grep "holds runs made with --accel runner" mix.err
'

# Under icount a run's guest time and instructions are the guest's alone:
# two guests side by side (--guests 2) give what the same layout seeds give
# one at a time, sample for sample and in the meter's every count.
SIDE="SELECT v.name, r.round, r.warmup, s.iteration, s.metric, s.value FROM sample s
	JOIN run r ON r.id = s.run_id JOIN variant v ON v.id = r.variant_id
	WHERE r.workload = 'syscall' AND s.metric <> 'wall' ORDER BY 1, 2, 3, 4, 5"
METER="SELECT v.name, r.round, r.warmup, m.total, m.before_kernel, m.kernel, m.user_space,
	m.idle, m.boot, m.work, p.phase, hex(p.data) FROM meter m JOIN run r ON r.id = m.run_id
	JOIN variant v ON v.id = r.variant_id JOIN meter_profile p ON p.run_id = r.id
	WHERE r.workload = 'syscall' ORDER BY 1, 2, 3, 11"
test_expect_success 'runs side by side give the samples and meter counts of runs alone' '
	plan_build "$TRASH/side" && plan_build "$TRASH/alone" &&
	kconfperf run --dir side --workload syscall --runs 2 --warmup 1 --seed 5 \
		--guests 2 2>side.err &&
	cat side.err &&
	test_grep "2 guests side by side" side.err &&
	kconfperf run --dir alone --workload syscall --runs 2 --warmup 1 --seed 5 \
		--guests 1 2>alone.err &&
	! grep "side by side" alone.err &&
	test "$(q side "SELECT count(*) FROM run WHERE status = \"ok\"")" = 6 &&
	test "$(q side "SELECT max(guests) FROM run")" = 2 &&
	test "$(q alone "SELECT max(guests) FROM run")" = 1 &&
	q side "$SIDE" >side.samples && q alone "$SIDE" >alone.samples &&
	test "$(wc -l <side.samples)" -ge 12 &&
	test_cmp alone.samples side.samples &&
	q side "$METER" >side.meter && q alone "$METER" >alone.meter &&
	test "$(wc -l <side.meter)" = 18 &&
	test_cmp alone.meter side.meter
'

test_expect_success 'a wall table says how many guests shared the host' '
	kconfperf report --dir side --workload syscall --metric wall >side.wall &&
	test_grep "up to 2 guests ran side by side" side.wall &&
	kconfperf report --dir side --workload syscall --metric time >side.time &&
	! grep "side by side" side.time
'

test_done
