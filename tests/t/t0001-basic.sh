#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0001: the command table, --help, --version and usage errors.
. "$(dirname "$0")/lib.sh"

test_expect_success '--version prints the version' '
	kconfperf --version >out &&
	grep -E "^kconfperf [0-9]+\.[0-9]+\.[0-9]+$" out
'

test_expect_success '--help lists every command of the table, and each has help' '
	kconfperf --help >out &&
	test_grep "^usage: kconfperf" out &&
	sed -n "s/^	{ \"\([a-z-]*\)\", cmd_.*/\1/p" "$SRC_DIR/src/cmd/main.c" >table &&
	test "$(wc -l <table)" -ge 10 &&
	sed -n "s/^    \([a-z-]*\)  *[a-z].*/\1/p" out >listed &&
	test_cmp table listed &&
	while read -r c; do
		if [ "$c" != version ]; then
			kconfperf help "$c" >h 2>&1 &&
			test_grep "^usage: kconfperf $c" h || exit 1
		fi
	done <table
'

test_expect_failure_code 2 'no command is a usage error' '
	kconfperf
'

test_expect_failure_code 2 'an unknown command exits 2' '
	kconfperf versoin
'

test_expect_success 'an unknown command suggests the closest one' '
	! kconfperf versoin 2>err &&
	test_grep "did you mean .version." err
'

test_expect_failure_code 2 'an unknown global option exits 2' '
	kconfperf --frobnicate
'

if [ -c /dev/full ] && [ -w /dev/full ]; then
	test_expect_success 'a write error on stdout is a failure, said once' '
		! kconfperf --help >/dev/full 2>err &&
		test_grep "cannot write to standard output" err &&
		test "$(grep -c "cannot write" err)" = 1
	'
else
	test_skip 'a write error on stdout is a failure' 'no writable /dev/full'
fi

test_done
