#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""qmp-icount.py: qemu's own instruction count at the end of a run, for the meter's test.

usage: qmp-icount.py SOCKET COMMAND-FILE

Runs the qemu command in COMMAND-FILE (a shell command line, as kconfperf
run --print-command writes it) with a QMP socket and -no-shutdown, so when the guest
powers off qemu stops instead of exiting; then asks QMP's query-replay for
the instruction count (under -icount it is the live count) and quits qemu,
which lets plugins write their counts.  Prints the count.
"""
import json
import socket
import subprocess
import sys
import time


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sock = sys.argv[1]
    with open(sys.argv[2]) as f:
        line = f.read().strip()
    cmd = ["sh", "-c", "exec %s -no-shutdown -qmp unix:%s,server=on,wait=off" % (line, sock)]
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
    s = socket.socket(socket.AF_UNIX)
    for _ in range(600):
        try:
            s.connect(sock)
            break
        except OSError:
            if qemu.poll() is not None:
                sys.exit("qemu exited with %d before its QMP socket was up" % qemu.returncode)
            time.sleep(0.1)
    f = s.makefile("rw")

    def read():
        line = f.readline()
        if not line:
            sys.exit("qemu closed its QMP socket")
        return json.loads(line)

    def execute(name):
        f.write(json.dumps({"execute": name}) + "\n")
        f.flush()
        while True:
            r = read()
            if "return" in r or "error" in r:
                return r

    read()  # the greeting
    execute("qmp_capabilities")
    # wait for the guest to power off (qemu stops: -no-shutdown)
    s.settimeout(600)
    while True:
        r = execute("query-status")
        if r.get("return", {}).get("status") == "shutdown":
            break
        time.sleep(0.2)
    r = execute("query-replay")
    if "return" not in r:
        sys.exit("query-replay: %s" % r)
    execute("quit")
    qemu.wait(timeout=60)
    print(r["return"]["icount"])


main()
