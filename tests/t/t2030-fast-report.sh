#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2030: the fast tier's whole pipeline, sweep to report, with planted
# costs (lib-fast.sh's runner: DEBUG_A +20%, DEBUG_B +5%, DEBUG_FREE 0, and
# the three multiply; baseline-again is the baseline): analyze must find
# exactly those, in seconds.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

SWEEP="kconfperf sweep --cache $CACHE --source $FAKE_TREE --base tinyconfig
	--options DEBUG_A,DEBUG_B,DEBUG_FREE --design oat,all --runner $FAKE_RUNNER
	--workload boot --runs 6 --warmup 1 --seed 11 --dir exp"

test_expect_success 'sweep: plan, build, run and report in one command' '
	$SWEEP >out 2>err &&
	cat out &&
	test "$(q exp "SELECT count(*) FROM run WHERE status = \"ok\"")" = 42 &&
	test -s exp/report.html && test -s exp/report.json
'

test_expect_success 'report: the planted costs are found, significant, within their intervals' '
	kconfperf report --dir exp >report &&
	sed -n "/metric: *time/,/measured \/ predicted/p" report >time &&
	cat time &&
	grep "^CONFIG_DEBUG_A=y " time >a && grep "^CONFIG_DEBUG_B=y " time >b &&
	grep "^CONFIG_DEBUG_FREE=y " time >free && grep "^all " time >all &&
	test_grep " \*$" a && test_grep " \*$" b && test_grep " \*$" all &&
	! grep "[*~?]$" free &&
	test_grep "^A/A control: baseline-again .*, not marked: as it must be" time &&
	# every interval holds its planted cost
	for row in "a 20" "b 5" "free 0" "all 26"; do
		set -- $row
		sed "s/.*\[\([-+0-9.]*\)% \.\. \([-+0-9.]*\)%\].*/\1 \2/" $1 |
		awk -v c=$2 "{ exit !(\$1 + 0 <= c + 0.01 && c - 0.01 <= \$2 + 0) }" ||
		{ echo "interval of $1 misses $2%"; exit 1; }
	done
'

test_expect_success 'the conditions are stored by the stages that know them, and reported' '
	# build stores the compiler, run the kconfperf that measured; the
	# markdown report names the compiler (it never did: nothing wrote it)
	test "$(q exp "SELECT value FROM meta WHERE key = \"compiler\"")" = "$(gcc --version | head -n 1)" &&
	test -n "$(q exp "SELECT value FROM meta WHERE key = \"kconfperf\"")" &&
	test "$(q exp "SELECT value FROM meta WHERE key = \"accel\"")" = runner &&
	kconfperf report --dir exp --format markdown >md &&
	test_grep "compiler: $(gcc --version | head -n 1)" md
'

test_expect_success 'report: the three costs multiply, and analyze says so' '
	sed -n "/^multiplicativity/,/^$/p" report | head -n 5 >mult &&
	cat mult &&
	test_grep "measured / predicted .*: multiplicative" mult
'

test_expect_success 'report: the same sweep again resumes and runs nothing' '
	$SWEEP >out2 2>err2 &&
	test_grep "nothing to run: all 42 runs are stored" err2 &&
	test "$(q exp "SELECT count(*) FROM run")" = 42
'

test_expect_success 'report: csv has a row per sample, json the hyperfine fields' '
	kconfperf report --dir exp --format csv >csv &&
	test "$(grep -c ",time," csv)" = "$(q exp "SELECT count(*) FROM sample")" &&
	kconfperf report --dir exp --format json >json &&
	test_grep "\"command\": \"CONFIG_DEBUG_A=y\"" json &&
	test_grep "\"times\": \[" json &&
	for f in markdown mmtests svg html; do
		kconfperf report --dir exp --format $f >out.$f && test -s out.$f || exit 1
	done
'

# 1.5 used to be taken for a 1.5% interval (and 0.3 for a 30% one).
test_expect_success 'report: --confidence is a level such as 0.9 or 90, nothing else' '
	kconfperf report --dir exp --confidence 0.9 >r90 &&
	kconfperf report --dir exp --confidence 90 >r90pct &&
	test_cmp r90 r90pct &&
	test_grep "90% confidence interval" r90 &&
	for bad in 1.5 0.3 100 0 -95 150; do
		{ kconfperf report --dir exp --confidence $bad >out 2>err; rc=$?; } &&
		test "$rc" = 2 &&
		test_grep "^kconfperf: error: --confidence is a level such as 0.95 or 95 .*, not $bad$" err ||
		{ cat err; exit 1; }
	done
'

# Names an importer takes as they are: a formula, an escape sequence.
test_expect_success 'csv: formula cells are neutralized, control bytes never written' '
	cat >hf.json <<-EOF &&
	{"results": [
	  {"command": "=HYPERLINK(\"http://x\")", "times": [1.0, 1.1, 0.9]},
	  {"command": "\u001b[31mred", "times": [1.2, 1.3, 1.1]},
	  {"command": "-sleep 1", "times": [1.0, 1.0, 1.1]},
	  {"command": "+x", "times": [1.0, 1.0, 1.1]},
	  {"command": "@sum", "times": [1.0, 1.0, 1.1]}]}
	EOF
	kconfperf import hyperfine hf.json --dir hf 2>err &&
	cat err &&
	! LC_ALL=C grep -q "$(printf "\033")" err &&
	kconfperf report --dir hf --format csv >hf.csv &&
	cat hf.csv &&
	! LC_ALL=C grep -q "$(printf "\033")" hf.csv &&
	! grep -q "^[-=+@]" hf.csv &&
	! grep -q "^\"[-=+@]" hf.csv &&
	test_grep "^\"'"'"'=HYPERLINK(\"\"http://x\"\")\"," hf.csv &&
	test_grep "^'"'"'-sleep 1," hf.csv &&
	test_grep "^'"'"'@sum," hf.csv &&
	kconfperf report --dir hf >hf.txt &&
	! LC_ALL=C grep -q "$(printf "\033")" hf.txt
'

test_done
