# SPDX-License-Identifier: GPL-3.0-or-later
# tests/t/lib-fast.sh: the fakes of the fast tier (tests/t/t2*-fast-*.sh),
# sourced after lib.sh.  These tests run the real kconfperf, the real make
# and the real store in seconds, on:
#
#   $FAKE_TREE    a copy of tests/fixtures/fake-kernel: a kernel tree of a few
#                 Kconfig files whose Makefile stands in for kconfig (an awk
#                 olddefconfig) and kbuild (a bzImage that holds its .config)
#   $FAKE_RUNNER  tests/fixtures/fake-runner.sh, a --runner that prints the
#                 protocol lines a guest would, its time drawn from the
#                 kernel's options (DEBUG_A +20%, DEBUG_B +5%) with ~1% noise
#   $CACHE        a scratch build cache of this script's own: lock and
#                 eviction tests must never touch the shared test cache
#
# They cover what the real-kernel tests are too slow for: resume, the
# schedule, seeds, the build lock, the cache's eviction, analyze and report.
FAKE_TREE=$TRASH/linux
FAKE_RUNNER=$SRC_DIR/tests/fixtures/fake-runner.sh
CACHE=$TRASH/cache
cp -R "$SRC_DIR/tests/fixtures/fake-kernel" "$FAKE_TREE" || exit 1
export FAKE_TREE FAKE_RUNNER CACHE
command -v sqlite3 >/dev/null || test_skip_all "no sqlite3"

# q DIR SQL: query an experiment's database (it may be being written).
q() {
	sqlite3 -cmd ".timeout 10000" "$1/kconfperf.db" "$2"
}

# fake_plan DIR OPTIONS [ARG...]: plan tinyconfig + OPTIONS on the fake tree
# (without the baseline-again control, so that counts stay simple; t2030's
# sweep has it).
fake_plan() {
	_dir=$1 _opts=$2
	shift 2
	kconfperf plan -q --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
		--options "$_opts" --no-baseline-again --dir "$_dir" "$@"
}

# fake_run DIR [ARG...]: kconfperf run with the fake runner and the boot workload.
fake_run() {
	_dir=$1
	shift
	kconfperf run --dir "$_dir" --runner "$FAKE_RUNNER" --workload boot "$@"
}

# hold_lock FILE SECONDS: a background process holding flock(FILE) for
# SECONDS, itself and no child, so that `kill $!` ends it and the lock.
hold_lock() {
	( flock 9 && exec sleep "$2" ) 9>>"$1" &
}

# wait_for FILE: until FILE exists (at most 20 s).
wait_for() {
	_i=0
	while [ ! -e "$1" ]; do
		_i=$((_i + 1))
		[ $_i -lt 200 ] || { echo "no $1 after 20 s"; return 1; }
		sleep 0.1
	done
}

# gone PID...: each process has exited (after up to 3 s); zombies count as gone.
gone() {
	for _pid in "$@"; do
		_i=0
		while [ -e "/proc/$_pid" ] && [ "$(cut -d' ' -f3 "/proc/$_pid/stat" 2>/dev/null)" != Z ]; do
			_i=$((_i + 1))
			[ $_i -lt 30 ] || { echo "process $_pid is still there:"; ps -o pid,ppid,pgid,sid,args -p "$_pid"; return 1; }
			sleep 0.1
		done
	done
}
