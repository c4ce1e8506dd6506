/* wrapper.h: allocation and I/O helpers that die instead of returning NULL. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef WRAPPER_H
#define WRAPPER_H

#include <stddef.h>
#include <sys/types.h>

/* These die on out-of-memory; the caller frees what they return. */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a malloc'd formatted string. */
char *xstrfmt(const char *fmt, ...) __attribute__((__format__(__printf__, 1, 2)));

/* Grow `array` (of `nr` used, `alloc` allocated) to hold at least `want`. */
#define ALLOC_GROW(array, want, alloc) \
	do { \
		if ((size_t)(want) > (size_t)(alloc)) { \
			size_t alloc_grow_new_ = ((size_t)(alloc) + 16) * 3 / 2; \
			if (alloc_grow_new_ < (size_t)(want)) \
				alloc_grow_new_ = (want); \
			(array) = xrealloc((array), alloc_grow_new_ * sizeof(*(array))); \
			(alloc) = alloc_grow_new_; \
		} \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* write(2) and read(2) that retry on EINTR and short counts. */
ssize_t xwrite_all(int fd, const void *buf, size_t len);
ssize_t xread_all(int fd, void *buf, size_t len);
/*
 * fd, or when it is 0, 1 or 2 a close-on-exec duplicate of it above them
 * (fd itself closed; -1 when that fails): a child dup2()s the fds it is
 * given onto 0, 1 and 2 in that order, and one that is itself 0, 1 or 2
 * (kconfperf run with a standard fd closed) would be overwritten first.
 */
int fd_above_stdio(int fd);

int starts_with(const char *s, const char *prefix);
/* If s starts with prefix, set *out to the rest and return 1. */
int skip_prefix(const char *s, const char *prefix, const char **out);
int ends_with(const char *s, const char *suffix);

/* path made absolute against the current directory (not resolved); malloc'd. */
char *absolute_path(const char *path);
/*
 * mkdir -p; returns 0 or -1 with an error printed, "'a/b' is not a
 * directory" when a file is in the way.
 */
int mkdir_p(const char *path, int mode);
/* rm -rf; returns 0 or -1 with an error printed. */
int remove_tree(const char *path);
/* Number of online CPUs, at least 1. */
int online_cpus(void);
/* Seconds on the monotonic clock. */
double now_seconds(void);

#endif
