#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2000: the fast tier's plan: what Kconfig makes of each variant, read from
# the fake kernel tree (lib-fast.sh), in a second.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

test_expect_success 'plan: each status from the kernel tree, a row per variant' '
	fake_plan exp DEBUG_A,NEEDS_MISSING,HIDDEN_SYM,SELECTOR,NOSUCH --design oat,all >out &&
	cat out &&
	test_grep "^baseline  *ok " out &&
	test_grep "^CONFIG_DEBUG_A=y  *ok  *1  *+0 -0 ~1" out &&
	test_grep "^CONFIG_NEEDS_MISSING=y  *no-op .*unmet-deps: depends on MISSING_DEP" out &&
	test_grep "^CONFIG_HIDDEN_SYM=y  *no-op .*hidden: .*selected by SELECTOR" out &&
	test_grep "^CONFIG_SELECTOR=y  *ok  *1  *+1 -0 ~1" out &&
	test_grep "^CONFIG_NOSUCH=y  *no-op .*unknown symbol" out &&
	test_grep "^all  *partial  *5 " out &&
	test "$(q exp "SELECT count(*) FROM variant")" = 7
'

test_expect_success 'plan: the harness is merged into the baseline and verified' '
	q exp "SELECT config FROM variant WHERE name = \"baseline\"" >base.config &&
	test_grep "^CONFIG_SERIAL_8250_CONSOLE=y" base.config &&
	test_grep "^CONFIG_VIRTIO_BLK=y" base.config &&
	! grep "^CONFIG_DEBUG_A=y" base.config
'

test_expect_success 'plan: two options that resolve alike are built once (same-as)' '
	fake_plan twins TWIN_A,TWIN_B -j1 >out &&
	cat out &&
	test_grep "^CONFIG_TWIN_A=y  *ok " out &&
	test_grep "^CONFIG_TWIN_B=y  *same-as CONFIG_TWIN_A=y " out
'

# With -j2 the slow TWIN_A resolves after TWIN_B: TWIN_B must still be
# found equal to the earlier TWIN_A, whatever order they finish in.
test_expect_success 'plan: parallel resolutions finishing out of order are classified in plan order' '
	KCP_FAKE_SLOW_SYMBOL=TWIN_A fake_plan twins-j2 TWIN_A,TWIN_B -j2 >out &&
	cat out &&
	test_grep "^CONFIG_TWIN_A=y  *ok " out &&
	test_grep "^CONFIG_TWIN_B=y  *same-as CONFIG_TWIN_A=y " out
'

# Each used to become an option: CONFIG_adir=y, a no-op "unknown symbol".
# The group's members are kept beside the variants (meta "groups"): the
# plan table's footer and every report read them from there.
test_expect_success 'plan: a named group is one variant, its members under the table' '
	printf "CONFIG_DEBUG_A=y\ngroup pair\n\tCONFIG_DEBUG_B=y\n\tCONFIG_DEBUG_FREE=y\nendgroup\n" >groups.opt &&
	fake_plan grouped "$PWD/groups.opt" >out &&
	cat out &&
	test_grep "^pair  *ok  *2 " out &&
	test_grep "^  pair: CONFIG_DEBUG_B=y CONFIG_DEBUG_FREE=y$" out &&
	kconfperf plan --dir grouped >again &&
	test_grep "^  pair: CONFIG_DEBUG_B=y CONFIG_DEBUG_FREE=y$" again
'

test_expect_success 'plan: --options naming a directory or a missing file is an error' '
	mkdir adir &&
	for bad in adir nosuchfile debug/options.txt opts.config "DEBUG_A,debug_b"; do
		{ fake_plan bad "$bad" >out 2>err; rc=$?; } &&
		cat err &&
		test "$rc" = 1 &&
		test_grep "^kconfperf: error: --options .$bad. is " err &&
		! test -e bad/kconfperf.db || exit 1
	done &&
	{ fake_plan bad adir 2>err; test_grep "adir. is a directory, not a fragment file" err; } &&
	{ fake_plan bad nosuchfile 2>err; test_grep "no file of that name, and .nosuchfile. is not a symbol name" err; } &&
	fake_plan good "DEBUG_A,CONFIG_DEBUG_B=y OPT_1=n" >out &&
	test_grep "^CONFIG_DEBUG_B=y  *ok" out
'

test_expect_success 'plan: the table and --show escape control bytes in names and values' '
	name=$(printf "CONFIG_CMDLINE_STR=\"\033[2J\302\233hi\"") &&
	fake_plan esc "${name#CONFIG_}" >out &&
	cat out &&
	! LC_ALL=C grep -q "$(printf "\033")" out &&
	! LC_ALL=C grep -q "$(printf "\302\233")" out &&
	test_grep "^CONFIG_CMDLINE_STR=\"\\\\x1b\[2J\\\\xc2\\\\x9bhi\"  *ok" out &&
	kconfperf plan --dir esc >again &&
	test_cmp out again &&
	kconfperf plan --dir esc --show "$name" >show &&
	cat show &&
	test_grep "CMDLINE_STR \"\" -> \"\\\\x1b\[2J" show &&
	! LC_ALL=C grep -q "$(printf "\033")" show
'

# source_id DIR: the source identity a plan recorded.
source_id() {
	q "$1" "SELECT value FROM meta WHERE key = \"source_id\""
}

# What the help and the page say (a tree is known by sizes and mtimes, not
# contents), checked against what kconfperf does.
test_expect_success 'source: a tree is known by its files sizes and mtimes, as --help says' '
	kconfperf plan -h >help &&
	test_grep "kernel tree (known by its files. sizes and mtimes, not contents)" help &&
	fake_plan id1 DEBUG_A >/dev/null &&
	# the same length, the same mtime: not seen (the documented limit)
	cp -p "$FAKE_TREE/Kconfig" kconfig.orig &&
	sed "s/costs nothing/costs NOTHING/" kconfig.orig >"$FAKE_TREE/Kconfig" &&
	touch -r kconfig.orig "$FAKE_TREE/Kconfig" &&
	! cmp -s kconfig.orig "$FAKE_TREE/Kconfig" &&
	fake_plan id2 DEBUG_A >/dev/null &&
	test "$(source_id id1)" = "$(source_id id2)" &&
	# a new mtime is a new tree
	touch -d "@$(( $(stat -c %Y kconfig.orig) + 5 ))" "$FAKE_TREE/Kconfig" &&
	fake_plan id3 DEBUG_A >/dev/null &&
	test "$(source_id id1)" != "$(source_id id3)" &&
	cp -p kconfig.orig "$FAKE_TREE/Kconfig" &&
	fake_plan id4 DEBUG_A >/dev/null &&
	test "$(source_id id1)" = "$(source_id id4)"
'

test_done
