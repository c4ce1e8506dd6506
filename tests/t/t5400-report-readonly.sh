#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t5400: report and plan only read: they work on an experiment nobody may
# write (a read-only bind mount, as root cannot be stopped by permissions)
# and never open its database for writing (strace).
. "$(dirname "$0")/lib.sh"

HF=$DATA/example-hyperfine-1.15-export.json

# ro_run DIR CMD...: CMD with DIR bind-mounted read-only over itself, in a
# private mount namespace.
ro_run() {
	_dir=$1
	shift
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		! touch "$1/probe" 2>/dev/null && shift && "$@"' ro_run "$_dir" "$@"
}

test_expect_success 'an imported experiment, and its reports with write access' '
	kconfperf import -q hyperfine "$HF" --dir exp &&
	ls -A exp >files && echo kconfperf.db >expect && test_cmp expect files &&
	cp -r exp archive &&
	kconfperf report --dir exp >text.rw &&
	kconfperf report --dir exp --format json >json.rw &&
	kconfperf plan --dir exp >plan.rw &&
	kconfperf plan --dir exp --show baseline-again >show.rw
'

if unshare -m true 2>/dev/null && command -v mount >/dev/null; then
	test_expect_success 'a read-only archive (the database alone) is reported' '
		ro_run archive kconfperf report --dir archive >text.ro &&
		test_cmp text.rw text.ro &&
		ro_run archive kconfperf report --dir archive --format json >json.ro &&
		test_cmp json.rw json.ro &&
		ro_run archive kconfperf plan --dir archive >plan.ro &&
		test_cmp plan.rw plan.ro &&
		ro_run archive kconfperf plan --dir archive --show baseline-again >show.ro &&
		test_cmp show.rw show.ro
	'

	test_expect_success 'so is one with the -wal and -shm a reader left' '
		ls exp/kconfperf.db-shm &&
		ro_run exp kconfperf report --dir exp >text.ro2 &&
		test_cmp text.rw text.ro2
	'

	test_expect_failure_code 1 'a -wal holding changes cannot be read without its -shm' '
		mkdir walexp &&
		python3 -c "
import shutil, sqlite3, sys
c = sqlite3.connect(\"exp/kconfperf.db\")
c.execute(\"PRAGMA wal_autocheckpoint = 0\")
c.execute(\"INSERT INTO meta (key, value) VALUES (\x27note\x27, \x27in the wal\x27)\")
c.commit()
shutil.copy(\"exp/kconfperf.db\", \"walexp/kconfperf.db\")
shutil.copy(\"exp/kconfperf.db-wal\", \"walexp/kconfperf.db-wal\")
" &&
		test -s walexp/kconfperf.db-wal &&
		ro_run walexp kconfperf report --dir walexp 2>err; rc=$?; cat err;
		grep -q "walexp/kconfperf.db-wal. holds changes" err || exit 9; exit $rc
	'

	test_expect_success 'which a writable copy reads' '
		cp -r walexp walcopy &&
		kconfperf report --dir walcopy --format json >w.json &&
		test "$(jq -r .kconfperf.experiment.note w.json)" = "in the wal"
	'

	# An experiment of schema version 1 (before statuses were checked) is
	# upgraded by the first open that may write; one nobody may write is
	# read as it is, and reads the same.
	test_expect_success 'a read-only experiment of schema version 1 is read as it is' '
		mkdir v1arch v1copy &&
		cp "$FIXTURES/store/v1-import.db" v1arch/kconfperf.db &&
		cp "$FIXTURES/store/v1-import.db" v1copy/kconfperf.db &&
		kconfperf report --dir v1copy >v1.rw &&
		test "$(sqlite3 v1copy/kconfperf.db "PRAGMA user_version")" -gt 1 &&
		ro_run v1arch kconfperf report --dir v1arch >v1.ro &&
		test_cmp v1.rw v1.ro &&
		test_grep "1 of 10 runs failed (exit-failed: exit code 1)" v1.ro &&
		ro_run v1arch kconfperf report --dir v1arch --format json >v1.json &&
		kconfperf report --dir v1copy --format json >v1copy.json &&
		test_cmp v1copy.json v1.json &&
		test "$(sqlite3 v1arch/kconfperf.db "PRAGMA user_version")" = 1
	'
else
	test_skip 'a read-only archive is reported' 'no unshare -m (needs root)'
	test_skip 'a read-only experiment with a -wal and -shm is reported' 'no unshare -m'
	test_skip 'a -wal with changes and no -shm is refused' 'no unshare -m'
	test_skip 'which a writable copy reads' 'no unshare -m'
	test_skip 'a read-only experiment of schema version 1 is read as it is' 'no unshare -m'
fi

# Every open of DIR/kconfperf.db in an strace of CMD... is read-only.
no_write_open() {
	_db=$1/kconfperf.db
	shift
	# (LeakSanitizer cannot run under ptrace: a sanitizer build skips it here.)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=open,openat,creat -o trace "$@" >/dev/null &&
	grep -F "/$_db\"" trace >opens &&
	test -s opens &&
	! grep -E "O_RDWR|O_WRONLY|O_CREAT|O_TRUNC|creat\(" opens
}

if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
	test_expect_success 'report and plan never open the database for writing' '
		no_write_open exp kconfperf report --dir exp &&
		no_write_open exp kconfperf report --dir exp --format html &&
		no_write_open exp kconfperf plan --dir exp &&
		no_write_open exp kconfperf plan --dir exp --show baseline
	'
else
	test_skip 'report and plan never open the database for writing' 'no working strace'
fi

test_done
