/* cmd.c: the cmd workload: a program of the host, run inside the guest on the host's root file system. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "guest.h"

/*
 * As init, the guest mounts the host's root (virtio-9p, read-only) on
 * HOST_ROOT and, over it, what programs expect to find and to write to:
 * proc, sysfs, devtmpfs (with /dev/shm and /dev/pts), and tmpfs on /tmp,
 * /run, /var/tmp and /mnt.  Scratch disks are prepared there with the
 * host's own tools (lvm, cryptsetup, mkfs.ext4), untimed.  Then the
 * program runs chrooted into HOST_ROOT, in /tmp, with a fixed environment,
 * stdin from /dev/null and stdout and stderr into a file on a tmpfs of the
 * guest's own (outside its view); its time is the guest clock's from fork
 * to its end.  The last OUTPUT_KEEP bytes of the output go to ttyS2 once
 * it has ended, where the host reads them (and extracts the numbers asked
 * for): so the measurement shares the CPU with nothing but the program.
 *
 * With --host, for tests without a virtual machine, the program runs on
 * the host as it is (no chroot, no disks), and the output goes to the file
 * $KCP_OUTPUT (stderr when that is unset).
 */

#define HOST_ROOT "/host"
#define OUTPUT_DIR "/kcp-output"
#define OUTPUT_TTY "/dev/ttyS2"
/* A program that prints more gets ENOSPC: the guest must not run out of memory. */
#define OUTPUT_TMPFS_SIZE "size=64m"
#define OUTPUT_KEEP ((off_t)64 << 10)
#define TEST_KEY_FILE "/run/kcp/test-key"
#define SCRATCH_MAX 8

static const char *const program_env[] = {
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"HOME=/tmp",
	"TMPDIR=/tmp",
	"TERM=dumb",
	"LANG=C",
	"LC_ALL=C",
	"USER=root",
	"LOGNAME=root",
	"SHELL=/bin/sh",
	NULL,
};

static int as_init(void)
{
	return guest_is_init();
}

/* The path inside the guest of a path in the host's view. */
static void host_path(char *out, size_t size, const char *path)
{
	snprintf(out, size, "%s%s", as_init() ? HOST_ROOT : "", path);
}

static int mount_at(const char *type, const char *src, const char *dir, unsigned long flags,
		    const char *data, int required)
{
	char path[256];

	host_path(path, sizeof(path), dir);
	if (mount(src, path, type, flags, data) == 0 || !required)
		return 0;
	return guest_error_errno("cmd: cannot mount %s on %s", type, dir);
}

static int mount_host_root(void)
{
	mkdir(HOST_ROOT, 0755);
	if (mount(WORKLOAD_HOST_ROOT_TAG, HOST_ROOT, "9p", MS_RDONLY,
		  "trans=virtio,version=9p2000.L,cache=loose,msize=262144")) {
		int err = errno;

		errno = err;
		return guest_error_errno("cmd: cannot mount the host's root file system "
					 "(virtio-9p tag '%s'; the kernel needs the harness "
					 "profile 9p)", WORKLOAD_HOST_ROOT_TAG);
	}
	/* what programs read, and where they may write */
	if (mount_at("proc", "proc", "/proc", 0, NULL, 1) ||
	    mount_at("sysfs", "sysfs", "/sys", 0, NULL, 1) ||
	    mount_at("devtmpfs", "devtmpfs", "/dev", 0, NULL, 1) ||
	    mount_at("tmpfs", "tmpfs", "/tmp", 0, "mode=1777", 1) ||
	    mount_at("tmpfs", "tmpfs", "/run", 0, "mode=0755", 1))
		return -1;
	/* devtmpfs is shared: its shm and pts directories may be there already */
	mkdir(HOST_ROOT "/dev/shm", 01777);
	mkdir(HOST_ROOT "/dev/pts", 0755);
	mount_at("tmpfs", "tmpfs", "/dev/shm", 0, "mode=1777", 0);
	mount_at("devpts", "devpts", "/dev/pts", 0, NULL, 0);
	mount_at("tmpfs", "tmpfs", "/var/tmp", 0, "mode=1777", 0);
	mount_at("tmpfs", "tmpfs", "/mnt", 0, "mode=0755", 0);
	mkdir(HOST_ROOT "/run/lock", 01777);
	mkdir(HOST_ROOT "/run/lock/lvm", 0700);
	mkdir(HOST_ROOT "/run/kcp", 0700);
	return 0;
}

