#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0002: src/ keeps its stages in order: no stage includes a later one
# (scripts/check-layers), and the check itself catches a violation.
. "$(dirname "$0")/lib.sh"

test_expect_success 'no stage of src/ includes a header of a later stage' '
	"$SRC_DIR/scripts/check-layers"
'

test_expect_success 'the check fails on a lower stage that includes a higher one' '
	mkdir -p copy &&
	cp -r "$SRC_DIR/src" "$SRC_DIR/scripts" copy/ &&
	sed -i "1a #include \"report/report.h\"" copy/src/store/store.c &&
	! copy/scripts/check-layers >out &&
	test_grep "src/store/store.c:2: store includes .report/report.h. of the later stage report" out
'

test_expect_success 'and on an include that does not name its folder' '
	rm -rf copy && mkdir -p copy &&
	cp -r "$SRC_DIR/src" "$SRC_DIR/scripts" copy/ &&
	sed -i "1a #include \"strbuf.h\"" copy/src/util/strvec.c &&
	! copy/scripts/check-layers >out &&
	test_grep "does not name its folder" out
'

test_done
