#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t1000: 'kconfperf config' against the kernel's own scripts/diffconfig and merge_config.sh.
. "$(dirname "$0")/lib.sh"

K=$FIXTURES/kconfig
TARBALL=/usr/src/linux-source-6.1.tar.xz
DEBIAN=/usr/src/linux-config-6.1

test_expect_success 'help config lists the subcommands' '
	kconfperf help config >out &&
	test_grep "^usage: kconfperf config diff" out &&
	test_grep "merge \[-o OUT\] BASE FRAG" out &&
	kconfperf --help >out &&
	test_grep "^    config " out
'

test_expect_success 'diff prints removed, changed and added symbols, sorted' '
	kconfperf config diff "$K/diff-a.config" "$K/diff-b.config" >out &&
	test_cmp "$K/diff.expect" out
'

test_expect_success 'diff -m prints changed and added symbols as .config lines' '
	kconfperf config diff -m "$K/diff-a.config" "$K/diff-b.config" >out &&
	test_cmp "$K/diff-m.expect" out
'

test_expect_success 'diff of a file with itself is empty' '
	kconfperf config diff "$K/tiny-base.config" "$K/tiny-base.config" >out &&
	test_cmp /dev/null out
'

test_expect_success 'check summarises a good file' '
	kconfperf config check "$K/tiny-base.config" >out &&
	test_grep "tiny-base.config: [0-9]* symbols: [0-9]* y, " out
'

test_expect_success 'check --options accepts option lists' '
	! kconfperf config check "$K/options.txt" 2>err &&
	test_grep "options.txt:2: .PROVE_LOCKING. is not a CONFIG_ line" err &&
	kconfperf config check --options "$K/options.txt" >out &&
	test_grep "options.txt: 6 symbols: 3 y, 1 m, 1 n, 1 numbers, 0 strings" out
'

test_expect_success 'check --options reads named groups as plan does' '
	printf "PRINTK_TIME\ngroup lockdebug\n\tPROVE_LOCKING\n\tDEBUG_ATOMIC_SLEEP\nendgroup\n" >groups.txt &&
	kconfperf config check --options groups.txt >out &&
	test_grep "groups.txt: 3 symbols: 3 y, .*; groups: lockdebug (2 options)$" out &&
	printf "group lockdebug\nPROVE_LOCKING\ngroup kasan\nKASAN\nendgroup\n" >nested.txt &&
	! kconfperf config check --options nested.txt 2>err &&
	test_grep "nested.txt:3: a group inside group .lockdebug. (line 1): groups do not nest" err
'

test_expect_failure_code 1 'check exits 1 on bad input' '
	kconfperf config check "$K/bad.config"
'

test_expect_success 'check reports every bad line as FILE:LINE' '
	cp "$K/bad.config" . &&
	! kconfperf config check bad.config >out 2>err &&
	test_cmp "$K/bad.expect" err &&
	test_cmp /dev/null out
'

test_expect_success 'check goes on after a bad file' '
	cp "$K/bad.config" . &&
	! kconfperf config check bad.config "$K/diff-a.config" >out 2>err &&
	test_grep "diff-a.config: 9 symbols" out
'

test_expect_failure_code 1 'diff exits 1 on bad input' '
	kconfperf config diff "$K/diff-a.config" "$K/bad.config"
'

test_expect_success 'a missing file is named' '
	! kconfperf config diff "$K/diff-a.config" nope.config 2>err &&
	test_grep "^kconfperf: error: cannot open .nope.config.: No such file" err
'

test_expect_success 'a redefinition is a warning, not an error' '
	printf "CONFIG_A=y\n# CONFIG_A is not set\n" >redef.config &&
	kconfperf config diff redef.config "$K/diff-a.config" >out 2>err &&
	test_grep "^kconfperf: warning: redef.config:2: CONFIG_A redefined: previous value .y., new value .n.$" err &&
	test_grep "^-A n$" out
'

test_expect_failure_code 2 'config without a subcommand is a usage error' '
	kconfperf config
'

test_expect_failure_code 2 'an unknown subcommand is a usage error' '
	kconfperf config frob
'

test_expect_failure_code 2 'diff needs two files' '
	kconfperf config diff "$K/diff-a.config"
