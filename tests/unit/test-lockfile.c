/* test-lockfile.c: unit tests for lock files: taking, records, and whom a stale lock lets us stop. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-lib.h"
#include "util/lockfile.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

static char *lock_path(const char *name)
{
	return xstrfmt("%s/%s", test_tmpdir(), name);
}

static void write_record(const char *path, const char *record)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	check(fd >= 0 && write(fd, record, strlen(record)) == (ssize_t)strlen(record));
	if (fd >= 0)
		close(fd);
}

/* A pid that no process has now. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* Field 22 of /proc/PID/stat. */
static unsigned long long start_time(pid_t pid)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("/proc/%ld/stat", (long)pid);
	unsigned long long v = 0;
	const char *p;
	int field;

	if (strbuf_read_file(&sb, path, 0) > 0 && (p = strrchr(sb.buf, ')'))) {
		for (p += 2, field = 3; field < 22 && p; field++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		if (p)
			v = strtoull(p, NULL, 10);
	}
	strbuf_release(&sb);
	free(path);
	return v;
}

static void this_boot(char *out, size_t size)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_read_file(&sb, "/proc/sys/kernel/random/boot_id", 0);
	strbuf_rtrim(&sb);
	snprintf(out, size, "%s", sb.len ? sb.buf : "-");
	strbuf_release(&sb);
}

/* Whether child pid still runs (not exited, not killed): it is ours to wait for. */
static int still_runs(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) == 0;
}

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The lock file is its user's: no one else may write a record that kconfperf acts on. */
static void test_lock_file_is_private(void)
{
	char *path = lock_path("private.lock");
	struct lockfile lk = LOCKFILE_INIT;
	struct stat st;
	mode_t old = umask(0);

	check_int(lockfile_try(&lk, path), ==, 0);
	umask(old);
	check_int(stat(path, &st), ==, 0);
	check_int(st.st_mode & 0777, ==, 0600);
	lockfile_release(&lk);
	free(path);
}

/* What the holder does goes into its record, for a waiter's message. */
static void test_record_says_what_the_holder_does(void)
{
	char *path = lock_path("doing.lock");
	struct lockfile lk = LOCKFILE_INIT, other = LOCKFILE_INIT;
	struct lockfile_owner o;

	lk.doing = "planning";
	check_int(lockfile_try(&lk, path), ==, 0);
	check_int(lockfile_try(&other, path), ==, 1);
	check_int(lockfile_read_owner(&other, &o), ==, 0);
	check_int(o.pid, ==, getpid());
	check(o.has_token);
	check_str(o.doing, "planning");
	lockfile_release(&other);
	lockfile_release(&lk);
	free(path);
}

static void test_take_record_release(void)
{
	char *path = lock_path("a.lock");
	struct lockfile a = LOCKFILE_INIT, b = LOCKFILE_INIT;
	struct lockfile_owner o;
	char boot[40];

	check_int(lockfile_try(&a, path), ==, 0);
	check(a.held);
	/* Another open file description is another holder, even in this process. */
	check_int(lockfile_try(&b, path), ==, 1);
	check(!b.held);
	check_int(lockfile_read_owner(&b, &o), ==, 0);
	check_int(o.pid, ==, getpid());
	check_int(o.pgid, ==, 0);
	check(o.has_token);
	this_boot(boot, sizeof(boot));
	check_str(o.boot_id, boot);
	check(o.pid_start == start_time(getpid()));
	check(lockfile_owner_alive(&o));
	lockfile_release(&b);
	lockfile_release(&a);
	check_int(a.fd, ==, -1);
	/* Released: free again, and the record still names its last holder. */
	check_int(lockfile_try(&b, path), ==, 0);
	lockfile_release(&b);
	free(path);
}

