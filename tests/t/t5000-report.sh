#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t5000: kconfperf import hyperfine and kconfperf report in every format, on a
# real hyperfine export (baseline, an A/A pair and PROVE_LOCKING); malformed
# and unsuitable input.
. "$(dirname "$0")/lib.sh"

HF=$DATA/example-hyperfine-1.15-export.json

test_expect_success 'import the hyperfine export' '
	kconfperf import hyperfine "$HF" --dir exp 2>err &&
	cat err &&
	test_grep "imported 3 commands from 1 file" err &&
	test "$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM run WHERE status = \"ok\"")" = 30 &&
	test "$(sqlite3 exp/kconfperf.db "SELECT name FROM variant WHERE kind = \"baseline\"")" = baseline
'

test_expect_success 'text: the mailing-list table, hyperfine means and sds' '
	kconfperf report --dir exp >out &&
	cat out &&
	test_grep "^workload: *hyperfine$" out &&
	test_grep "^metric: *wall (s), lower is better" out &&
	test_grep "^runs: *10 per variant, 30 in all$" out &&
	test_grep "^baseline  *1\.971 s ± 0\.160 s$" out &&
	test_grep "^baseline-again  *1\.973 s ± 0\.124 s  *(+0\.1%)" out &&
	test_grep "^CONFIG_PROVE_LOCKING=y  *2\.873 s ± 0\.060 s  *(+45\.8%)  \[+" out
'

test_expect_success 'an imported baseline-again is the A/A control, and the report says what it found' '
	kconfperf report --dir exp >aa.txt &&
	test_grep "^A/A control: baseline-again (the baseline kernel measured again) +0.1% \[-[0-9.]*% .. +[0-9.]*%\], not marked: as it must be$" aa.txt &&
	kconfperf report --dir exp --format json -o aa.json &&
	jq -e ".kconfperf.tables[0].aa.marked == false" aa.json &&
	test "$(sqlite3 exp/kconfperf.db "SELECT kind FROM variant WHERE name = \"baseline-again\"")" = baseline-again
'

test_expect_success 'PROVE_LOCKING is *, the A/A pair is not marked at all' '
	grep "^CONFIG_PROVE_LOCKING=y " out >row &&
	test_grep " \*$" row &&
	grep "^baseline-again " out >aa &&
	! grep -q "[*~?]$" aa
'

test_expect_success 'the table is sorted by effect, baseline first' '
	sed -n "/^baseline /,/^$/p" out | awk "{ print \$1 }" >order &&
	printf "baseline\nCONFIG_PROVE_LOCKING=y\nbaseline-again\n\n" >expect &&
	test_cmp expect order
'

test_expect_success 'every format is written with -o' '
	for f in text mmtests markdown csv json svg html; do
		kconfperf report --dir exp --format $f -o report.$f || exit 1
		test -s report.$f || { echo "empty report.$f"; exit 1; }
	done &&
	test_cmp out report.text
'

test_expect_success '-o into a FIFO writes through it and leaves it a FIFO' '
	mkfifo pipe &&
	{ cat pipe >from-pipe & } &&
	kconfperf report --dir exp -o pipe &&
	wait &&
	test -p pipe &&
	test_cmp out from-pipe
'