'

test_expect_failure_code 2 'merge needs a fragment' '
	kconfperf config merge "$K/tiny-base.config"
'

test_expect_failure_code 2 'an unknown option is a usage error' '
	kconfperf config diff --frob "$K/diff-a.config" "$K/diff-b.config"
'

test_expect_success 'merge -o writes what merge prints' '
	kconfperf config merge "$K/tiny-base.config" "$K/frag-debug.config" >stdout.config 2>/dev/null &&
	kconfperf config merge -o out.config "$K/tiny-base.config" "$K/frag-debug.config" 2>/dev/null &&
	cmp stdout.config out.config &&
	kconfperf config diff "$K/tiny-base.config" out.config >out &&
	test_grep "^ LOG_BUF_SHIFT 17 -> 18$" out &&
	test_grep "^ EXPERT y -> n$" out
'

test_expect_success 'merge: a CRLF fragment merges as if it had LF line ends' '
	cr=$(printf "\r") &&
	printf "CONFIG_A=y\nCONFIG_B=y\n" >crlf-base.config &&
	printf "# debug\r\nCONFIG_A=y\r\nCONFIG_B=m\r\n# CONFIG_C is not set\r\n" >crlf.config &&
	tr -d "\r" <crlf.config >lf.config &&
	kconfperf config merge crlf-base.config crlf.config >from-crlf 2>crlf.err &&
	kconfperf config merge crlf-base.config lf.config >from-lf 2>lf.err &&
	test_cmp from-lf from-crlf &&
	sed "s/lf.config/crlf.config/" lf.err >expect.err &&
	test_cmp expect.err crlf.err &&
	! grep -q "$cr" from-crlf crlf.err &&
	test_grep "value of CONFIG_B is redefined" crlf.err &&
	! grep -q "CONFIG_A is redefined" crlf.err
'

