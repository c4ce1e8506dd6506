/* proc-stat.c: /proc/PID/stat parsed without allocation or stdio (proc-stat.h). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/proc-stat.h"

/* "/proc/PID/stat" into path (at least 32 bytes); -1 for a pid out of range. */
static int stat_path(char *path, long pid)
{
	char digits[24];
	size_t n = 0, len;

	if (pid <= 0)
		return -1;
	for (; pid; pid /= 10)
		digits[n++] = (char)('0' + pid % 10);
	memcpy(path, "/proc/", 6);
	for (len = 6; n; len++)
		path[len] = digits[--n];
	memcpy(path + len, "/stat", 6);
	return 0;
}

/* A decimal field (maybe negative) at *p, then the space after it; -1 when there is none. */
static int field(const char **p, unsigned long long *out)
{
	const char *s = *p;
	unsigned long long v = 0;
	int neg = *s == '-';

	s += neg;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (unsigned long long)(*s - '0');
	*out = neg ? (unsigned long long)-(long long)v : v;
	*p = *s == ' ' ? s + 1 : s;
	return 0;
}

int proc_stat_read(long pid, struct proc_stat *out)
{
	char path[32], buf[1024];
	const char *p;
	unsigned long long v;
	int fd, i;
	ssize_t n;

	if (stat_path(path, pid))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = memrchr(buf, ')', (size_t)n);
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	out->state = p[2];
	p += 4;
	for (i = 4; i <= 22; i++) {
		if (field(&p, &v))
			return -1;
		if (i == 4)
			out->ppid = (long)v;
		else if (i == 5)
			out->pgrp = (long)v;
		else if (i == 22)
			out->start = v;
	}
	return 0;
}