test_expect_success 'json loads with jq and has hyperfine'"'"'s fields' '
	jq -e ".results | length == 3" report.json &&
	for c in baseline baseline-again CONFIG_PROVE_LOCKING=y; do
		jq -e --arg c "$c" ".results[] | select(.command == \$c) |
			(.mean | type == \"number\") and (.stddev | type == \"number\") and
			(.median | type == \"number\") and (.min | type == \"number\") and
			(.max | type == \"number\") and (.times | length == 10)" report.json || exit 1
	done &&
	test "$(jq -r ".results[] | select(.command == \"CONFIG_PROVE_LOCKING=y\") | .kconfperf.marker" report.json)" = "*" &&
	test "$(jq -r ".results[] | select(.command == \"baseline-again\") | .kconfperf.marker" report.json)" = "" &&
	jq -e ".results[] | select(.command == \"baseline\") | .kconfperf.p_welch == null" report.json
'

test_expect_success 'json means and times are hyperfine'"'"'s own' '
	jq -S "[.results[] | {command, times}]" "$HF" >want &&
	jq -S "[.results[] | {command, times}] | sort_by(.command)" report.json >got &&
	jq -S "sort_by(.command)" want >want.sorted &&
	test_cmp want.sorted got &&
	jq -r ".results[] | \"\(.command) \(.mean) \(.median) \(.min) \(.max)\"" "$HF" | sort >want &&
	jq -r ".results[] | \"\(.command) \(.mean) \(.median) \(.min) \(.max)\"" report.json | sort >got &&
	awk "NR == FNR { m[\$1] = \$2; md[\$1] = \$3; next }
	     { d = \$2 - m[\$1]; if (d < 0) d = -d; if (d > 1e-12) exit 1;
	       if (\$3 != md[\$1]) exit 1 }" want got
'

test_expect_success 'csv: a header, one row per sample, RFC 4180' '
	head -n 1 report.csv | tr -d "\r" >header &&
	echo "variant,workload,run,round,iteration,metric,value,warmup,accel,unit,status,kind,step" >expect &&
	test_cmp expect header &&
	test "$(wc -l <report.csv)" = 31 &&
	test "$(grep -c "^CONFIG_PROVE_LOCKING=y,hyperfine,[0-9]*,[0-9]*,,wall," report.csv)" = 10 &&
	test "$(grep -c "$(printf "\r")\$" report.csv)" = 31
'

test_expect_success 'mmtests: compare-kernels rows and significance markers' '
	cat report.mmtests &&
	test_grep "^Amean     wall  *1\.9708 (   0\.00%)  *2\.8735 \* -45\.80%\*  *1\.9725 (  -0\.09%)$" report.mmtests &&
	for s in Amean Hmean Stddev CoeffVar Min Max; do
		test_grep "^$s " report.mmtests || exit 1
	done
'

test_expect_success 'markdown: a GFM table with escaped cells' '
	cat report.markdown &&
	test_grep "^| Variant | Runs | Mean | SD | Change | 95% CI | q (BH) | |$" report.markdown &&
	test_grep "^| CONFIG_PROVE_LOCKING=y | 10 | 2\.873 s | 0\.060 s | +45\.8% | \\\\\[" report.markdown
'

test_expect_success 'svg and html are well-formed' '
	python3 -c "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])" report.svg &&
	test_grep "<svg" report.html &&
	test_grep "<table class=\"summary\">" report.html
'

test_expect_success '--baseline chooses the command to compare with' '
	kconfperf import -q hyperfine "$HF" --dir exp2 --baseline baseline-again &&
	kconfperf report --dir exp2 >out2 &&
	sed -n "/^baseline-again /,/^$/p" out2 | head -n 1 | grep -q "1\.973 s ± 0\.124 s$"
'

test_expect_success '--metric and --workload filter' '
	kconfperf report --dir exp --metric wall --workload hyperfine >out3 &&
	test_cmp out out3
'

test_expect_failure_code 1 'an unknown metric is an error that lists the metrics' '
	kconfperf report --dir exp --metric time 2>err; rc=$?; cat err;
	grep -q "no metric .time. measured (metrics: wall)" err || exit 9; exit $rc
'

test_expect_failure_code 2 'an unknown format is a usage error' '
	kconfperf report --dir exp --format xml
'

test_expect_failure_code 1 'a missing experiment is an error' '
	kconfperf report --dir nowhere 2>err; rc=$?; cat err;
	grep -q "no experiment in .nowhere." err || exit 9; exit $rc
'

test_expect_failure_code 1 'malformed JSON: file:line:column, exit 1, nothing stored' '
	sed "7s/\"median\"/median/" "$HF" >bad.json &&
	kconfperf import hyperfine bad.json --dir badexp 2>err; rc=$?; cat err;
	grep -q "^kconfperf: error: bad\.json:7:7: unexpected .m., expected a string naming an object member$" err || exit 9;
	test ! -e badexp/kconfperf.db || exit 8; exit $rc
'

test_expect_failure_code 1 'a later bad file stores nothing from an earlier good one' '
	printf "{\"results\": [{\"command\": \"x\", \"times\": [1, 2,]}]}" >bad2.json &&
	kconfperf import hyperfine "$HF" bad2.json --dir badexp2 2>err; rc=$?; cat err;
	grep -q "bad2\.json:1:46: unexpected .]., expected a value" err || exit 9;
	test ! -e badexp2/kconfperf.db || exit 8; exit $rc
'

test_expect_failure_code 1 'valid JSON that is not a hyperfine export' '
	printf "{\"results\": [\n  {\"command\": \"a\", \"times\": [1.0, \"2\"]}\n]}\n" >notimes.json &&
	kconfperf import hyperfine notimes.json --dir badexp3 2>err; rc=$?; cat err;
	grep -q "notimes\.json:2:35: a time must be a number, not a string" err || exit 9;
	test ! -e badexp3/kconfperf.db || exit 8; exit $rc
'

test_expect_failure_code 1 'an unknown --baseline lists the commands' '
	kconfperf import hyperfine "$HF" --dir badexp4 --baseline nope 2>err; rc=$?; cat err;
	grep -q "no command .nope. to use as the baseline (commands: .baseline., .baseline-again., .CONFIG_PROVE_LOCKING=y.)" err || exit 9;
	exit $rc
'

test_expect_failure_code 1 'importing into an existing experiment is refused' '
	kconfperf import hyperfine "$HF" --dir exp 2>err; rc=$?; cat err;
	grep -q "already holds an experiment" err || exit 9; exit $rc
'

# Bad variants of the real export: each is an error naming the file, the
# result and the value, exit 1, and stores nothing.
test_expect_failure_code 1 'a zero time is an error (it would read as +inf%)' '
	jq ".results[1].times[3] = 0" "$HF" >zero.json &&
	kconfperf import hyperfine zero.json --dir zeroexp 2>err; rc=$?; cat err;
	grep -q "^kconfperf: error: zero\.json:[0-9]*:[0-9]*: results\[1\] (.baseline-again.): times\[3\] is 0; a run.s time in seconds is above 0$" err || exit 9;
	test ! -e zeroexp/kconfperf.db || exit 8; exit $rc
'

test_expect_failure_code 1 'a time of 1e308 s is an error' '
	jq ".results[2].times[0] = 1e308" "$HF" >huge.json &&
	kconfperf import hyperfine huge.json --dir hugeexp 2>err; rc=$?; cat err;
	grep -q "^kconfperf: error: huge\.json:[0-9]*:[0-9]*: results\[2\] (.CONFIG_PROVE_LOCKING=y.): times\[0\] is 1e+308 s, which is more than 1e7 s (116 days): not a run.s time$" err || exit 9;
	test ! -e hugeexp/kconfperf.db || exit 8; exit $rc
'

test_expect_failure_code 1 'an exit code of 0.5 is an error, not a success' '
	jq ".results[0].exit_codes[4] = 0.5" "$HF" >half.json &&
	kconfperf import hyperfine half.json --dir halfexp 2>err; rc=$?; cat err;
	grep -q "^kconfperf: error: half\.json:[0-9]*:[0-9]*: results\[0\] (.baseline.): exit_codes\[4\] is 0\.5, not an integer exit code$" err || exit 9;
	test ! -e halfexp/kconfperf.db || exit 8; exit $rc
'

test_expect_failure_code 1 'a command twice in one file is an error, not merged' '
	jq ".results[2].command = \"baseline\"" "$HF" >dup.json &&
	kconfperf import hyperfine dup.json --dir dupexp 2>err; rc=$?; cat err;
	grep -q "^kconfperf: error: dup\.json:[0-9]*:[0-9]*: results\[2\] repeats the command .baseline. of results\[0\]; each command comes once in a file$" err || exit 9;
	test ! -e dupexp/kconfperf.db || exit 8; exit $rc
'

test_expect_success 'the same commands in two files are merged, and the note says so' '
	cp "$HF" again.json &&
	kconfperf import hyperfine "$HF" again.json --dir merged 2>err &&
	cat err &&
	test_grep "imported 3 commands from 2 files" err &&
	test_grep "3 commands found in several files: their runs merged" err &&
	test "$(sqlite3 merged/kconfperf.db "SELECT count(*) FROM run")" = 60
'

# 60000 runs: writing them takes seconds, time enough to interrupt.
jq -n "{results: [range(3) as \$i | {command: \"c\(\$i)\",
	times: [range(20000) | 1 + . / 100000]}]}" >big.json

