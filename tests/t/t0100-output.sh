#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0100: -o PATH writes through symbolic links, into FIFOs, devices and our
# own descriptors, and never replaces a link or a device with a file.  Only
# links and FIFOs in the test's own directory are used: the machine's
# /dev/stdout is never written here except through a child whose stdout is
# a file or a pipe.
. "$(dirname "$0")/lib.sh"

HF=$DATA/example-hyperfine-1.15-export.json

test_expect_success 'an experiment to report' '
	kconfperf import hyperfine "$HF" --dir exp -q &&
	kconfperf report --dir exp --format csv >expect.csv &&
	test -s expect.csv
'

test_expect_success 'the issue: a link to a file stays a link, its target gets the report' '
	echo old >target.txt &&
	ln -s "$PWD/target.txt" lnk &&
	kconfperf report --dir exp --format csv -o lnk &&
	test -L lnk &&
	test_cmp expect.csv target.txt
'

test_expect_success 'a relative link, replaced again, keeps the target mode' '
	echo old >t2.txt && chmod 600 t2.txt &&
	ln -s t2.txt rel &&
	kconfperf report --dir exp --format csv -o rel &&
	kconfperf report --dir exp --format csv -o rel &&
	test -L rel && test_cmp expect.csv t2.txt &&
	test "$(stat -c %a t2.txt)" = 600
'

test_expect_success 'a dangling link: the link stays, its target is created' '
	ln -s "$PWD/new-target.txt" dangling &&
	kconfperf report --dir exp --format csv -o dangling &&
	test -L dangling && test_cmp expect.csv new-target.txt
'

test_expect_success 'a link into a directory that does not exist is an error naming both' '
	ln -s "$PWD/no/such/dir/r.txt" into-nowhere &&
	! kconfperf report --dir exp --format csv -o into-nowhere 2>err &&
	test_grep "into-nowhere" err &&
	test_grep "no/such/dir/r.txt" err &&
	test -L into-nowhere && ! test -e no
'

test_expect_success '/dev/null stays a device' '
	kconfperf report --dir exp --format csv -o /dev/null &&
	test -c /dev/null
'

test_expect_success 'a FIFO is written in place' '
	mkfifo fifo &&
	{ cat fifo >from-fifo & } &&
	kconfperf report --dir exp --format csv -o fifo &&
	wait &&
	test -p fifo && test_cmp expect.csv from-fifo
'

test_expect_success '-o - is standard output' '
	kconfperf report --dir exp --format csv -o - >dash.csv &&
	test_cmp expect.csv dash.csv
'

# dev-stdout is made as /dev/stdout is (a link to /proc/self/fd/1), so a
# regression replaces this link, not the machine's.
test_expect_success 'a /dev/stdout redirected to a file: the report lands in the file' '
	ln -s /proc/self/fd/1 dev-stdout &&
	kconfperf report --dir exp --format csv -o dev-stdout >f &&
	test_cmp expect.csv f &&
	test -L dev-stdout
'

test_expect_success 'a /dev/stdout and /proc/self/fd/1 into a pipe' '
	kconfperf report --dir exp --format csv -o dev-stdout | cat >p1 &&
	kconfperf report --dir exp --format csv -o /proc/self/fd/1 | cat >p2 &&
	test_cmp expect.csv p1 && test_cmp expect.csv p2 &&
	test -L dev-stdout
'

test_expect_success 'a /dev/stdout appended to keeps what was there' '
	echo first >appended &&
	kconfperf report --dir exp --format csv -o dev-stdout >>appended &&
	{ echo first && cat expect.csv; } >expect-appended &&
	test_cmp expect-appended appended && test -L dev-stdout
'

test_expect_success 'config merge -o and initramfs -o write through links too' '
	printf "CONFIG_A=y\n" >base.config &&
	printf "CONFIG_B=y\n" >frag.config &&
	ln -s merged.config merged-link &&
	kconfperf config merge base.config frag.config -o merged-link 2>/dev/null &&
	test -L merged-link && test_grep "^CONFIG_B=y" merged.config &&
	ln -s "$PWD/init.gz" init-link &&
	kconfperf initramfs -o init-link &&
	test -L init-link && gzip -t init.gz
'

test_expect_success 'import into a --dir whose database is a dangling link' '
	mkdir exp2 && ln -s "$PWD/real.db" exp2/kconfperf.db &&
	kconfperf import hyperfine "$HF" --dir exp2 -q &&
	test -L exp2/kconfperf.db && test -s real.db &&
	kconfperf report --dir exp2 --format csv >again.csv &&
	test_cmp expect.csv again.csv
'

test_done
