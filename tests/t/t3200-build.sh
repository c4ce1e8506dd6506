#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t3200: kconfperf build on Debian's real 6.1 sources: a tinyconfig baseline
# and a leaf option, seeded, cached by content; failures are recorded results.
# The first run builds a kernel (minutes); the shared test cache makes every
# later run, and later test scripts, reuse it.
. "$(dirname "$0")/lib.sh"
test_need_kernel_source

db() {
	sqlite3 exp/kconfperf.db "$1"
}

test_expect_success 'plan tinyconfig + a leaf option' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--base tinyconfig --options PRINTK_TIME --dir exp -q >plan.out &&
	test_grep "^CONFIG_PRINTK_TIME=y  *ok" plan.out
'

test_expect_success 'build makes a bzImage per variant and records sizes' '
	kconfperf build --dir exp >build.out &&
	cat build.out &&
	test "$(db "SELECT count(*) FROM build WHERE status = \"ok\"")" = 2 &&
	test "$(db "SELECT count(*) FROM build WHERE bzimage_size > 500000 AND vmlinux_size > bzimage_size")" = 2 &&
	for img in $(db "SELECT image FROM build"); do
		test -s "$img" || exit 1
		file "$img" 2>/dev/null | grep -q "Linux kernel" || head -c 600 "$img" | grep -q HdrS || exit 1
	done
'

# vmlinux by section as size(1) adds it up and by symbol as nm (and the
# kernel's scripts/bloat-o-meter) does; the baseline's tree is kept, since
# the leaf variant was seeded from it.  PRINTK_TIME sets printk_time to 1:
# the variable moves from bss to data, a byte each way, which neither
# bzImage nor the padded sections show.
test_expect_success 'sizes by section and by symbol, a leaf option seen only by symbol' '
	base=$(db "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash WHERE v.name = \"baseline\"") &&
	vmlinux="$KCP_TEST_CACHE/trees/$base/vmlinux" &&
	test -f "$vmlinux" &&
	size -B "$vmlinux" | tail -n 1 | awk "{ print \$1 \"|\" \$2 \"|\" \$3 }" >expect.sections &&
	nm --size -t d "$vmlinux" | awk "\$2 ~ /^[tTrRwW]\$/ { t += \$1 } \$2 ~ /^[dDvV]\$/ { d += \$1 }
		\$2 ~ /^[bB]\$/ { b += \$1 } END { print t \"|\" d \"|\" b }" >expect.symbols &&
	db "SELECT text_size, data_size, bss_size FROM build WHERE key = \"$base\"" >got.sections &&
	db "SELECT symbol_text_size, symbol_data_size, symbol_bss_size FROM build WHERE key = \"$base\"" >got.symbols &&
	test_cmp expect.sections got.sections &&
	test_cmp expect.symbols got.symbols &&
	db "SELECT l.bzimage_size - b.bzimage_size, l.text_size - b.text_size, l.data_size - b.data_size,
		l.bss_size - b.bss_size, l.symbol_text_size - b.symbol_text_size,
		l.symbol_data_size - b.symbol_data_size, l.symbol_bss_size - b.symbol_bss_size
		FROM build b, build l WHERE b.key = \"$base\" AND l.key <> b.key" >delta &&
	cat delta &&
	test "$(cat delta)" = "0|0|0|0|0|1|-1" &&
	kconfperf report --dir exp >report.txt 2>/dev/null &&
	sed -n "/^image size:/,/^measured under:/p" report.txt >sizes.txt &&
	cat sizes.txt &&
	test_grep "^  CONFIG_PRINTK_TIME=y  *+0 B  *+0 B  *+0 B  *+0 B  *+0 B  *+1 B  *-1 B\$" sizes.txt &&
	kconfperf report --dir exp --format html >report.html 2>/dev/null &&
	test_grep "<th class=\"n\">sym data</th>" report.html
'

test_expect_success 'the leaf variant was seeded from the baseline and rebuilt few files' '
	base=$(db "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash WHERE v.name = \"baseline\"") &&
	seed=$(db "SELECT b.seeded_from FROM build b JOIN variant v ON v.config_hash = b.config_hash WHERE v.name = \"CONFIG_PRINTK_TIME=y\"") &&
	test -n "$base" && test "$seed" = "$base" &&
	log=$(find "$KCP_TEST_CACHE/builds" -path "*/build.log" -newer plan.out 2>/dev/null | head -n 1) &&
	leaf_log="$KCP_TEST_CACHE/builds/$(db "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash WHERE v.name = \"CONFIG_PRINTK_TIME=y\"")/build.log" &&
	base_log="$KCP_TEST_CACHE/builds/$base/build.log" &&
	leaf_cc=$(grep -c "^  CC " "$leaf_log") &&
	base_cc=$(grep -c "^  CC " "$base_log") &&
	echo "compiled: baseline $base_cc files, leaf $leaf_cc files" &&
	test "$leaf_cc" -gt 0 && test "$leaf_cc" -lt 30 &&
	# a baseline built by this run came from scratch; one found in a
	# long-lived cache may have been re-made from its own kept tree
	if test "$base_log" -nt plan.out; then test "$base_cc" -gt 300; fi
