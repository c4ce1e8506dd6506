/* kernel-source.c: a kernel source tree to build from, and its content identity. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan/patch.h"
#include "plan/kernel-source.h"
#include "util/own-dir.h"
#include "util/run-command.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

char *default_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct passwd *pw;

	/* The XDG base directory spec: a relative path is to be ignored. */
	if (xdg && *xdg == '/')
		return xstrfmt("%s/kconfperf", xdg);
	if (home && *home == '/')
		return xstrfmt("%s/.cache/kconfperf", home);
	/* No usable HOME (a service, env -i): the password database's, never /tmp. */
	errno = 0;
	pw = getpwuid(geteuid());
	if (pw && pw->pw_dir && *pw->pw_dir == '/')
		return xstrfmt("%s/.cache/kconfperf", pw->pw_dir);
	error("no home directory for the build cache (HOME is %s and uid %ld has no home "
	      "in the password database); set HOME or --cache", home ? "not absolute" : "unset",
	      (long)geteuid());
	return NULL;
}

int cache_dir_prepare(const char *cache)
{
	static const char *const subs[] = { "sources", "builds", "trees", "tmp", NULL };
	int i;

	if (own_dir_make(cache, "the cache"))
		return -1;
	for (i = 0; subs[i]; i++) {
		char *path = xstrfmt("%s/%s", cache, subs[i]);
		char *what = xstrfmt("the cache's %s/", subs[i]);
		int ret = own_dir_make(path, what);

		free(path);
		free(what);
		if (ret)
			return -1;
	}
	return 0;
}

void kernel_source_release(struct kernel_source *ks)
{
	free(ks->tree);
	free(ks->id);
	free(ks->version);
	free(ks->origin);
	free(ks->base_id);
	free(ks->patch);
	strvec_clear(&ks->patched);
	memset(ks, 0, sizeof(*ks));
	strvec_init(&ks->patched);
}

static int is_file(const char *dir, const char *name)
{
	char *p = xstrfmt("%s/%s", dir, name);
	struct stat st;
	int ret = !stat(p, &st);

	free(p);
	return ret;
}

int kernel_source_check_tree(const char *dir, const char *what)
{
	if (!is_file(dir, "Makefile") || !is_file(dir, "Kconfig") ||
	    !is_file(dir, "scripts/kconfig/Makefile") || !is_file(dir, "arch/x86/Kconfig"))
		return error("'%s' is not a kernel source tree (expected Makefile, Kconfig, "
			     "scripts/kconfig/ and arch/x86/Kconfig in '%s')", what, dir);
	if (is_file(dir, ".config") || is_file(dir, "include/config/auto.conf"))
		return error("'%s' has been configured in place; kernel builds with O= need a "
			     "clean tree (run 'make mrproper' in '%s')", what, dir);
	return 0;
}

/* "6.1.158" from the top Makefile's VERSION, PATCHLEVEL, SUBLEVEL, EXTRAVERSION. */
static char *kernel_version(const char *tree)
{
	char *path = xstrfmt("%s/Makefile", tree);
	FILE *fp = fopen(path, "r");
	struct strbuf line = STRBUF_INIT;
	char v[4][64] = { "", "", "", "" };
	static const char *const keys[4] = { "VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION" };
	int lines = 0, i;
	char *ret;

	free(path);
	if (!fp)
		return xstrdup("unknown");
	while (lines++ < 20 && strbuf_getline(&line, fp) != EOF) {
		for (i = 0; i < 4; i++) {
			const char *rest;

			if (!skip_prefix(line.buf, keys[i], &rest))
				continue;
			while (*rest == ' ' || *rest == '\t')
				rest++;
			if (*rest++ != '=')
				continue;
			while (*rest == ' ' || *rest == '\t')
				rest++;
			snprintf(v[i], sizeof(v[i]), "%s", rest);
		}
	}
	fclose(fp);
	strbuf_release(&line);
	if (!*v[0])
		return xstrdup("unknown");
	ret = xstrfmt("%s.%s%s%s%s", v[0], v[1], *v[2] ? "." : "", v[2], v[3]);
	return ret;
}

static int skip_in_identity(const char *name)
{
	return !strcmp(name, ".git") || !strcmp(name, ".config") ||
	       !strcmp(name, ".config.old") || starts_with(name, ".tmp") ||
	       ends_with(name, ".o") || ends_with(name, ".cmd");
}

