#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t5100: the table in docs/design.md (and a few more rows of the published Fedora
# measurements), rebuilt as 10 runs per variant with exactly its means and
# sds: the text report shows the same means, sds and percentages, and marks
# exactly the significant rows.
. "$(dirname "$0")/lib.sh"

# name, mean, sd (seconds) and the marker the report must give; the last
# three rows are near the baseline: +1.15% (significant, but its interval
# reaches into the 1% noise band), -0.0% and -0.8% (not significant).
cat >table <<'EOF_TABLE'
NO_DEBUG 12.362 0.093 base
ALL_DEBUG 30.134 0.402 *
CONFIG_PROVE_LOCKING=y 23.435 0.526 *
CONFIG_LOCK_STAT=y 17.707 0.254 *
CONFIG_DEBUG_KMEMLEAK=y 15.794 0.261 *
CONFIG_PAGE_TABLE_CHECK_ENFORCED=y 12.694 0.104 *
CONFIG_FAILSLAB=y 12.679 0.122 *
CONFIG_PAGE_TABLE_CHECK=y 12.504 0.102 ~
CONFIG_JBD2_DEBUG=y 12.361 0.120 -
CONFIG_BTRFS_ASSERT=y 12.268 0.130 -
EOF_TABLE

# Ten runs mean + sd * z_i, z_i = (i - 5.5) / s: the z have mean 0 and sd 1
# exactly, so every variant has exactly the table's mean and sd.
awk 'BEGIN { s = sqrt(82.5 / 9); printf "{\"results\": [" }
     { printf "%s\n{\"command\": \"%s\", \"times\": [", (NR > 1 ? "," : ""), $1
       for (i = 1; i <= 10; i++)
               printf "%s%.12f", (i > 1 ? ", " : ""), $2 + $3 * (i - 5.5) / s
       printf "]}" }
     END { print "]}" }' table >table.json

test_expect_success 'the constructed runs have the table'"'"'s means and sds' '
	jq -r ".results[] | .command as \$c | .times | (add / length) as \$m |
		(map((. - \$m) * (. - \$m)) | add / (length - 1) | sqrt) as \$s |
		\"\(\$c) \(\$m * 1000 | round) \(\$s * 1000 | round)\"" table.json >got &&
	awk "{ printf \"%s %d %d\\n\", \$1, \$2 * 1000 + 0.5, \$3 * 1000 + 0.5 }" table >want &&
	test_cmp want got
'

test_expect_success 'import and report' '
	kconfperf import -q hyperfine table.json --dir exp --baseline NO_DEBUG &&
	kconfperf report --dir exp >out &&
	cat out
'

test_expect_success 'every row: the table'"'"'s mean and sd, its change from the means' '
	while read -r name mean sd mark; do
		grep "^$name " out >row || { echo "no row $name"; exit 1; }
		want=$(printf "%.3f s ± %.3f s" "$mean" "$sd")
		grep -q "  $want" row || { echo "want \"$want\" in:"; cat row; exit 1; }
		test "$mark" = base && continue
		pct=$(awk -v m="$mean" "BEGIN { printf \"(%+.1f%%)\", (m / 12.362 - 1) * 100 }" |
			sed "s/(-0\.0%)/(+0.0%)/")
		grep -qF "$pct" row || { echo "want $pct in:"; cat row; exit 1; }
	done <table
'

test_expect_success 'exactly the significant rows are marked' '
	while read -r name mean sd mark; do
		grep "^$name " out >row
		case $mark in
		base) ! grep -q "[*~?]$" row ;;
		-) ! grep -q "[*~?]$" row ;;
		*) grep -q " [$mark]$" row ;;
		esac || { echo "want mark \"$mark\":"; cat row; exit 1; }
	done <table
'

# Fieller's 95% interval for 23.435/12.362 with n = 10 and 10: Welch's df
# is 10.997 here, t = 2.201; the bounds are the roots of the quadratic in
# stats.h, computed here independently.
test_expect_success 'the PROVE_LOCKING row, with its Fieller interval' '
	ci=$(awk "BEGIN { a = 23.435; b = 12.362; va = 0.526^2 / 10; vb = 0.093^2 / 10;
		t = 2.201; r = a / b; g = t^2 * vb / b^2;
		h = t / b * sqrt(va * (1 - g) + r^2 * vb);
		printf \"[%+.1f%% .. %+.1f%%]\", ((r - h) / (1 - g) - 1) * 100,
			((r + h) / (1 - g) - 1) * 100 }") &&
	grep "^CONFIG_PROVE_LOCKING=y " out | sed "s/  */ /g" >row &&
	echo "CONFIG_PROVE_LOCKING=y 23.435 s ± 0.526 s (+89.6%) $ci *" >expect &&
	test_cmp expect row
'

test_expect_success 'rows are sorted by effect, the baseline first' '
	sed -n "/^NO_DEBUG /,/^$/p" out | awk "NF { print \$1 }" >order &&
	sort -k2,2gr table | awk "{ print \$1 }" >want.tmp &&
	{ echo NO_DEBUG; grep -v "^NO_DEBUG$" want.tmp; } >want &&
	test_cmp want order
'

# With --noise 2, FAILSLAB's +2.6% [+1.7% .. +3.4%] reaches into the band
# and PAGE_TABLE_CHECK's +1.1% [+0.4% .. +1.9%] lies wholly inside it: no
# practical change, however significant.
test_expect_success '--noise 2: +2.6% reaches into the band (~), +1.1% is inside it (none), large ones stay *' '
	kconfperf report --dir exp --noise 2 >out2 &&
	grep "^CONFIG_PAGE_TABLE_CHECK=y " out2 >row &&
	test_grep "\[+0\.4% \.\. +1\.9%\]$" row &&
	grep "^CONFIG_FAILSLAB=y " out2 | grep -q "~$" &&
	grep "^CONFIG_LOCK_STAT=y " out2 | grep -q "\*$" &&
	test_grep "±2% noise band" out2
'

test_done
