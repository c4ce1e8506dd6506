#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t3300: --cc-wrapper ccache on real 6.1 kernels: a leaf variant of the
# shared tinyconfig baseline built through Debian's ccache (its kbuild
# -Wp,-MMD compiles cacheable), built again from ccache's cache, and built
# without a wrapper: the same bzImage, byte for byte, under the same key.
# A second experiment in a fresh directory then builds nothing.
# Cost: three builds of one file (~15 s each) once the baseline is cached.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-farm.sh"
test_need_kernel_source
command -v ccache >/dev/null || test_skip_all "no ccache (run scripts/deps)"

LEAF=81
CCACHE_DIR=$TRASH/ccache
CCACHE_LOGFILE=$TRASH/ccache.log
export CCACHE_DIR CCACHE_LOGFILE
unset CCACHE_PREFIX CCACHE_DISABLE

# The results ccache logged for its compile of SOURCE (by the pid that compiled it).
ccache_result() {
	pid=$(sed -n "s|^\[[^ ]* \([0-9]*\) *\] Source file: .*/$1\$|\1|p" "$CCACHE_LOGFILE" | tail -n 1)
	test -n "$pid" && grep "^\[[^ ]* $pid *\] Result: " "$CCACHE_LOGFILE"
}

# The hits in the leaf's row of a build table.
hits() {
	farm_row "$1" $LEAF | sed -n "s|.*, \([0-9]*\)/[0-9]* hits.*|\1|p"
}

test_expect_success 'plan the baseline and a leaf option' '
	farm_plan exp $LEAF &&
	cat exp.plan
'

test_expect_success 'the leaf builds through ccache; the table says so' '
	farm_build exp $LEAF --cc-wrapper ccache &&
	farm_row exp.build $LEAF >row &&
	grep -E "built .*incremental  ccache -j[0-9]+, [0-9]+/[0-9]+ hits \(" row &&
	test_grep "seeded from .*, ccache -j" exp.err &&
	hits exp.build >hits.first &&
	cp "$(farm_image "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)")" first.bzImage
'

# kbuild compiles with -Wp,-MMD,dir/.file.o.d, -include and the rest:
# the one file the leaf changes went through ccache, cacheable, a miss.
test_expect_success 'kbuild compiles are cacheable: dummycon.c was a ccache miss' '
	ccache_result drivers/video/console/dummycon.c >dummycon.log &&
	cat dummycon.log &&
	test_grep "Result: cache_miss" dummycon.log &&
	ccache -s >stats &&
	cat stats &&
	grep -E "^Cacheable calls: +[1-9]" stats &&
	grep -E "^  Misses: +[1-9]" stats
'

test_expect_success 'built again, the same files come from ccache' '
	farm_forget "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)" &&
	: >"$CCACHE_LOGFILE" &&
	farm_build exp $LEAF --cc-wrapper ccache &&
	ccache_result drivers/video/console/dummycon.c >again.log &&
	cat again.log &&
	test_grep "Result: direct_cache_hit" again.log &&
	echo "hits: $(cat hits.first), then $(hits exp.build)" &&
	test "$(hits exp.build)" -gt "$(cat hits.first)" &&
	cmp first.bzImage "$(farm_image "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)")"
'

test_expect_success 'without a wrapper: the same key, the same bzImage bytes' '
	key=$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF) &&
	farm_forget "$key" &&
	farm_build exp $LEAF &&
	farm_row exp.build $LEAF | grep "incremental  gcc -j" &&
	test "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)" = "$key" &&
	cmp first.bzImage "$(farm_image "$key")"
'

test_expect_success 'a fresh experiment with the same kernels builds nothing' '
	farm_plan fresh $LEAF &&
	kconfperf build --dir fresh --cc-wrapper ccache >fresh.build 2>fresh.err &&
	cat fresh.build fresh.err &&
	test_grep "0 built, 2 cached, 0 failed" fresh.err &&
	farm_row fresh.build $LEAF | grep " cached "
'

test_expect_success 'the leaf leaves the shared cache as it found it' '
	farm_forget "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)" &&
	test ! -e "$KCP_TEST_CACHE/builds/$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)"
'

test_done
