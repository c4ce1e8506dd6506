#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4500: cmd: workloads without a kernel: kcp-guest --host as the --runner
# runs the program on this host, so what the host does with a program's run
# (its time, --extract, a failure, no match, a hang) is checked in seconds.
# tests/slow/t4600 does the same inside real guests.
. "$(dirname "$0")/lib.sh"

GUEST=$KCP_BUILD/kcp-guest
[ -x "$GUEST" ] || test_skip_all "no $GUEST (make builds it)"
RUNNER="$GUEST --host --cmdline=\"\$KCP_CMDLINE\""

vm() {
	kconfperf vm --runner "$RUNNER" --timeout 20 "$@"
}

test_expect_success 'a program runs, its time and its own number are samples' '
	vm -w "cmd:dd if=/dev/zero of=/dev/null bs=8k count=2000" \
		--extract "throughput,MB/s,higher,re:([0-9.]+) [kMG]B/s" --dir ok >out &&
	cat out &&
	test_grep "^status: ok$" out &&
	test_grep "^sample: cmd time 0 [0-9.e-]* s$" out &&
	test_grep "^sample: cmd throughput 0 [0-9.]* MB/s$" out &&
	test_grep "copied" ok/output.txt
'

test_expect_success 'the program gets a fixed environment; shell syntax runs under /bin/sh' '
	vm -w "cmd:env" --dir env >out &&
	test_grep "^status: ok$" out &&
	test_grep "^PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin$" env/output.txt &&
	test_grep "^HOME=/tmp$" env/output.txt &&
	test_grep "^LC_ALL=C$" env/output.txt &&
	! grep -q "^KCP_" env/output.txt &&
	vm -w "cmd:echo \"a  b\" | tr a x" --dir sh >out &&
	test_grep "^status: ok$" out &&
	test_grep "^x  b$" sh/output.txt
'

test_expect_success 'csv: and json: fields of the output' '
	vm -w "cmd:echo 1.9,x,,42" --extract "f4,K/s,higher,csv:4" --dir csv >out &&
	test_grep "^sample: cmd f4 0 42 K/s$" out &&
	printf "{\"r\": {\"ops\": \"7.5\"}}\n" >result.json &&
	vm -w "cmd:cat $TRASH/result.json" --extract "ops,1/s,higher,json:r.ops" --dir json >out &&
	test_grep "^sample: cmd ops 0 7.5 1/s$" out
'

test_expect_success 'a program that fails is a failed run that says why' '
	vm -w "cmd:sh -c \"echo it broke >&2; exit 3\"" --dir fail >out
	rc=$?
	cat out &&
	test "$rc" = 1 &&
	grep -q "^status: guest-error$" out &&
	grep -q "^reason: guest error: cmd: .* exited with status 3; its last line: it broke$" out
'

test_expect_success 'output without the number is a failed run that says what it printed' '
	vm -w "cmd:echo no numbers here" --extract "t,s,lower,re:took ([0-9.]+) s" --dir nomatch >out
	rc=$?
	cat out &&
	test "$rc" = 1 &&
	grep -q "^status: malformed$" out &&
	grep -q "^reason: the program.s output: --extract t: no line matches re:took (\[0-9.\]+) s (1 line; the last: .no numbers here.)$" out &&
	! grep -q "^sample: cmd t " out
'

test_expect_success 'a program that hangs is a timeout' '
	vm -w "cmd:sleep 60" --timeout 2 --dir hang >out
	rc=$?
	cat out &&
	test "$rc" = 1 &&
	grep -q "^status: timeout$" out &&
	grep -q "^reason: timed out after 2 s" out &&
	grep -q "running .sleep 60." out
'

test_expect_success 'a program that is not there is a failed run' '
	vm -w "cmd:/bin/sh -c \"exec /nonexistent-kcp\"" --dir missing >out
	rc=$?
	cat out &&
	test "$rc" = 1 &&
	grep -q "^status: guest-error$" out
'

test_expect_success 'workloads --cmdline: the command is percent-encoded, never quoted' '
	kconfperf workloads --cmdline "cmd:sh -c \"echo \$HOME\" > /tmp/x" >out &&
	cat out &&
	test_grep "^kcp.workload=cmd kcp.run=sh%20-c%20%22echo%20%24HOME%22%20%3E%20/tmp/x kcp.scratch=$" out
'

test_expect_success 'a program this host lacks is refused before anything runs' '
	kconfperf run --dir nowhere -w "cmd:no-such-kcp-program --x" 2>err
	rc=$?
	cat err &&
	test "$rc" = 2 &&
	grep -q "no program .no-such-kcp-program. on this host" err
'

test_expect_success '--extract and --scratch follow their --workload' '
	kconfperf run --dir nowhere --extract "t,s,lower,re:(x)" --workload "cmd:true" 2>err
	rc=$?
	cat err &&
	test "$rc" = 2 &&
	grep -q "comes after the --workload it is for" err
'

test_expect_success 'a bad --extract is a usage error naming it' '
	kconfperf run --dir nowhere --workload "cmd:true" --extract "t,s,lower,re:x" 2>err
	rc=$?
	cat err &&
	test "$rc" = 2 &&
	grep -q "has no group: put the number in ( )" err
'

test_expect_success 'layers are for cmd: workloads, whose guest has the tools' '
	kconfperf run --dir nowhere --workload dd --scratch 64M:ext4 2>err
	rc=$?
	cat err &&
	test "$rc" = 2 &&
	grep -q "for a cmd: workload only" err
'

test_done
