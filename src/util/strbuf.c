/* strbuf.c: a growable, always NUL-terminated byte buffer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/usage.h"
#include "util/write-file.h"
#include "util/wrapper.h"

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len_out)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len_out)
		*len_out = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	int new_buf = !sb->alloc;

	if (extra >= SIZE_MAX - sb->len - 1)
		die("strbuf: cannot grow by %zu bytes", extra);
	if (new_buf)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
	if (new_buf)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		die("strbuf: setlen %zu beyond allocation", len);
	sb->len = len;
	if (sb->buf != strbuf_slopbuf)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	if (!n)
		return;
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("strbuf: bad format '%s'", fmt);
	if ((size_t)n >= (sb->alloc ? sb->alloc - sb->len : 0)) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	size_t len = sb->len;

	while (len && isspace((unsigned char)sb->buf[len - 1]))
		len--;
	strbuf_setlen(sb, len);
}

void strbuf_trim(struct strbuf *sb)
{
	size_t skip = 0;

	strbuf_rtrim(sb);
	while (skip < sb->len && isspace((unsigned char)sb->buf[skip]))
		skip++;
	if (skip) {
		memmove(sb->buf, sb->buf + skip, sb->len - skip);
		strbuf_setlen(sb, sb->len - skip);
	}
}

ssize_t strbuf_read_fd_max(struct strbuf *sb, int fd, size_t hint, size_t max)
{
	size_t start = sb->len;

	strbuf_grow(sb, (hint ? hint : 8192) + 1);
	for (;;) {
		size_t room, got = sb->len - start;
		ssize_t n;

		if (sb->alloc - sb->len < 4096)
			strbuf_grow(sb, sb->alloc);
		room = sb->alloc - sb->len - 1;
		/* One byte past the cap tells "exactly max" from "more". */
		if (max < SIZE_MAX && room > max - got + 1)
			room = max - got + 1;
		n = read(fd, sb->buf + sb->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			strbuf_setlen(sb, start);
			return -1;
		}
		if (!n)
			break;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if (sb->len - start > max) {
			strbuf_setlen(sb, start);
			errno = EFBIG;
			return -1;
		}
	}
	return (ssize_t)(sb->len - start);
}

ssize_t strbuf_read_fd(struct strbuf *sb, int fd, size_t hint)
{
	return strbuf_read_fd_max(sb, fd, hint, SIZE_MAX);
}

ssize_t strbuf_read_file(struct strbuf *sb, const char *path, size_t hint)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	n = strbuf_read_fd(sb, fd, hint);
	if (n < 0)
		error_errno("cannot read '%s'", path);
	close(fd);
	return n;
}

void strbuf_add_size(struct strbuf *sb, size_t bytes)
{
	if (bytes && !(bytes % ((size_t)1 << 30)))
		strbuf_addf(sb, "%zu GiB", bytes >> 30);
	else if (bytes && !(bytes % ((size_t)1 << 20)))
		strbuf_addf(sb, "%zu MiB", bytes >> 20);
	else if (bytes && !(bytes % 1024))
		strbuf_addf(sb, "%zu KiB", bytes >> 10);
	else
		strbuf_addf(sb, "%zu bytes", bytes);
}

int error_too_large(const char *name, size_t max)
{
	struct strbuf cap = STRBUF_INIT;

	strbuf_add_size(&cap, max);
	error("%s: larger than %s", name, cap.buf);
	strbuf_release(&cap);
	return -1;
}

ssize_t strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	ssize_t n = -1;

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	if (fstat(fd, &st)) {
		error_errno("cannot read '%s'", path);
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		error("cannot read '%s': is a directory", path);
		goto out;
	}
	/* A regular file says its size; a pipe, FIFO or device is cut at the cap. */
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max) {
		error_too_large(path, max);
		goto out;
	}
	n = strbuf_read_fd_max(sb, fd, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, max);
	if (n < 0 && errno == EFBIG)
		error_too_large(path, max);
	else if (n < 0)
		error_errno("cannot read '%s'", path);
out:
	close(fd);
	return n;
}

int strbuf_getline(struct strbuf *sb, FILE *fp)
{
	int c;

	strbuf_reset(sb);
	c = getc(fp);
	if (c == EOF)
		return EOF;
	while (c != EOF && c != '\n') {
		strbuf_addch(sb, c);
		c = getc(fp);
	}
	return 0;
}

int strbuf_readlink(struct strbuf *sb, const char *path)
{
	size_t size = 256;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, size);
		n = readlink(path, sb->buf, size);
		if (n < 0)
			return -1;
		if ((size_t)n < size) {
			strbuf_setlen(sb, n);
			return 0;
		}
		size *= 2;
	}
}

int strbuf_write_file(const struct strbuf *sb, const char *path)
{
	return write_file(path, sb->buf, sb->len);
}

int strbuf_write_output(const struct strbuf *sb, const char *path)
{
	return write_output(path, sb->buf, sb->len);
}
