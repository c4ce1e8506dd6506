#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What each variant really is: seven lock-debugging candidates resolved by 6.1's Kconfig.
# Resolves them one at a time and all together on Debian's 6.1 tinyconfig (olddefconfig
# only: seconds once the sources are in the cache) and prints the plan table: LOCKDEP is
# hidden, NO_SUCH_OPTION unknown, FAIL_PAGE_ALLOC's dependency unmet; then seed 001's
# DEBUG_PREEMPT, a no-op on tinyconfig until --base-add CONFIG_PREEMPT=y.
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-plan}
SRC=/usr/src/linux-source-6.1.tar.xz

echo "\$ kconfperf plan --source $SRC --base tinyconfig \\"
echo "    --options PROVE_LOCKING,LOCKDEP,NO_SUCH_OPTION,LOCK_STAT,DEBUG_LOCK_ALLOC,DEBUG_KMEMLEAK,FAIL_PAGE_ALLOC \\"
echo "    --design oat,all --no-baseline-again"
"$K" plan --source "$SRC" --base tinyconfig \
	--options PROVE_LOCKING,LOCKDEP,NO_SUCH_OPTION,LOCK_STAT,DEBUG_LOCK_ALLOC,DEBUG_KMEMLEAK,FAIL_PAGE_ALLOC \
	--design oat,all --no-baseline-again --dir "$D/locks" -q
echo
echo "\$ kconfperf plan --source $SRC --base tinyconfig --options DEBUG_PREEMPT"
"$K" plan --source "$SRC" --base tinyconfig --options DEBUG_PREEMPT --no-baseline-again \
	--dir "$D/preempt" -q | grep DEBUG_PREEMPT
echo
echo "\$ kconfperf plan --source $SRC --base tinyconfig --base-add CONFIG_PREEMPT=y --options DEBUG_PREEMPT"
"$K" plan --source "$SRC" --base tinyconfig --base-add CONFIG_PREEMPT=y --options DEBUG_PREEMPT \
	--no-baseline-again --dir "$D/preempt-on" -q | grep DEBUG_PREEMPT
