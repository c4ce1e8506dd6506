#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t2040: several sources and a patch on the fast tier's fake kernel, the
# logic tests/slow/t6110 checks on real kernels, in seconds.  "6.1" is the
# fake tree; "6.12" a copy where DEBUG_A selects DEBUG_B and DEBUG_NEW exists, so
# DEBUG_A costs 20% on 6.1 and 26% on 6.12 (the fake runner's costs
# multiply): a change of +5%.  The patch makes the fake kbuild put
# DEBUG_B into every bzImage, so the patched kernel costs 5% more than its
# unpatched twin, config for config.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/t/lib-fast.sh"

NEW_TREE=$TRASH/linux-6.12
cp -R "$FAKE_TREE" "$NEW_TREE" &&
sed -i 's/^PATCHLEVEL = 1$/PATCHLEVEL = 12/' "$NEW_TREE/Makefile" &&
awk '{ print } /^config DEBUG_A$/ { a = 1 } a && /^	bool/ { print "	select DEBUG_B"; a = 0 }' \
	"$FAKE_TREE/Kconfig" >"$NEW_TREE/Kconfig" &&
printf '\nconfig DEBUG_NEW\n\tbool "an option only 6.12 has"\n' >>"$NEW_TREE/Kconfig" || exit 1

cat >kbuild-b.patch <<'EOF'
--- a/scripts/fake-build
+++ b/scripts/fake-build
@@ -35,7 +35,7 @@
 sleep "${KCP_FAKE_BUILD_SECONDS:-0}"
 mkdir -p "$objdir/arch/x86/boot"
 { echo "fake vmlinux"; cat "$config"; } >"$objdir/vmlinux"
-{ echo "fake bzImage"; grep '^CONFIG_' "$config"; } >"$objdir/arch/x86/boot/bzImage"
+{ echo "fake bzImage"; grep '^CONFIG_' "$config"; echo CONFIG_DEBUG_B=y; } >"$objdir/arch/x86/boot/bzImage"
 cp "$config" "$objdir/.built-config"
 echo "Kernel: arch/x86/boot/bzImage is ready"
 log end
EOF
sed 's/^ sleep "/ snooze "/' kbuild-b.patch >stale.patch

test_expect_success 'one sweep over two versions: a table each and the change of cost' '
	kconfperf sweep --cache "$CACHE" --source "$FAKE_TREE" --source "$NEW_TREE" \
		--base tinyconfig --options DEBUG_A,DEBUG_FREE,DEBUG_NEW --runner "$FAKE_RUNNER" \
		--workload boot --runs 6 --seed 3 --no-baseline-again --dir two >two.txt 2>two.err &&
	cat two.txt &&
	test "$(q two "SELECT group_concat(name, \" \") FROM (SELECT name FROM variant ORDER BY id)")" = \
		"6.1:baseline 6.1:CONFIG_DEBUG_A=y 6.1:CONFIG_DEBUG_FREE=y 6.1:CONFIG_DEBUG_NEW=y 6.12:baseline 6.12:CONFIG_DEBUG_A=y 6.12:CONFIG_DEBUG_FREE=y 6.12:CONFIG_DEBUG_NEW=y" &&
	test_grep "^source: *6.1 (6.1.0-fake)$" two.txt &&
	test_grep "^source: *6.12 (6.12.0-fake)$" two.txt
'

test_expect_success 'the two versions run in the same rounds' '
	for r in 0 1 2 3 4 5; do
		test "$(q two "SELECT count(DISTINCT v.source) FROM run r JOIN variant v
			ON v.id = r.variant_id WHERE r.round = $r AND r.warmup = 0")" = 2 || return 1
	done
'

test_expect_success 'the change of DEBUG_A'"'"'s cost holds the planted +5%' '
	sed -n "/^6.12 against 6.1: boot time/,/^workload:/p" two.txt >across.txt &&
	cat across.txt &&
	grep "^CONFIG_DEBUG_A=y " across.txt >a &&
	test_grep "+2[0-9.]*% \\*  *+2[0-9.]*% \\*" a &&
	sed "s/.*\\] *\\([-+0-9.]*\\)% \\[\\([-+0-9.]*\\)% \\.\\. \\([-+0-9.]*\\)%\\].*/\\2 \\3/" a |
	awk "{ exit !(\$1 + 0 <= 5 && 5 <= \$2 + 0) }" &&
	test_grep "CONFIG_DEBUG_A=y cost +[0-9.]*% on 6.1 and +[0-9.]*% on 6.12: +[0-9.]*% \\[" across.txt
