# SPDX-License-Identifier: GPL-3.0-or-later
# tests/t/lib-farm.sh: sourced by the build farm tests (t33xx) after lib.sh.
#
# Each farm test builds one leaf variant of the shared tinyconfig baseline
# that no other test builds (CONFIG_DUMMY_CONSOLE_COLUMNS=N: one file,
# drivers/video/console/dummycon.c, recompiles, ~15 s), through its farm,
# from a cache entry it removed first, so the build really happens.  The
# daemons a test starts listen on 127.0.0.1 only, keep their state in
# $TRASH, and are stopped when the script exits, whatever happened.

FARM_SOURCE="--cache $KCP_TEST_CACHE --source $KSRC_TARBALL --base tinyconfig"

# farm_plan DIR N: plans the baseline and CONFIG_DUMMY_CONSOLE_COLUMNS=N in DIR.
farm_plan() {
	# shellcheck disable=SC2086
	kconfperf plan $FARM_SOURCE --options "DUMMY_CONSOLE_COLUMNS=$2" \
		--no-baseline-again --dir "$1" -q >"$1.plan"
}

# farm_key DIR VARIANT: the build key of a planned variant.
farm_key() {
	sqlite3 "$1/kconfperf.db" "SELECT b.key FROM build b JOIN variant v
		ON v.config_hash = b.config_hash WHERE v.name = '$2'"
}

# farm_forget KEY: removes a finished build and its tree from the shared
# cache, under its build lock (nothing else may be reading them).  KEY must
# be a build key (64 hex digits): an empty one would remove every kernel.
farm_forget() {
	case "$1" in
	*[!0-9a-f]*|"") echo "farm_forget: '$1' is not a build key" >&2; return 1 ;;
	esac
	test ${#1} = 64 || { echo "farm_forget: '$1' is not a build key" >&2; return 1; }
	# The holder writes its record ("PID PGID", lockfile.h), so that a
	# kconfperf waiting for the lock waits, and does not take this shell
	# for something a dead build left holding it.
	flock "$KCP_TEST_CACHE/build.lock" sh -c 'echo "$$ 0" >"$1" && rm -rf "$2" "$3"' sh \
		"$KCP_TEST_CACHE/build.lock" "$KCP_TEST_CACHE/builds/$1" "$KCP_TEST_CACHE/trees/$1"
}

# farm_build DIR N [ARGS...]: kconfperf build DIR ARGS, its table in
# DIR.build and its messages in DIR.err; when the leaf was in the cache
# already (a run that stopped half-way), it is removed and built again.
farm_build() {
	_d=$1 _n=$2
	shift 2
	kconfperf build --dir "$_d" "$@" >"$_d.build" 2>"$_d.err" || { cat "$_d.err"; return 1; }
	if farm_row "$_d.build" "$_n" | grep -q " cached "; then
		farm_forget "$(farm_key "$_d" "CONFIG_DUMMY_CONSOLE_COLUMNS=$_n")" &&
		kconfperf build --dir "$_d" "$@" >"$_d.build" 2>"$_d.err" ||
		{ cat "$_d.err"; return 1; }
	fi
	cat "$_d.build" "$_d.err"
	farm_row "$_d.build" "$_n" | grep -q " built "
}

# farm_image KEY: the bzImage of a finished build.
farm_image() {
	echo "$KCP_TEST_CACHE/builds/$1/bzImage"
}

# A TCP port P such that nobody listens on P, P + 1 or P + 2 (an icecc
# scheduler, its text interface and a daemon), from the script's pid up.
farm_port() {
	_p=$((20000 + $$ % 20000))
	while ss -ltn "sport = :$_p" 2>/dev/null | grep -q LISTEN ||
	      ss -ltn "sport = :$((_p + 1))" 2>/dev/null | grep -q LISTEN ||
	      ss -ltn "sport = :$((_p + 2))" 2>/dev/null | grep -q LISTEN; do
		_p=$((_p + 3))
	done
	echo "$_p"
}

# farm_stop PIDFILE...: stops the daemons whose pid the files hold.
farm_stop() {
	for _f in "$@"; do
		[ -s "$_f" ] || continue
		_pid=$(cat "$_f")
		kill "$_pid" 2>/dev/null
		_i=0
		while kill -0 "$_pid" 2>/dev/null && [ $_i -lt 30 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill -9 "$_pid" 2>/dev/null
		rm -f "$_f"
	done
	return 0
}

# The table row of the leaf in a build's output.
farm_row() {
	grep "^CONFIG_DUMMY_CONSOLE_COLUMNS=$2 " "$1"
}

# farm_gone PID: whether the process is gone (or a zombie that nobody
# reaped yet: a daemon the script started stays one until the script ends).
farm_gone() {
	_i=0
	while [ $_i -lt 50 ]; do
		kill -0 "$1" 2>/dev/null || return 0
		grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
