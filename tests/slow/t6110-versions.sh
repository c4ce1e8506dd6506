#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t6110 (make check-slow): two kernel versions on real kernels.  One sweep
# over Debian's 6.1 and 6.12 sources (tinyconfig, PROVE_LOCKING, and
# SLUB_TINY, which 6.1 does not know) gives a table per version and the
# change of PROVE_LOCKING's cost between them, with the unknown symbol said
# as such.  Kernels: the 6.1 baseline and PROVE_LOCKING come from the shared
# test cache (make check builds them); this test adds 6.12's baseline and
# PROVE_LOCKING, each a build from scratch of 6-12 minutes at -j2, which
# is why it is not in make check (CI's hour).  t2040 checks the same logic
# on the fake kernel in seconds.  Runs are judged on guest time (icount),
# which host load cannot move.
. "$(dirname "$0")/../t/lib.sh"
test_need_kernel_source
KSRC612_TARBALL=${KSRC612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -r "$KSRC612_TARBALL" ] || test_skip_all "no $KSRC612_TARBALL (run scripts/deps)"

sql() {
	sqlite3 "$1/kconfperf.db" "$2"
}

test_expect_success 'one sweep measures two kernel versions' '
	kconfperf sweep --cache "$KCP_TEST_CACHE" --source "$KSRC_TARBALL" \
		--source "$KSRC612_TARBALL" --base tinyconfig \
		--options PROVE_LOCKING,SLUB_TINY --workload boot --runs 3 --seed 5 \
		--dir two >two.txt 2>two.err &&
	cat two.err two.txt
'

test_expect_success 'each version is planned with its own Kconfig' '
	kconfperf plan --dir two >plan.txt &&
	cat plan.txt &&
	test_grep "^6.1:baseline  " plan.txt &&
	test_grep "^6.12:CONFIG_PROVE_LOCKING=y  *ok" plan.txt &&
	test_grep "^6.1:CONFIG_SLUB_TINY=y  *no-op .*CONFIG_SLUB_TINY: unknown symbol" plan.txt &&
	test_grep "^6.12:CONFIG_SLUB_TINY=y  *no-op .*already set in the baseline" plan.txt &&
	test "$(sql two "SELECT group_concat(label || \"=\" || version, \" \") FROM source")" = \
		"6.1=6.1.192 6.12=$(sql two "SELECT version FROM source WHERE label = \"6.12\"")" &&
	sql two "SELECT version FROM source WHERE label = \"6.12\"" | grep "^6\.12\."
'

test_expect_success 'both versions run in the same rounds' '
	for r in 0 1 2; do
		test "$(sql two "SELECT count(DISTINCT v.source) FROM run r JOIN variant v
			ON v.id = r.variant_id WHERE r.round = $r AND r.warmup = 0")" = 2 || return 1
	done
'

test_expect_success 'a table per version, each against its own baseline' '
	awk "/^metric: *time/ { t = 1 } /^metric: *wall/ { t = 0 } t" two.txt >time.txt &&
	test_grep "^source: *6.1 (6.1.192)$" time.txt &&
	test_grep "^source: *6.12 (6.12" time.txt &&
	grep "^6.12:CONFIG_PROVE_LOCKING=y" time.txt >row612 &&
	test_grep "(+[0-9.]*%).*\\*" row612 &&
	grep "^6.1:CONFIG_PROVE_LOCKING=y" time.txt >row61 &&
	test_grep "(+[0-9.]*%).*\\*" row61
'

test_expect_success 'the change of PROVE_LOCKING'"'"'s cost between the two' '
	sed -n "/^6.12 against 6.1: boot time/,/^workload:/p" two.txt >across.txt &&
	cat across.txt &&
	test_grep "^CONFIG_PROVE_LOCKING=y  *+[0-9.]*% \\*  *+[0-9.]*% \\*  *[-+][0-9.]*% \\[[^]]*\\][ *]*[-+][0-9.]*% \\[[-+][0-9.]*% \\.\\. [-+][0-9.]*%\\]" across.txt &&
	jq -e "[.kconfperf.across[] | select(.metric == \"time\")][0].rows[]
		| select(.name == \"CONFIG_PROVE_LOCKING=y\") | .cells[1].cost_change.ratio > 0" \
		two/report.json
'

test_expect_success 'an option unknown in one version is said so, not a zero cost' '
	test_grep "^CONFIG_SLUB_TINY=y  *no-op  *no-op *$" across.txt &&
	test_grep "CONFIG_SLUB_TINY=y on 6.1: no-op: CONFIG_SLUB_TINY: unknown symbol" across.txt &&
	jq -e "[.kconfperf.across[0].rows[] | select(.name == \"CONFIG_SLUB_TINY=y\")][0].cells[0]
		| .state == \"no-op\" and .cost_pct == null and .cost_change == null" two/report.json
'

test_done