/* Copies a command line into buf and points argv at its blank-separated words. */
static int split_words(char *buf, char **argv, int max)
{
	int n = 0;
	char *s = buf;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s)
			break;
		if (n == max - 1)
			return -1;
		argv[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	argv[n] = NULL;
	return n;
}

/* In the child: into the host's view, stdio set up, then exec; never returns. */
static void __attribute__((__noreturn__)) exec_in_host(const char *const argv[], int in, int out,
						       int errfd)
{
	int err;

	if (in >= 0)
		dup2(in, 0);
	if (out >= 0) {
		dup2(out, 1);
		dup2(out, 2);
	}
	if (as_init())
		setsid();	/* with --host it stays in the runner's group, which a timeout kills */
	if (as_init() && (chroot(HOST_ROOT) || chdir("/tmp"))) {
		err = errno;
		goto fail;
	}
	if (!as_init() && chdir(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp")) {
		err = errno;
		goto fail;
	}
	signal(SIGPIPE, SIG_DFL);
	/* execvpe() looks in the caller's PATH, and init has none: make it the program's */
	environ = (char **)program_env;
	execvp(argv[0], (char *const *)argv);
	err = errno;
fail:
	(void)!write(errfd, &err, sizeof(err));
	_exit(127);
}

/*
 * Runs argv in the host's view with stdin from /dev/null and output to
 * out_fd (-1: inherit).  Returns the wait status, or -1 with *err the errno
 * of a failed start (errno set too).  *seconds gets its guest time.
 */
static int run_program(const char *const argv[], int out_fd, double *seconds)
{
	int errpipe[2], child_errno = 0, status, in;
	char devnull[64];
	double start;
	ssize_t n;
	pid_t pid;

	host_path(devnull, sizeof(devnull), "/dev/null");
	in = open(devnull, O_RDONLY | O_CLOEXEC);
	if (pipe2(errpipe, O_CLOEXEC))
		return -1;
	/* only the measured program is an iteration: not the scratch disks' tools */
	if (seconds)
		kcp_meter_begin();
	start = now();
	pid = fork();
	if (pid < 0) {
		close(errpipe[0]);
		close(errpipe[1]);
		if (in >= 0)
			close(in);
		return -1;
	}
	if (!pid) {
		close(errpipe[0]);
		exec_in_host(argv, in, out_fd, errpipe[1]);
	}
	close(errpipe[1]);
	if (in >= 0)
		close(in);
	do
		n = read(errpipe[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(errpipe[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (seconds) {
		*seconds = now() - start;
		kcp_meter_end();
	}
	if (n == sizeof(child_errno)) {
		errno = child_errno;
		return -2;
	}
	return status;
}

static void describe(char *buf, size_t size, int status)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
}

/* A preparation step: argv (a host tool) must run and exit 0. */
static int tool(const char *disk, const char *const argv[])
{
	char why[128], line[512] = "";
	size_t i, used = 0;
	int status;

	for (i = 0; argv[i] && used + 2 < sizeof(line); i++) {
		snprintf(line + used, sizeof(line) - used, "%s%s", i ? " " : "", argv[i]);
		used = strlen(line);
	}
	dprintf(2, "kcp-guest: %s: %s\n", disk, line);
	status = run_program(argv, -1, NULL);
	if (status == -2)
		return guest_error_errno("cmd: scratch disk %s: cannot run '%s'", disk, argv[0]);
	if (status < 0)
		return guest_error_errno("cmd: scratch disk %s: '%s'", disk, line);
	if (status) {
		describe(why, sizeof(why), status);
		return guest_error("cmd: scratch disk %s: '%s' %s (its output is on the console)",
				   disk, line, why);
	}
	return 0;
}

/* LVM without udev or a writable /etc: nodes made by lvm itself, no backups. */
#define LVM_CONFIG "devices { obtain_device_list_from_udev=0 } " \
	"activation { udev_sync=0 udev_rules=0 } backup { backup=0 archive=0 }"

static int write_test_key(void)
{
	char path[128], key[64];
	int fd, i;

	/* a fixed, public key: this is a benchmark, not a secret */
	for (i = 0; i < (int)sizeof(key); i++)
		key[i] = (char)(0x4b + i * 7);
	host_path(path, sizeof(path), TEST_KEY_FILE);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, key, sizeof(key))) {
		if (fd >= 0)
			close(fd);
		return guest_error_errno("cmd: cannot write the test key %s", TEST_KEY_FILE);
	}
	close(fd);
	return 0;
}

/*
 * Prepares scratch disk `index` (its block device is dev: /dev/vdX or
 * /dev/ramN) as layers says ("lvm,crypt,ext4": bottom up) and links
 * /dev/kcp/vdX (X from index) to its top block device; ext4 is mounted on
 * /mnt/vdX.
 */
static int prepare_disk(int index, const char *dev, const char *layers)
{
	char name[8], top[128], vg[32], lv[64], mapname[32], mnt[64], path[256];
	char list[256], node[160], *layer, *next;
	int key_written = 0;

	snprintf(name, sizeof(name), "vd%c", 'a' + index);
	snprintf(top, sizeof(top), "%s", dev);
	snprintf(list, sizeof(list), "%s", layers);
	for (layer = list; layer; layer = next) {
		next = strchr(layer, ',');
		if (next)
			*next++ = '\0';
		if (!strcmp(layer, "ram")) {
			continue;	/* where it is: dev already */
		} else if (!strcmp(layer, "lvm")) {
			snprintf(vg, sizeof(vg), "kcp_%s", name);
			snprintf(lv, sizeof(lv), "/dev/mapper/%s-lv", vg);
			if (tool(name, (const char *const[]){ "lvm", "pvcreate", "-q", "-ff", "-y",
					"--config", LVM_CONFIG, top, NULL }) ||
			    tool(name, (const char *const[]){ "lvm", "vgcreate", "-q", "--config",
					LVM_CONFIG, vg, top, NULL }) ||
			    tool(name, (const char *const[]){ "lvm", "lvcreate", "-q", "-y", "-Zn",
					"--config", LVM_CONFIG, "-l", "100%FREE", "-n", "lv",
					vg, NULL }))
				return -1;
			snprintf(top, sizeof(top), "%s", lv);
		} else if (!strcmp(layer, "crypt")) {
			if (!key_written++ && write_test_key())
				return -1;
			snprintf(mapname, sizeof(mapname), "kcp_%s_crypt", name);
			if (tool(name, (const char *const[]){ "cryptsetup", "open", "--batch-mode",
					"--type", "plain", "--cipher", "aes-xts-plain64",
					"--key-size", "512", "--key-file", TEST_KEY_FILE,
					"--disable-keyring", top, mapname, NULL }))
				return -1;
			snprintf(top, sizeof(top), "/dev/mapper/%s", mapname);
		} else if (!strcmp(layer, "ext4")) {
			/* no lazy init: no kernel thread zeroing inode tables during the run */
			if (tool(name, (const char *const[]){ "mkfs.ext4", "-q", "-F", "-E",
					"lazy_itable_init=0,lazy_journal_init=0", top, NULL }))
				return -1;
			snprintf(mnt, sizeof(mnt), "/mnt/%s", name);
			host_path(path, sizeof(path), mnt);
			if (mkdir(path, 0755) && errno != EEXIST)
				return guest_error_errno("cmd: scratch disk %s: cannot create %s",
							 name, mnt);
			host_path(node, sizeof(node), top);
			if (mount(node, path, "ext4", 0, NULL))
				return guest_error_errno("cmd: scratch disk %s: cannot mount %s "
							 "(ext4) on %s", name, top, mnt);
		} else {
			return guest_error("cmd: scratch disk %s: unknown layer '%s'", name, layer);
		}
	}
	host_path(path, sizeof(path), "/dev/kcp");
	mkdir(path, 0755);
	snprintf(mnt, sizeof(mnt), "/dev/kcp/%s", name);
	host_path(path, sizeof(path), mnt);
	if (symlink(top, path) && errno != EEXIST)
		return guest_error_errno("cmd: scratch disk %s: cannot link /dev/kcp/%s", name, name);
	return 0;
}

/* The scratch parameter: "SIZE[:LAYER,...]" per disk, separated by spaces. */
static int prepare_disks(const char *scratch)
{
	char buf[WORKLOAD_TEXT_MAX + 1], *words[SCRATCH_MAX + 1];
	int n, i, ram = 0, virtio = 0;

	snprintf(buf, sizeof(buf), "%s", scratch);
	n = split_words(buf, words, SCRATCH_MAX + 1);
	if (n < 0)
		return guest_error("cmd: more than %d scratch disks", SCRATCH_MAX);
	for (i = 0; i < n; i++) {
		const char *colon = strchr(words[i], ':');
		char dev[32];

		/* ram disks are /dev/ram0, ram1 ... in order, the others /dev/vda ... */
		if (colon && !strncmp(colon + 1, "ram", 3) && (!colon[4] || colon[4] == ','))
			snprintf(dev, sizeof(dev), "/dev/ram%d", ram++);
		else
			snprintf(dev, sizeof(dev), "/dev/vd%c", 'a' + virtio++);
		if (!colon)
			continue;	/* a raw disk: nothing to prepare */
		if (!as_init())
			return guest_error("cmd: scratch disk layers (%s) need the guest", colon + 1);
		if (prepare_disk(i, dev, colon + 1))
			return -1;
	}
	return 0;
}

/* An output file on a small tmpfs of the guest's own; returns its fd or -1. */
static int open_output(char *path, size_t size)
{
	int fd;

	if (as_init()) {
		mkdir(OUTPUT_DIR, 0700);
		if (mount("tmpfs", OUTPUT_DIR, "tmpfs", 0, OUTPUT_TMPFS_SIZE))
			return guest_error_errno("cmd: cannot mount tmpfs on " OUTPUT_DIR);
		snprintf(path, size, "%s/output", OUTPUT_DIR);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	} else {
		snprintf(path, size, "%s/kcp-output-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = mkostemp(path, O_APPEND | O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		return guest_error_errno("cmd: cannot create the output file");
	return fd;
}

static int open_output_port(void)
{
	const char *env = getenv("KCP_OUTPUT");
	struct termios t;
	int fd;

	if (!as_init())
		return env && *env ? open(env, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
				   : dup(2);
	fd = open(OUTPUT_TTY, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL;
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

/*
 * Writes the last OUTPUT_KEEP bytes of the output to the output port, and
 * its last nonblank line into last[size] for messages.
 */
static int send_output(int fd, char *last, size_t size)
{
	static char buf[OUTPUT_KEEP + 128];
	off_t end = lseek(fd, 0, SEEK_END), from = end > OUTPUT_KEEP ? end - OUTPUT_KEEP : 0;
	ssize_t n = 0, got;
	size_t len, start;
	int port, ret = 0;

	*last = '\0';
	if (end < 0)
		return guest_error_errno("cmd: cannot read the output file");
	if (from)
		n = snprintf(buf, sizeof(buf), "[kcp-guest: the first %lld bytes of the output "
			     "are left out]\n", (long long)from);
	while (n < (ssize_t)sizeof(buf)) {
		got = pread(fd, buf + n, sizeof(buf) - n, from);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += got;
		from += got;
	}
	port = open_output_port();
	if (port < 0)
		ret = guest_error_errno("cmd: cannot open %s for the program's output",
					as_init() ? OUTPUT_TTY : "$KCP_OUTPUT");
	else if (write_all(port, buf, (size_t)n))
		ret = guest_error_errno("cmd: cannot write the program's output");
	if (port >= 0) {
		if (isatty(port))
			tcdrain(port);
		close(port);
	}
	len = (size_t)n;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\r'))
		len--;
	start = len;
	while (start && buf[start - 1] != '\n')
		start--;
	if (len - start >= size)
		start = len - (size - 1);
	memcpy(last, buf + start, len - start);
	last[len - start] = '\0';
	return ret;
}

int run_cmd(void)
{
	static char line[WORKLOAD_TEXT_MAX + 1];
	const char *argv[WORKLOAD_TEXT_MAX / 2 + 4];
	const char *command = param_str("run");
	char path[256], why[128], last[200];
	int out, status, err;
	double seconds = 0;

	if (!*command)
		return guest_error("cmd: no command (kcp.run= is empty)");
	if (as_init() && mount_host_root())
		return -1;
	if (prepare_disks(param_str("scratch")))
		return -1;
	if (workload_command_needs_shell(command)) {
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = command;
		argv[3] = NULL;
	} else {
		snprintf(line, sizeof(line), "%s", command);
		if (split_words(line, (char **)argv, (int)(ARRAY_SIZE(argv))) <= 0)
			return guest_error("cmd: no command (kcp.run= is blank)");
	}
	out = open_output(path, sizeof(path));
	if (out < 0)
		return -1;
	dprintf(2, "kcp-guest: running '%s'\n", command);
	status = run_program(argv, out, &seconds);
	err = errno;
	if (send_output(out, last, sizeof(last))) {
		close(out);
		return -1;
	}
	close(out);
	if (status == -2) {
		errno = err;
		return guest_error_errno("cmd: cannot run '%s'", argv[0]);
	}
	if (status == -1) {
		errno = err;
		return guest_error_errno("cmd: cannot start '%s'", argv[0]);
	}
	if (status) {
		describe(why, sizeof(why), status);
		return guest_error("cmd: '%s' %s%s%s", command, why, *last ? "; its last line: " : "",
				   last);
	}
	report_sample(0, seconds);
	return 0;
}
