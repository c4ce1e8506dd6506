#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0004: what a module does once is not written again, and what a header
# exports is called (scripts/check-idioms); the check itself catches each.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the tree uses its one way of each, and calls what it exports' '
	"$SRC_DIR/scripts/check-idioms"
'

copy_tree() {
	rm -rf copy && mkdir -p copy &&
	cp -r "$SRC_DIR/src" "$SRC_DIR/scripts" "$SRC_DIR/guest" "$SRC_DIR/plugin" copy/ &&
	mkdir -p copy/tests && cp -r "$SRC_DIR/tests/unit" copy/tests/
}

test_expect_success 'an exported function nothing calls is found' '
	copy_tree &&
	echo "int strbuf_dead_end(void);" >>copy/src/util/strbuf.h &&
	printf "int strbuf_dead_end(void)\n{\n\treturn 0;\n}\n" >>copy/src/util/strbuf.c &&
	! copy/scripts/check-idioms >out &&
	test_grep "^strbuf_dead_end: declared in a header, called and named nowhere$" out
'

test_expect_success 'an open-coded ARRAY_SIZE, a hand-read --version and /proc/PID/stat are found' '
	copy_tree &&
	sed -i "1a static const int n = sizeof(xs) / sizeof(xs[0]);" copy/src/store/store.c &&
	sed -i "1a static const char *v[] = { \"gcc\", \"--version\" };" copy/src/kbuild/farm.c &&
	sed -i "1a static const char *p = \"/proc/self/stat\";" copy/src/run/host.c &&
	! copy/scripts/check-idioms >out &&
	test_grep "^src/store/store.c:2: sizeof(a) / sizeof(a\[0\]): use ARRAY_SIZE()$" out &&
	test_grep "^src/kbuild/farm.c:2: a program.s --version read by hand" out &&
	test_grep "^src/run/host.c: /proc/PID/stat read by hand" out
'

test_expect_success 'a .c file included by another is found' '
	copy_tree &&
	echo "#include \"../src/run/workload-table.c\"" >copy/guest/table.c &&
	! copy/scripts/check-idioms >out &&
	test_grep "^guest/table.c:1: a .c file included: compile it as its own object$" out
'

test_expect_success 'analyze.c'"'"'s private parts included elsewhere are found' '
	copy_tree &&
	sed -i "1a #include \"stats/analyze-parts.h\"" copy/src/report/report-json.c &&
	! copy/scripts/check-idioms >out &&
	test_grep "^src/report/report-json.c:2: analyze-parts.h is private" out
'

test_expect_success 'a meta key, a clock name and a metric name written by hand are found' '
	copy_tree &&
	sed -i "1a static char *f(struct store *st) { return store_get_meta(st, \"arch\"); }" \
		copy/src/cmd/cmd-build.c &&
	sed -i "1a static int g(const char *a) { return !strcmp(a, \"tcg\"); }" copy/src/run/host.c &&
	sed -i "1a static int h(const char *metric) { return !strcmp(metric, \"boot\"); }" \
		copy/src/report/report-json.c &&
	sed -i "1a static int k(const char *x) { return !strcmp(x, \"wall\"); }" copy/src/stats/stats.c &&
	! copy/scripts/check-idioms >out &&
	test_grep "^src/cmd/cmd-build.c:2: a meta key as a string literal" out &&
	test_grep "^src/run/host.c:2: an accelerator or clock name compared by hand" out &&
	test_grep "^src/report/report-json.c:2: a metric compared by name" out &&
	test_grep "^src/stats/stats.c:2: a metric compared by name" out
'

test_done
