#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2050: the documentation is held to the code (scripts/check-docs).  Every
# command's help, its page (docs/man/kconfperf-CMD.adoc) and the option
# table it parses with list the same options, and the command accepts each;
# every recipe output a doc splices in is the recipe's output file; no
# tracked file names a development machine's path.  Each check is also run
# on a copy broken in one place, to show that it fails.  Seconds, no kernel.
. "$(dirname "$0")/lib.sh"

CHECK=$SRC_DIR/scripts/check-docs

command -v python3 >/dev/null || test_skip_all "no python3 (scripts/deps installs it)"

test_expect_success 'help, page and option table agree for every command, and each option is accepted' '
	"$CHECK" pages "$KCP_BIN" >out 2>&1 || { cat out; false; }
'

# A copy of docs/ to break one thing in.
copy_docs() {
	rm -rf docs && cp -r "$SRC_DIR/docs" docs
}

# add_option PAGE TERM: documents TERM as one more option of PAGE.
add_option() {
	awk -v term="$2" '/^== OPTIONS/ { print; print ""; print "`" term "`::"; print "\tNot an option."; next }
		{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
}

test_expect_success 'an option on the page that the command does not take fails' '
	copy_docs &&
	add_option docs/man/kconfperf-report.adoc "--frobnicate N" &&
	! "$CHECK" pages "$KCP_BIN" --docs docs >out 2>&1 &&
	test_grep "OPTIONS lists .--frobnicate N., which kconfperf report does not take" out
'

test_expect_success 'an option the command takes that its page leaves out fails' '
	copy_docs &&
	grep -v "^.--noise PCT.::" docs/man/kconfperf-sweep.adoc >p && mv p docs/man/kconfperf-sweep.adoc &&
	! "$CHECK" pages "$KCP_BIN" --docs docs >out 2>&1 &&
	test_grep "kconfperf sweep takes .--noise PCT., which the page.s OPTIONS do not list" out
'

test_expect_success 'a page whose synopsis is not the help'"'"'s fails' '
	copy_docs &&
	sed "s/^kconfperf report \[--dir DIR\]/kconfperf report [--dir DIR] [--frobnicate]/" \
		docs/man/kconfperf-report.adoc >p && mv p docs/man/kconfperf-report.adoc &&
	! "$CHECK" pages "$KCP_BIN" --docs docs >out 2>&1 &&
	test_grep "kconfperf-report.adoc: SYNOPSIS is not the help.s synopsis" out
'

test_expect_success 'a command without a page fails' '
	copy_docs &&
	rm docs/man/kconfperf-vm.adoc &&
	! "$CHECK" pages "$KCP_BIN" --docs docs >out 2>&1 &&
	test_grep "kconfperf vm has no page" out
'

test_expect_success 'a help that lists a flag the command refuses fails' '
	# A stand-in kconfperf whose screen --help lists --design: the real
	# table, which does not hold it, says what the parser takes.
	cat >fake <<-EOF &&
	#!/bin/sh
	if [ "\$1" = screen ] && [ "\$2" = --help ]; then
		"$KCP_BIN" screen --help | sed "1s/\$/ [--design D,...]/"
		exit 0
	fi
	exec "$KCP_BIN" "\$@"
	EOF
	chmod +x fake &&
	! "$CHECK" pages ./fake >out 2>&1 &&
	test_grep "kconfperf screen: its help.s synopsis lists --design, which its table does not hold" out
'

test_expect_success 'a listed option the command refuses after parsing fails' '
	# A stand-in whose screen refuses --threshold as sweep'"'"'s, as screen
	# once refused --design: listed, parsed, then "is for sweep".
	cat >fake <<-EOF &&
	#!/bin/sh
	if [ "\$1" = screen ]; then
		for a in "\$@"; do
			if [ "\$a" = --threshold ]; then
				echo "kconfperf: error: --threshold is for sweep" >&2
				exit 2
			fi
		done
	fi
	exec "$KCP_BIN" "\$@"
	EOF
	chmod +x fake &&
	! "$CHECK" pages ./fake >out 2>&1 &&
	test_grep "kconfperf screen: its help lists --threshold 5, which it refuses: kconfperf: error: --threshold is for sweep" out
'

test_expect_success 'the docs splice every recipe output as it is' '
	"$CHECK" splices >out 2>&1 || { cat out; false; }
'

test_expect_success 'a spliced output edited by hand fails' '
	copy_docs &&
	rm -f README.md &&
	f=$(grep -l "^<!-- recipe " docs/*.md | head -n 1) &&
	test -n "$f" &&
	n=$(grep -n "^<!-- recipe " "$f" | head -n 1 | cut -d: -f1) &&
	awk -v n=$((n + 2)) "NR == n { \$0 = \$0 \" (edited)\" } { print }" "$f" >p && mv p "$f" &&
	! "$CHECK" splices --docs docs >out 2>&1 &&
	test_grep "differs from it" out
'

test_expect_success 'no tracked file names a development machine'"'"'s path' '
	"$CHECK" paths >out 2>&1 || { cat out; false; }
'

test_expect_success 'a tracked file with such a path fails' '
	git init -q repo &&
	printf "see /%s/main/src\n" work >repo/a.txt &&
	printf "fine: /usr/src/linux\n" >repo/b.txt &&
	git -C repo add a.txt b.txt &&
	! "$CHECK" paths --root repo >out 2>&1 &&
	test_grep "a.txt:1: names a development machine.s path ..work.main." out &&
	! grep -q b.txt out
'

test_done