static void test_a_reused_pid_is_not_the_owner(void)
{
	char *path = lock_path("b.lock");
	struct lockfile lk = LOCKFILE_INIT;
	struct lockfile_owner o;
	char boot[40], *rec;

	this_boot(boot, sizeof(boot));
	check_int(lockfile_try(&lk, path), ==, 0);
	/* our pid, but a process that started at another time: not us */
	rec = xstrfmt("%ld 0 %s:%llu:0\n", (long)getpid(), boot, start_time(getpid()) + 1);
	write_record(path, rec);
	free(rec);
	check_int(lockfile_read_owner(&lk, &o), ==, 0);
	check(!lockfile_owner_alive(&o));
	/* ... or of another boot */
	rec = xstrfmt("%ld 0 00000000-0000-0000-0000-000000000000:%llu:0\n", (long)getpid(),
		      start_time(getpid()));
	write_record(path, rec);
	free(rec);
	check_int(lockfile_read_owner(&lk, &o), ==, 0);
	check(!lockfile_owner_alive(&o));
	/* A record without a token (an older kconfperf) is read; only the pid says. */
	write_record(path, "1 0\n");
	check_int(lockfile_read_owner(&lk, &o), ==, 0);
	check(!o.has_token);
	check(lockfile_owner_alive(&o));
	rec = xstrfmt("%ld 0\n", (long)dead_pid());
	write_record(path, rec);
	free(rec);
	check_int(lockfile_read_owner(&lk, &o), ==, 0);
	check(!lockfile_owner_alive(&o));
	write_record(path, "garbage\n");
	check_int(lockfile_read_owner(&lk, &o), ==, -1);
	lockfile_release(&lk);
	free(path);
}

