/* cache-transfer.c: carry a build cache entry to another host's cache, verified on arrival. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild/cache-transfer.h"
#include "kbuild/kbuild.h"
#include "util/own-dir.h"
#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define MANIFEST "MANIFEST"
#define MANIFEST_HEAD "kconfperf cache entry 1\n"

/* The files an entry may hold, MANIFEST aside (kbuild.c's store_entry()). */
static const char *const entry_files[] = {
	"bzImage", "Image", "config", "build.log", "meta", KBUILD_MAP_NAME, KBUILD_EXTABLE_NAME,
	NULL,
};

static int is_entry_file(const char *name)
{
	size_t i;

	for (i = 0; entry_files[i]; i++)
		if (!strcmp(name, entry_files[i]))
			return 1;
	return 0;
}

static int is_key(const char *name)
{
	size_t n = strspn(name, "0123456789abcdef");

	return n == SHA256_HEX_SIZE - 1 && !name[n];
}

/* Runs argv; its stdout into out when not NULL.  0, or -1 naming what. */
static int run_tar(const char **argv, struct strbuf *out, const char *what)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	strvec_pushv(&cp.args, argv);
	strvec_push(&cp.env, "LC_ALL=C");
	cp.out.mode = out ? CHILD_IO_CAPTURE : CHILD_IO_NULL;
	cp.out.buf = out;
	cp.out.cap = out ? 1024 * 1024 : 0;
	cp.err.mode = CHILD_IO_CAPTURE;
	cp.err.buf = &err;
	cp.err.cap = 4096;
	if (run_command(&cp)) {
		struct strbuf why = STRBUF_INIT;

		child_process_describe(&why, &cp);
		strbuf_rtrim(&err);
		ret = error("%s: tar %s%s%s", what, why.buf, err.len ? ": " : "", err.buf);
		strbuf_release(&why);
	}
	strbuf_release(&err);
	child_process_release(&cp);
	return ret;
}

/* The one finished build whose key starts with prefix (4 hex digits at least). */
static int find_key(const char *cache_dir, const char *prefix, char key[SHA256_HEX_SIZE])
{
	char *dir = xstrfmt("%s/builds", cache_dir);
	size_t n = strlen(prefix), found = 0;
	struct dirent *e;
	DIR *d;

	if (n < 4 || n >= SHA256_HEX_SIZE || strspn(prefix, "0123456789abcdef") != n) {
		free(dir);
		return error("'%s' is not a build key (hex digits, as 'kconfperf build' shows them)",
			     prefix);
	}
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		char *meta;

		if (!is_key(e->d_name) || strncmp(e->d_name, prefix, n))
			continue;
		meta = xstrfmt("%s/%s/meta", dir, e->d_name);
		if (!access(meta, R_OK) && !found++)
			memcpy(key, e->d_name, SHA256_HEX_SIZE);
		free(meta);
	}
	if (d)
		closedir(d);
	free(dir);
	if (found == 1)
		return 0;
	if (found)
		return error("'%s' names %zu builds in the cache '%s': give more of the key",
			     prefix, found, cache_dir);
	return error("no finished build '%s' in the cache '%s'", prefix, cache_dir);
}

int cache_export(const char *cache_dir, const char *key_arg, const char *file,
		 char key[SHA256_HEX_SIZE])
{
	struct strbuf manifest = STRBUF_INIT;
	char *entry = NULL, *stage = NULL, *dest = NULL, *tmp = NULL, *manifest_path = NULL;
	const char *tmpdir = getenv("TMPDIR");
	size_t i;
	int ret = -1;

	if (find_key(cache_dir, key_arg, key))
		goto out;
	entry = xstrfmt("%s/builds/%s", cache_dir, key);
	stage = xstrfmt("%s/kconfperf-export-XXXXXX", tmpdir && *tmpdir == '/' ? tmpdir : "/tmp");
	if (!mkdtemp(stage)) {
		error_errno("cannot make a directory '%s'", stage);
		free(stage);
		stage = NULL;
		goto out;
	}
	dest = xstrfmt("%s/%s", stage, key);
	if (mkdir(dest, 0755)) {
		error_errno("cannot make '%s'", dest);
		goto out;
	}
	strbuf_addstr(&manifest, MANIFEST_HEAD);
	for (i = 0; entry_files[i]; i++) {
		char *from = xstrfmt("%s/%s", entry, entry_files[i]);
		char *to = xstrfmt("%s/%s", dest, entry_files[i]);
		const char *cp[] = { "cp", from, to, NULL };
		char hex[SHA256_HEX_SIZE];
		int rc = 0;

		if (!access(from, F_OK)) {
			rc = run_tar(cp, NULL, "cannot copy the entry") || sha256_file(to, hex);
			if (!rc)
				strbuf_addf(&manifest, "sha256=%s %s\n", hex, entry_files[i]);
		}
		free(from);
		free(to);
		if (rc)
			goto out;
	}
	manifest_path = xstrfmt("%s/" MANIFEST, dest);
	tmp = xstrfmt("%s.new-%ld", file, (long)getpid());
	if (strbuf_write_file(&manifest, manifest_path))
		goto out;
	{
		const char *tar[] = { "tar", "-C", stage, "-czf", tmp, key, NULL };

		if (run_tar(tar, NULL, "cannot write the entry"))
			goto out;
	}
	if (rename(tmp, file)) {
		error_errno("cannot rename '%s' to '%s'", tmp, file);
		goto out;
	}
	ret = 0;
out:
	if (tmp)
		unlink(tmp);
	if (stage)
		remove_tree(stage);
	strbuf_release(&manifest);
	free(entry);
	free(stage);
	free(dest);
	free(tmp);
	free(manifest_path);
	return ret;
}

