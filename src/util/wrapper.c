/* wrapper.c: allocation and I/O helpers that die instead of returning NULL. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/usage.h"
#include "util/wrapper.h"

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die("out of memory");
	return p;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return p;
}

ssize_t xwrite_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t xread_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, p + done, len - done);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		if (!n)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int fd_above_stdio(int fd)
{
	int moved;

	if (fd < 0 || fd > 2)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int skip_prefix(const char *s, const char *prefix, const char **out)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return 0;
	*out = s + n;
	return 1;
}

int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

char *absolute_path(const char *path)
{
	char *cwd;
	char *ret;

	if (path[0] == '/')
		return xstrdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		die_errno("cannot get the current directory");
	ret = xstrfmt("%s/%s", cwd, path);
	free(cwd);
	return ret;
}

int mkdir_p(const char *path, int mode)
{
	char *p = xstrdup(path);
	char *q = p;
	int ret = 0;

	while (*q == '/')
		q++;
	for (;; q++) {
		char c = *q;

		if (c != '/' && c != '\0')
			continue;
		*q = '\0';
		if (*p && mkdir(p, (mode_t)mode)) {
			struct stat st;

			if (errno != EEXIST) {
				ret = error_errno("cannot create directory '%s'", p);
				goto out;
			}
			if (!stat(p, &st) && !S_ISDIR(st.st_mode)) {
				ret = error("'%s' is not a directory", p);
				goto out;
			}
		}
		*q = c;
		if (!c)
			break;
	}
out:
	free(p);
	return ret;
}

int remove_tree(const char *path)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	int ret = 0;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return error_errno("cannot stat '%s'", path);
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path))
			return error_errno("cannot remove '%s'", path);
		return 0;
	}
	dir = opendir(path);
	if (!dir)
		return error_errno("cannot open directory '%s'", path);
	while ((de = readdir(dir))) {
		char *child;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		child = xstrfmt("%s/%s", path, de->d_name);
		if (remove_tree(child))
			ret = -1;
		free(child);
	}
	closedir(dir);
	if (!ret && rmdir(path))
		ret = error_errno("cannot remove directory '%s'", path);
	return ret;
}

int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
