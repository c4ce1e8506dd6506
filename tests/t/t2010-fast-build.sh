#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2010: the fast tier's build stage on the fake kernel tree (lib-fast.sh):
# the content-addressed cache, seeding, failures, the eviction of kept
# trees and the build lock, in a scratch cache of this script's own.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

test_expect_success 'build: a bzImage per variant, the baseline first, the rest seeded from it' '
	fake_plan exp DEBUG_A,DEBUG_B >/dev/null &&
	kconfperf build --dir exp >out 2>err &&
	cat out err &&
	test_grep "3 built, 0 cached, 0 failed" err &&
	head -n 2 out | tail -n 1 | grep "^baseline  *built" &&
	test "$(q exp "SELECT count(*) FROM build WHERE status = \"ok\" AND bzimage_size > 0")" = 3 &&
	base=$(q exp "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"baseline\"") &&
	test "$(q exp "SELECT count(*) FROM build WHERE seeded_from = \"$base\"")" = 2 &&
	for img in $(q exp "SELECT image FROM build"); do
		test_grep "^fake bzImage" "$img" || exit 1
	done
'

test_expect_success 'build: a seeded build compiles only what its option touches' '
	key=$(q exp "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"CONFIG_DEBUG_A=y\"") &&
	cat "$CACHE/builds/$key/build.log" &&
	test "$(grep -c "^  CC " "$CACHE/builds/$key/build.log")" = 1 &&
	test_grep "^  CC      DEBUG_A.o" "$CACHE/builds/$key/build.log"
'

test_expect_success 'build: a second build of the plan builds nothing' '
	kconfperf build --dir exp >out 2>err &&
	test_grep "0 built, 3 cached, 0 failed" err &&
	test "$(grep -c " cached " out)" = 3
'

test_expect_success 'build: a failing build is a recorded failure with its error line' '
	fake_plan bad BROKEN_BUILD,DEBUG_A >/dev/null &&
	{ kconfperf build --dir bad >out 2>err; rc=$?; } &&
	cat out err &&
	test "$rc" = 1 &&
	test_grep "build of CONFIG_BROKEN_BUILD=y failed: make exited with status 2" err &&
	test_grep "0 built, 2 cached, 1 failed" err &&
	q bad "SELECT log_tail FROM build WHERE status = \"failed\"" >tail &&
	test_grep "^drivers/broken.c:1:2: error: #error CONFIG_BROKEN_BUILD does not build" tail &&
	key=$(q bad "SELECT key FROM build WHERE status = \"failed\"") &&
	test ! -e "$CACHE/builds/$key" &&
	test -z "$(ls "$CACHE/tmp")"
'

# tree_age KEY SECONDS: make a kept tree look last used SECONDS ago.
tree_age() {
	touch -d "@$(( $(date +%s) - $2 ))" "$CACHE/trees/$1"
}

test_expect_success 'eviction: at most 8 trees are kept, the least recently used go' '
	# exp kept 3 trees (baseline, DEBUG_A, DEBUG_B) and bad 1 (DEBUG_A+BROKEN is not kept)
	fake_plan many OPT_1,OPT_2,OPT_3,OPT_4,OPT_5 >/dev/null &&
	kconfperf build --dir many -q 2>err &&
	test "$(ls "$CACHE/trees" | wc -l)" = 8 &&
	# Number the 8 trees from oldest (the baseline, 800 s) to newest;
	# the baseline seeds the next build, so it must be kept.
	base=$(q many "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"baseline\"") &&
	opt1=$(q many "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"CONFIG_OPT_1=y\"") &&
	opt2=$(q many "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"CONFIG_OPT_2=y\"") &&
	age=800 &&
	for t in $base $opt1 $opt2 $(ls "$CACHE/trees" | grep -v -e $base -e $opt1 -e $opt2); do
		tree_age $t $age; age=$((age - 100))
	done &&
	fake_plan more OPT_6 >/dev/null &&
	kconfperf build --dir more -q 2>err &&
	ls -lt --time-style=+%s "$CACHE/trees" &&
	test "$(ls "$CACHE/trees" | wc -l)" = 8 &&
	test -d "$CACHE/trees/$base" &&
	test ! -e "$CACHE/trees/$opt1" &&
	test -d "$CACHE/trees/$opt2" &&
	test "$(q more "SELECT seeded_from FROM build WHERE seeded_from IS NOT NULL")" = "$base" &&
	# the evicted tree is only a seed: its finished build stays in the cache
	test -s "$CACHE/builds/$opt1/bzImage"
'

