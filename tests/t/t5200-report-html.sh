#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t5200: the HTML report rendered by headless Chromium: it loads offline
# without console errors, its DOM has the tables, charts and config diffs,
# and the screenshot is not blank.
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || test_skip_all "no chromium (run scripts/deps)"
command -v sqlite3 >/dev/null || test_skip_all "no sqlite3 (run scripts/deps)"

chromium() {
	profile=$(mktemp -d)
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$profile" "$@"
	rc=$?
	rm -rf "$profile"
	return $rc
}

# An experiment with the shape of a real one: imported runs (8 per
# variant, fixed pseudo-random noise), then the plan's facts filled in:
# kinds, effective diffs, a no-op, builds with image sizes.
awk 'BEGIN {
	n = split("baseline all CONFIG_PROVE_LOCKING=y CONFIG_DEBUG_KMEMLEAK=y " \
		  "all-CONFIG_PROVE_LOCKING=y CONFIG_CMDLINE=<script>", name, " ")
	split("1.00 1.71 1.46 1.18 1.24 1.003", f, " ")
	printf "{\"results\": ["
	for (v = 1; v <= n; v++) {
		printf "%s{\"command\": \"%s\", \"times\": [", (v > 1 ? ", " : ""), name[v]
		for (i = 1; i <= 8; i++)
			printf "%s%.6f", (i > 1 ? ", " : ""), 2 * f[v] * (1 + 0.02 * sin(v * 7 + i * 3))
		printf "]}"
	}
	print "]}"
}' >runs.json

setup() {
	kconfperf import -q hyperfine runs.json --dir exp &&
	sqlite3 exp/kconfperf.db <<'SQL'
UPDATE variant SET kind = 'all', status = 'partial',
	reason = 'CONFIG_LOCKDEP=y: hidden symbol, selected by PROVE_LOCKING'
	WHERE name = 'all';
UPDATE variant SET kind = 'oat' WHERE name LIKE 'CONFIG_%';
UPDATE variant SET kind = 'loo' WHERE name LIKE 'all-%';
UPDATE variant SET name = 'CONFIG_CMDLINE="<script>alert(1)</script>"'
	WHERE name = 'CONFIG_CMDLINE=<script>';
UPDATE variant SET effective_diff = '+LOCKDEP y' || char(10) || '+TRACE_IRQFLAGS y' ||
	char(10) || ' PROVE_LOCKING n -> y' || char(10), added = 2, changed = 1
	WHERE name = 'CONFIG_PROVE_LOCKING=y';
UPDATE variant SET effective_diff = '+DEBUG_KMEMLEAK y' || char(10) || '-SLUB_TINY y' ||
	char(10), added = 1, removed = 1 WHERE name = 'CONFIG_DEBUG_KMEMLEAK=y';
UPDATE variant SET effective_diff = ' CMDLINE "" -> "<script>alert(1)</script>"' || char(10),
	changed = 1 WHERE name LIKE 'CONFIG_CMDLINE=%';
UPDATE variant SET config_hash = 'h' || id;
INSERT INTO variant (name, kind, status, reason, position)
	VALUES ('CONFIG_LOCKDEP=y', 'oat', 'no-op', 'hidden symbol: selected by PROVE_LOCKING', 9);
INSERT INTO build (key, config_hash, status, seconds, bzimage_size, vmlinux_size, finished)
	SELECT 'k' || id, 'h' || id, 'ok', 100, 1000000 + 50000 * id, 4000000, '2024-01-01T00:00:00Z'
	FROM variant WHERE config_hash != '';
INSERT INTO meta (key, value) VALUES ('kernel_version', '6.1.158'), ('base', 'tinyconfig'),
	('host', 'ci (2 CPUs)'), ('qemu', 'QEMU emulator version 7.2.15');
SQL
}

test_expect_success 'an experiment and its html report' '
	setup &&
	kconfperf report --dir exp --format html -o report.html &&
	test -s report.html
'

test_expect_success 'the page asks for nothing over the network' '
	! grep -E "(src|href)=\"(https?:)?//" report.html &&
	! grep -q "@import" report.html &&
	! grep -q "<script" report.html &&
	! grep -q "<link" report.html
'

test_expect_success 'chromium loads it without console errors' '
	chromium --enable-logging=stderr --v=0 --dump-dom "file://$TRASH/report.html" \
		>dom.html 2>log.txt &&
	! grep ":CONSOLE" log.txt &&
	! grep -i "net::ERR" log.txt
'

test_expect_success 'the DOM has the summary table, the chart and the diffs' '
	test_grep "<table class=\"summary\">" dom.html &&
	test_grep "<svg xmlns=\"http://www.w3.org/2000/svg\"" dom.html &&
	test "$(grep -c "<g class=\"row\">" dom.html)" = 5 &&
	test_grep "<details><summary><code>CONFIG_PROVE_LOCKING=y</code>" dom.html &&
	test_grep "+TRACE_IRQFLAGS y" dom.html &&
	test_grep "<h3>Multiplicativity: " dom.html &&
	test_grep "Added last" dom.html &&
	test_grep "hidden symbol: selected by PROVE_LOCKING" dom.html &&
	test_grep "+48.8 KiB" dom.html &&
	test_grep "&lt;script&gt;alert(1)&lt;/script&gt;" dom.html &&
	! grep -q "<script" dom.html
'

test_expect_success 'a screenshot that is not blank' '
	chromium --screenshot="$TRASH/shot.png" --window-size=1280,2000 \
		"file://$TRASH/report.html" >/dev/null 2>&1 &&
	test -s shot.png &&
	python3 - shot.png <<-\PY
	import struct, sys, zlib
	data = open(sys.argv[1], "rb").read()
	assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
	pos, idat, width, height = 8, b"", 0, 0
	while pos < len(data):
	    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
	    body = data[pos + 8:pos + 8 + n]
	    if kind == b"IHDR":
	        width, height = struct.unpack(">II", body[:8])
	    elif kind == b"IDAT":
	        idat += body
	    pos += 12 + n
	raw = zlib.decompress(idat)
	assert (width, height) == (1280, 2000), (width, height)
	# A blank page compresses to a few KB and its filtered rows are all
	# zeros: text, tables and a chart give many distinct filtered bytes.
	counts = {}
	for b in raw[::7]:
	    counts[b] = counts.get(b, 0) + 1
	top = max(counts.values()) / sum(counts.values())
	print("size", len(data), "distinct", len(counts), "top share", round(top, 3))
	assert len(data) > 20000, "screenshot too small to hold the report"
	assert len(counts) > 50 and top < 0.99, "blank-looking screenshot"
	PY
'

test_done
