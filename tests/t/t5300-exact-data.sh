#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t5300: reports on near-deterministic data, as qemu -icount gives it: runs
# identical to the nanosecond (an exact A/A copy, a +0.001%, a constant
# +5%), one and two runs, and a variant whose runs take exactly two values
# (two sampled layouts).  Markers are checked in text and JSON, and no
# format says nan or inf, or writes a JSON token that is not JSON.
. "$(dirname "$0")/lib.sh"

# repeat VALUE N: VALUE N times, comma-separated.
repeat() {
	awk -v v="$1" -v n="$2" 'BEGIN { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? ", " : ""), v }'
}

# 1.942896 s is one of hackbench's boots under -icount shift=6 (docs/design.md);
# +0.001%, +5% and -3% of it, to the nine digits the guest prints.
cat >exact.json <<EOF
{"results": [
 {"command": "baseline", "times": [$(repeat 1.942896 10)]},
 {"command": "baseline-again", "times": [$(repeat 1.942896 10)]},
 {"command": "tiny", "times": [$(repeat 1.94291543 10)]},
 {"command": "plus5", "times": [$(repeat 2.0400408 10)]},
 {"command": "minus3", "times": [$(repeat 1.88460912 10)]},
 {"command": "one", "times": [2.0]},
 {"command": "two", "times": [1.95, 1.96]}
]}
EOF

test_expect_success 'import exact runs and report them in every format' '
	kconfperf import -q hyperfine exact.json --dir exact &&
	for f in text mmtests markdown csv json svg html; do
		kconfperf report --dir exact --format $f -o report.$f || exit 1
	done &&
	cat report.text
'

# row NAME: the text report's line for NAME, spaces squeezed.
row() {
	grep "^$1 " report.text | sed "s/  */ /g"
}

# json VARIANT FIELD: a field of the variant's kconfperf object.
json() {
	jq -r ".results[] | select(.command == \"$1\") | .kconfperf.$2" report.json
}

test_expect_success 'A/A on exact data: +0.0% [+0.0% .. +0.0%], no marker, q = 1' '
	test "$(row baseline-again)" = "baseline-again 1.943 s ± 0.000 s (+0.0%) [+0.0% .. +0.0%]" &&
	test "$(json baseline-again marker)" = "" &&
	test "$(json baseline-again q_bh)" = 1 &&
	test "$(json baseline-again p_welch)" = 1
'

test_expect_success 'a deterministic +0.001% is real (q ~ 0) but no practical change: no marker' '
	test "$(row tiny)" = "tiny 1.943 s ± 0.000 s (+0.0%) [+0.0% .. +0.0%]" &&
	test "$(json tiny marker)" = "" &&
	jq -e ".results[] | select(.command == \"tiny\") | .kconfperf |
		.q_bh < 1e-20 and .ci_low_pct > 0.00099 and .ci_high_pct < 0.00101" report.json
'

test_expect_success 'a constant +5% and -3%: *, with an interval as wide as the resolution' '
	test "$(row plus5)" = "plus5 2.040 s ± 0.000 s (+5.0%) [+5.0% .. +5.0%] *" &&
	test "$(row minus3)" = "minus3 1.885 s ± 0.000 s (-3.0%) [-3.0% .. -3.0%] *" &&
	test "$(json plus5 marker)" = "*" &&
	test "$(json minus3 marker)" = "*" &&
	jq -e ".results[] | select(.command == \"plus5\") | .kconfperf |
		.q_bh < 1e-20 and .ci_low_pct > 4.9999 and .ci_high_pct < 5.0001" report.json
'

test_expect_success 'one run and two runs: ?, with n/a where a statistic is undefined' '
	test "$(row one)" = "one 2.000 s ± n/a s (+2.9%) [n/a] ?" &&
	row two | grep -q " ?$" &&
	test "$(json one marker)" = "?" &&
	test "$(json two marker)" = "?" &&
	test "$(json one too_few_runs)" = true &&
	jq -e ".results[] | select(.command == \"one\") |
		.stddev == null and .kconfperf.p_welch == null and .kconfperf.ci_low_pct == null" report.json
