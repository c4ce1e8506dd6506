#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# t4200: `kconfperf initramfs` writes a gzip'd newc archive that gzip and cpio read back.
. "$(dirname "$0")/lib.sh"

command -v cpio >/dev/null || test_skip_all "cpio is not installed (scripts/deps installs it)"

printf '#!/bin/sh\necho guest\n' >guest
chmod 755 guest
printf 'payload\n' >payload
chmod 640 payload
head -c 100000 /dev/urandom >blob

test_expect_success 'the archive lists the base layout, /init and extras in order' '
	kconfperf initramfs -o out.gz --guest guest --add payload:etc/kcp/payload \
		--add blob:blob &&
	gzip -dc out.gz | cpio -t --quiet >list &&
	cat >expect <<-EOF &&
	dev
	dev/console
	proc
	sys
	tmp
	init
	etc
	etc/kcp
	etc/kcp/payload
	blob
	EOF
	test_cmp expect list
'

test_expect_success 'owners, mtimes, modes and the console device are fixed' '
	gzip -dc out.gz | cpio -tv --quiet >long &&
	test_grep "^crw-------  *1 root  *root  *5, *1 Jan  1  1970 dev/console$" long &&
	test_grep "^drwxrwxrwt .* tmp$" long &&
	test_grep "^-rwxr-xr-x  *1 root  *root  *[0-9]* Jan  1  1970 init$" long &&
	test_grep "^-rw-r-----  *1 root  *root  *8 Jan  1  1970 etc/kcp/payload$" long &&
	! grep -v " Jan  1  1970 " long
'

test_expect_success 'cpio -i extracts the same bytes' '
	mkdir x &&
	if [ "$(id -u)" = 0 ]; then
		(cd x && gzip -dc ../out.gz | cpio -id --quiet)
	else
		(cd x && gzip -dc ../out.gz | cpio -id --quiet --nonmatching dev/console)
	fi &&
	cmp guest x/init &&
	cmp payload x/etc/kcp/payload &&
	cmp blob x/blob &&
	test -d x/proc && test -d x/sys && test -d x/tmp &&
	if [ "$(id -u)" = 0 ]; then test -c x/dev/console; fi
'

test_expect_success 'the same arguments give the same bytes' '
	kconfperf initramfs -o again.gz --guest guest --add payload:etc/kcp/payload \
		--add blob:blob &&
	cmp out.gz again.gz
'

test_expect_success 'the gzip header has mtime 0 and no file name' '
	od -A n -t x1 -N 8 out.gz | tr -d " \n" >hdr &&
	echo 1f8b080000000000 >expect-hdr &&
	printf "\n" >>hdr &&
	test_cmp expect-hdr hdr
'

# Without --guest there used to be no /init: the kernel then panics
# "unable to mount root fs".  Like run, it takes the guest beside kconfperf.
test_expect_success 'without --guest the guest beside kconfperf (or KCP_GUEST) is /init' '
	kconfperf initramfs -o beside.gz &&
	gzip -dc beside.gz | cpio -t --quiet >list &&
	test_grep "^init$" list &&
	KCP_GUEST=$TRASH/guest kconfperf initramfs -o env.gz &&
	kconfperf initramfs -o flag.gz --guest guest &&
	cmp env.gz flag.gz &&
	{ KCP_GUEST=$TRASH/no-such-guest kconfperf initramfs -o none.gz 2>err; rc=$?; } &&
	test "$rc" = 1 &&
	test_grep "cannot read the guest program .*no-such-guest" err &&
	test ! -e none.gz
'

test_expect_failure_code 2 'a missing -o is a usage error' '
	kconfperf initramfs --guest guest
'

# The guest's bytes reach every guest time (the initramfs is in guest
# memory), so a checkout elsewhere, as CI's, must build the same guest.
test_expect_success 'the guest is the same bytes in any checkout' '
	for d in co1 deeper/path/to/co2; do
		mkdir -p "$d" && cp -R "$SRC_DIR/Makefile" "$SRC_DIR/guest" "$SRC_DIR/src" "$d"/ &&
		make -s -C "$d" build/kcp-guest >"$d.log" 2>&1 || { cat "$d.log"; exit 1; }
	done &&
	cmp co1/build/kcp-guest deeper/path/to/co2/build/kcp-guest &&
	! grep -q "$(pwd)" co1/build/kcp-guest
'

test_expect_success 'a missing guest is an error and writes nothing' '
	! kconfperf initramfs -o none.gz --guest no-such-file 2>err &&
	test_grep "cannot read the guest program .no-such-file." err &&
	! test -e none.gz &&
	test -z "$(ls | grep "none.gz")"
'

test_expect_success 'a bad --add is an error' '
	! kconfperf initramfs -o none.gz --add payload 2>err &&
	test_grep "expects SRC:DEST" err &&
	! kconfperf initramfs -o none.gz --add payload:init --add guest:init 2>err &&
	test_grep "added twice" err &&
	! kconfperf initramfs -o none.gz --add payload:../x 2>err &&
	test_grep "bad path" err &&
	! test -e none.gz
'

test_done
