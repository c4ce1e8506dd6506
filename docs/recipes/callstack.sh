#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Call stacks: what a shadow stack beside the meter costs in qemu's CPU time (docs/meter.md).
# bench/callstack runs 6 interleaved pairs per workload on the 6.1 tinyconfig baseline
# (KCP_CACHE: the build cache that holds it), each with a run without the meter: the meter
# alone against the meter with bench/callstack-probe.c, a plugin keeping an x86 shadow stack;
# then with the probe's returns unchecked (check=off: no callback where they land); then
# with only the probe's own running count (stack=off: its inline add per instruction).
set -eu
export KCONFPERF="${KCONFPERF:-kconfperf}"
echo "the probe as built: a callback on each call and each ret, returns checked where they land"
nice -n 19 bench/callstack 6
echo
echo "check=off: a callback on each call and each ret only"
PROBE_ARGS=check=off nice -n 19 bench/callstack 6
echo
echo "stack=off: the probe's running count only (an inline add per instruction, no callbacks)"
PROBE_ARGS=stack=off nice -n 19 bench/callstack 6
