#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t3320: --cc-wrapper icecc on real 6.1 kernels, with an icecc scheduler
# and a daemon of this machine as the farm (a network name, ports and a
# socket of the test's own): a leaf variant of the shared tinyconfig
# baseline is compiled as jobs the scheduler hands out (its log names the
# file), make's -j is the slots the scheduler lists, and the bzImage is the
# one built without icecc, byte for byte.  A second experiment in a fresh
# directory builds nothing.  Cost: two builds of one file (~15 s each) and
# icecc's environment of this gcc (~10 s, once), once the baseline is cached.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-farm.sh"
test_need_kernel_source
command -v icecc >/dev/null && command -v iceccd >/dev/null &&
	command -v icecc-scheduler >/dev/null || test_skip_all "no icecc (run scripts/deps)"

LEAF=83
SCHEDULER_PORT=$(farm_port)
DAEMON_PORT=$((SCHEDULER_PORT + 2))
NETNAME=kconfperf-t3320-$$
# The daemons run as the icecc user, who must write here (and reach it:
# mktemp made $TRASH 0700).
ICE=$TRASH/icecc
chmod 755 "$TRASH" && mkdir -p "$ICE" && chmod 1777 "$ICE"
# The client (the build's icecc) finds this daemon at this socket;
# kconfperf asks this scheduler for its slots.
ICECC_TEST_SOCKET=$ICE/iceccd.socket
ICECC_SCHEDULER=127.0.0.1:$SCHEDULER_PORT
ICECC_LOGFILE=$ICE/client.log
ICECC_DEBUG=debug
export ICECC_TEST_SOCKET ICECC_SCHEDULER ICECC_LOGFILE ICECC_DEBUG
unset ICECC ICECC_VERSION ICECC_PREFERRED_HOST

# Started here, not in a test, so that the exit trap knows their pids.
icecc-scheduler -p "$SCHEDULER_PORT" -n "$NETNAME" -l "$ICE/scheduler.log" -vvv \
	</dev/null >/dev/null 2>&1 &
SCHEDULER_PID=$!
iceccd -s "$ICECC_SCHEDULER" -n "$NETNAME" -N kconfperf-test -p "$DAEMON_PORT" -m 4 \
	-b "$ICE/envs" -l "$ICE/iceccd.log" -vvv </dev/null >/dev/null 2>&1 &
DAEMON_PID=$!
trap 'kill $DAEMON_PID $SCHEDULER_PID 2>/dev/null' EXIT

test_expect_success 'a scheduler and a daemon of our own make a farm of 4 slots' '
	i=0 &&
	while ! grep -q "Connected to scheduler" "$ICE/iceccd.log" 2>/dev/null && test $i -lt 300; do
		sleep 0.1; i=$((i + 1));
	done &&
	cat "$ICE/iceccd.log" &&
	test_grep "Connected to scheduler" "$ICE/iceccd.log" &&
	kill -0 $SCHEDULER_PID && kill -0 $DAEMON_PID &&
	test -S "$ICECC_TEST_SOCKET"
'

test_expect_success 'plan the baseline and a leaf option' '
	farm_plan exp $LEAF &&
	cat exp.plan
'

test_expect_success 'the leaf builds through icecc, -j the slots the scheduler lists' '
	farm_build exp $LEAF --cc-wrapper icecc &&
	farm_row exp.build $LEAF | grep " built .*incremental  icecc -j4$" &&
	test_grep "seeded from .*, icecc -j4)" exp.err
'

# The scheduler logs a job by the end of its file name; with one node in
# the farm, the job goes to this machine, and the client says so
# ("building myself, but telling localhost"): the compile is scheduled by
# the farm, and done where the farm said.
test_expect_success 'the scheduler handed out the compile of the file the leaf changes' '
	grep "dummycon" "$ICE/scheduler.log" >jobs &&
	cat jobs &&
	test_grep "NEW [0-9]* client=kconfperf-test .*console/dummycon\.c" jobs &&
	test_grep "invoked as: gcc .*drivers/video/console/dummycon\.c" "$ICECC_LOGFILE" &&
	pid=$(sed -n "s/^ICECC\[\([0-9]*\)\].*invoked as: gcc .*drivers\/video\/console\/dummycon\.c.*/\1/p" \
		"$ICECC_LOGFILE" | head -n 1) &&
	grep "^ICECC\[$pid\].* asking for host to use" "$ICECC_LOGFILE" &&
	cp "$(farm_image "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)")" icecc.bzImage
'

test_expect_success 'without icecc: the same key, the same bzImage bytes' '
	key=$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF) &&
	farm_forget "$key" &&
	farm_build exp $LEAF &&
	test "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)" = "$key" &&
	cmp icecc.bzImage "$(farm_image "$key")"
'

test_expect_success 'a fresh experiment with the same kernels builds nothing' '
	farm_plan fresh $LEAF &&
	kconfperf build --dir fresh --cc-wrapper icecc >fresh.build 2>fresh.err &&
	cat fresh.build fresh.err &&
	test_grep "0 built, 2 cached, 0 failed" fresh.err
'

test_expect_success 'the farm stops, and the leaf leaves the shared cache' '
	kill $DAEMON_PID $SCHEDULER_PID &&
	farm_gone $DAEMON_PID && farm_gone $SCHEDULER_PID &&
	farm_forget "$(farm_key exp CONFIG_DUMMY_CONSOLE_COLUMNS=$LEAF)"
'

test_done
