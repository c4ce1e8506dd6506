/* own-dir.c: directories only kconfperf (its user) can change: the cache's and the experiment's. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/own-dir.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* A directory above ours: root's or ours, and no one else may rename in it. */
static int check_ancestor(const char *dir, const char *path, const char *what)
{
	struct stat st;

	if (stat(dir, &st))
		return error_errno("cannot look up '%s' above %s '%s'", dir, what, path);
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return error("'%s' above %s '%s' is owned by uid %ld, neither root nor you "
			     "(uid %ld), who could replace it", dir, what, path,
			     (long)st.st_uid, (long)geteuid());
	if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))
		return error("'%s' above %s '%s' is writable by its group or others (mode %04o), "
			     "who could replace it", dir, what, path,
			     (unsigned)(st.st_mode & 07777));
	return 0;
}

/* dir and every directory above it, links resolved. */
static int check_chain(const char *dir, const char *path, const char *what)
{
	char *real = realpath(dir, NULL), *p;
	int ret = 0;

	if (!real)
		return error_errno("cannot resolve '%s' above %s '%s'", dir, what, path);
	for (p = real;; p++) {
		char c = *p;

		if (c != '/' && c)
			continue;
		*p = '\0';
		ret = check_ancestor(p == real ? "/" : real, path, what);
		*p = c;
		if (ret || !c)
			break;
	}
	free(real);
	return ret;
}

/*
 * Every directory from / down to path's parent; when that does not exist
 * yet, down to the nearest one that does, the one the rest is made in.
 */
static int check_ancestors(const char *path, const char *what)
{
	char *dir = xstrdup(path), *slash;
	struct stat st;
	int ret;

	if (*dir != '/') {
		free(dir);
		return error("%s '%s' is not an absolute path", what, path);
	}
	do {
		slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	} while (strcmp(dir, "/") && lstat(dir, &st) && errno == ENOENT);
	ret = check_chain(dir, path, what);
	free(dir);
	return ret;
}

/* The directory itself: not a link, ours, written by no one else. */
static int check_self(const char *path, const char *what)
{
	struct stat st;

	if (lstat(path, &st))
		return error_errno("cannot look up %s '%s'", what, path);
	if (S_ISLNK(st.st_mode))
		return error("%s '%s' is a symbolic link; name the directory it leads to", what,
			     path);
	if (!S_ISDIR(st.st_mode))
		return error("%s '%s' is not a directory", what, path);
	if (st.st_uid != geteuid())
		return error("%s '%s' is owned by uid %ld, not by you (uid %ld); kconfperf "
			     "builds and runs what it finds there", what, path,
			     (long)st.st_uid, (long)geteuid());
	if (st.st_mode & 022)
		return error("%s '%s' is writable by its group or others (mode %04o); "
			     "run 'chmod go-w %s'", what, path, (unsigned)(st.st_mode & 07777),
			     path);
	return 0;
}

int own_dir_check(const char *path, const char *what)
{
	struct stat st;

	if (lstat(path, &st) && errno == ENOENT)
		return 1;
	if (check_ancestors(path, what) || check_self(path, what))
		return -1;
	return 0;
}

int own_dir_make(const char *path, const char *what)
{
	struct stat st;

	/* Nothing is made below a directory someone else could change. */
	if (check_ancestors(path, what))
		return -1;
	if (lstat(path, &st) && errno == ENOENT) {
		if (mkdir_p(path, 0755) || check_ancestors(path, what))
			return -1;
	}
	return check_self(path, what);
}

int own_subdir_make(const char *base, const char *sub)
{
	struct strbuf path = STRBUF_INIT;
	const char *p = sub;
	int fd, ret = 0;

	fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && !mkdir_p(base, 0755))
		fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open directory '%s'", base);
	strbuf_addstr(&path, base);
	while (*p) {
		size_t n = strcspn(p, "/");
		char *name = xstrndup(p, n);
		int next;

		p += n;
		while (*p == '/')
			p++;
		if (!*name || !strcmp(name, ".")) {
			free(name);
			continue;
		}
		strbuf_addf(&path, "/%s", name);
		if (!strcmp(name, "..")) {
			free(name);
			ret = error("'%s' leads out of '%s'", path.buf, base);
			break;
		}
		if (mkdirat(fd, name, 0755) && errno != EEXIST) {
			free(name);
			ret = error_errno("cannot create directory '%s'", path.buf);
			break;
		}
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(name);
		if (next < 0) {
			if (errno == ELOOP || errno == ENOTDIR) {
				struct stat st;

				if (!lstat(path.buf, &st) && S_ISLNK(st.st_mode))
					ret = error("'%s' is a symbolic link; kconfperf makes its own "
						    "directories in '%s'", path.buf, base);
				else
					ret = error("'%s' is not a directory", path.buf);
			} else {
				ret = error_errno("cannot open directory '%s'", path.buf);
			}
			break;
		}
		close(fd);
		fd = next;
	}
	close(fd);
	strbuf_release(&path);
	return ret;
}
