#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0001: the command table, --help, --version and usage errors.
. "$(dirname "$0")/lib.sh"

test_expect_success '--version prints the version' '
	kconfperf --version >out &&
	grep -E "^kconfperf [0-9]+\.[0-9]+\.[0-9]+$" out
'

test_expect_success '--help lists every command of the table' '
	kconfperf --help >out &&
	test_grep "^usage: kconfperf" out &&
	test_grep "^    version " out
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

test_expect_success 'a write error on stdout is a failure' '
	if [ -w /dev/full ]; then
		! kconfperf --help >/dev/full 2>err &&
		test_grep "cannot write to standard output" err
	fi
'

test_done
