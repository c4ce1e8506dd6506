#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0450: make install puts kconfperf, kcp-guest and the man pages under
# DESTDIR/PREFIX; `man kconfperf-sweep` finds the page, and `kconfperf help
# sweep` on a terminal shows it, as git's help does (elsewhere: the help and
# where the page is).  asciidoctor renders every page without a warning.
# Seconds; no kernel.
. "$(dirname "$0")/lib.sh"

command -v asciidoctor >/dev/null || test_skip_all "no asciidoctor (scripts/deps installs it)"
command -v man >/dev/null || test_skip_all "no man (scripts/deps installs man-db)"

test_expect_success 'make install DESTDIR= PREFIX= installs the programs and a page per command' '
	# -o all: install what the build under test made, never rebuild it
	# (it may have been made with other flags: DEVELOPER=1, SANITIZE)
	make -C "$SRC_DIR" -s -o all B="$KCP_BUILD" install DESTDIR="$TRASH/root" PREFIX=/usr >out 2>&1 ||
		{ cat out; false; } &&
	test -x root/usr/bin/kconfperf &&
	test -x root/usr/bin/kcp-guest &&
	kconfperf --help | sed -n "s/^    \([a-z-]*\)  .*/\1/p" >commands &&
	test "$(wc -l <commands)" -ge 10 &&
	while read -r c; do
		test -s "root/usr/share/man/man1/kconfperf-$c.1" || { echo "no page for $c"; exit 1; }
	done <commands &&
	test -s root/usr/share/man/man1/kconfperf.1
'

test_expect_success 'man kconfperf-sweep finds and renders the installed page' '
	MANPATH=$TRASH/root/usr/share/man MANWIDTH=100 man kconfperf-sweep >page 2>err &&
	test_grep "^KCONFPERF-SWEEP(1)" page &&
	test_grep "the whole experiment in one resumable command" page &&
	test_grep "max-runs N" page
'

test_expect_success 'kconfperf help sweep on a terminal shows the man page' '
	command -v script >/dev/null || { echo "no script(1)"; exit 1; } &&
	MANPATH=$TRASH/root/usr/share/man MANPAGER=cat PAGER=cat MANWIDTH=100 \
		script -qec "root/usr/bin/kconfperf help sweep" /dev/null >tty &&
	test_grep "KCONFPERF-SWEEP(1)" tty
'

test_expect_success 'kconfperf help sweep elsewhere prints the help and names the page' '
	MANPATH=$TRASH/root/usr/share/man kconfperf help sweep >help &&
	test_grep "^usage: kconfperf sweep" help &&
	test_grep "The whole page: .man kconfperf-sweep." help &&
	MANPATH=$TRASH/nothing kconfperf help sweep >help2 &&
	test_grep "docs/man/kconfperf-sweep.adoc" help2
'

test_done