/* Feeds "relpath size mtime\n" of every file under dir/rel, sorted, into c. */
static int hash_dir(struct sha256 *c, const char *top, const char *rel)
{
	char *path = *rel ? xstrfmt("%s/%s", top, rel) : xstrdup(top);
	struct dirent **names = NULL;
	int n, i, ret = 0;

	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		ret = error_errno("cannot read directory '%s'", path);
		goto out;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *child_rel, *child;
		struct stat st;

		if (!strcmp(name, ".") || !strcmp(name, "..") || skip_in_identity(name))
			continue;
		child_rel = *rel ? xstrfmt("%s/%s", rel, name) : xstrdup(name);
		child = xstrfmt("%s/%s", top, child_rel);
		if (!strcmp(child_rel, "include/config") || !strcmp(child_rel, "include/generated")) {
			/* configured-tree outputs */
		} else if (!lstat(child, &st) && !ret) {
			if (S_ISDIR(st.st_mode)) {
				ret = hash_dir(c, top, child_rel);
			} else {
				char line[PATH_MAX + 64];
				int len = snprintf(line, sizeof(line), "%s %lld %lld\n", child_rel,
						   (long long)st.st_size, (long long)st.st_mtime);

				sha256_update(c, line, (size_t)len);
			}
		}
		free(child_rel);
		free(child);
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(path);
	return ret;
}

static int is_archive(const char *path)
{
	return ends_with(path, ".tar.xz") || ends_with(path, ".tar.gz") ||
	       ends_with(path, ".tgz") || ends_with(path, ".tar.bz2") ||
	       ends_with(path, ".tar.zst") || ends_with(path, ".tar");
}

/* The only directory inside dir (archives hold one top directory). */
static char *single_subdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;
	int count = 0;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		count++;
		if (de->d_type == DT_DIR && !found)
			found = xstrdup(de->d_name);
	}
	closedir(d);
	if (count != 1) {
		free(found);
		return NULL;
	}
	return found;
}

/* nftw() takes no data pointer: what tame_entry() found, for the note. */
static long tamed_nodes, tamed_modes;

/*
 * A tree needs regular files, directories and links: a device node or a
 * FIFO an archive carries goes, and no file keeps a setuid, setgid or
 * sticky bit, or a write bit for group or others.
 */
static int tame_entry(const char *path, const struct stat *st, int type UNUSED,
		      struct FTW *ftw UNUSED)
{
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) || S_ISFIFO(st->st_mode) ||
	    S_ISSOCK(st->st_mode)) {
		if (unlink(path))
			return error_errno("cannot remove '%s'", path);
		tamed_nodes++;
	} else if (!S_ISLNK(st->st_mode) && (st->st_mode & (07000 | 022))) {
		if (chmod(path, st->st_mode & 0755))
			return error_errno("cannot change the mode of '%s'", path);
		tamed_modes++;
	}
	return 0;
}

static int extract_archive(const char *archive, const char *dest, const char *tmp)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	/* 0700 until tamed: no one else reaches what tar makes meanwhile. */
	if (mkdir(tmp, 0700))
		return error_errno("cannot create directory '%s'", tmp);
	/*
	 * As root, tar would keep the archive's owners and modes: a tree
	 * that its files' uid may change under kconfperf, setuid files and
	 * 0777 modes in the cache.
	 */
	strvec_pushv(&cp.args, (const char *[]){ "tar", "-xf", archive, "-C", tmp,
		"--no-same-owner", "--no-same-permissions", NULL });
	cp.out.mode = CHILD_IO_NULL;
	cp.err.mode = CHILD_IO_CAPTURE;
	cp.err.buf = &err;
	cp.err.cap = 4096;
	note("extracting '%s' into '%s'", archive, dest);
	if (run_command(&cp)) {
		struct strbuf why = STRBUF_INIT;

		child_process_describe(&why, &cp);
		strbuf_rtrim(&err);
		ret = error("cannot extract '%s': tar %s%s%s", archive, why.buf,
			    err.len ? ": " : "", err.buf);
		strbuf_release(&why);
		remove_tree(tmp);
		goto out;
	}
	tamed_nodes = tamed_modes = 0;
	if (nftw(tmp, tame_entry, 16, FTW_PHYS) || chmod(tmp, 0755)) {
		ret = error("cannot make the extracted '%s' safe to use in '%s'", archive, tmp);
		remove_tree(tmp);
		goto out;
	}
	if (tamed_nodes || tamed_modes)
		warning("'%s' holds %ld device node%s or FIFO%s (left out) and %ld file%s with "
			"setuid, setgid or group/other write bits (cleared)", archive, tamed_nodes,
			tamed_nodes == 1 ? "" : "s", tamed_nodes == 1 ? "" : "s", tamed_modes,
			tamed_modes == 1 ? "" : "s");
	if (rename(tmp, dest)) {
		/* Another kconfperf extracted the same archive meanwhile. */
		if (errno != ENOTEMPTY && errno != EEXIST)
			ret = error_errno("cannot rename '%s' to '%s'", tmp, dest);
		remove_tree(tmp);
	}
