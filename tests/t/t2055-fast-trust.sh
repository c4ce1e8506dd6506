#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2055: the cache and the experiment directory are kconfperf's own (issue
# 25), on the fast tier's fake kernel: a cache without HOME, one another
# user seeded or can write, links planted in the cache or in DIR, one
# kconfperf per experiment, tarballs that carry devices and setuid files,
# the bounds of -j, --warmup and a RAM disk, and the messages that misled.
# What another user does runs as nobody (setpriv) in a private mount
# namespace (unshare -m) whose /tmp and /root are tmpfs of its own: never
# the machine's real /tmp or HOME.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

tar -C "$TRASH" -cf linux.tar linux || exit 1
SHA16=$(sha256sum linux.tar | cut -c1-16)

# The namespace's tests need root, unshare -m and setpriv.
NS=
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v setpriv >/dev/null &&
   id nobody >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	NS=yes
fi

# in_ns SCRIPT: runs SCRIPT (sh) in a private mount namespace where /tmp and
# /root are empty tmpfs and this script's scratch directory is /tmp/t (the
# binary, the fake tree and linux.tar are there).  Its output is ours.
cp "$KCP_BIN" "$TRASH/kconfperf.bin" && cp "$FAKE_RUNNER" "$TRASH/fake-runner.sh" &&
cp "$KCP_BUILD/kcp-guest" "$TRASH/kcp-guest" || exit 1
in_ns() {
	mkdir -p "$TRASH/ns" &&
	unshare -m sh -c '
		set -e
		mount --make-rprivate /
		mount -t tmpfs -o mode=1777 kcp-tmp "$1/ns"
		mkdir "$1/ns/t"
		mount --bind "$1" "$1/ns/t"
		mount --move "$1/ns" /tmp
		mount -t tmpfs -o mode=0700 kcp-root /root
		R=/root
		mkdir /tmp/bin /tmp/src
		ln -s /tmp/t/kconfperf.bin /tmp/bin/kconfperf
		cp -R /tmp/t/linux /tmp/src/linux
		PATH=/tmp/bin:$PATH KCP_GUEST=/tmp/t/kcp-guest
		export PATH KCP_GUEST
		cd /tmp/t
		set +e
		eval "$2"
	' - "$TRASH" "$1"
}

# as_nobody CMD...: CMD as user nobody.
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

if [ -n "$NS" ]; then
test_expect_success 'H1: without HOME the cache is the password database home, not /tmp' '
	in_ns "
		env -u HOME -u XDG_CACHE_HOME kconfperf plan -q --source /tmp/t/linux.tar \
			--base tinyconfig --options DEBUG_A --dir /tmp/exp-nohome >/dev/null &&
		echo cache: \$(ls \$R/.cache/kconfperf/sources) &&
		ls -a /tmp
	" >out 2>&1
	cat out &&
	test_grep "^cache: $SHA16\$" out &&
	! grep "^\.cache\$" out
'

test_expect_success 'H1: a cache nobody seeded in /tmp is never used: its Makefile does not run' '
	in_ns "
		as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups \"\$@\"; }
		seed=/tmp/.cache/kconfperf/sources/$SHA16/linux
		as_nobody mkdir -p \$seed &&
		as_nobody cp -R /tmp/src/linux/. \$seed/ &&
		as_nobody sh -c \"printf \\\"pwn := \\\\\\\$(shell id -u >/tmp/PWNED)\\\\n\\\" >>\$seed/Makefile\" &&
		grep -c PWNED \$seed/Makefile &&
		env -u HOME kconfperf plan -q --source /tmp/t/linux.tar --base tinyconfig \
			--options DEBUG_A --dir /tmp/exp1 >/dev/null 2>err1; echo plan1=\$?
		cat err1
		kconfperf plan -q --cache /tmp/.cache/kconfperf --source /tmp/t/linux.tar \
			--base tinyconfig --options DEBUG_A --dir /tmp/exp2 >/dev/null 2>err2
		echo plan2=\$?
		cat err2
		test -e /tmp/PWNED && echo PWNED
		true
	" >out 2>&1
	cat out &&
	test_grep "^1\$" out &&
	test_grep "^plan1=0\$" out &&
	test_grep "^plan2=1\$" out &&
	test_grep "error: ./tmp/.cache. above the cache ./tmp/.cache/kconfperf. is owned by uid [0-9]*, neither root nor you (uid 0)" out &&
	! grep PWNED out
'

