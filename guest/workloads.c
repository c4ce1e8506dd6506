/* workloads.c: kcp-guest's small workloads (all but hackbench), one run_<id>() each. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

/* Waits for pid; returns its status, or -1 with errno set. */
static int wait_for(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/* Describes a wait status that is not a clean exit 0 into buf. */
static const char *describe_status(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
	return buf;
}

int run_boot(void)
{
	report_sample(0, boot_seconds());
	return 0;
}

int run_syscall(void)
{
	unsigned long long calls = param_num("calls"), c;
	unsigned iterations = param_num("iterations"), i;

	for (i = 0; i < iterations; i++) {
		double start, elapsed;

		kcp_meter_begin();
		start = now();
		for (c = 0; c < calls; c++)
			syscall(SYS_getppid);
		elapsed = now() - start;
		kcp_meter_end();
		report_sample_per(i, elapsed / calls * 1e9, calls);
	}
	return 0;
}

int run_fork(void)
{
	unsigned long long forks = param_num("forks"), f;
	unsigned iterations = param_num("iterations"), i;
	int exec = !strcmp(param_str("exec"), "1");
	const char *path = self_path();
	char *const argv[] = { (char *)"kcp-guest", (char *)"--exit", NULL };
	char *const envp[] = { NULL };
	char why[128];

	if (exec && access(path, X_OK))
		return guest_error_errno("fork: cannot execute '%s'", path);
	for (i = 0; i < iterations; i++) {
		double start, elapsed;

		kcp_meter_begin();
		start = now();
		for (f = 0; f < forks; f++) {
			pid_t pid = fork();
			int status;

			if (pid < 0)
				return guest_error_errno("fork: cannot fork");
			if (!pid) {
				if (exec)
					execve(path, argv, envp);
				_exit(exec ? 127 : 0);
			}
			status = wait_for(pid);
			if (status < 0)
				return guest_error_errno("fork: waiting for the child");
			if (status)
				return guest_error("fork: the child %s",
						   describe_status(status, why, sizeof(why)));
		}
		elapsed = now() - start;
		kcp_meter_end();
		report_sample_per(i, elapsed / forks * 1e6, forks);
	}
	return 0;
}

/* The pipe workload's echo process: returns each byte until end of file. */
static void __attribute__((__noreturn__)) echo_loop(int in, int out)
{
	char c;

	for (;;) {
		ssize_t n = read(in, &c, 1);

		if (n == 0)
			_exit(0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(out, &c, 1) != 1)
			_exit(1);
	}
}

/* One pipe iteration: trips round trips after one untimed warm-up; seconds, or -1. */
static double pipe_round(unsigned long long trips)
{
	int to[2], from[2], status;
	double start, elapsed = -1;
	unsigned long long t;
	char why[128], c = 'p';
	pid_t pid;

	if (pipe(to))
		return guest_error_errno("pipe: cannot create a pipe");
	if (pipe(from)) {
		close(to[0]);
		close(to[1]);
		return guest_error_errno("pipe: cannot create a pipe");
	}
	pid = fork();
	if (pid < 0) {
		guest_error_errno("pipe: cannot fork");
		goto out;
	}
	if (!pid) {
		close(to[1]);
		close(from[0]);
		echo_loop(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	to[0] = from[1] = -1;

	start = 0;
	for (t = 0; t <= trips; t++) {
		if (t == 1) {
			kcp_meter_begin();
			start = now();	/* trip 0 is the warm-up: the child is running */
		}
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1) {
			guest_error_errno("pipe: round trip %llu failed", t);
			break;
		}
	}
	if (t > trips) {
		elapsed = now() - start;
		kcp_meter_end();
	}
	close(to[1]);
	to[1] = -1;
	status = wait_for(pid);
	if (elapsed >= 0 && status) {
		guest_error("pipe: the echo process %s", describe_status(status, why, sizeof(why)));
		elapsed = -1;
	}
out:
	if (to[0] >= 0)
		close(to[0]);
	if (to[1] >= 0)
		close(to[1]);
	close(from[0]);
	if (from[1] >= 0)
		close(from[1]);
	return elapsed;
}

int run_pipe(void)
{
	unsigned long long trips = param_num("trips");
	unsigned iterations = param_num("iterations"), i;

	for (i = 0; i < iterations; i++) {
		double t = pipe_round(trips);

		if (t < 0)
			return -1;
		report_sample_per(i, t / trips * 1e6, trips);
	}
	return 0;
}

/* Writes size bytes of buf (bufsize long, reused) to fd. */
static int write_size(int fd, const char *buf, size_t bufsize, unsigned long long size)
{
	while (size) {
		size_t n = size < bufsize ? size : bufsize;

		if (write_all(fd, buf, n))
			return -1;
		size -= n;
	}
	return 0;
}

int run_files(void)
{
	unsigned long long count = param_num("count"), size = param_num("size"), f;
	unsigned iterations = param_num("iterations"), i;
	const char *dir = param_str("dir");
	size_t bufsize = 64 * 1024;
	char *buf = malloc(bufsize);
	char path[WORKLOAD_VALUE_MAX + 64];
	int ret = 0;

	if (!buf)
		return guest_error("files: out of memory");
	memset(buf, 'f', bufsize);
	for (i = 0; i < iterations && !ret; i++) {
		double start, elapsed;

		kcp_meter_begin();
		start = now();
		for (f = 0; f < count && !ret; f++) {
			int fd;

			snprintf(path, sizeof(path), "%s/kcp-files.%d.%llu", dir, (int)getpid(), f);
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0) {
				ret = guest_error_errno("files: cannot create '%s'", path);
				break;
			}
			if (write_size(fd, buf, bufsize, size))
				ret = guest_error_errno("files: cannot write '%s'", path);
			else if (fsync(fd))
				ret = guest_error_errno("files: cannot fsync '%s'", path);
			if (close(fd) && !ret)
				ret = guest_error_errno("files: cannot close '%s'", path);
		}
		/* unlink what was created, even after a failure */
		while (f-- > 0) {
			snprintf(path, sizeof(path), "%s/kcp-files.%d.%llu", dir, (int)getpid(), f);
			if (unlink(path) && !ret)
				ret = guest_error_errno("files: cannot unlink '%s'", path);
		}
		elapsed = now() - start;
		kcp_meter_end();
		if (!ret)
			report_sample(i, elapsed);
	}
	free(buf);
	return ret;
}

int run_dd(void)
{
	unsigned long long bs = param_num("bs"), count = param_num("count"), c;
	unsigned iterations = param_num("iterations"), i;
	const char *dev = param_str("dev");
	int direct = !strcmp(param_str("direct"), "1");
	void *buf = NULL;
	int fd, ret = 0;

	fd = open(dev, O_RDONLY | O_CLOEXEC | (direct ? O_DIRECT : 0));
	if (fd < 0)
		return guest_error_errno("dd: cannot open '%s'%s", dev,
					 direct ? " with O_DIRECT" : "");
	if (posix_memalign(&buf, 4096, bs)) {
		close(fd);
		return guest_error("dd: out of memory for bs=%llu", bs);
	}
	for (i = 0; i < iterations && !ret; i++) {
		double start, elapsed;
		off_t off = 0;

		kcp_meter_begin();
		start = now();
		for (c = 0; c < count; c++) {
			ssize_t n = pread(fd, buf, bs, off);

			if (n < 0 && errno == EINTR) {
				c--;
				continue;
			}
			if (n < 0) {
				ret = guest_error_errno("dd: read of '%s' at %lld failed",
							dev, (long long)off);
				break;
			}
			if ((unsigned long long)n != bs) {
				ret = guest_error("dd: '%s' ends at %lld bytes, before bs*count = %llu",
						  dev, (long long)off + n, bs * count);
				break;
			}
			off += n;
		}
		elapsed = now() - start;
		kcp_meter_end();
		if (!ret)
			report_sample(i, (double)bs * count / elapsed / 1e6);
	}
	free(buf);
	close(fd);
	return ret;
}

int run_pagefault(void)
{
	unsigned long long size = param_num("size"), off;
	unsigned iterations = param_num("iterations"), i;
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0)
		page = 4096;
	for (i = 0; i < iterations; i++) {
		double start, elapsed;
		volatile char *p;

		kcp_meter_begin();
		start = now();
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return guest_error_errno("pagefault: cannot map %llu bytes", size);
		for (off = 0; off < size; off += page)
			p[off] = 1;
		if (munmap((void *)p, size))
			return guest_error_errno("pagefault: munmap");
		elapsed = now() - start;
		kcp_meter_end();
		report_sample(i, elapsed);
	}
	return 0;
}

