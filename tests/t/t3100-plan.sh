#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t3100: kconfperf plan on Debian's real 6.1 sources: what each variant really
# is, why requested settings do not take, deduplication, and bad input.
. "$(dirname "$0")/lib.sh"
test_need_kernel_source

plan() {
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" "$@"
}

# Field 2 (status) of a variant's row in the plan table.
status_of() {
	awk -v v="$1" '$1 == v { print $2 }' "$2"
}

cat >options <<'OPT'
# the issue's set
CONFIG_PROVE_LOCKING=y
LOCKDEP
CONFIG_NO_SUCH_OPTION=y
LOCK_STAT
CONFIG_DEBUG_LOCK_ALLOC=y
CONFIG_DEBUG_KMEMLEAK=y
CONFIG_FAIL_PAGE_ALLOC=y
OPT

test_expect_success 'plan resolves tinyconfig + seven options' '
	plan --base tinyconfig --options options --design oat,all --dir exp >out 2>err &&
	cat out &&
	test_grep "^baseline  *ok" out &&
	test_grep "^all  *partial  *7 .*CONFIG_NO_SUCH_OPTION: unknown symbol" out
'

test_expect_success 'PROVE_LOCKING is ok with ~40 effective changes' '
	test "$(status_of CONFIG_PROVE_LOCKING=y out)" = ok &&
	kconfperf plan --dir exp --show CONFIG_PROVE_LOCKING=y >diff &&
	cat diff &&
	n=$(wc -l <diff) &&
	test "$n" -ge 25 && test "$n" -le 80 &&
	test_grep "^+LOCKDEP y" diff &&
	test_grep "^ PROVE_LOCKING n -> y" diff
'

test_expect_success 'LOCKDEP is a no-op: hidden, its selectors named' '
	test "$(status_of CONFIG_LOCKDEP=y out)" = no-op &&
	grep "^CONFIG_LOCKDEP=y" out >row &&
	test_grep "hidden" row &&
	test_grep "PROVE_LOCKING" row &&
	test_grep "LOCK_STAT" row &&
	test_grep "DEBUG_LOCK_ALLOC" row
'

test_expect_success 'NO_SUCH_OPTION is an unknown symbol' '
	test "$(status_of CONFIG_NO_SUCH_OPTION=y out)" = no-op &&
	grep "^CONFIG_NO_SUCH_OPTION=y" out >row &&
	test_grep "unknown symbol" row
'

test_expect_success 'DEBUG_KMEMLEAK takes (tinyconfig has EXPERT, so DEBUG_KERNEL)' '
	test "$(status_of CONFIG_DEBUG_KMEMLEAK=y out)" = ok
'

test_expect_success 'FAIL_PAGE_ALLOC has an unmet dependency, with its false atoms' '
	grep "^CONFIG_FAIL_PAGE_ALLOC=y" out >row &&
	test "$(status_of CONFIG_FAIL_PAGE_ALLOC=y out)" = no-op &&
	test_grep "unmet-deps: depends on FAULT_INJECTION: FAULT_INJECTION=n" row
'

# tinyconfig sets UNWINDER_GUESS=y and SLOB=y; each is the last member of
# its choice in Kconfig order, so a .config that only added the requested
# member left the old one to win.  Setting a member deselects the others.
test_expect_success 'a choice member takes: the unwinder and the slab allocator' '
	plan --base tinyconfig --options UNWINDER_FRAME_POINTER,SLUB --dir choice >choice.out &&
	cat choice.out &&
	test "$(status_of CONFIG_UNWINDER_FRAME_POINTER=y choice.out)" = ok &&
	test "$(status_of CONFIG_SLUB=y choice.out)" = ok &&
	kconfperf plan --dir choice --show CONFIG_UNWINDER_FRAME_POINTER=y >fp.diff &&
	cat fp.diff &&
	test_grep "^ UNWINDER_FRAME_POINTER n -> y" fp.diff &&
	test_grep "^ UNWINDER_GUESS y -> n" fp.diff &&
	kconfperf plan --dir choice --show CONFIG_SLUB=y >slub.diff &&
	test_grep "^ SLOB y -> n" slub.diff
'