# The kernel's own scripts, extracted once per build directory: the tarball is
# one xz stream, so this reads ~1.2 GB; tar stops once both members are out.
scripts=$KCP_BUILD/test-cache/linux-source-6.1-scripts
get_kernel_scripts() {
	stamp=$(stat -c '%s %Y' "$TARBALL" 2>/dev/null) || return 1
	if [ "$(cat "$scripts/stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	tmp=$(mktemp -d "$KCP_BUILD/test-cache.XXXXXX" 2>/dev/null) ||
		{ mkdir -p "$KCP_BUILD" && tmp=$(mktemp -d "$KCP_BUILD/test-cache.XXXXXX"); } || return 1
	(cd "$tmp" && xz -dc -T2 "$TARBALL" | tar --occurrence=1 -xf - \
		linux-source-6.1/scripts/diffconfig \
		linux-source-6.1/scripts/kconfig/merge_config.sh) &&
	test -f "$tmp/linux-source-6.1/scripts/diffconfig" &&
	test -f "$tmp/linux-source-6.1/scripts/kconfig/merge_config.sh" &&
	echo "$stamp" >"$tmp/stamp" &&
	mkdir -p "$KCP_BUILD/test-cache" &&
	rm -rf "$scripts" &&
	mv "$tmp/linux-source-6.1/scripts" "$scripts" &&
	mv "$tmp/stamp" "$scripts/stamp"
	rc=$?
	rm -rf "$tmp"
	return $rc
}

if ! command -v python3 >/dev/null || ! [ -r "$DEBIAN/config.amd64_none_amd64.xz" ] ||
   ! get_kernel_scripts; then
	test_skip "the comparisons with the kernel's scripts" "need python3, $TARBALL and $DEBIAN"
	test_done
	exit $?
fi
DIFFCONFIG=$scripts/diffconfig
MERGE_CONFIG=$scripts/kconfig/merge_config.sh
for c in none_amd64 rt_amd64 none_cloud-amd64; do
	xz -dc "$DEBIAN/config.amd64_$c.xz" >"$c.config"
done

# compare_diff [-m] A B: kconfperf's output is scripts/diffconfig's, byte for byte.
compare_diff() {
	python3 "$DIFFCONFIG" "$@" >expect &&
	kconfperf config diff "$@" >actual &&
	test -s expect &&
	cmp expect actual
}

test_expect_success 'diff equals scripts/diffconfig: Debian none vs rt, both ways' '
	compare_diff none_amd64.config rt_amd64.config &&
	compare_diff rt_amd64.config none_amd64.config
'

test_expect_success 'diff equals scripts/diffconfig: Debian none vs cloud, both ways' '
	compare_diff none_amd64.config none_cloud-amd64.config &&
	compare_diff none_cloud-amd64.config none_amd64.config
'

test_expect_success 'diff equals scripts/diffconfig: Debian rt vs cloud, both ways' '
	compare_diff rt_amd64.config none_cloud-amd64.config &&
	compare_diff none_cloud-amd64.config rt_amd64.config
'

test_expect_success 'diff -m equals scripts/diffconfig -m, all pairs' '
	for a in none_amd64 rt_amd64 none_cloud-amd64; do
		for b in none_amd64 rt_amd64 none_cloud-amd64; do
			[ $a = $b ] && continue
			compare_diff -m $a.config $b.config || exit 1
		done
	done
'

test_expect_success 'diff equals scripts/diffconfig on the small fixtures' '
	compare_diff "$K/diff-a.config" "$K/diff-b.config" &&
	compare_diff -m "$K/diff-b.config" "$K/diff-a.config"
'

# compare_merge BASE FRAG...: the same file and the same redefinitions as merge_config.sh -m.
compare_merge() {
	rm -rf mc && mkdir mc &&
	(unset KCONFIG_CONFIG; sh "$MERGE_CONFIG" -m -O mc "$@") >mc.log &&
	kconfperf config merge "$@" >merged.config 2>merge.err &&
	cmp mc/.config merged.config &&
	sed -n "s/^Value of \(CONFIG_[A-Za-z0-9_]*\) is redefined by fragment \(.*\):$/\1 \2/p" \
		mc.log >expect.redef &&
	sed -n "s/^kconfperf: warning: value of \(CONFIG_[A-Za-z0-9_]*\) is redefined by fragment \([^:]*\): .*/\1 \2/p" \
		merge.err >actual.redef &&
	test_cmp expect.redef actual.redef
}

test_expect_success 'merge equals merge_config.sh -m: tinyconfig-like base, two fragments' '
	cp "$K/tiny-base.config" "$K/frag-debug.config" "$K/frag-net.config" . &&
	compare_merge tiny-base.config frag-debug.config frag-net.config &&
	test_cmp - expect.redef <<-\EOT
	CONFIG_PROVE_LOCKING frag-debug.config
	CONFIG_LOCK_STAT frag-debug.config
	CONFIG_EXPERT frag-debug.config
	CONFIG_LOG_BUF_SHIFT frag-debug.config
	CONFIG_CMDLINE_BOOL frag-debug.config
	CONFIG_LOCK_STAT frag-net.config
	CONFIG_PACKET frag-net.config
	CONFIG_HZ_1000 frag-net.config
	CONFIG_HZ_250 frag-net.config
	CONFIG_NR_CPUS frag-net.config
	EOT
'

test_expect_success 'merge equals merge_config.sh -m: missing final newlines' '
	printf "# base\nCONFIG_A=y\nCONFIG_B=m" >b1.config &&
	printf "CONFIG_B=y\nCONFIG_C=y" >f1.config &&
	printf "CONFIG_A=y\n" >f2.config &&
	compare_merge b1.config f1.config f2.config &&
	printf "CONFIG_A=y\nCONFIG_B=m" >b2.config &&
	printf "# CONFIG_A is not set\n" >f3.config &&
	compare_merge b2.config f3.config
'

test_expect_success 'merge equals merge_config.sh -m: a fragment redefining its own symbol' '
	printf "CONFIG_A=y\nCONFIG_B=y\n" >b3.config &&
	printf "CONFIG_A=m\nCONFIG_X=y\n# CONFIG_A is not set\n" >f4.config &&
	compare_merge b3.config f4.config 2>/dev/null
'

test_expect_success 'merge of a Debian config with a fragment equals merge_config.sh -m' '
	cp "$K/frag-debug.config" . &&
	compare_merge none_amd64.config frag-debug.config
'

test_done
