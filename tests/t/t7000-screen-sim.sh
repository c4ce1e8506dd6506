#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t7000: kconfperf simulate-screen on the published Fedora table: JSON and
# text output, the issue's three figures over 100 seeds, determinism, bad input.
. "$(dirname "$0")/lib.sh"

TABLE=$DATA/fedora-rawhide-5.19-debug-options.csv
command -v jq >/dev/null || test_skip_all "no jq"

test_expect_success 'one seed as JSON: builds, runs and the five costly options' '
	kconfperf simulate-screen "$TABLE" --seed 7 --format json >out.json &&
	jq -e "(.builds | type == \"number\") and (.runs | type == \"number\") and
	       (.found | type == \"array\")" out.json &&
	jq -e ".builds < 115 and .builds >= 2 and .one_at_a_time_builds == 115" out.json &&
	jq -r ".found[]" out.json | sort >found &&
	cat >expect <<-\EOF &&
	CONFIG_DEBUG_KMEMLEAK=y
	CONFIG_DEBUG_LOCK_ALLOC=y
	CONFIG_DEBUG_WW_MUTEX_SLOWPATH=y
	CONFIG_LOCK_STAT=y
	CONFIG_PROVE_LOCKING=y
	EOF
	test_cmp expect found &&
	jq -e ".tree[0].parent == null and .tree[0].lo == 0 and .tree[0].hi == 114" out.json &&
	jq -e "[.tree[] | select(.decision == \"found\")] | length == 5" out.json &&
	jq -e "(.all_found.cost > 100) and (.found_details | length == 5)" out.json
'

test_expect_success 'text output: figures, found options and the tree' '
	kconfperf simulate-screen "$TABLE" --seed 7 >out &&
	test_grep "^screened 114 of 114 options: [0-9]* builds (one at a time: 115), [0-9]* runs" out &&
	test_grep "^    CONFIG_PROVE_LOCKING=y .*alone +[0-9.]*%.*\*$" out &&
	test_grep "^bifurcation tree" out &&
	test_grep "^    1-114 (114) .*split: interval above the threshold" out &&
	test_grep "dropped: interval below the threshold" out &&
	test "$(jq .builds out.json)" = "$(sed -n "s/^screened .*: \([0-9]*\) builds.*/\1/p" out)"
'

test_expect_success 'the same seed gives the same screen; another seed another order' '
	kconfperf simulate-screen "$TABLE" --seed 7 --format json >again.json &&
	test_cmp out.json again.json &&
	kconfperf simulate-screen "$TABLE" --seed 8 --format json >other.json &&
	! cmp -s out.json other.json
'

test_expect_success '100 random orders meet the issue: all >= 5% found, few false, <= 35 builds' '
	kconfperf simulate-screen "$TABLE" --seeds 100 --sd 0.75 --threshold 3 \
		--zero-below 2 --format json >sum.json &&
	jq -e ".seeds == 100 and .detect_options == 5 and .zero_options > 100" sum.json &&
	jq -e ".detect_min_rate == 1" sum.json &&
	jq -e ".false_max_rate <= 0.05" sum.json &&
	jq -e ".builds_mean <= 35" sum.json &&
	jq -e "[.options[] | select(.cost >= 5) | .found_rate] | all(. == 1)" sum.json
'

test_expect_success 'related order: same figures, text summary' '
	kconfperf simulate-screen "$TABLE" --seeds 20 --order related >rel &&
	test_grep "^builds: mean [0-9.]*, min [0-9]*, max [0-9]* (one at a time: 115)" rel &&
	test_grep "^options costing 5.0% or more: 5, the least found in 100% of seeds" rel
'

test_expect_success 'the simple CONFIG_X=y,COST format' '
	cat >simple.csv <<-\EOF &&
	# true costs in percent
	CONFIG_A=y,0
	CONFIG_B=y,40
	CONFIG_C=m,0
	CONFIG_D=y,0.5
	EOF
	kconfperf simulate-screen simple.csv --order given --format json >s.json &&
	jq -e ".found == [\"CONFIG_B=y\"] and .options == 4" s.json
'

test_expect_failure_code 1 'a malformed table exits 1' '
	printf "CONFIG_A=y,1\nCONFIG_B=y;2\n" >bad.csv &&
	kconfperf simulate-screen bad.csv
'

test_expect_success 'and names the file and line, and what was expected' '
	! kconfperf simulate-screen bad.csv 2>err &&
	test_grep "^kconfperf: error: bad.csv:2: .CONFIG_B=y;2. is not CONFIG_NAME=VALUE,COST_PERCENT$" err &&
	printf "variant,mean_s,sd_s\nNO_DEBUG,12,0.1\nCONFIG_A=y,fast,0.1\n" >bad2.csv &&
	! kconfperf simulate-screen bad2.csv 2>err &&
	test_grep "^kconfperf: error: bad2.csv:3: mean .fast. is not a positive number$" err
'

test_expect_failure_code 1 'a missing table exits 1' '
	kconfperf simulate-screen no-such.csv
'

test_expect_failure_code 2 'screen wants the inputs of a sweep' '
	kconfperf screen --source x --base tinyconfig 2>err
'

test_expect_success 'and says which' '
	test_grep "screen needs --options or --options-from-diff" err &&
	! kconfperf screen 2>err &&
	test_grep "screen needs --source and --base" err
'

test_expect_failure_code 2 'an unknown --format is a usage error' '
	kconfperf simulate-screen "$TABLE" --format yaml
'

test_expect_success 'the settings are echoed with the option names: sd, given' '
	kconfperf simulate-screen simple.csv --order given --sd 2 --format json >s.json &&
	jq -e ".order == \"given\" and .sd == 2 and (has(\"noise\") | not)" s.json &&
	kconfperf simulate-screen simple.csv --sd 2 >s.txt &&
	test_grep "random order, run-to-run sd 2.00%" s.txt
'

test_expect_failure_code 2 'a table is required' '
	kconfperf simulate-screen --seed 3 2>err
'

test_expect_success 'and the message says so' '
	test_grep "simulate-screen needs a table of costs" err
'

test_expect_failure_code 2 '--order table is now --order given' '
	kconfperf simulate-screen simple.csv --order table 2>err
'

test_expect_success 'and the message lists the orders' '
	test_grep "unknown --order .table. (random, given or related)" err
'

test_expect_failure_code 2 'screen --simulate is gone' '
	kconfperf screen --simulate "$TABLE" --seed 7 2>err
'

test_expect_success 'and says what to type instead' '
	test_grep "is now .kconfperf simulate-screen TABLE. (--noise is --sd there" err
'

test_expect_success '--help lists the options; screen --help points to simulate-screen' '
	kconfperf screen --help >help &&
	test_grep "threshold" help &&
	test_grep "kconfperf simulate-screen" help &&
	kconfperf simulate-screen -h >help &&
	test_grep "zero-below" help &&
	test_grep "^ *--sd PCT" help &&
	kconfperf help simulate-screen >help2 &&
	head -n "$(wc -l <help)" help2 >help3 &&
	test_cmp help help3 &&
	test_grep "The whole page: .*kconfperf-simulate-screen" help2
'

test_done
