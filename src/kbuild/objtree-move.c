/* objtree-move.c: point a copied kernel object tree at another source tree. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild/objtree-move.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* kbuild's records are small text files; a bigger one is not one. */
#define RECORD_MAX (16 << 20)

char *objtree_srctree(const char *objtree)
{
	char *path = xstrfmt("%s/Makefile", objtree);
	struct strbuf sb = STRBUF_INIT;
	const char *line, *rest;
	char *ret = NULL;
	size_t len;

	if (strbuf_read_file_max(&sb, path, 65536) < 0) {
		free(path);
		return NULL;
	}
	/* "include /path/to/linux/Makefile" */
	for (line = sb.buf; *line; line += len + (line[len] == '\n')) {
		len = strcspn(line, "\n");
		if (skip_prefix(line, "include /", &rest) && len > 17 &&
		    !strncmp(line + len - 9, "/Makefile", 9)) {
			rest--;
			ret = xstrndup(rest, (size_t)(line + len - 9 - rest));
			break;
		}
	}
	strbuf_release(&sb);
	free(path);
	return ret;
}

static int is_record(const char *rel, const char *name)
{
	return ends_with(name, ".cmd") || ends_with(name, ".d") || !strcmp(rel, "Makefile");
}

/* Whether c goes on a file name, so that "/src/ab" is not "/src/a" and "b". */
static int continues_name(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("._+-~", c));
}

/* Rewrites one file when it holds from; 1 rewritten, 0 not, -1 error. */
static int rewrite(const char *path, const char *from, const char *to, const char *keep,
		   const struct stat *st)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	size_t from_len = strlen(from), keep_len = strlen(keep);
	const char *p, *hit;
	char *tmp = NULL;
	int ret = 0;

	if (strbuf_read_file_max(&in, path, RECORD_MAX) < 0) {
		ret = -1;
		goto out;
	}
	if (memchr(in.buf, '\0', in.len) || !strstr(in.buf, from))
		goto out;
	for (p = in.buf; (hit = strstr(p, from)); p = hit + from_len) {
		strbuf_add(&out, p, (size_t)(hit - p));
		if (!strncmp(hit, keep, keep_len) || continues_name(hit[from_len]))
			strbuf_addstr(&out, from);
		else
			strbuf_addstr(&out, to);
	}
	strbuf_addstr(&out, p);
	if (out.len == in.len && !memcmp(out.buf, in.buf, in.len))
		goto out;	/* only names that go on, or the object tree's own */
	tmp = xstrfmt("%s.kconfperf-move", path);
	if (strbuf_write_file(&out, tmp)) {
		ret = -1;
		goto out;
	}
	{
		struct timespec times[2] = { st->st_atim, st->st_mtim };

		chmod(tmp, st->st_mode & 07777);
		utimensat(AT_FDCWD, tmp, times, 0);
	}
	if (rename(tmp, path)) {
		ret = error_errno("cannot replace '%s'", path);
		unlink(tmp);
		goto out;
	}
	ret = 1;
out:
	free(tmp);
	strbuf_release(&in);
	strbuf_release(&out);
	return ret;
}

static long walk(const char *top, const char *rel, const char *from, const char *to)
{
	char *dir = *rel ? xstrfmt("%s/%s", top, rel) : xstrdup(top);
	DIR *d = opendir(dir);
	struct dirent *de;
	long n = 0;

	if (!d) {
		n = error_errno("cannot read directory '%s'", dir);
		free(dir);
		return n;
	}
	while (n >= 0 && (de = readdir(d))) {
		char *child_rel, *child;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		child_rel = *rel ? xstrfmt("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		child = xstrfmt("%s/%s", top, child_rel);
		if (!lstat(child, &st)) {
			if (S_ISDIR(st.st_mode)) {
				long k = walk(top, child_rel, from, to);

				n = k < 0 ? -1 : n + k;
			} else if (S_ISREG(st.st_mode) && is_record(child_rel, de->d_name)) {
				int rc = rewrite(child, from, to, top, &st);

				n = rc < 0 ? -1 : n + rc;
			}
		}
		free(child_rel);
		free(child);
	}
	closedir(d);
	free(dir);
	return n;
}

long objtree_retarget(const char *objtree, const char *from, const char *to)
{
	if (!*from || !strcmp(from, to))
		return 0;
	return walk(objtree, "", from, to);
}
