/* write-file.c: replace a file atomically: kconfperf's own never through a link. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"
#include "util/write-file.h"

/* As the kernel's own limit on links followed in one lookup. */
#define MAX_LINKS 40

/* A descriptor number spelled in full, or -1. */
static int parse_fd(const char *s)
{
	char *end;
	long n;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n > INT_MAX)
		return -1;
	return (int)n;
}

/*
 * The descriptor of ours that path names (/dev/fd/N, /proc/self/fd/N,
 * /proc/thread-self/fd/N, /proc/PID/fd/N with our PID), or -1.  These are
 * "magic" links: following one as text would name the file behind the
 * descriptor, or nothing at all for a pipe ("pipe:[123]").
 */
static int own_fd(const char *path)
{
	const char *rest;
	char pid[32];

	if (skip_prefix(path, "/dev/fd/", &rest) ||
	    skip_prefix(path, "/proc/self/fd/", &rest) ||
	    skip_prefix(path, "/proc/thread-self/fd/", &rest))
		return parse_fd(rest);
	snprintf(pid, sizeof(pid), "/proc/%ld/fd/", (long)getpid());
	if (skip_prefix(path, pid, &rest))
		return parse_fd(rest);
	return -1;
}

int write_target_resolve(struct strbuf *out, int *fd, const char *path)
{
	struct strbuf link = STRBUF_INIT;
	struct stat st;
	int hops, ret = -1;

	strbuf_reset(out);
	strbuf_addstr(out, path);
	if (!strcmp(path, "-")) {
		*fd = STDOUT_FILENO;
		ret = WRITE_TO_FD;
		goto out;
	}
	for (hops = 0; hops <= MAX_LINKS; hops++) {
		const char *slash;

		*fd = own_fd(out->buf);
		if (*fd >= 0) {
			ret = WRITE_TO_FD;
			goto out;
		}
		if (lstat(out->buf, &st)) {
			if (errno != ENOENT) {
				error_errno("cannot look up '%s'", out->buf);
				goto out;
			}
			ret = WRITE_REPLACE;
			goto out;
		}
		if (!S_ISLNK(st.st_mode)) {
			ret = S_ISREG(st.st_mode) ? WRITE_REPLACE : WRITE_IN_PLACE;
			goto out;
		}
		/* Links in /proc name open files, not paths: open, never follow. */
		if (starts_with(out->buf, "/proc/")) {
			ret = WRITE_IN_PLACE;
			goto out;
		}
		if (strbuf_readlink(&link, out->buf)) {
			error_errno("cannot read the link '%s'", out->buf);
			goto out;
		}
		slash = strrchr(out->buf, '/');
		if (link.buf[0] == '/' || !slash) {
			strbuf_reset(out);
		} else {
			strbuf_setlen(out, slash - out->buf + 1);
		}
		strbuf_addbuf(out, &link);
	}
	error("cannot write '%s': more than %d symbolic links to follow", path, MAX_LINKS);
out:
	strbuf_release(&link);
	return ret;
}

static int write_fd(int fd, const void *buf, size_t len, const char *path)
{
	if (fd != STDOUT_FILENO) {
		if (xwrite_all(fd, buf, len) < 0)
			return error_errno("cannot write '%s'", path);
		return 0;
	}
	/* Said once, whoever notices first: here or main()'s finish_stdout(). */
	if (fflush(stdout) || xwrite_all(fd, buf, len) < 0)
		return stdout_error(path);
	return 0;
}

static int write_in_place(const char *target, const void *buf, size_t len,
			  const char *path)
{
	int fd = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	int ret;

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	ret = write_fd(fd, buf, len, path);
	if (close(fd) && !ret)
		ret = error_errno("cannot write '%s'", path);
	return ret;
}

/* The error when path is a link: say where it leads. */
static int replace_error(const char *what, const char *path, const char *target)
{
	if (strcmp(path, target))
		return error_errno("cannot %s '%s' (a link to '%s')", what, path, target);
	return error_errno("cannot %s '%s'", what, path);
}

/* rename(2) replaces the name target, whatever is there: a link is not followed. */
static int replace(const char *target, const void *buf, size_t len, const char *path)
{
	char *tmp = xstrfmt("%s.tmp.%ld", target, (long)getpid());
	struct stat st;
	int fd, ret = 0;

	/* O_EXCL: a link planted at tmp is an existing file, never followed. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST && !unlink(tmp))
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = replace_error("create", path, target);
		goto out;
	}
	if (!lstat(target, &st) && S_ISREG(st.st_mode))
		(void)fchmod(fd, st.st_mode & 0777);
	if (xwrite_all(fd, buf, len) < 0) {
		ret = replace_error("write", path, target);
		close(fd);
		goto out;
	}
	if (close(fd)) {
		ret = replace_error("write", path, target);
		goto out;
	}
	if (rename(tmp, target))
		ret = replace_error("replace", path, target);
out:
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

int write_file(const char *path, const void *buf, size_t len)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISDIR(st.st_mode))
		return error("cannot write '%s': it is a directory", path);
	/* Never a device's name: a caller that meant /dev/null wants write_output(). */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return error("cannot write '%s': it is a device, FIFO or socket, not a file "
			     "kconfperf made", path);
	return replace(path, buf, len, path);
}

int write_output(const char *path, const void *buf, size_t len)
{
	struct strbuf target = STRBUF_INIT;
	int fd = -1, ret;

	switch (write_target_resolve(&target, &fd, path)) {
	case WRITE_TO_FD:
		ret = write_fd(fd, buf, len, path);
		break;
	case WRITE_IN_PLACE:
		ret = write_in_place(target.buf, buf, len, path);
		break;
	case WRITE_REPLACE:
		ret = replace(target.buf, buf, len, path);
		break;
	default:
		ret = -1;
		break;
	}
	strbuf_release(&target);
	return ret;
}
