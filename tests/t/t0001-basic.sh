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

# dir_is_a_file CMD...: CMD with --dir naming a file (and a path under
# it) exits 1 saying that file is not a directory, before any other work:
# the --source given does not exist, so naming it would mean it was opened.
dir_is_a_file() {
	for d in afile afile/sub afile/; do
		if "$@" --dir "$d" >out 2>err; then
			echo "'$* --dir $d' succeeded"
			return 1
		fi
		test_cmp - err <<-\EOF || return 1
		kconfperf: error: 'afile' is not a directory
		EOF
	done
}

test_expect_success 'every command that takes --dir says plainly that a file is not a directory' '
	echo not a directory >afile &&
	src="--source /nonexistent --base tinyconfig --options PRINTK_TIME" &&
	dir_is_a_file kconfperf plan &&
	dir_is_a_file kconfperf plan --show baseline &&
	dir_is_a_file kconfperf plan $src &&
	dir_is_a_file kconfperf build &&
	dir_is_a_file kconfperf run --workload boot &&
	dir_is_a_file kconfperf report &&
	dir_is_a_file kconfperf sweep $src --workload boot &&
	dir_is_a_file kconfperf screen $src --workload boot &&
	dir_is_a_file kconfperf import hyperfine "$DATA/example-hyperfine-1.15-export.json" &&
	dir_is_a_file kconfperf vm --kernel /nonexistent --initramfs /nonexistent &&
	test "$(cat afile)" = "not a directory"
'

# full_once WHAT CMD...: CMD with stdout on /dev/full exits 1, and stderr
# holds exactly one line, the write error naming WHAT ("to standard output"
# or "'-'").
full_once() {
	_what=$1
	shift
	"$@" >/dev/full 2>err
	_rc=$?
	if [ "$_rc" != 1 ] || [ "$(wc -l <err)" != 1 ] ||
	   ! grep -q "^kconfperf: error: cannot write $_what: No space left on device\$" err; then
		echo "'$*' >/dev/full: exit $_rc, stderr:"
		cat err
		return 1
	fi
}

if [ -c /dev/full ] && [ -w /dev/full ]; then
	test_expect_success 'a write error on stdout is a failure, said once' '
		full_once "to standard output" kconfperf --help &&
		full_once "to standard output" kconfperf version &&
		full_once "to standard output" kconfperf help report &&
		full_once "to standard output" kconfperf report --help
	'

	test_expect_success 'every command that prints says a full stdout once' '
		kconfperf import hyperfine "$DATA/example-hyperfine-1.15-export.json" --dir exp -q &&
		printf "CONFIG_A=y\n" >a.config &&
		for i in $(seq 1 3000); do echo "CONFIG_B$i=y"; done >b.config &&
		full_once "'\''-'\''" kconfperf report --dir exp &&
		full_once "'\''-'\''" kconfperf report --dir exp --format html &&
		full_once "'\''-'\''" kconfperf report --dir exp -o - &&
		full_once "to standard output" kconfperf plan --dir exp &&
		full_once "to standard output" kconfperf config diff a.config b.config &&
		full_once "to standard output" kconfperf config merge a.config b.config &&
		full_once "'\''-'\''" kconfperf config merge -o - a.config b.config &&
		full_once "to standard output" kconfperf config check a.config b.config &&
		full_once "to standard output" kconfperf workloads --all &&
		full_once "to standard output" kconfperf workloads --cmdline boot &&
		full_once "'\''-'\''" kconfperf simulate-screen --seed 7 \
			"$DATA/fedora-rawhide-5.19-debug-options.csv" &&
		full_once "'\''-'\''" kconfperf initramfs -o -
	'
else
	test_skip 'a write error on stdout is a failure, said once' 'no writable /dev/full'
	test_skip 'every command that prints says a full stdout once' 'no writable /dev/full'
fi

test_done
