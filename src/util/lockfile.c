/* lockfile.c: one way to take, record, inspect and release a lock file. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/lockfile.h"
#include "util/proc-stat.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* This boot's id, or "-" when /proc does not say. */
static const char *boot_id(void)
{
	static char id[40];
	static int done;

	if (!done) {
		int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, id, sizeof(id) - 1);

		if (fd >= 0)
			close(fd);
		id[n > 0 ? n : 0] = '\0';
		id[strcspn(id, "\n ")] = '\0';
		if (!*id) {
			id[0] = '-';
			id[1] = '\0';
		}
		done = 1;
	}
	return id;
}

static int open_lock(struct lockfile *lk, const char *path)
{
	lk->held = 0;
	free(lk->path);
	lk->path = xstrdup(path);
	lk->fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lk->fd < 0)
		return error_errno("cannot open '%s'", path);
	return 0;
}

void lockfile_record(struct lockfile *lk, pid_t pgid)
{
	struct proc_stat self = { 0 }, leader = { 0 };
	char buf[200];
	int n;

	proc_stat_read((long)getpid(), &self);
	if (pgid > 0)
		proc_stat_read((long)pgid, &leader);
	n = snprintf(buf, sizeof(buf), "%ld %ld %s:%llu:%llu%s%.20s\n", (long)getpid(),
		     (long)pgid, boot_id(), self.start, leader.start, lk->doing ? " " : "",
		     lk->doing ? lk->doing : "");
	if (ftruncate(lk->fd, 0) || pwrite(lk->fd, buf, (size_t)n, 0) != n)
		warning("cannot record the owner of '%s': %s", lk->path, strerror(errno));
}