# wait_for_scratch DIR: until DIR holds an import's scratch database (30 s at most).
wait_for_scratch() {
	_n=0
	until ls "$1"/kconfperf.db.new-* >/dev/null 2>&1; do
		_n=$((_n + 1))
		[ "$_n" -lt 600 ] || return 1
		sleep 0.05
	done
}

for sig in INT TERM; do
	test_expect_success "SIG$sig during an import leaves nothing behind" '
		env --default-signal=INT kconfperf import -q hyperfine big.json --dir sig$sig &
		pid=$! &&
		wait_for_scratch sig$sig &&
		kill -$sig $pid;
		wait $pid; rc=$?;
		echo "exit $rc" &&
		test $rc -gt 128 && test "$(kill -l $rc)" = $sig &&
		ls -A sig$sig >left && test_cmp /dev/null left
	'
done

test_expect_success 'a SIGKILLed import leaves a scratch file; the next import removes it' '
	kconfperf import -q hyperfine big.json --dir killed &
	pid=$! &&
	wait_for_scratch killed &&
	kill -KILL $pid;
	wait $pid;
	ls killed | grep "^kconfperf\.db\.new-$pid" &&
	test ! -e killed/kconfperf.db &&
	kconfperf import hyperfine "$HF" --dir killed 2>err &&
	cat err &&
	test_grep "removed .killed/kconfperf\.db\.new-$pid., left by an interrupted kconfperf (pid $pid)" err &&
	test_grep "imported 3 commands from 1 file" err &&
	ls -A killed >left && echo kconfperf.db >expect && test_cmp expect left &&
	kconfperf report --dir killed >out &&
	test_grep "^CONFIG_PROVE_LOCKING=y " out
