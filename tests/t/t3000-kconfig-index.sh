#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t3000: the Kconfig index on the real 6.1 tree: explain and --with-deps
# against a resolved tinyconfig-based .config (tests/fixtures/kconfig-index).
# Uses $KCP_TEST_KSRC when it names an extracted tree, else extracts only
# the Kconfig files of /usr/src/linux-source-6.1.tar.xz (~10-25 s).
. "$(dirname "$0")/lib.sh"

TARBALL=${KCP_TEST_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CONFIG=$FIXTURES/kconfig-index/tiny-6.1.config

if [ -n "${KCP_TEST_KSRC:-}" ] && [ -f "$KCP_TEST_KSRC/Kconfig" ]; then
	KSRC=$KCP_TEST_KSRC
elif [ -r "$TARBALL" ]; then
	KSRC=$TRASH/linux-source-6.1
	# The archive has 55 xz blocks: xz -T0 decompresses them in parallel.
	xz -dc -T0 "$TARBALL" | tar -x --wildcards 'linux-source-6.1/*Kconfig*' ||
		test_skip_all "cannot extract $TARBALL"
else
	test_skip_all "no $TARBALL and no KCP_TEST_KSRC"
fi

explain() {
	kconfperf explain --source "$KSRC" --config "$CONFIG" "$@"
}

test_expect_success 'the whole x86 tree is read in well under a second' '
	explain -v MODULES >out 2>err &&
	sed -n "s/.*read \([0-9]*\) Kconfig files, \([0-9]*\) symbols, in \([0-9]*\) ms/\1 \2 \3/p" err >stats &&
	read files symbols ms <stats &&
	echo "files=$files symbols=$symbols ms=$ms" &&
	[ "$files" -gt 1400 ] && [ "$symbols" -gt 15000 ] && [ "$ms" -lt 1000 ]
'

test_expect_success 'LOCKDEP is hidden and names every symbol that selects it' '
	explain LOCKDEP >out &&
	echo "LOCKDEP: hidden: has no prompt, so only select or its default can set it; selected by PROVE_LOCKING, LOCK_STAT, DEBUG_LOCK_ALLOC" >expect &&
	test_cmp expect out
'

test_expect_success 'a hidden symbol cannot be enabled through its dependencies' '
	explain --with-deps LOCKDEP >out &&
	test_grep "^LOCKDEP: deps: cannot: LOCKDEP has no prompt (selected by PROVE_LOCKING, LOCK_STAT, DEBUG_LOCK_ALLOC)$" out
'

test_expect_success 'an unknown symbol is unknown, with or without CONFIG_' '
	explain NO_SUCH_OPTION CONFIG_NO_SUCH_OPTION >out &&
	cat >expect <<-\EOF &&
	NO_SUCH_OPTION: unknown: no Kconfig file defines it for SRCARCH=x86
	NO_SUCH_OPTION: unknown: no Kconfig file defines it for SRCARCH=x86
	EOF
	test_cmp expect out
'

test_expect_success 'a symbol of another architecture is unknown for x86' '
	explain ARM64_4K_PAGES >out &&
	test_grep "^ARM64_4K_PAGES: unknown:" out
'

test_expect_success 'PROVE_LOCKING is settable: DEBUG_KERNEL and LOCK_DEBUGGING_SUPPORT are y' '
	grep -x "CONFIG_DEBUG_KERNEL=y" "$CONFIG" &&
	grep -x "CONFIG_LOCK_DEBUGGING_SUPPORT=y" "$CONFIG" &&
	explain --with-deps PROVE_LOCKING >out &&
	cat >expect <<-\EOF &&
	PROVE_LOCKING: settable: has a visible prompt and its dependencies are met (lib/Kconfig.debug:1251)
	PROVE_LOCKING: deps: none needed
	EOF
	test_cmp expect out
'

test_expect_success 'without DEBUG_KERNEL, PROVE_LOCKING has unmet dependencies' '
	sed "s/^CONFIG_DEBUG_KERNEL=y$/# CONFIG_DEBUG_KERNEL is not set/" "$CONFIG" >nodebug.config &&
	kconfperf explain --source "$KSRC" --config nodebug.config --with-deps PROVE_LOCKING >out &&
	cat >expect <<-\EOF &&
	PROVE_LOCKING: unmet-deps: depends on DEBUG_KERNEL && LOCK_DEBUGGING_SUPPORT: DEBUG_KERNEL=n (lib/Kconfig.debug:1251)
	PROVE_LOCKING: deps: DEBUG_KERNEL
	EOF
	test_cmp expect out
'

test_expect_success 'DEBUG_KMEMLEAK_AUTO_SCAN needs DEBUG_KMEMLEAK' '
	explain --with-deps DEBUG_KMEMLEAK DEBUG_KMEMLEAK_AUTO_SCAN >out &&
	cat >expect <<-\EOF &&
	DEBUG_KMEMLEAK: settable: has a visible prompt and its dependencies are met (lib/Kconfig.debug:733)
	DEBUG_KMEMLEAK: deps: none needed
	DEBUG_KMEMLEAK_AUTO_SCAN: unmet-deps: depends on DEBUG_KMEMLEAK: DEBUG_KMEMLEAK=n (lib/Kconfig.debug:786)
	DEBUG_KMEMLEAK_AUTO_SCAN: deps: DEBUG_KMEMLEAK
	EOF
	test_cmp expect out
'

test_expect_success 'FAILSLAB: the false atoms, and the first || side that can be met' '
	explain --with-deps FAILSLAB >out &&
	cat >expect <<-\EOF &&
	FAILSLAB: unmet-deps: depends on FAULT_INJECTION && (SLAB || SLUB): FAULT_INJECTION=n, SLAB=n, SLUB=n (lib/Kconfig.debug:1909)
	FAILSLAB: deps: FAULT_INJECTION SLAB
	EOF
	test_cmp expect out
'

test_expect_success 'a def_bool symbol is reached through its default' '
	explain --with-deps PROVE_RCU PROVE_RCU_LIST >out &&
	cat >expect <<-\EOF &&
	PROVE_RCU: hidden: has no prompt, so only select or its default can set it; defaults: PROVE_LOCKING; nothing selects it
	PROVE_RCU: deps: PROVE_LOCKING
	PROVE_RCU_LIST: unmet-deps: depends on PROVE_RCU && RCU_EXPERT: PROVE_RCU=n, RCU_EXPERT=n (kernel/rcu/Kconfig.debug:11)
	PROVE_RCU_LIST: deps: PROVE_LOCKING RCU_EXPERT
	EOF
	test_cmp expect out
'

test_expect_success 'choice members, and $(ARCH) in a prompt condition' '
	explain SLUB 64BIT >out &&
	cat >expect <<-\EOF &&
	SLUB: choice: member of choice '"'"'Choose SLAB allocator'"'"' (mm/Kconfig:209) with SLAB, SLOB: setting it deselects the others
	64BIT: settable: has a visible prompt and its dependencies are met (arch/x86/Kconfig:3)
	EOF
	test_cmp expect out
'

test_expect_success 'enclosing if blocks are named in the explanation' '
	explain --with-deps E1000 >out &&
	cat >expect <<-\EOF &&
	E1000: unmet-deps: inside '"'"'if NETDEVICES'"'"': NETDEVICES=n (drivers/net/Kconfig:27); inside '"'"'if ETHERNET'"'"': ETHERNET=n (drivers/net/ethernet/Kconfig:13); inside '"'"'if NET_VENDOR_INTEL'"'"': NET_VENDOR_INTEL=n (drivers/net/ethernet/intel/Kconfig:17)
	E1000: deps: NETDEVICES ETHERNET NET_VENDOR_INTEL
	EOF
	test_cmp expect out
'

# Kconfig writes a symbol to .config exactly when its dependencies (or a
# select) allow it: the index must agree on every symbol of the tree.
test_expect_success 'the index agrees with olddefconfig on every symbol' '
	find "$KSRC" -name "Kconfig*" -exec cat {} + |
		sed -n "s/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\2/p" |
		sort -u >symbols &&
	[ "$(wc -l <symbols)" -gt 15000 ] &&
	explain $(cat symbols) >all &&
	[ "$(wc -l <all)" = "$(wc -l <symbols)" ] &&
	sed -n "s/^CONFIG_\([A-Za-z0-9_]*\)=y$/\1/p" "$CONFIG" | sort >set &&
	sed -n -e "s/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p" \
		-e "s/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1/p" "$CONFIG" | sort >written &&
	grep ": unmet-deps: " all | cut -d: -f1 | sort >unmet &&
	grep -E ": (unknown|unmet-deps): " all | cut -d: -f1 | sort >cannot &&
	comm -12 set cannot >bad-set &&
	comm -12 written unmet >bad-written &&
	test_cmp /dev/null bad-set &&
	test_cmp /dev/null bad-written &&
	[ "$(wc -l <unmet)" -gt 10000 ]
'

test_expect_failure_code 2 'explain without --source is a usage error' '
	kconfperf explain --config "$CONFIG" LOCKDEP
'

test_expect_success 'an unreadable tree is an error naming the file' '
	mkdir empty &&
	! kconfperf explain --source empty --config "$CONFIG" LOCKDEP 2>err &&
	test_grep "cannot open .*empty/Kconfig" err
'

test_done