test_expect_success 'M5: links that nobody planted in an experiment directory lead nowhere' '
	in_ns "
		as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups \"\$@\"; }
		sweep() {
			kconfperf sweep -q --cache /tmp/t/cache --source /tmp/t/linux --base tinyconfig \
				--options DEBUG_A --no-baseline-again --runner /tmp/t/fake-runner.sh \
				--workload boot --runs 2 --seed 1 --dir /tmp/exp
		}
		sweep >/dev/null 2>&1; echo first=\$?
		chown -R nobody /tmp/exp &&
		echo precious >\$R/victim.json && echo precious >\$R/victim.html &&
		echo precious >\$R/victim.config && mkdir \$R/logs &&
		as_nobody ln -sf \$R/victim.json /tmp/exp/report.json &&
		as_nobody ln -sf \$R/victim.html /tmp/exp/report.html &&
		as_nobody ln -sf \$R/victim.config /tmp/exp/runs/CONFIG_DEBUG_A=y/config &&
		sweep >/dev/null 2>err; echo again=\$?
		cat err
		cat \$R/victim.json \$R/victim.html \$R/victim.config
		test -L /tmp/exp/report.json || echo report-replaced
		test -s /tmp/exp/report.json && echo report-written
		kconfperf plan -q --cache /tmp/t/cache --source /tmp/t/linux --base tinyconfig \
			--options DEBUG_B --dir /tmp/exp2 >/dev/null 2>&1 &&
		chown -R nobody /tmp/exp2 &&
		as_nobody rm -rf /tmp/exp2/logs && as_nobody ln -s \$R/logs /tmp/exp2/logs &&
		kconfperf build -q --dir /tmp/exp2 2>err; echo build=\$?
		cat err
		ls \$R/logs | sed s/^/log:/
	" >out 2>&1
	cat out &&
	test_grep "^first=0\$" out &&
	test_grep "^again=0\$" out &&
	test "$(grep -c "^precious\$" out)" = 3 &&
	test_grep "^report-replaced\$" out &&
	test_grep "^report-written\$" out &&
	test_grep "^build=1\$" out &&
	test_grep "error: ./tmp/exp2/logs. is a symbolic link; kconfperf makes its own directories in ./tmp/exp2." out &&
	! grep "^log:" out
'
else
	test_skip 'H1: without HOME the cache is the password database home, not /tmp' 'needs root, unshare -m, setpriv and user nobody'
	test_skip 'H1: a cache nobody seeded in /tmp is never used: its Makefile does not run' 'needs root, unshare -m, setpriv and user nobody'
	test_skip 'M5: links that nobody planted in an experiment directory lead nowhere' 'needs root, unshare -m, setpriv and user nobody'
fi