'

# hackbench under TCG, as measured here: a boot settles it in a fast or a
# slow mode; the baseline drew only slow runs, the other kernel six fast.
test_expect_success 'runs in two clusters are noted in text, html and json' '
	cat >modes.json <<-EOF &&
	{"results": [
	 {"command": "baseline", "times": [0.36, 0.41, 0.39, 0.33, 0.38, 0.40, 0.35, 0.42, 0.37, 0.39]},
	 {"command": "CONFIG_DEBUG_NOTIFIERS=y", "times": [0.15, 0.17, 0.14, 0.36, 0.16, 0.41, 0.18, 0.39, 0.13, 0.33]}
	]}
	EOF
	kconfperf import -q hyperfine modes.json --dir modes &&
	kconfperf report --dir modes >out5 &&
	kconfperf report --dir modes --format html -o modes.html &&
	kconfperf report --dir modes --format json -o modes.json.out &&
	cat out5 &&
	test_grep "^note: runs in two clusters (a fast and a slow mode, p < 0.001)" out5 &&
	test_grep "^  CONFIG_DEBUG_NOTIFIERS=y: 6 runs near 0\.15[0-9]* s, 4 near 0\.37[0-9]* s$" out5 &&
	! grep -q "^  baseline:" out5 &&
	test_grep "<pre class=\"notes\">runs in two clusters" modes.html &&
	kconfperf report --dir modes --format markdown >modes.md &&
	test_grep "NOTIFIERS=y: 6 runs near" modes.md &&
	test "$(jq -r ".results[] | select(.command == \"CONFIG_DEBUG_NOTIFIERS=y\") | .kconfperf.two_clusters.n_low" modes.json.out)" = 6 &&
	test "$(jq -r ".results[] | select(.command == \"baseline\") | .kconfperf.two_clusters" modes.json.out)" = null
'

test_expect_success 'a failed run (exit code) is stored and excluded' '
	jq ".results[2].exit_codes[0] = 1" "$HF" >failed.json &&
	kconfperf import -q hyperfine failed.json --dir failexp &&
	kconfperf report --dir failexp >out4 &&
	cat out4 &&
	test_grep "^runs: *9 to 10 per variant, 29 in all; 1 failed run excluded$" out4 &&
	test_grep "CONFIG_PROVE_LOCKING=y: 1 of 10 runs failed (exit-failed: exit code 1)" out4
'

test_expect_success 'a hostile command name is escaped in every format' '
	jq ".results[1].command = \"<script>alert(1)</script> \\\"q\\\" & x\"" "$HF" >hostile.json &&
	kconfperf import -q hyperfine hostile.json --dir hostile &&
	for f in html svg markdown json; do
		kconfperf report --dir hostile --format $f -o h.$f || exit 1
	done &&
	! grep -q "<script" h.html && ! grep -q "<script" h.svg && ! grep -q "<script" h.json &&
	test_grep "&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &amp; x" h.html &&
	test "$(grep -c "[^\\\\]<script" h.markdown)" = 0 &&
	test "$(jq -r ".results[] | select(.kconfperf.variant | startswith(\"<script\")) | .command" h.json)" = "<script>alert(1)</script> \"q\" & x" &&
	kconfperf report --dir hostile --format csv | grep -q "^\"<script>alert(1)</script> \"\"q\"\" & x\",hyperfine,"
'

test_expect_success 'help report and help import' '
	kconfperf help report >help &&
	test_grep "--format FORMAT" help &&
	test_grep "--noise PCT" help &&
	kconfperf help import >help2 &&
	test_grep "kconfperf import hyperfine FILE.json" help2
'

test_done