int lockfile_try(struct lockfile *lk, const char *path)
{
	if (open_lock(lk, path))
		return -1;
	if (flock(lk->fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			return 1;
		return error_errno("cannot lock '%s'", path);
	}
	lk->held = 1;
	lockfile_record(lk, 0);
	return 0;
}

int lockfile_read_owner(const struct lockfile *lk, struct lockfile_owner *out)
{
	char buf[200];
	ssize_t n = pread(lk->fd, buf, sizeof(buf) - 1, 0);
	int got;

	memset(out, 0, sizeof(*out));
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	got = sscanf(buf, "%ld %ld %39[0-9a-f-]:%llu:%llu %23[a-z]", &out->pid, &out->pgid,
		     out->boot_id, &out->pid_start, &out->pgid_start, out->doing);
	if (got < 2) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	if (got < 6)
		out->doing[0] = '\0';
	out->has_token = got >= 5;
	if (!out->has_token) {
		out->boot_id[0] = '\0';
		out->pid_start = out->pgid_start = 0;
	}
	return 0;
}

static int same_owner(const struct lockfile_owner *a, const struct lockfile_owner *b)
{
	return a->pid == b->pid && a->pgid == b->pgid && a->has_token == b->has_token &&
	       !strcmp(a->doing, b->doing) &&
	       !strcmp(a->boot_id, b->boot_id) && a->pid_start == b->pid_start &&
	       a->pgid_start == b->pgid_start;
}

/* Whether the token (if any) says this boot. */
static int same_boot(const struct lockfile_owner *o)
{
	return !o->has_token || !strcmp(o->boot_id, boot_id());
}

int lockfile_owner_alive(const struct lockfile_owner *o)
{
	struct proc_stat ps;

	if (o->pid <= 0)
		return 0;
	if (proc_stat_read(o->pid, &ps))
		return kill((pid_t)o->pid, 0) == 0 || errno == EPERM;
	if (ps.state == 'Z' || ps.state == 'X')
		return 0;	/* it has exited: it holds nothing */
	return same_boot(o) && (!o->has_token || ps.start == o->pid_start);
}

/* Whether process pid has the file (dev, ino) open. */
static int has_file_open(const char *pid, dev_t dev, ino_t ino)
{
	char *dir = xstrfmt("/proc/%s/fd", pid);
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	while (d && !ret && (e = readdir(d))) {
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		ret = !stat(path, &st) && st.st_dev == dev && st.st_ino == ino;
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	return ret;
}

/*
 * Calls fn for every process that has lk's file open and is in group
 * pgid (any group when pgid is 0); stops at the first fn that returns
 * nonzero and returns that.
 */
static int for_each_holder(const struct lockfile *lk, long pgid,
			   int (*fn)(const char *pid, void *data), void *data)
{
	struct stat lock;
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (fstat(lk->fd, &lock))
		return 0;
	d = opendir("/proc");
	while (d && !ret && (e = readdir(d))) {
		struct proc_stat ps;
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (pid <= 0 || *end || pid == (long)getpid())
			continue;
		if (pgid && (proc_stat_read(pid, &ps) || ps.pgrp != pgid))
			continue;
		if (has_file_open(e->d_name, lock.st_dev, lock.st_ino))
			ret = fn(e->d_name, data);
	}
	if (d)
		closedir(d);
	return ret;
}

static int found(const char *pid UNUSED, void *data UNUSED)
{
	return 1;
}

int lockfile_is_holders_group(const struct lockfile *lk, const struct lockfile_owner *o)
{
	if (o->pgid <= 1 || o->pgid == (long)getpgrp())
		return 0;
	/*
	 * Only a group that holds the lock file open is the build's: the
	 * leader's start time in the record proves nothing (anyone can read
	 * it in /proc and write it into a forged record).
	 */
	return for_each_holder(lk, o->pgid, found, NULL);
}

/* " pid 123 (sleep), pid 456 (ccache)" */
static int describe_holder(const char *pid, void *data)
{
	struct strbuf *sb = data, comm = STRBUF_INIT;
	char *path = xstrfmt("/proc/%s/comm", pid);

	if (strbuf_read_file_max(&comm, path, 64) < 0)
		strbuf_reset(&comm);
	strbuf_rtrim(&comm);
	strbuf_addf(sb, "%s pid %s (%s)", sb->len ? "," : "", pid, comm.len ? comm.buf : "?");
	strbuf_release(&comm);
	free(path);
	return sb->len > 200;	/* enough to go on */
}

/*
 * Reads the record twice, 100 ms apart: a kconfperf that has just taken
 * the lock writes its own record at once, so an old one it is replacing
 * is not acted on.  0 when both reads agree, -1 otherwise.
 */
static int read_settled_owner(const struct lockfile *lk, struct lockfile_owner *out)
{
	struct lockfile_owner again;
	struct timespec gap = { 0, 100 * 1000 * 1000 };

	if (lockfile_read_owner(lk, out))
		return -1;
	nanosleep(&gap, NULL);
	if (lockfile_read_owner(lk, &again) || !same_owner(out, &again))
		return -1;
	return 0;
}

static int outsider_error(const struct lockfile *lk, const struct lockfile_wait *w,
			  const struct lockfile_owner *o)
{
	struct strbuf who = STRBUF_INIT;
	int ret;

	for_each_holder(lk, 0, describe_holder, &who);
	if (o->pid > 0)
		ret = error("'%s' is held by a process that outlived kconfperf (pid %ld) and is "
			    "not a %s%s; stop it%s%s", lk->path, o->pid, w->what, w->outsider_hint,
			    who.len ? ":" : "", who.buf);
	else
		ret = error("'%s' is held by a process that is not a kconfperf (it recorded no "
			    "owner); stop it%s%s", lk->path, who.len ? ":" : "", who.buf);
	strbuf_release(&who);
	return ret;
}

int lockfile_take(struct lockfile *lk, const char *path, const struct lockfile_wait *w)
{
	int stopped = 0, waited = 0, outsider = 0;

	if (open_lock(lk, path))
		return -1;
	while (flock(lk->fd, LOCK_EX | LOCK_NB)) {
		struct lockfile_owner o;
		int settled;

		if (errno != EWOULDBLOCK && errno != EINTR)
			return error_errno("cannot lock '%s'", path);
		settled = !read_settled_owner(lk, &o);
		if (settled && lockfile_owner_alive(&o)) {
			if (!waited)
				note("waiting for another kconfperf %s in '%s' (pid %ld)", w->what,
				     w->where, o.pid);
			waited = 1;
		} else if (settled && lockfile_is_holders_group(lk, &o)) {
			if (!stopped)
				note("stopping the %s that kconfperf (pid %ld) left running",
				     w->what, o.pid);
			stopped = 1;
			kill((pid_t)-o.pgid, SIGKILL);
		} else if (++outsider > w->outsider_seconds) {
			if (!settled)
				memset(&o, 0, sizeof(o));
			return outsider_error(lk, w, &o);
		}
		sleep(1);
	}
	lk->held = 1;
	lockfile_record(lk, 0);
	return 0;
}

int lockfile_inherit(struct lockfile *lk, int on)
{
	if (fcntl(lk->fd, F_SETFD, on ? 0 : FD_CLOEXEC) < 0)
		return error_errno("cannot %s the lock '%s'", on ? "pass on" : "keep", lk->path);
	return 0;
}

void lockfile_release(struct lockfile *lk)
{
	if (lk->fd >= 0)
		close(lk->fd);	/* releases the lock, unless a child still has it */
	lk->fd = -1;
	lk->held = 0;
	free(lk->path);
	lk->path = NULL;
}