/* Runs prog once; returns 0, or -1 after an error line. */
static int exec_once(const char *prog)
{
	char *const argv[] = { (char *)prog, NULL };
	int errpipe[2], child_errno = 0, status;
	char why[128];
	ssize_t n;
	pid_t pid;

	if (pipe2(errpipe, O_CLOEXEC))
		return guest_error_errno("exec: cannot create a pipe");
	pid = fork();
	if (pid < 0) {
		close(errpipe[0]);
		close(errpipe[1]);
		return guest_error_errno("exec: cannot fork");
	}
	if (!pid) {
		close(errpipe[0]);
		execv(prog, argv);
		child_errno = errno;
		(void)!write(errpipe[1], &child_errno, sizeof(child_errno));
		_exit(127);
	}
	close(errpipe[1]);
	do
		n = read(errpipe[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(errpipe[0]);
	status = wait_for(pid);
	if (n == sizeof(child_errno)) {
		errno = child_errno;
		return guest_error_errno("exec: cannot run '%s'", prog);
	}
	if (status < 0)
		return guest_error_errno("exec: waiting for '%s'", prog);
	if (status)
		return guest_error("exec: '%s' %s", prog, describe_status(status, why, sizeof(why)));
	return 0;
}

int run_exec(void)
{
	unsigned iterations = param_num("iterations"), i;
	const char *prog = param_str("prog");

	for (i = 0; i < iterations; i++) {
		double start, elapsed;

		kcp_meter_begin();
		start = now();
		if (exec_once(prog))
			return -1;
		elapsed = now() - start;
		kcp_meter_end();
		report_sample(i, elapsed);
	}
	return 0;
}

/* kconfperf runs libguestfs-test-tool on the host (run/guestfs.c). */
int run_libguestfs(void)
{
	return guest_error("the libguestfs workload runs on the host, not in kcp-guest");
}

int run_hang(void)
{
	for (;;)
		pause();
}

int run_panic(void)
{
	/* init panics the kernel itself (kcp-guest.c); in a child there is nothing to do */
	return guest_error("panic: only init can panic the kernel");
}