/* The archive's names: <key>/ and <key>/<entry file> only.  Fills key. */
static int check_listing(const char *file, const char *listing, char key[SHA256_HEX_SIZE])
{
	const char *line, *next;
	int have_key = 0;

	for (line = listing; *line; line = next) {
		size_t len = strcspn(line, "\n");
		char *name = xstrndup(line, len), *slash = strchr(name, '/');
		int ok;

		next = line + len + (line[len] == '\n');
		if (slash)
			*slash = '\0';
		ok = is_key(name) && (!have_key || !strcmp(name, key));
		if (ok && !have_key) {
			memcpy(key, name, SHA256_HEX_SIZE);
			have_key = 1;
		}
		if (ok && slash && slash[1])
			ok = (is_entry_file(slash + 1) || !strcmp(slash + 1, MANIFEST));
		else if (ok && !slash)
			ok = 0;
		free(name);
		if (!ok)
			return error("'%s' holds '%.*s', which is no part of one kconfperf cache "
				     "entry: not imported", file, (int)len, line);
	}
	if (!have_key)
		return error("'%s' is empty: not a kconfperf cache entry", file);
	return 0;
}

/* Every file of the extracted entry is a regular file that MANIFEST lists with its checksum. */
static int check_files(const char *file, const char *dir)
{
	char *path = xstrfmt("%s/" MANIFEST, dir);
	struct strbuf sb = STRBUF_INIT;
	struct strvec listed = STRVEC_INIT;
	const char *line, *next;
	size_t i;
	int ret = -1;

	if (strbuf_read_file_max(&sb, path, 64 * 1024) < 0 ||
	    strncmp(sb.buf, MANIFEST_HEAD, strlen(MANIFEST_HEAD))) {
		error("'%s' has no kconfperf manifest: not imported", file);
		goto out;
	}
	for (line = sb.buf + strlen(MANIFEST_HEAD); *line; line = next) {
		size_t len = strcspn(line, "\n");
		char hex[SHA256_HEX_SIZE], want[SHA256_HEX_SIZE];
		const char *name;
		char *f;
		struct stat st;

		next = line + len + (line[len] == '\n');
		if (len < 7 + SHA256_HEX_SIZE || strncmp(line, "sha256=", 7) ||
		    line[7 + SHA256_HEX_SIZE - 1] != ' ') {
			error("'%s': its manifest line '%.*s' is not 'sha256=HEX NAME'", file,
			      (int)len, line);
			goto out;
		}
		memcpy(want, line + 7, SHA256_HEX_SIZE - 1);
		want[SHA256_HEX_SIZE - 1] = '\0';
		name = line + 7 + SHA256_HEX_SIZE;
		f = xstrndup(name, (size_t)(line + len - name));
		strvec_push(&listed, f);
		free(path);
		path = xstrfmt("%s/%s", dir, f);
		free(f);
		if (!is_entry_file(listed.v[listed.nr - 1]) || lstat(path, &st) ||
		    !S_ISREG(st.st_mode)) {
			error("'%s': '%s' is not a file of the entry: not imported", file,
			      listed.v[listed.nr - 1]);
			goto out;
		}
		if (sha256_file(path, hex))
			goto out;
		if (strcmp(hex, want)) {
			error("'%s': the checksum of '%s' is %s, not the %s it was exported with: "
			      "not imported", file, listed.v[listed.nr - 1], hex, want);
			goto out;
		}
	}
	for (i = 0; entry_files[i]; i++) {
		free(path);
		path = xstrfmt("%s/%s", dir, entry_files[i]);
		if (!access(path, F_OK) && strvec_find(&listed, entry_files[i]) < 0) {
			error("'%s': '%s' is not in its manifest: not imported", file,
			      entry_files[i]);
			goto out;
		}
	}
	if (strvec_find(&listed, "config") < 0 || strvec_find(&listed, "meta") < 0 ||
	    (strvec_find(&listed, "bzImage") < 0 && strvec_find(&listed, "Image") < 0)) {
		error("'%s' lacks the entry's image, config or meta: not imported", file);
		goto out;
	}
	ret = 0;
out:
	free(path);
	strbuf_release(&sb);
	strvec_clear(&listed);
	return ret;
}