'

test_expect_success 'an option unknown in one version is said so, not a zero cost' '
	kconfperf plan --dir two >plan.txt &&
	test_grep "^6.1:CONFIG_DEBUG_NEW=y  *no-op .*CONFIG_DEBUG_NEW: unknown symbol" plan.txt &&
	test_grep "^6.12:CONFIG_DEBUG_NEW=y  *ok" plan.txt &&
	test_grep "^CONFIG_DEBUG_NEW=y  *no-op  *" across.txt &&
	test_grep "CONFIG_DEBUG_NEW=y on 6.1: no-op: CONFIG_DEBUG_NEW: unknown symbol" across.txt &&
	jq -e "[.kconfperf.across[0].rows[] | select(.name == \"CONFIG_DEBUG_NEW=y\")][0].cells[0]
		| .state == \"no-op\" and .cost_pct == null and .cost_change == null" two/report.json
'

test_expect_success 'every report format has the versions' '
	kconfperf report --dir two --format markdown >md &&
	test_grep "6.12 against 6.1" md &&
	kconfperf report --dir two --format mmtests >mm &&
	test_grep "6\\.12" mm &&
	kconfperf report --dir two --format html >html &&
	test_grep "6\\.12" html
'

test_expect_success 'the same sweep resumes; another label is another experiment' '
	kconfperf sweep --cache "$CACHE" --source "$FAKE_TREE" --source "$NEW_TREE" \
		--base tinyconfig --options DEBUG_A,DEBUG_FREE,DEBUG_NEW --runner "$FAKE_RUNNER" \
		--workload boot --runs 6 --seed 3 --no-baseline-again --dir two >again.txt 2>again.err &&
	test_grep "nothing to run" again.err &&
	! kconfperf plan --cache "$CACHE" --source "$FAKE_TREE" --source new="$NEW_TREE" \
		--base tinyconfig --options DEBUG_A,DEBUG_FREE,DEBUG_NEW --no-baseline-again \
		--dir two 2>relabel.err &&
	cat relabel.err
'

test_expect_success 'a patch that does not apply stops the plan, naming its hunk' '
	! kconfperf plan --cache "$CACHE" --source "$FAKE_TREE" --patch stale.patch \
		--base tinyconfig --options DEBUG_A --dir stale 2>stale.err &&
	cat stale.err &&
	test_grep "stale.patch:3: hunk #1 of scripts/fake-build does not apply to 6.1.0-fake" stale.err &&
	! test -d stale/logs
'

test_expect_success 'a patched kernel against its unpatched twin, built from its tree' '
	kconfperf sweep --cache "$CACHE" --source "$FAKE_TREE" --patch kbuild-b.patch \
		--base tinyconfig --options DEBUG_A --runner "$FAKE_RUNNER" --workload boot \
		--runs 6 --seed 3 --no-baseline-again --dir patch >patch.txt 2>patch.err &&
	cat patch.err patch.txt &&
	sed -n "/^6.1+kbuild-b against 6.1 (the patch kbuild-b.patch, config for config): boot time/,/^workload:/p" \
		patch.txt >twin.txt &&
	grep "^baseline " twin.txt >tb &&
	sed "s/.*\\[\\([-+0-9.]*\\)% \\.\\. \\([-+0-9.]*\\)%\\].*/\\1 \\2/" tb |
	awk "{ exit !(\$1 + 0 <= 5 && 5 <= \$2 + 0) }" &&
	base=$(q patch "SELECT b.key FROM build b JOIN variant v ON v.config_hash = b.config_hash
		WHERE v.name = \"6.1:baseline\"") &&
	seed=$(q patch "SELECT b.seeded_from FROM build b JOIN variant v
		ON v.config_hash = b.config_hash WHERE v.name = \"6.1+kbuild-b:baseline\"") &&
	test -n "$base" && test "$seed" = "$base" &&
	test_grep "^  baseline  *[0-9.]* s (seeded from the unpatched tree), unpatched [0-9.]* s$" patch.txt
'

test_done