test_expect_success 'variants with one effective config are marked same-as' '
	# DEBUG_LOCK_ALLOC and LOCK_STAT both select LOCKDEP; whichever pair
	# resolves alike is built once
	grep -E "same-as|ok" out >/dev/null &&
	sqlite3 exp/kconfperf.db "SELECT name, status, same_as FROM variant" >rows &&
	cat rows &&
	dups=$(sqlite3 exp/kconfperf.db "SELECT count(*) FROM variant v, variant w
		WHERE v.config_hash = w.config_hash AND v.position > w.position
		AND v.kind != \"baseline-again\"
		AND v.status NOT IN (\"same-as\", \"no-op\")") &&
	test "$dups" = 0
'

test_expect_success 'the stored plan prints again without the source' '
	kconfperf plan --dir exp >again &&
	test_cmp out again
'

test_expect_success 'the baseline carries the harness' '
	sqlite3 exp/kconfperf.db "SELECT config FROM variant WHERE name = \"baseline\"" >base.config &&
	test_grep "^CONFIG_SERIAL_8250_CONSOLE=y" base.config &&
	test_grep "^CONFIG_VIRTIO_BLK=y" base.config &&
	test_grep "^CONFIG_DEVTMPFS_MOUNT=y" base.config
'

test_expect_success '--with-deps enables what FAIL_PAGE_ALLOC depends on' '
	plan --base tinyconfig --options FAIL_PAGE_ALLOC --with-deps --dir deps >out2 &&
	cat out2 &&
	test "$(status_of CONFIG_FAIL_PAGE_ALLOC=y out2)" = ok &&
	test_grep "with deps: +FAULT_INJECTION" out2
'

test_expect_success '--options-from-diff takes every symbol NEW sets differently' '
	sqlite3 exp/kconfperf.db "SELECT config FROM variant WHERE name = \"baseline\"" >old.config &&
	sed "s/^# CONFIG_PRINTK_TIME is not set/CONFIG_PRINTK_TIME=y/" old.config >new.config &&
	echo "CONFIG_DEBUG_BUGVERBOSE=y" >>new.config &&
	plan --base tinyconfig --options-from-diff old.config new.config --dir fromdiff >out3 &&
	cat out3 &&
	test_grep "^CONFIG_PRINTK_TIME=y  *ok" out3 &&
	test_grep "^CONFIG_DEBUG_BUGVERBOSE=y" out3
'

test_expect_success 'loo: all minus an option that another selects is the same as all' '
	plan --base tinyconfig --options PROVE_LOCKING,LOCKDEP --design all,loo --dir loo >out4 &&
	cat out4 &&
	test_grep "^all-CONFIG_LOCKDEP=y  *same-as all" out4
'

test_expect_success 'a baseline .config file works as well as a target' '
	plan --base base.config --options PRINTK_TIME --dir fromfile >out5 &&
	test_grep "^CONFIG_PRINTK_TIME=y  *ok" out5
'

test_expect_failure_code 1 'a malformed option file names file:line' '
	printf "CONFIG_A=y\nCONFIG_FOO=maybe\n" >bad-options &&
	plan --base tinyconfig --options bad-options --dir bad 2>err;
	rc=$?; cat err; grep -q "bad-options:2:" err || exit 9; exit $rc
'

test_expect_failure_code 1 'a bad make target is a clear error' '
	plan --base nosuchconfig --options PRINTK_TIME --dir bad2 2>err;
	rc=$?; cat err; grep -q "nosuchconfig" err || exit 9; exit $rc
'

test_expect_failure_code 1 'a baseline target that is not a config target is refused' '
	plan --base "vmlinux; rm -rf /" --options PRINTK_TIME --dir bad3 2>err;
	rc=$?; cat err; grep -q "neither a .config file nor a make config target" err || exit 9; exit $rc
'

test_expect_failure_code 1 'a source that is not a kernel is a clear error' '
	mkdir notakernel && echo "all:" >notakernel/Makefile &&
	kconfperf plan --source notakernel --base tinyconfig --options X --dir bad4 2>err;
	rc=$?; cat err; grep -q "is not a kernel source tree" err || exit 9; exit $rc
'

test_expect_failure_code 2 'options and options-from-diff together are a usage error' '
	plan --base tinyconfig --options X --options-from-diff a b --dir bad5
'

test_done
