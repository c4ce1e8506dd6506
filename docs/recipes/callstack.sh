#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Call stacks: what a shadow stack beside the meter costs in qemu's CPU time (docs/meter.md).
# bench/callstack runs 6 interleaved pairs per workload on the 6.1 tinyconfig baseline
# (KCP_CACHE: the build cache that holds it): the meter alone against the meter with
# bench/callstack-probe.c, a plugin keeping an x86 shadow stack, loaded beside it.
set -eu
KCONFPERF=${KCONFPERF:-kconfperf} nice -n 19 bench/callstack 6
