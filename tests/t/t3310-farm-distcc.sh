#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t3310: --cc-wrapper distcc on real 6.1 kernels, with a distccd on
# 127.0.0.1 as the farm's one "remote" host: a leaf variant of the shared
# tinyconfig baseline is compiled by that daemon (its log names the file),
# make's -j is the farm's slots, and the bzImage is the one built without
# distcc, byte for byte.  A second experiment in a fresh directory builds
# nothing.  Cost: two builds of one file (~15 s each) once the baseline is
# cached.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-farm.sh"
test_need_kernel_source
command -v distcc >/dev/null && command -v distccd >/dev/null ||
	test_skip_all "no distcc and distccd (run scripts/deps)"

LEAF=82
PORT=$(farm_port)
# distccd drops root for the distccd user, who must write its log here
# (and reach it: mktemp made $TRASH 0700).
chmod 755 "$TRASH" && mkdir -p "$TRASH/distccd" && chmod 1777 "$TRASH/distccd"
DISTCC_LOGFILE=$TRASH/distccd/distccd.log
DISTCC_PIDFILE=$TRASH/distccd/distccd.pid
# Four slots on the one host, more than this machine's CPUs: -j4.
DISTCC_HOSTS="127.0.0.1:$PORT/4"
DISTCC_DIR=$TRASH/distcc
export DISTCC_HOSTS DISTCC_DIR
unset DISTCC_FALLBACK DISTCC_VERBOSE DISTCC_LOG
mkdir -p "$DISTCC_DIR"

# Started here, not in a test, so that the exit trap knows its pid (test_done
# removes $TRASH and the pid file with it).
distccd --daemon --allow 127.0.0.1 --listen 127.0.0.1 --port "$PORT" --jobs 4 \
	--log-file "$DISTCC_LOGFILE" --pid-file "$DISTCC_PIDFILE" </dev/null >/dev/null 2>&1
i=0
while ! test -s "$DISTCC_PIDFILE" && test $i -lt 50; do sleep 0.1; i=$((i + 1)); done
DISTCCD_PID=$(cat "$DISTCC_PIDFILE" 2>/dev/null)
trap '[ -n "$DISTCCD_PID" ] && kill "$DISTCCD_PID" 2>/dev/null' EXIT

test_expect_success 'a distccd listens on 127.0.0.1 only, with 4 slots' '
	test -n "$DISTCCD_PID" && kill -0 "$DISTCCD_PID" &&
	ss -ltn "sport = :$PORT" | grep -F "127.0.0.1:$PORT" &&
	test "$(distcc -j)" = 4
'

test_expect_success 'plan the baseline and a leaf option' '
	farm_plan exp $LEAF &&
	cat exp.plan
'

test_expect_success 'the leaf builds through distcc, -j scaled to its slots' '
	farm_build exp $LEAF --cc-wrapper distcc &&
	farm_row exp.build $LEAF | grep " built .*incremental  distcc -j4$" &&
	test_grep "seeded from .*, distcc -j4)" exp.err
'

test_expect_success 'the daemon compiled the file the leaf changes' '
	cat "$DISTCC_LOGFILE" &&
	grep "COMPILE_OK .*drivers/video/console/dummycon\.c$" "$DISTCC_LOGFILE"
'

# distcc would call gcc x86_64-linux-gnu-gcc, also for the "gcc --version"
# that kbuild writes into the config (CONFIG_CC_VERSION_TEXT): kconfperf
# keeps the name, and would stop a build whose config changed.
test_expect_success 'the config is the planned one: the compiler kept its name' '
	key=$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF) &&
	grep "^CONFIG_CC_VERSION_TEXT=\"gcc " "$KCP_TEST_CACHE/builds/$key/config" &&
	cp "$(farm_image "$key")" distcc.bzImage
'

test_expect_success 'without distcc: the same key, the same bzImage bytes' '
	key=$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF) &&
	farm_forget "$key" &&
	farm_build exp $LEAF &&
	test "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)" = "$key" &&
	cmp distcc.bzImage "$(farm_image "$key")"
'

test_expect_success 'a fresh experiment with the same kernels builds nothing' '
	farm_plan fresh $LEAF &&
	kconfperf build --dir fresh --cc-wrapper distcc >fresh.build 2>fresh.err &&
	cat fresh.build fresh.err &&
	test_grep "0 built, 2 cached, 0 failed" fresh.err
'

test_expect_success 'the daemon stops, and the leaf leaves the shared cache' '
	farm_stop "$DISTCC_PIDFILE" &&
	farm_gone "$DISTCCD_PID" &&
	farm_forget "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)"
'

test_done