/*
 * The key the entry's config and meta give: its source identity, compiler,
 * compiler program (an entry made before meta kept it: gcc), make and arch
 * variables.  It must be the key the entry is filed under.
 */
static int check_key(const char *file, const char *dir, const char *key)
{
	struct strbuf meta = STRBUF_INIT, config = STRBUF_INIT;
	struct strvec make_vars = STRVEC_INIT, arch_vars = STRVEC_INIT;
	char *source = NULL, *compiler = NULL, *cc = NULL, *filed = NULL;
	char *meta_path = xstrfmt("%s/meta", dir), *config_path = xstrfmt("%s/config", dir);
	const char *line, *next, *v;
	char got[SHA256_HEX_SIZE];
	int ret = -1;

	if (strbuf_read_file_max(&meta, meta_path, 1024 * 1024) < 0 ||
	    strbuf_read_file_max(&config, config_path, 64 * 1024 * 1024) < 0) {
		error("'%s': cannot read the entry's meta and config", file);
		goto out;
	}
	for (line = meta.buf; *line; line = next) {
		size_t len = strcspn(line, "\n");
		char *l = xstrndup(line, len);

		next = line + len + (line[len] == '\n');
		if (skip_prefix(l, "source=", &v) && !source)
			source = xstrdup(v);
		else if (skip_prefix(l, "compiler=", &v) && !compiler)
			compiler = xstrdup(v);
		else if (skip_prefix(l, "cc=", &v) && !cc)
			cc = xstrdup(v);
		else if (skip_prefix(l, "key=", &v) && !filed)
			filed = xstrdup(v);
		else if (skip_prefix(l, "make_var=", &v))
			strvec_push(&make_vars, v);
		else if (skip_prefix(l, "arch_var=", &v))
			strvec_push(&arch_vars, v);
		free(l);
	}
	if (!source || !compiler || !filed || strcmp(filed, key)) {
		error("'%s': the entry's meta does not say its source, compiler and key %s: "
		      "not imported", file, key);
		goto out;
	}
	{
		struct kbuild_key_inputs in = {
			.source_id = source, .config = config.buf, .compiler_version = compiler,
			.cc = cc ? cc : "gcc", .make_vars = &make_vars, .arch_vars = &arch_vars,
		};

		kbuild_key_of(&in, got);
	}
	if (strcmp(got, key)) {
		error("'%s': its config, source and compiler give the key %s, not the %s it is "
		      "filed under: not imported", file, got, key);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&meta);
	strbuf_release(&config);
	strvec_clear(&make_vars);
	strvec_clear(&arch_vars);
	free(source);
	free(compiler);
	free(cc);
	free(filed);
	free(meta_path);
	free(config_path);
	return ret;
}

int cache_import(const char *cache_dir, const char *file, char key[SHA256_HEX_SIZE],
		 int *already)
{
	struct strbuf listing = STRBUF_INIT;
	char *tmp_root = xstrfmt("%s/tmp", cache_dir), *builds = xstrfmt("%s/builds", cache_dir);
	char *work = NULL, *dir = NULL, *final = NULL, *meta = NULL, *manifest = NULL;
	int ret = -1;

	*already = 0;
	{
		const char *tar[] = { "tar", "-tzf", file, NULL };

		if (access(file, R_OK)) {
			error_errno("cannot read '%s'", file);
			goto out;
		}
		if (run_tar(tar, &listing, "cannot read the archive") ||
		    check_listing(file, listing.buf, key))
			goto out;
	}
	if (own_dir_make(cache_dir, "the cache") || own_dir_make(tmp_root, "the cache's tmp/") ||
	    own_dir_make(builds, "the cache's builds/"))
		goto out;
	work = xstrfmt("%s/import-%ld", tmp_root, (long)getpid());
	remove_tree(work);
	if (mkdir(work, 0700)) {
		error_errno("cannot make '%s'", work);
		goto out;
	}
	{
		const char *tar[] = { "tar", "-xzf", file, "-C", work, "--no-same-owner",
				      "--no-same-permissions", NULL };

		if (run_tar(tar, NULL, "cannot unpack the entry"))
			goto out;
	}
	dir = xstrfmt("%s/%s", work, key);
	if (check_files(file, dir) || check_key(file, dir, key))
		goto out;
	final = xstrfmt("%s/%s", builds, key);
	meta = xstrfmt("%s/meta", final);
	if (!access(meta, F_OK)) {
		*already = 1;
		ret = 0;
		goto out;
	}
	manifest = xstrfmt("%s/" MANIFEST, dir);
	unlink(manifest);
	if (rename(dir, final)) {
		if (errno == ENOTEMPTY || errno == EEXIST) {
			*already = 1;	/* another import or build just put it there */
			ret = 0;
		} else {
			error_errno("cannot rename '%s' to '%s'", dir, final);
		}
		goto out;
	}
	ret = 0;
out:
	if (work)
		remove_tree(work);
	strbuf_release(&listing);
	free(tmp_root);
	free(builds);
	free(work);
	free(dir);
	free(final);
	free(meta);
	free(manifest);
	return ret;
}
