#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t0200: every input a user names is read up to its size cap and no
# further: /dev/zero, a FIFO with a writer that never stops, a pipe on
# stdin and a huge file each fail at once with "NAME: larger than CAP".
# Every command runs under timeout, so a regression that reads on fails
# the test instead of hanging it.
. "$(dirname "$0")/lib.sh"

HF=$DATA/example-hyperfine-1.15-export.json

# capped NAME CAP CMD...: CMD exits 1 (not 124, a timeout) within 5 s,
# saying "NAME: larger than CAP".
capped() {
	_name=$1 _cap=$2
	shift 2
	timeout 5 "$@" >out 2>err
	_rc=$?
	if [ "$_rc" != 1 ]; then
		echo "exit $_rc (124 is a timeout) from: $*"
		cat err
		return 1
	fi
	test_grep "^kconfperf: error: $_name: larger than $_cap\$" err
}

# endless FIFO: makes FIFO with a writer of zeros that stops only when its
# reader goes away (or after 20 s); `wait` collects it.
endless() {
	rm -f "$1" && mkfifo "$1" &&
	{ timeout 20 cat /dev/zero >"$1" 2>/dev/null & }
}

test_expect_success 'setup' '
	printf "CONFIG_A=y\n" >a.config &&
	truncate -s 17M huge.config &&
	mkdir -p tree/scripts/kconfig tree/arch/x86 &&
	touch tree/Makefile tree/Kconfig tree/scripts/kconfig/Makefile tree/arch/x86/Kconfig
'

test_expect_success 'config check: /dev/zero, an endless FIFO, a huge file' '
	capped /dev/zero "16 MiB" kconfperf config check /dev/zero &&
	endless fifo && capped fifo "16 MiB" kconfperf config check fifo && wait &&
	capped huge.config "16 MiB" kconfperf config check huge.config
'

test_expect_success 'config check --options, too' '
	capped /dev/zero "16 MiB" kconfperf config check --options /dev/zero &&
	endless fifo && capped fifo "16 MiB" kconfperf config check --options fifo && wait
'

test_expect_success 'config diff: either side' '
	capped /dev/zero "16 MiB" kconfperf config diff /dev/zero a.config &&
	capped /dev/zero "16 MiB" kconfperf config diff a.config /dev/zero &&
	endless fifo && capped fifo "16 MiB" kconfperf config diff a.config fifo && wait
'

test_expect_success 'config merge: the base or a fragment' '
	capped /dev/zero "16 MiB" kconfperf config merge /dev/zero a.config &&
	capped /dev/zero "16 MiB" kconfperf config merge a.config a.config /dev/zero &&
	endless fifo && capped fifo "16 MiB" kconfperf config merge a.config fifo && wait
'

test_expect_success 'plan and sweep --options-from-diff: either file' '
	capped /dev/zero "16 MiB" kconfperf plan --cache cache --source tree --base tinyconfig \
		--options-from-diff /dev/zero a.config --dir exp -q &&
	endless fifo &&
	capped fifo "16 MiB" kconfperf sweep --cache cache --source tree --base tinyconfig \
		--options-from-diff a.config fifo --workload boot --dir exp2 -q &&
	wait
'

test_expect_success 'import hyperfine: /dev/zero and an endless FIFO, nothing imported' '
	capped /dev/zero "64 MiB" kconfperf import hyperfine /dev/zero --dir imp &&
	endless fifo && capped fifo "64 MiB" kconfperf import hyperfine "$HF" fifo --dir imp &&
	wait &&
	! test -e imp
'

test_expect_success 'workloads --check-output: a file, a FIFO, a pipe on stdin' '
	capped /dev/zero "64 MiB" kconfperf workloads --check-output /dev/zero &&
	endless fifo && capped fifo "64 MiB" kconfperf workloads --check-output fifo && wait &&
	{ timeout 20 cat /dev/zero 2>/dev/null | capped "<stdin>" "64 MiB" \
		kconfperf workloads --check-output -; }
'

test_expect_success 'the Kconfig files of --source are capped too' '
	cp -r tree tree2 && rm tree2/Kconfig && ln -s /dev/zero tree2/Kconfig &&
	capped tree2/Kconfig "16 MiB" kconfperf explain --source tree2 --config a.config A
'

test_expect_success 'input under the cap still reads through a FIFO' '
	rm -f fifo && mkfifo fifo &&
	{ printf "CONFIG_B=m\n" >fifo & } &&
	timeout 10 kconfperf config diff a.config fifo >out &&
	wait &&
	printf "%s\n" "-A y" "+B m" >expect &&
	test_cmp expect out
'

test_done