test_expect_success 'lock: two builds at once take turns in the object tree' '
	fake_plan one DEBUG_FREE >/dev/null &&
	fake_plan two OPT_7 >/dev/null &&
	{ KCP_FAKE_BUILD_SECONDS=1.5 KCP_FAKE_BUILD_LOG=$TRASH/builds.log \
		kconfperf build --dir one 2>one.err & } &&
	a=$! &&
	sleep 0.3 &&
	KCP_FAKE_BUILD_SECONDS=1 KCP_FAKE_BUILD_LOG=$TRASH/builds.log \
		kconfperf build --dir two 2>two.err &&
	wait $a &&
	cat one.err two.err builds.log &&
	test "$(grep -c "^start" builds.log)" = 2 &&
	# each build ended before the next one started
	awk "{ print \$1 }" builds.log | tr "\n" " " | grep "^start end start end $" &&
	test_grep "waiting for another kconfperf build in .*cache. (pid $a)" two.err &&
	test "$(q one "SELECT count(*) FROM build WHERE status = \"ok\"")" = 2 &&
	test "$(q two "SELECT count(*) FROM build WHERE status = \"ok\"")" = 2
'

# The lock tests below write fake owner records into the build lock and hold
# it for seconds: in this script's scratch cache, no other build waits.
test_expect_success 'lock: a build waits while a live kconfperf holds the build lock' '
	fake_plan wait OPT_8 >/dev/null &&
	lock=$CACHE/build.lock &&
	{ sleep 30 & } &&
	holder=$! &&
	printf "%s 0\n" $holder >"$lock" &&
	hold_lock "$lock" 1 &&
	sleep 0.3 &&
	{ kconfperf build --dir wait >out 2>err; rc=$?; } &&
	kill $holder; cat err &&
	test "$rc" = 0 &&
	test_grep "waiting for another kconfperf build in .* (pid $holder)" err &&
	test_grep "1 built, 1 cached, 0 failed" err
'

# Each of the two tests below waits LOCK_OUTSIDER_SECONDS (10 s) for an
# outsider to let go; the second runs in the background, in a cache of its
# own, while the first waits.
test_expect_success 'lock: a stale record naming an unrelated process group (started)' '
	cp -R "$CACHE" cache2 &&
	kconfperf plan -q --cache "$TRASH/cache2" --source "$FAKE_TREE" --base tinyconfig --no-baseline-again \
		--options OPT_9 --dir outsider2 >/dev/null &&
	lock=$TRASH/cache2/build.lock &&
	{ sleep 60 & } &&
	dead=$! &&
	kill $dead && wait $dead;
	{ setsid sleep 600 & } &&
	victim=$! &&
	sleep 0.5 &&
	pgid=$(cut -d" " -f5 /proc/$victim/stat) &&
	echo "an unrelated process group: $pgid" &&
	printf "%s %s\n" $dead $pgid >"$lock" &&
	echo "$dead $pgid" >group.test &&
	hold_lock "$lock" 30 &&
	echo $! >group.holder &&
	sleep 0.5 &&
	{ { kconfperf build --dir outsider2 >group.out 2>group.err; echo $? >group.rc; } & }
'

test_expect_success 'lock: a lock held by something that is not a build is an error, not a hang' '
	fake_plan outsider OPT_9 >/dev/null &&
	lock=$CACHE/build.lock &&
	{ sleep 60 & } &&
	dead=$! &&
	kill $dead && wait $dead;
	printf "%s 0\n" $dead >"$lock" &&
	hold_lock "$lock" 30 &&
	holder=$! &&
	sleep 0.5 &&
	{ kconfperf build --dir outsider >out 2>err; rc=$?; } &&
	kill $holder; cat err &&
	test "$rc" = 1 &&
	test_grep "build.lock. is held by a process that outlived kconfperf (pid $dead) and is not a build" err
'

# A dead kconfperf's record names a process group by its id; group ids are
# reused, so a group that merely has that id must never be signalled
# (a record naming group 1 would have signalled everything).
test_expect_success 'lock: a stale record naming an unrelated process group leaves it alone' '
	read dead pgid <group.test &&
	wait_for group.rc &&
	{ kill -s 0 -- -$pgid 2>/dev/null; alive=$?; } &&
	kill -- -$pgid 2>/dev/null; kill $(cat group.holder); cat group.err &&
	test "$alive" = 0 &&
	test "$(cat group.rc)" = 1 &&
	! grep "stopping the build" group.err &&
	test_grep "build.lock. is held by a process that outlived kconfperf (pid $dead) and is not a build" group.err
'

test_done
