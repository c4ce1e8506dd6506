#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2065: what else an option changes, on the fast tier: the kernel's own
# reports on a run's console (the fake runner prints a WARN, and in every
# other run a lockdep report, for a kernel with DEBUG_A) reach the database
# per run and every report format, counted per variant against the baseline;
# vmlinux's text, data and bss per variant beside bzImage (the fake build's
# vmlinux is an ELF object: DEBUG_A adds 4 KiB of data, DEBUG_B 8 KiB of bss);
# the environment in every format; the cost DEBUG_A's help text claims
# ("about 20% slower") beside the cost measured.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

test_expect_success 'setup: plan, build and run DEBUG_A (which warns) and DEBUG_B' '
	fake_plan exp DEBUG_A,DEBUG_B >/dev/null &&
	kconfperf build --dir exp -q &&
	KCP_FAKE_WARN=DEBUG_A fake_run exp --runs 4 --warmup 1 --seed 7 2>err &&
	test "$(q exp "SELECT count(*) FROM run WHERE status = \"ok\"")" = 15
'

test_expect_success 'run: each run of DEBUG_A stores its findings, the others none' '
	q exp "SELECT v.name, r.round, f.kind, f.line, f.count FROM finding f
		JOIN run r ON r.id = f.run_id JOIN variant v ON v.id = r.variant_id
		ORDER BY r.round, f.position" >findings &&
	cat findings &&
	test "$(grep -c "^CONFIG_DEBUG_A=y|.*|warning|WARNING at kernel/fake.c:12 fake_init|1$" findings)" = 5 &&
	test "$(grep -c "|lockdep|WARNING: possible circular locking dependency detected|1$" findings)" = 2 &&
	! grep -v "^CONFIG_DEBUG_A=y|" findings &&
	test "$(q exp "SELECT count(*) FROM finding WHERE text LIKE \"%end trace%\"")" = 5
'

test_expect_success 'report: text, markdown and mmtests count them per variant, against the baseline' '
	for f in text markdown mmtests; do
		kconfperf report --dir exp --format $f >out.$f &&
		test_grep "5 of 5 runs: WARNING at kernel/fake.c:12 fake_init (warning; not in the baseline: 0 of 5 runs)" out.$f &&
		test_grep "2 of 5 runs: WARNING: possible circular locking dependency detected (lockdep; not in the baseline: 0 of 5 runs)" out.$f ||
		exit 1
	done &&
	test_grep "^  CONFIG_DEBUG_A=y: 5 of 5 runs" out.text &&
	test_grep "^- CONFIG_DEBUG_A=y: 2 of 5 runs" out.markdown
'

test_expect_success 'report: json has the counts, html the first report text' '
	kconfperf report --dir exp --format json >json &&
	test_grep "\"kind\": \"lockdep\"" json &&
	test_grep "\"line\": \"WARNING at kernel/fake.c:12 fake_init\"" json &&
	test_grep "\"baseline_runs\": 0" json &&
	kconfperf report --dir exp --format html >html &&
	test_grep "<section id=\"findings\">" html &&
	test_grep "<pre>\[    0.912455\] WARNING: CPU: 0 PID: [0-9]* at kernel/fake.c:12 fake_init+0x8a/0x1f0" html
'

test_expect_success 'build: vmlinux by section per build, in the cache and the database' '
	q exp "SELECT v.name, b.text_size > 0, b.data_size, b.bss_size FROM build b
		JOIN variant v ON v.config_hash = b.config_hash ORDER BY v.position" >sizes &&
	cat sizes &&
	base_data=$(sed -n "s/^baseline|1|\([0-9]*\)|\([0-9]*\)$/\1/p" sizes) &&
	base_bss=$(sed -n "s/^baseline|1|\([0-9]*\)|\([0-9]*\)$/\2/p" sizes) &&
	test -n "$base_data" && test -n "$base_bss" &&
	test_grep "^CONFIG_DEBUG_A=y|1|$((base_data + 4096))|$base_bss$" sizes &&
	test_grep "^CONFIG_DEBUG_B=y|1|$base_data|$((base_bss + 8192))$" sizes &&
	test "$(cat "$CACHE"/builds/*/meta | grep -c "^text_size=[1-9]")" = 3 &&
	test "$(cat "$CACHE"/builds/*/meta | grep -c "^symbol_bss_size=[0-9]")" = 3
'

