#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Named groups and the cumulative design: an options file whose group is one candidate.
# Plans PRINTK_TIME and the group lockdebug (PROVE_LOCKING and LOCKDEP) one at a time and one
# after another on Debian's 6.1 tinyconfig and prints the plan table (olddefconfig only).
# KCP_CACHE, when set, is the build cache (--cache).
set -eu
K=${KCONFPERF:-kconfperf}
D=${RECIPE_DIR:-recipe-groups}
mkdir -p "$D"
cat >"$D/options.txt" <<'OPTIONS'
# options.txt: each candidate is one variant of the oat design
CONFIG_PRINTK_TIME=y
group lockdebug             # these together, as one variant named lockdebug
	CONFIG_PROVE_LOCKING=y
	LOCKDEP
endgroup
OPTIONS
cat "$D/options.txt"
echo
"$K" plan ${KCP_CACHE:+--cache "$KCP_CACHE"} --source /usr/src/linux-source-6.1.tar.xz --base tinyconfig --options "$D/options.txt" \
	--design oat,cumulative --dir "$D/exp" -q