out:
	strbuf_release(&err);
	child_process_release(&cp);
	return ret;
}

static int open_archive(struct kernel_source *out, const char *src, const char *cache_dir)
{
	char hex[SHA256_HEX_SIZE];
	char *dest = NULL, *tmp = NULL, *top = NULL;
	struct stat st;
	int ret = -1, extracted = 0;

	if (sha256_file(src, hex) || cache_dir_prepare(cache_dir))
		return -1;
	dest = xstrfmt("%s/sources/%.16s", cache_dir, hex);
	if (stat(dest, &st)) {
		tmp = xstrfmt("%s/sources/tmp.%.16s.%ld", cache_dir, hex, (long)getpid());
		remove_tree(tmp);
		if (extract_archive(src, dest, tmp))
			goto out;
		extracted = 1;
	}
	top = single_subdir(dest);
	if (!top) {
		error("'%s' does not hold one top directory", src);
		goto bad;
	}
	out->tree = xstrfmt("%s/%s", dest, top);
	if (kernel_source_check_tree(out->tree, src))
		goto bad;
	out->id = xstrfmt("tar:%s", hex);
	ret = 0;
	goto out;
bad:
	/*
	 * What this call extracted and is no kernel tree would stay in the
	 * cache for good; a tree found there is left alone (another kconfperf
	 * may be using it).
	 */
	if (extracted)
		remove_tree(dest);
out:
	free(dest);
	free(tmp);
	free(top);
	return ret;
}

int kernel_source_open(struct kernel_source *out, const char *src, const char *cache_dir)
{
	struct stat st;
	char *abs = NULL;

	memset(out, 0, sizeof(*out));
	strvec_init(&out->patched);
	if (stat(src, &st))
		return error_errno("cannot use source '%s'", src);
	if (S_ISDIR(st.st_mode)) {
		struct sha256 c;
		char hex[SHA256_HEX_SIZE];

		abs = realpath(src, NULL);
		if (!abs)
			return error_errno("cannot resolve '%s'", src);
		out->tree = abs;
		sha256_init(&c);
		if (kernel_source_check_tree(abs, src) || hash_dir(&c, abs, ""))
			goto fail;
		sha256_final_hex(&c, hex);
		out->id = xstrfmt("dir:%s", hex);
	} else if (S_ISREG(st.st_mode) && is_archive(src)) {
		if (open_archive(out, src, cache_dir))
			goto fail;
	} else {
		return error("source '%s' is neither a kernel tree directory nor a "
			     ".tar.xz/.tar.gz/.tar.bz2/.tar archive of one", src);
	}
	out->version = kernel_version(out->tree);
	out->origin = xstrdup(src);
	return 0;
fail:
	kernel_source_release(out);
	return -1;
}

/* A patched tree's copy of base's file rel: its own inode, so patching it leaves base's alone. */
static int unlink_copy(const char *tree, const char *rel)
{
	char *path = xstrfmt("%s/%s", tree, rel);
	char *tmp = xstrfmt("%s.kconfperf-copy", path);
	struct stat st;
	int ret = 0;

	if (lstat(path, &st) || !S_ISREG(st.st_mode) || st.st_nlink < 2)
		goto out;	/* new, already apart, or not a file: patch(1) decides */
	{
		struct child_process cp = CHILD_PROCESS_INIT;

		strvec_pushv(&cp.args, (const char *[]){ "cp", "-p", path, tmp, NULL });
		cp.out.mode = CHILD_IO_NULL;
		if (run_command(&cp) || rename(tmp, path)) {
			ret = error_errno("cannot copy '%s' apart from the tree it patches", path);
			unlink(tmp);
		}
		child_process_release(&cp);
	}
out:
	free(path);
	free(tmp);
	return ret;
}