'

test_expect_success 'a second build of the plan builds nothing' '
	kconfperf build --dir exp >again.out 2>again.err &&
	cat again.out again.err &&
	test "$(grep -c " cached " again.out)" = 2 &&
	test_grep "0 built, 2 cached, 0 failed" again.err
'

test_expect_success 'the same config in another experiment is found in the cache' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--base tinyconfig --options PRINTK_TIME --dir exp2 -q >/dev/null &&
	kconfperf build --dir exp2 2>err &&
	test_grep "0 built, 2 cached" err
'

test_expect_success 'a failing build is a recorded failure with its log tail' '
	kconfperf plan --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--base tinyconfig --options PRINTK_TIME --dir bad -q >/dev/null &&
	{ kconfperf build --dir bad --make-var KCFLAGS=-fno-such-flag-kconfperf >out 2>err; rc=$?; } &&
	cat out err &&
	test "$rc" = 1 &&
	test_grep "build of baseline failed" err &&
	sqlite3 bad/kconfperf.db "SELECT status, log_tail FROM build" >rows &&
	test "$(grep -c "^failed|" rows)" = 2 &&
	test_grep "fno-such-flag-kconfperf" rows
'

test_expect_success 'failed builds leave nothing in the cache that looks finished' '
	for key in $(sqlite3 bad/kconfperf.db "SELECT key FROM build"); do
		test ! -e "$KCP_TEST_CACHE/builds/$key" || exit 1
	done &&
	test -z "$(ls "$KCP_TEST_CACHE/tmp" 2>/dev/null)"
'

# Processes whose working directory is in the cache's scratch space: a build.
build_processes () {
	for p in /proc/[0-9]*; do readlink "$p/cwd"; done 2>/dev/null |
	grep -c "^$KCP_TEST_CACHE/tmp" || :
}

test_expect_success 'an interrupted build is never taken for a finished one' '
	kconfperf build --dir bad --make-var KCFLAGS=-DKCP_INTERRUPTED >/dev/null 2>&1 &
	pid=$! &&
	# kill it mid-build (a new KCFLAGS rebuilds every file)
	i=0 && while test "$(build_processes)" = 0 && test $i -lt 120; do sleep 1; i=$((i + 1)); done &&
	sleep 3 &&
	kill -9 $pid; wait $pid;
	# make dies with kconfperf, but the sub-makes and compilers it
	# started run on in their process group, holding the build lock
	test "$(build_processes)" -gt 0 &&
	test -n "$(ls "$KCP_TEST_CACHE/tmp")" &&
	{ kconfperf build --dir bad --make-var KCFLAGS=-DKCP_INTERRUPTED --timeout 5 >out 2>err; rc=$?; } &&
	cat out err &&
	test "$rc" = 1 &&
	test_grep "stopping the build that kconfperf (pid $pid) left running" err &&
	test_grep "timed out after 5" err &&
	test "$(build_processes)" = 0 &&
	test -z "$(ls "$KCP_TEST_CACHE/tmp" 2>/dev/null)" &&
	test "$(sqlite3 bad/kconfperf.db "SELECT count(*) FROM build WHERE status = \"ok\"")" = 0
'

# The build lock's waits and outsiders: t2010-fast-build.sh, in a scratch cache.

test_expect_failure_code 1 'build without a plan is a clear error' '
	mkdir empty && kconfperf build --dir empty 2>err; rc=$?; cat err;
	grep -q "no experiment in" err || exit 9; exit $rc
'

test_expect_failure_code 1 'a missing compiler wrapper is a clear error' '
	kconfperf build --dir exp --cc-wrapper /no/such/ccache 2>err; rc=$?; cat err;
	grep -q "compiler wrapper ./no/such/ccache. cannot be run" err || exit 9; exit $rc
'

test_expect_failure_code 1 'a compiler wrapper that is not a farm kconfperf knows is refused' '
	kconfperf build --dir exp --cc-wrapper no-such-ccache 2>err; rc=$?; cat err;
	grep -q "compiler wrapper .no-such-ccache. is not ccache, distcc or icecc" err || exit 9
	exit $rc
'

test_done