test_expect_success 'report: text, data and bss per variant in text, markdown, json and html' '
	kconfperf report --dir exp >out &&
	sed -n "/^  variant  *bzImage/,/^\$/p" out >table && cat table &&
	test_grep "^  CONFIG_DEBUG_A=y  *[-+0-9.]* [KMi]*B  *+0 B  *+4.0 KiB  *+0 B  *+0 B  *+4.0 KiB  *+0 B$" table &&
	test_grep "^  CONFIG_DEBUG_B=y  *[-+0-9.]* [KMi]*B  *+0 B  *+0 B  *+8.0 KiB  *+0 B  *+0 B  *+8.0 KiB$" table &&
	kconfperf report --dir exp --format markdown >md &&
	test_grep "^| CONFIG_DEBUG_A=y | .* | +0 B | +4.0 KiB | +0 B | +0 B | +4.0 KiB | +0 B |$" md &&
	kconfperf report --dir exp --format json >json &&
	test_grep "\"data_size_delta\": 4096" json &&
	test_grep "\"bss_size_delta\": 8192" json &&
	test_grep "\"symbol_bss_size_delta\": 8192" json &&
	kconfperf report --dir exp --format html >html &&
	test_grep "<section id=\"sizes\">" html &&
	test_grep "<td class=\"n\">+8.0 KiB</td>" html &&
	test_grep "<th class=\"n\">sym bss</th>" html
'

test_expect_success 'report: the environment in text, markdown, json and html' '
	test "$(q exp "SELECT value FROM meta WHERE key = \"kernel_cmdline\"")" = \
		"console=ttyS0 quiet panic=-1 kcp.workload=boot" &&
	kconfperf report --dir exp >out &&
	sed -n "/^measured under:/,\$p" out >env && cat env &&
	test_grep "^  kernel        6.1.0-fake$" env &&
	test_grep "^  command line  console=ttyS0 quiet panic=-1 kcp.workload=boot$" env &&
	test_grep "^  preempt       none$" env &&
	test_grep "^  qemu          none: runner .*fake-runner.sh$" env &&
	test_grep "^  kconfperf     $(kconfperf version | sed "s/^kconfperf //;s/ .*//")$" env &&
	! grep differs env &&
	kconfperf report --dir exp --format markdown >md &&
	test_grep "^| preempt | none |$" md &&
	kconfperf report --dir exp --format json >json &&
	test_grep "\"name\": \"command line\"" json &&
	kconfperf report --dir exp --format html >html &&
	test_grep "<tr><td>preempt</td><td>none</td></tr>" html
'

test_expect_success 'plan: the help text claims a cost; every report sets it beside the measurement' '
	test "$(q exp "SELECT symbol, location, sentence FROM claim")" = \
		"DEBUG_A|Kconfig:10|The fake runner makes a kernel with it about 20% slower." &&
	kconfperf report --dir exp >out &&
	sed -n "/^Kconfig.s claims:/,/^image size:/p" out >claims && cat claims &&
	test_grep "^  CONFIG_DEBUG_A=y: DEBUG_A (Kconfig:10): \"The fake runner makes a kernel with it about 20% slower.\"; measured boot: time +[12][0-9]\.[0-9]% \[.*\], x1\.[12][0-9] \*; " claims &&
	! grep DEBUG_B claims &&
	kconfperf report --dir exp --format markdown >md &&
	test_grep "^- CONFIG_DEBUG_A=y: DEBUG_A (Kconfig:10): .*; measured boot: time +" md &&
	kconfperf report --dir exp --format json >json &&
	test_grep "\"sentence\": \"The fake runner makes a kernel with it about 20% slower.\"" json &&
	test_grep "\"change_pct\": " json &&
	kconfperf report --dir exp --format html >html &&
	test_grep "<section id=\"claims\">" html
'

test_expect_success 'vm: one run prints the reports it found' '
	image=$(q exp "SELECT b.image FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"CONFIG_DEBUG_A=y\"") &&
	mkdir one &&
	KCP_FAKE_WARN=DEBUG_A KCP_FAKE_FAIL_VARIANT=none kconfperf vm --kernel "$image" \
		--initramfs exp/initramfs.gz \
		--runner "$FAKE_RUNNER" --dir one >vm.out 2>vm.err &&
	cat vm.out &&
	test_grep "^finding: warning x1: WARNING at kernel/fake.c:12 fake_init$" vm.out &&
	test_grep "^finding: lockdep x1: WARNING: possible circular locking dependency detected$" vm.out
'

test_expect_success 'report: an experiment without findings has no such section' '
	fake_plan quiet DEBUG_B >/dev/null &&
	kconfperf build --dir quiet -q &&
	KCP_FAKE_WARN=DEBUG_A fake_run quiet --runs 1 --warmup 0 2>/dev/null &&
	kconfperf report --dir quiet >out &&
	! grep "kernel reports" out &&
	kconfperf report --dir quiet --format json >json &&
	test_grep "\"findings\": \[\]" json
'

test_done