/* cp -al from to (hard links), or a plain copy where links cannot go. */
static int link_tree(const char *from, const char *to)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	strvec_pushv(&cp.args, (const char *[]){ "cp", "-al", from, to, NULL });
	cp.out.mode = CHILD_IO_NULL;
	cp.err.mode = CHILD_IO_NULL;
	if (run_command(&cp)) {
		child_process_release(&cp);
		remove_tree(to);
		strvec_pushv(&cp.args, (const char *[]){ "cp", "-a", "--reflink=auto", from, to,
			NULL });
		cp.out.mode = CHILD_IO_NULL;
		cp.err.mode = CHILD_IO_CAPTURE;
		cp.err.buf = &err;
		cp.err.cap = 4096;
		if (run_command(&cp)) {
			strbuf_rtrim(&err);
			ret = error("cannot copy '%s' to '%s'%s%s", from, to, err.len ? ": " : "",
				    err.buf);
		}
	}
	strbuf_release(&err);
	child_process_release(&cp);
	return ret;
}

/* Makes dest/<name>: base's tree, linked, with the patch applied. */
static int make_patched_tree(const struct kernel_source *base, const struct kernel_patch *kp,
			     const char *dest, const char *name, const char *tmp)
{
	char *tree = xstrfmt("%s/%s", tmp, name), *copy = xstrfmt("%s/patch", tmp);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = -1;

	if (kernel_patch_apply(kp, base->tree, base->version, 1))
		goto out;
	remove_tree(tmp);
	if (mkdir_p(tmp, 0755))
		goto out;
	note("applying '%s' to a copy of %s in '%s'", kp->path, base->version, dest);
	if (link_tree(base->tree, tree))
		goto fail;
	for (i = 0; i < kp->files.nr; i++)
		if (unlink_copy(tree, kp->files.v[i]))
			goto fail;
	strbuf_add(&sb, kp->text.buf, kp->text.len);
	if (kernel_patch_apply(kp, tree, base->version, 0) || strbuf_write_file(&sb, copy))
		goto fail;
	if (rename(tmp, dest)) {
		/* Another kconfperf made the same tree meanwhile. */
		if (errno != ENOTEMPTY && errno != EEXIST) {
			error_errno("cannot rename '%s' to '%s'", tmp, dest);
			goto fail;
		}
		remove_tree(tmp);
	}
	ret = 0;
	goto out;
fail:
	remove_tree(tmp);
out:
	strbuf_release(&sb);
	free(tree);
	free(copy);
	return ret;
}

int kernel_source_patch(struct kernel_source *out, const struct kernel_source *base,
			const char *patch_path, const char *cache_dir)
{
	struct kernel_patch kp = KERNEL_PATCH_INIT;
	struct sha256 c;
	char hex[SHA256_HEX_SIZE];
	const char *name = strrchr(base->tree, '/');
	char *dest = NULL, *tmp = NULL;
	struct stat st;
	size_t i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	strvec_init(&out->patched);
	name = name ? name + 1 : base->tree;
	if (kernel_patch_read(&kp, patch_path) || cache_dir_prepare(cache_dir)) {
		kernel_patch_release(&kp);
		return -1;
	}
	sha256_init(&c);
	sha256_update(&c, "kconfperf-patch-1", 18);
	sha256_update(&c, base->id, strlen(base->id) + 1);
	sha256_update(&c, kp.text.buf, kp.text.len);
	sha256_final_hex(&c, hex);
	dest = xstrfmt("%s/sources/p%.16s", cache_dir, hex);
	if (stat(dest, &st)) {
		tmp = xstrfmt("%s/sources/tmp.p%.16s.%ld", cache_dir, hex, (long)getpid());
		if (make_patched_tree(base, &kp, dest, name, tmp))
			goto out;
	}
	out->tree = xstrfmt("%s/%s", dest, name);
	if (kernel_source_check_tree(out->tree, patch_path))
		goto out;
	out->id = xstrfmt("patch:%s", hex);
	out->version = kernel_version(out->tree);
	out->origin = xstrdup(base->origin);
	out->base_id = xstrdup(base->id);
	out->patch = xstrdup(patch_path);
	for (i = 0; i < kp.files.nr; i++)
		strvec_push(&out->patched, kp.files.v[i]);
	ret = 0;
out:
	if (ret)
		kernel_source_release(out);
	kernel_patch_release(&kp);
	free(dest);
	free(tmp);
	return ret;
}