/* A child that holds the lock of path (an outsider, not in any recorded group). */
static pid_t hold_lock(const char *path)
{
	int ready[2];
	char c;
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (!pid) {
		int fd = open(path, O_RDWR | O_CREAT, 0644);

		if (fd < 0 || flock(fd, LOCK_EX))
			_exit(1);
		(void)!write(ready[1], "x", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		pid = -1;
	close(ready[0]);
	return pid;
}

/* A child in a process group (and session) of its own, like `setsid sleep 600`. */
static pid_t setsid_sleeper(void)
{
	int ready[2];
	char c;
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (!pid) {
		setsid();
		(void)!write(ready[1], "x", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		pid = -1;
	close(ready[0]);
	return pid;
}

/*
 * lockfile_take(path, wait) in a child, bounded (it must not loop on a
 * group it keeps signalling): 0 when it failed with a message holding
 * want and nothing about stopping, 1 otherwise.
 */
static int take_fails_saying(const char *path, const struct lockfile_wait *wait,
			     const char *want)
{
	pid_t pid = fork();
	int status;

	if (!pid) {
		struct lockfile lk = LOCKFILE_INIT;
		int rc;

		alarm(10);
		test_capture_start();
		rc = lockfile_take(&lk, path, wait);
		test_capture_stop();
		_exit(rc == -1 && strstr(test_messages.buf, want) &&
		      !strstr(test_messages.buf, "stopping") ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

/*
 * The defect: a lock held by something that is not a build, with a record
 * whose owner is dead and whose group id now belongs to an unrelated
 * process group (reproduced with `setsid sleep 600`).  That group must
 * survive; the lock is an error.
 */
static void test_an_unrelated_group_is_never_signalled(void)
{
	static const struct lockfile_wait wait = { "build", "CACHE", " (a server?)", 1 };
	char *path = lock_path("c.lock");
	pid_t victim = setsid_sleeper(), holder = hold_lock(path), dead = dead_pid();
	char boot[40], *rec, *want = NULL;
	int i;

	if (!check(victim > 0 && holder > 0))
		goto out;
	this_boot(boot, sizeof(boot));
	want = xstrfmt("c.lock' is held by a process that outlived kconfperf (pid %ld) and "
		       "is not a build (a server?); stop it: pid %ld (", (long)dead, (long)holder);
	for (i = 0; i < 3; i++) {
		/*
		 * an older kconfperf's record, one whose token names another
		 * leader, and a forged one that copies the victim's start time
		 * from /proc (public): only holding the lock file proves a group
		 */
		rec = !i ? xstrfmt("%ld %ld\n", (long)dead, (long)victim)
			 : xstrfmt("%ld %ld %s:1:%llu\n", (long)dead, (long)victim, boot,
				   start_time(victim) + (i == 1 ? 7 : 0));
		write_record(path, rec);
		free(rec);
		check_int(take_fails_saying(path, &wait, want), ==, 0);
		check(still_runs(victim));
	}
out:
	if (victim > 0)
		stop(victim);
	if (holder > 0)
		stop(holder);
	free(want);
	free(path);
}

static void test_no_group_id_that_could_hit_everything(void)
{
	char *path = lock_path("d.lock");
	struct lockfile lk = LOCKFILE_INIT;
	struct lockfile_owner o = { 0 };

	check_int(lockfile_try(&lk, path), ==, 0);
	o.pid = dead_pid();
	/* group 1 (kill(-1) signals everything), 0, negative, and our own (which holds it) */
	o.pgid = 1;
	check(!lockfile_is_holders_group(&lk, &o));
	o.pgid = 0;
	check(!lockfile_is_holders_group(&lk, &o));
	o.pgid = -5;
	check(!lockfile_is_holders_group(&lk, &o));
	o.pgid = getpgrp();
	check(!lockfile_is_holders_group(&lk, &o));
	lockfile_release(&lk);
	free(path);
}

/*
 * The case the stopping is for: a kconfperf died (-9) while the work it
 * ran holding the lock (make's process group) goes on.  The owner is a
 * child that takes the lock, starts the work in a group of its own and
 * exits.  With token is 1 the work's leader still runs and the token
 * proves it; otherwise the leader is gone, the record has no token, and a
 * member of the group holding the lock file proves it.
 */
static void orphaned_work_is_stopped(int with_token)
{
	static const struct lockfile_wait wait = { "build", "CACHE", "", 5 };
	char *path = lock_path(with_token ? "e.lock" : "f.lock");
	struct lockfile lk = LOCKFILE_INIT;
	int ready[2];
	pid_t owner, work = 0;
	char *want;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (!check(!pipe(ready)))
		goto out;
	owner = fork();
	if (!owner) {
		struct lockfile own = LOCKFILE_INIT;
		pid_t w;

		close(ready[0]);
		if (lockfile_try(&own, path))
			_exit(1);
		w = fork();
		if (!w) {
			setpgid(0, 0);
			if (!with_token && fork())
				_exit(0);	/* the leader goes, its child keeps the lock */
			pause();
			_exit(0);
		}
		setpgid(w, w);
		if (with_token) {
			lockfile_record(&own, w);
		} else {
			char buf[64];
			int n = snprintf(buf, sizeof(buf), "%ld %ld\n", (long)getpid(), (long)w);

			if (ftruncate(own.fd, 0) || pwrite(own.fd, buf, (size_t)n, 0) != n)
				_exit(1);
		}
		(void)!write(ready[1], &w, sizeof(w));
		_exit(0);	/* dies holding the lock: the work keeps it */
	}
	close(ready[1]);
	if (!check(read(ready[0], &work, sizeof(work)) == sizeof(work)))
		goto out;
	waitpid(owner, NULL, 0);
	test_capture_start();
	check_int(lockfile_take(&lk, path, &wait), ==, 0);
	test_capture_stop();
	check(lk.held);
	want = xstrfmt("stopping the build that kconfperf (pid %ld) left running", (long)owner);
	check(strstr(test_messages.buf, want) != NULL);
	free(want);
	check(test_group_gone(work));
	lockfile_release(&lk);
out:
	close(ready[0]);
	if (work > 0 && kill(-work, SIGKILL) == 0)
		test_group_gone(work);
	free(path);
}

static void test_orphaned_work_is_stopped_by_its_token(void)
{
	orphaned_work_is_stopped(1);
}

static void test_orphaned_work_is_stopped_by_what_it_holds(void)
{
	orphaned_work_is_stopped(0);
}

static void test_a_live_owner_is_waited_for(void)
{
	static const struct lockfile_wait wait = { "run", "DIR", "", 1 };
	char *path = lock_path("g.lock");
	struct lockfile lk = LOCKFILE_INIT;
	pid_t holder = hold_lock(path);
	char *rec, *want;
	double t0;

	if (!check(holder > 0))
		goto out;
	/* The holder is recorded and alive: wait for it, however long. */
	rec = xstrfmt("%ld 0\n", (long)holder);
	write_record(path, rec);
	free(rec);
	if (!fork()) {
		sleep(2);
		kill(holder, SIGTERM);
		_exit(0);
	}
	t0 = now_seconds();
	test_capture_start();
	check_int(lockfile_take(&lk, path, &wait), ==, 0);
	test_capture_stop();
	check(now_seconds() - t0 > 1.5);	/* past outsider_seconds: a live owner is no outsider */
	want = xstrfmt("waiting for another kconfperf run in 'DIR' (pid %ld)", (long)holder);
	check(strstr(test_messages.buf, want) != NULL);
	free(want);
	lockfile_release(&lk);
	waitpid(holder, NULL, 0);
	holder = 0;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
out:
	if (holder > 0)
		stop(holder);
	free(path);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_take_record_release);
	TEST(test_lock_file_is_private);
	TEST(test_record_says_what_the_holder_does);
	TEST(test_a_reused_pid_is_not_the_owner);
	TEST(test_an_unrelated_group_is_never_signalled);
	TEST(test_no_group_id_that_could_hit_everything);
	TEST(test_orphaned_work_is_stopped_by_its_token);
	TEST(test_orphaned_work_is_stopped_by_what_it_holds);
	TEST(test_a_live_owner_is_waited_for);
	return test_done();
}
