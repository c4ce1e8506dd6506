/* strbuf.h: a growable, always NUL-terminated byte buffer (after git's strbuf). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STRBUF_H
#define STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Invariants: buf is never NULL and buf[len] == '\0'.  A strbuf that has
 * never grown points at a shared empty string, so STRBUF_INIT needs no
 * allocation and strbuf_release() on it is a no-op.  Data may hold NUL bytes.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
/* Frees the memory and leaves sb as STRBUF_INIT. */
void strbuf_release(struct strbuf *sb);
/* Hands the buffer to the caller, who frees it; sb is left as STRBUF_INIT. */
char *strbuf_detach(struct strbuf *sb, size_t *len_out);
/* Makes room for `extra` more bytes (plus the NUL). */
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((__format__(__printf__, 2, 0)));

void strbuf_trim(struct strbuf *sb);
void strbuf_rtrim(struct strbuf *sb);

/* Appends everything readable from fd; returns bytes read or -1 (errno set). */
ssize_t strbuf_read_fd(struct strbuf *sb, int fd, size_t hint);
/*
 * strbuf_read_fd() that stops at max bytes: more is -1 with errno EFBIG
 * and sb as it was, after reading at most one byte past max, so a pipe,
 * a FIFO or /dev/zero costs max bytes, not all the memory there is.
 */
ssize_t strbuf_read_fd_max(struct strbuf *sb, int fd, size_t hint, size_t max);
/* Appends the file's contents; returns bytes read or -1 with an error printed. */
ssize_t strbuf_read_file(struct strbuf *sb, const char *path, size_t hint);
/*
 * strbuf_read_file() for input with a size cap: a path that cannot be
 * opened, a directory, or more than max bytes is an error, printed
 * ("PATH: larger than 16 MiB", error_too_large()).  A regular file larger
 * than max is refused before it is read; anything else (a FIFO, a pipe,
 * /dev/zero) is read up to the cap and no further.
 */
ssize_t strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max);
/* Prints "NAME: larger than SIZE" (strbuf_add_size()) with error(); returns -1. */
int error_too_large(const char *name, size_t max);
/* Appends a byte count as people write it: "16 MiB", "64 KiB", "1000 bytes". */
void strbuf_add_size(struct strbuf *sb, size_t bytes);
/* Appends one line from fp without its '\n'; returns 0, or EOF at end of file. */
int strbuf_getline(struct strbuf *sb, FILE *fp);

/* Replaces sb with the target of the symbolic link path; 0, or -1 and errno. */
int strbuf_readlink(struct strbuf *sb, const char *path);

/* write_file() of the buffer (write-file.h: a file kconfperf names, links never followed). */
int strbuf_write_file(const struct strbuf *sb, const char *path);
/* write_output() of the buffer (write-file.h: the user's file, links followed, "-" stdout). */
int strbuf_write_output(const struct strbuf *sb, const char *path);

#endif