test_expect_success 'H1: a cache or a cache directory another user owns or may write is refused' '
	mkdir -p theirs/sources other mine &&
	chmod 700 other &&
	{ [ "$(id -u)" != 0 ] || chown -R nobody theirs other; } &&
	{ kconfperf plan -q --cache "$TRASH/theirs" --source linux.tar --base tinyconfig \
		--options DEBUG_A --dir h1a >/dev/null 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	if [ "$(id -u)" = 0 ]; then
		test_grep "error: the cache .*/theirs. is owned by uid [0-9]*, not by you" err &&
		{ kconfperf plan -q --cache "$TRASH/other/cache" --source linux.tar --base tinyconfig \
			--options DEBUG_A --dir h1b >/dev/null 2>err; rc=$?; } &&
		cat err && test "$rc" = 1 &&
		test_grep "error: .*/other. above the cache .*/other/cache. is owned by uid [0-9]*, neither root nor you" err
	fi &&
	mkdir -p gw && chmod 775 gw &&
	{ kconfperf plan -q --cache "$TRASH/gw" --source linux.tar --base tinyconfig \
		--options DEBUG_A --dir h1c >/dev/null 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "error: the cache .*/gw. is writable by its group or others (mode 0775); run .chmod go-w" err &&
	ln -s mine linked &&
	{ kconfperf plan -q --cache "$TRASH/linked" --source linux.tar --base tinyconfig \
		--options DEBUG_A --dir h1d >/dev/null 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "error: the cache .*/linked. is a symbolic link; name the directory it leads to" err &&
	mkdir -p c2/sources && chmod 777 c2/sources &&
	{ kconfperf plan -q --cache "$TRASH/c2" --source linux.tar --base tinyconfig \
		--options DEBUG_A --dir h1e >/dev/null 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "error: the cache.s sources/ .*/c2/sources. is writable by its group or others (mode 0777)" err &&
	! test -e h1a/kconfperf.db && ! test -e h1e/kconfperf.db
'

test_expect_success 'H1, M4: a trees/ that is a link is refused, its target untouched' '
	mkdir -p victim c3 && echo mine >victim/precious &&
	ln -s "$TRASH/victim" c3/trees &&
	fake_plan m4a DEBUG_A >/dev/null &&
	{ kconfperf build -q --dir m4a --cache "$TRASH/c3" >out 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "error: the cache.s trees/ .*/c3/trees. is a symbolic link" err &&
	test "$(cat victim/precious)" = mine
'

test_expect_success 'M4: eviction removes only the object trees kconfperf kept' '
	key=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef &&
	mkdir -p "$CACHE/trees/notes" "$CACHE/trees/$key" &&
	echo mine >"$CACHE/trees/notes/file" && echo mine >"$CACHE/trees/$key/file" &&
	echo mine >"$CACHE/trees/README" &&
	fake_plan m4b DEBUG_A,DEBUG_B >/dev/null &&
	kconfperf build -q --dir m4b &&
	test "$(cat "$CACHE/trees/notes/file")" = mine &&
	test "$(cat "$CACHE/trees/$key/file")" = mine &&
	test "$(cat "$CACHE/trees/README")" = mine &&
	for t in "$CACHE"/trees/????????????????????????????????????????????????????????????????; do
		test "$t" = "$CACHE/trees/$key" || test -e "$t/.kconfperf-tree" || return 1
	done
'

test_expect_success 'M3: a variant whose name holds / and .. builds, its log inside DIR/logs' '
	printf "%s\n" "CONFIG_CMDLINE_STR=\"root=/dev/vda console=ttyS0\"" \
		"CONFIG_DEBUG_A=y" >slash.frag &&
	fake_plan m3 "$TRASH/slash.frag" >/dev/null &&
	kconfperf build -q --dir m3 >out 2>err &&
	cat err &&
	ls m3/logs >logs && cat logs &&
	test_grep "^build-CONFIG_CMDLINE_STR=_root=_dev_vda_console=ttyS0_.log\$" logs &&
	printf "%s\n" "CONFIG_CMDLINE_STR=\"/../../../outside/pwn\"" >dots.frag &&
	mkdir -p outside "m3b/logs/build-CONFIG_CMDLINE_STR=\"" &&
	fake_plan m3b "$TRASH/dots.frag" >/dev/null &&
	kconfperf build -q --dir m3b 2>err &&
	test -z "$(ls outside)" && ! test -e m3b/outside &&
	test "$(ls m3b/logs | grep -c "^build-.*pwn.*\.log\$")" = 1
'

# race DIR COMMAND: two kconfperfs on one DIR, the second 0.2 s after the first.
race() {
	_dir=$1
	shift
	KCP_FAKE_BUILD_SECONDS=0.3 "$@" --dir "$_dir" >"$_dir.1.out" 2>"$_dir.1.err" &
	_first=$!
	sleep 0.2
	KCP_FAKE_BUILD_SECONDS=0.3 "$@" --dir "$_dir" >"$_dir.2.out" 2>"$_dir.2.err"
	echo $? >"$_dir.2.rc"
	wait $_first
	echo $? >"$_dir.1.rc"
}

test_expect_success 'M2: a second plan or sweep in one DIR is refused (exit 3), naming the holder' '
	race m2 kconfperf sweep -q --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
		--options DEBUG_A,DEBUG_B,DEBUG_FREE --no-baseline-again --runner "$FAKE_RUNNER" \
		--workload boot --runs 3 --seed 2 &&
	cat m2.1.err m2.2.err &&
	test "$(cat m2.1.rc)" = 0 &&
	test "$(cat m2.2.rc)" = 3 &&
	test_grep "error: another kconfperf is sweeping in .m2. (pid [0-9]*)" m2.2.err &&
	test "$(q m2 "SELECT count(DISTINCT variant_id) FROM run WHERE status = \"ok\"")" = 4 &&
	hold_lock m2/kconfperf.lock 5 && holder=$! && sleep 0.3 &&
	{ fake_plan m2 DEBUG_A >/dev/null 2>err; rc=$?; } &&
	kill $holder && cat err && test "$rc" = 3 &&
	test_grep "error: another kconfperf is working in .m2. (its lock .*kconfperf.lock. is held)" err
'

test_expect_success 'M2: three races of two sweeps: each experiment correct or refused' '
	for i in 1 2 3; do
		race r$i kconfperf sweep -q --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
			--options DEBUG_A,DEBUG_B --runner "$FAKE_RUNNER" --workload boot --runs 2 \
			--seed $i || return 1
		a=$(cat r$i.1.rc) b=$(cat r$i.2.rc)
		echo "race $i: $a $b"
		case "$a $b" in "0 3"|"3 0"|"0 0") ;; *) cat r$i.1.err r$i.2.err; return 1;; esac
		test "$(q r$i "SELECT count(*) FROM variant v WHERE NOT EXISTS (SELECT 1 FROM run r
			WHERE r.variant_id = v.id AND r.status = \"ok\" AND r.warmup = 0)
			AND v.status = \"ok\"")" = 0 || return 1
	done
'

test_expect_success 'L4: -j is refused at 0, below 0 and above its bound, for every command' '
	for cmd in "plan --source $FAKE_TREE --base tinyconfig --options DEBUG_A" \
		   "sweep --source $FAKE_TREE --base tinyconfig --options DEBUG_A --workload boot" \
		   "screen --source $FAKE_TREE --base tinyconfig --options DEBUG_A --workload boot" \
		   "build"; do
		for j in 0 -1 100000 x; do
			{ kconfperf $cmd --cache "$CACHE" -j $j --dir jdir >/dev/null 2>err; rc=$?; }
			test "$rc" = 2 || { echo "$cmd -j $j: exit $rc"; cat err; return 1; }
			test_grep "error: -j takes a number of jobs from 1 to 1024, not .$j." err || return 1
		done
	done &&
	! test -e jdir
'

test_expect_success 'L5, L9: --warmup is capped as --runs is; a RAM disk must fit in --mem' '
	fake_plan l5 DEBUG_A >/dev/null && kconfperf build -q --dir l5 &&
	{ fake_run l5 --warmup 100001 2>err; rc=$?; } &&
	cat err && test "$rc" = 2 &&
	test_grep "error: --warmup takes a number of rounds from 0 to 100000, not .100001." err &&
	{ fake_run l5 --workload "cmd:true" --scratch 8G:ram --mem 512 2>err; rc=$?; } &&
	cat err && test "$rc" = 2 &&
	test_grep "error: --scratch 8G:ram: the disks in the guest.s memory (8192 MB in all) must be smaller than --mem (512 MB), with 64 MB to spare" err &&
	{ kconfperf vm --kernel k --initramfs i -w "cmd:true" --scratch 300M:ram --scratch 200M:ram \
		--mem 512 2>err; rc=$?; } &&
	cat err && test "$rc" = 2 &&
	test_grep "error: --scratch 200M:ram: the disks in the guest.s memory (500 MB in all)" err
'

test_expect_success 'L6: a tarball with devices, FIFOs, setuid and 0777 files is tamed' '
	python3 - <<-\EOF &&
	import io, tarfile
	with tarfile.open("evil.tar", "w") as out:
	    out.add("linux", arcname="linux")
	    for name, kind, mode in (("linux/mem", tarfile.CHRTYPE, 0o666),
	                             ("linux/fifo", tarfile.FIFOTYPE, 0o666),
	                             ("linux/suid", tarfile.REGTYPE, 0o4755),
	                             ("linux/open", tarfile.REGTYPE, 0o777)):
	        t = tarfile.TarInfo(name)
	        t.type, t.mode, t.uid, t.gid = kind, mode, 1234, 1234
	        if kind == tarfile.CHRTYPE:
	            t.devmajor, t.devminor = 1, 1
	        out.addfile(t, io.BytesIO(b"") if kind == tarfile.REGTYPE else None)
	EOF
	kconfperf plan -q --cache "$CACHE" --source evil.tar --base tinyconfig --options DEBUG_A \
		--dir l6 >/dev/null 2>err &&
	cat err &&
	test_grep "warning: .evil.tar. holds 2 device nodes or FIFOs (left out)" err &&
	tree=$(echo "$CACHE"/sources/$(sha256sum evil.tar | cut -c1-16)/linux) &&
	! test -e "$tree/mem" && ! test -e "$tree/fifo" &&
	test "$(stat -c %a "$tree/suid")" = 755 &&
	test "$(stat -c %a "$tree/open")" = 755 &&
	test "$(find "$tree" ! -uid "$(id -u)" | wc -l)" = 0
'

test_expect_success 'L8: --base-add DIR says it is a directory' '
	mkdir -p frags &&
	{ fake_plan l8 DEBUG_A --base-add frags 2>err; rc=$?; } &&
	cat err && test "$rc" != 0 &&
	test_grep "error: --base-add .frags. is a directory" err &&
	! test -e l8/kconfperf.db
'

test_expect_success 'messages: a kconfperf.db that is a directory, a plan that failed' '
	mkdir -p dbdir/kconfperf.db &&
	{ kconfperf report --dir dbdir 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "error: .dbdir/kconfperf.db. is a directory, not an experiment.s database" err &&
	{ fake_plan failed NOSUCH --base-add "$TRASH/nosuch.frag" 2>err; rc=$?; } &&
	cat err && test "$rc" != 0 &&
	! test -e failed/kconfperf.db
'

test_expect_success 'messages: an archive that is no kernel tree leaves nothing in the cache' '
	mkdir -p notkernel/top && echo hi >notkernel/top/README &&
	tar -C notkernel -cf notkernel.tar top &&
	{ kconfperf plan -q --cache "$CACHE" --source notkernel.tar --base tinyconfig \
		--options DEBUG_A --dir nk 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "is not a kernel source tree" err &&
	! test -e "$CACHE/sources/$(sha256sum notkernel.tar | cut -c1-16)"
'

test_expect_success 'messages: a hexadecimal --timeout or --noise is refused' '
	{ fake_run l5 --timeout 0x10 2>err; rc=$?; } &&
	cat err && test "$rc" = 2 &&
	test_grep "error: --timeout takes seconds, more than 0 and at most 604800 (a week), not .0x10." err &&
	{ kconfperf report --dir l5 --noise 0x1 2>err; rc=$?; } &&
	cat err && test "$rc" != 0 &&
	test_grep "error: option .--noise. expects a number, not .0x1." err
'

test_expect_success 'messages: an empty hyperfine command is said to be empty' '
	printf "%s\n" "{\"results\": [{\"command\": \"\", \"times\": [1.5]}]}" >empty.json &&
	{ kconfperf import hyperfine empty.json --dir imp 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "error: empty.json:1:[0-9]*: \"command\" is empty; it names what was run" err &&
	! grep "not a string" err
'

test_expect_success 'L2: a metric keeps the unit and direction of its first sample, across runs' '
	fake_plan l2 DEBUG_A >/dev/null && kconfperf build -q --dir l2 &&
	cat >switch.sh <<-\EOF &&
	#!/bin/sh
	unit="unit=s better=lower" value=1.5
	[ "$KCP_VARIANT" = baseline ] && [ "$KCP_RUN" -ge 1 ] && unit="unit=ms better=higher" value=1500
	echo "KCP 1 ready boot_s=0.5"
	echo "KCP 1 sample workload=boot iter=0 metric=time $unit value=$value"
	echo "KCP 1 done"
	EOF
	chmod +x switch.sh &&
	{ kconfperf run --dir l2 --runner "$TRASH/switch.sh" --workload boot --runs 3 --warmup 0 \
		--seed 1 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test "$(q l2 "SELECT count(*) FROM run WHERE status = \"ok\"")" = 4 &&
	test "$(q l2 "SELECT count(*) FROM run WHERE status = \"malformed\" AND error LIKE
		\"metric %time% in ms, higher is better, but the experiment%s first sample of it was in s, lower is better\"")" = 2
'

test_expect_success 'a sweep that leaves a variant unmeasured exits 1, naming it' '
	{ kconfperf sweep -q --cache "$CACHE" --source "$FAKE_TREE" --base tinyconfig \
		--options DEBUG_A --no-baseline-again --runner "$FAKE_RUNNER" --workload boot \
		--runs 0 --warmup 1 --dir unmeasured >out 2>err; rc=$?; } &&
	cat err && test "$rc" = 1 &&
	test_grep "warning: not measured: baseline, CONFIG_DEBUG_A=y" err
'

if [ -n "$NS" ]; then
test_expect_success 'messages: a read-only --dir says so, not "readonly database"' '
	fake_plan ro DEBUG_A >/dev/null &&
	in_ns "
		mount --bind /tmp/t/ro /tmp/t/ro && mount -o remount,bind,ro /tmp/t/ro &&
		kconfperf build -q --dir /tmp/t/ro 2>&1; echo build=\$?
	" >out 2>&1
	cat out &&
	test_grep "^build=1\$" out &&
	test_grep "error: .*/ro. is read-only" out &&
	! grep "attempt to write a readonly database" out
'
else
	test_skip 'messages: a read-only --dir says so, not "readonly database"' 'needs root and unshare -m'
fi

test_done