'

test_expect_success 'mmtests stars only the real changes' '
	grep "^Amean" report.mmtests >amean &&
	cat amean &&
	test "$(grep -o "\*[^*]*\*" amean | tr -d " ")" = "$(printf "*-5.00%%*\n*3.00%%*")"
'

test_expect_success 'no format says nan or inf; the JSON is JSON' '
	for f in text mmtests markdown csv json svg html; do
		! grep -iwn "nan\|-nan\|inf\|-inf\|infinity" report.$f || exit 1
	done &&
	jq -e . report.json >/dev/null &&
	! grep -n "NaN\|Infinity" report.json
'

# Sampled layouts: the variant lands in one of two layouts, six runs in one
# and four in the other, with no spread inside either.  That is two
# clusters; the constant baseline is one.
cat >layouts.json <<EOF
{"results": [
 {"command": "baseline", "times": [$(repeat 0.0309 10)]},
 {"command": "layouts", "times": [$(repeat 0.0309 6), $(repeat 0.0400 4)]}
]}
EOF

test_expect_success 'exactly two values are two clusters; a constant baseline is not' '
	kconfperf import -q hyperfine layouts.json --dir layouts &&
	kconfperf report --dir layouts >layouts.out &&
	kconfperf report --dir layouts --format json -o layouts.json.out &&
	cat layouts.out &&
	test_grep "^  layouts: 6 runs near 0\.03090 s, 4 near 0\.04000 s$" layouts.out &&
	! grep -q "^  baseline:" layouts.out &&
	test "$(jq -r ".results[] | select(.command == \"layouts\") | .kconfperf.two_clusters.n_low" layouts.json.out)" = 6 &&
	test "$(jq -r ".results[] | select(.command == \"baseline\") | .kconfperf.two_clusters" layouts.json.out)" = null &&
	! grep -iw "nan\|inf" layouts.out
'

# The Mann-Whitney cross-check on these ties: U = 4 x 10 + 6 x 10 / 2 = 70
# is the most extreme split the pooled values allow, p = 0.034 agrees with
# Welch's p = 0.037 (scipy's values), and the +11.8% interval reaches into
# the band: significant, not "tests disagree".
test_expect_success 'sampled layouts against one: ~, the tests agree' '
	grep "^layouts " layouts.out | sed "s/  */ /g" >row &&
	test "$(cat row)" = "layouts 0.03454 s ± 0.00470 s (+11.8%) [+0.9% .. +22.7%] ~"
'

# Three runs of a baseline in one layout, ten of a variant that lands half
# the time in a layout 20% slower.  Welch on logs: p = 0.015.  Mann-Whitney:
# U = 22.5 of 30, p = 0.16, and no split of these tied values can show an
# upward shift more strongly, so it cannot confirm one and is not counted
# as disagreeing.  The mean change is +10.0% [+2.5% .. +17.5%]: *.
cat >halves.json <<EOF
{"results": [
 {"command": "baseline", "times": [$(repeat 0.0309 3)]},
 {"command": "halves", "times": [$(repeat 0.0309 5), $(repeat 0.03708 5)]}
]}
EOF

test_expect_success 'Mann-Whitney capped by ties does not make Welch'"'"'s verdict ?' '
	kconfperf import -q hyperfine halves.json --dir halves &&
	kconfperf report --dir halves >halves.out &&
	kconfperf report --dir halves --format json -o halves.json.out &&
	cat halves.out &&
	grep "^halves " halves.out | sed "s/  */ /g" >row &&
	test "$(cat row)" = "halves 0.03399 s ± 0.00326 s (+10.0%) [+2.5% .. +17.5%] *" &&
	test "$(jq -r ".results[] | select(.command == \"halves\") | .kconfperf.marker" halves.json.out)" = "*"
'

test_done
