# SPDX-License-Identifier: GPL-3.0-or-later
# tests/t/lib-sshd.sh: a real OpenSSH sshd of a test's own on 127.0.0.1,
# sourced after lib.sh.  sshd_start writes into $SSHD ($TRASH/sshd) a host
# key, a client key, authorized_keys, an sshd_config (ListenAddress
# 127.0.0.1, a free high port, its PidFile and log there, no PAM, public
# keys only) and a client config, $SSHD/ssh_config, whose hosts kcp-a and
# kcp-b both name that sshd (`ssh -F "$SSHD/ssh_config" kcp-a CMD`;
# known_hosts in $SSHD, the new host key accepted), then runs
# `/usr/sbin/sshd -f $SSHD/sshd_config -D -e` in the background with its log
# in $SSHD/sshd.log.  sshd_stop stops it (also at exit).  Neither the
# system's ssh configuration nor its sshd service is read or touched.
#
# /run/sshd: sshd running as root insists on its privilege-separation
# directory, a path built into it (no option or -o changes it; `sshd -t`
# says "Missing privilege separation directory: /run/sshd").  The
# openssh-server package makes it when its service starts, so on a machine
# whose sshd never ran (a container: apt's policy-rc.d forbids starting
# it) it is absent.  Then sshd runs in a mount namespace of its own
# (unshare -m, private propagation) where an empty tmpfs covers /run and
# holds /run/sshd: the host's /run is neither written nor hidden from
# anything but this sshd and its sessions, and the namespace goes when
# they do.  Where unshare may not mount (no CAP_SYS_ADMIN), /run/sshd is
# made (0755, as the package makes it) and removed by sshd_stop, only
# when this library made it.  A non-root sshd needs no such directory.
#
# A test skips only where sshd is not installed; one that will not start
# is a failure:
#	if sshd_installed; then
#		sshd_start; sshd_rc=$?	# here, not in a test's subshell: it sets SSHD_PID
#		test_expect_success '...' 'sshd_ok && ...'
#	else
#		test_skip 'what' "$(cat "$SSHD/why")"
#	fi
SSHD=$TRASH/sshd

# sshd_installed: whether sshd, ssh and ssh-keygen are, else 1 with why.
sshd_installed() {
	[ -x /usr/sbin/sshd ] && command -v ssh >/dev/null && command -v ssh-keygen >/dev/null ||
		{ echo "no sshd or ssh (scripts/deps installs openssh-server, openssh-client)" >"$SSHD/why"; return 1; }
}

# sshd_ok: in a test, whether sshd_start succeeded (sshd_rc 0), else says why.
sshd_ok() {
	[ "${sshd_rc:-1}" = 0 ] || { echo "the test's sshd did not start: $(cat "$SSHD/why")"; return 1; }
}

# sshd_start: 0 when the sshd answers, else 1 with the reason in $SSHD/why.
sshd_start() {
	ssh-keygen -q -t ed25519 -N '' -C kcp-test-host -f "$SSHD/host_key" &&
	ssh-keygen -q -t ed25519 -N '' -C kcp-test-client -f "$SSHD/client_key" &&
	cp "$SSHD/client_key.pub" "$SSHD/authorized_keys" || return 1
	_run=
	if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
		if unshare -m true 2>/dev/null; then
			_run=unshare
		elif mkdir -m 0755 /run/sshd; then
			: >"$SSHD/made-run-sshd"
		else
			echo "no /run/sshd, no mount namespace to make one in, and mkdir failed" >"$SSHD/why"
			return 1
		fi
	fi
	# a port from the test's pid, clear of lib-slurm.sh's 20000-27999; the
	# next if sshd cannot bind it
	_port=$((30000 + ($$ % 5000) * 4))
	for _try in 1 2 3 4 5; do
		_port=$((_port + 1))
		sshd_config "$_port" || return 1
		if [ "$_run" = unshare ]; then
			unshare -m sh -c 'mount -t tmpfs -o mode=0755 kcp-sshd /run &&
				mkdir -m 0755 /run/sshd &&
				exec /usr/sbin/sshd -f "$1" -D -e' sh "$SSHD/sshd_config" \
				2>"$SSHD/sshd.log" &
		else
			/usr/sbin/sshd -f "$SSHD/sshd_config" -D -e 2>"$SSHD/sshd.log" &
		fi
		SSHD_PID=$!
		_i=0
		while ! grep -q "^Server listening on 127.0.0.1 port $_port" "$SSHD/sshd.log"; do
			if ! sshd_alive; then
				SSHD_PID=
				break
			fi
			_i=$((_i + 1))
			[ $_i -lt 100 ] || { echo "sshd not listening after 10 s: $(tail -n 2 "$SSHD/sshd.log")" >"$SSHD/why"; return 1; }
			sleep 0.1
		done
		[ -n "$SSHD_PID" ] && break
		grep -q "Cannot bind any address\|Address already in use" "$SSHD/sshd.log" ||
			{ echo "sshd did not start: $(tail -n 2 "$SSHD/sshd.log")" >"$SSHD/why"; return 1; }
	done
	[ -n "$SSHD_PID" ] || { echo "sshd found no free port near $_port" >"$SSHD/why"; return 1; }
	ssh -F "$SSHD/ssh_config" kcp-a true 2>"$SSHD/why" ||
		{ echo "ssh to the test's sshd failed: $(tail -n 2 "$SSHD/why")" >"$SSHD/why"; return 1; }
}

# sshd_config PORT: the server's and the client's configuration files.
sshd_config() {
	cat >"$SSHD/sshd_config" <<-EOC &&
	ListenAddress 127.0.0.1
	Port $1
	HostKey $SSHD/host_key
	AuthorizedKeysFile $SSHD/authorized_keys
	PidFile $SSHD/sshd.pid
	UsePAM no
	StrictModes no
	PermitRootLogin prohibit-password
	PubkeyAuthentication yes
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	X11Forwarding no
	PrintMotd no
	LogLevel VERBOSE
	EOC
	cat >"$SSHD/ssh_config" <<-EOC
	Host kcp-a kcp-b
		HostName 127.0.0.1
		Port $1
		User $(id -un)
		IdentityFile $SSHD/client_key
		IdentitiesOnly yes
		UserKnownHostsFile $SSHD/known_hosts
		GlobalKnownHostsFile /dev/null
		StrictHostKeyChecking accept-new
		BatchMode yes
		LogLevel ERROR
	EOC
}

# sshd_alive: whether $SSHD_PID runs (a zombie not yet reaped does not).
sshd_alive() {
	[ -e "/proc/$SSHD_PID" ] && [ "$(cut -d' ' -f3 "/proc/$SSHD_PID/stat" 2>/dev/null)" != Z ]
}

# sshd_stop: the sshd this test started, waiting for it to go; /run/sshd
# removed if sshd_start made it.  Idempotent.
sshd_stop() {
	if [ -n "${SSHD_PID:-}" ]; then
		kill "$SSHD_PID" 2>/dev/null
		_i=0
		while sshd_alive; do
			_i=$((_i + 1))
			[ $_i -lt 100 ] || { kill -9 "$SSHD_PID" 2>/dev/null; break; }
			sleep 0.1
		done
		wait "$SSHD_PID" 2>/dev/null
		SSHD_PID=
	fi
	if [ -e "$SSHD/made-run-sshd" ]; then
		rmdir /run/sshd 2>/dev/null
		rm -f "$SSHD/made-run-sshd"
	fi
	return 0
}

mkdir -p "$SSHD"
SSHD_PID=
trap sshd_stop EXIT
