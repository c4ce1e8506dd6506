/* kbuild-trees.c: the kept object trees that seed later builds: the nearest one, its copy, eviction. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <utime.h>
#include <unistd.h>

#include "kbuild/kbuild-parts.h"
#include "kbuild/kbuild.h"
#include "kbuild/objtree-move.h"
#include "kconfig/kconfig.h"
#include "plan/kernel-source.h"
#include "util/lockfile.h"
#include "util/own-dir.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* What a kept object tree holds besides make's files: kconfperf put it there. */
#define TREE_MARKER ".kconfperf-tree"

/* A build key: 64 lowercase hex digits, as kbuild_key() makes. */
static int is_key(const char *name)
{
	size_t n = strspn(name, "0123456789abcdef");

	return n == SHA256_HEX_SIZE - 1 && !name[n];
}

/*
 * A meta line "name=value" of a finished build, malloc'd, or NULL; a build
 * that is not in the cache (a kept tree whose entry was removed) is NULL
 * without a message.
 */
static char *meta_value(const struct kbuild_options *o, const char *key, const char *name)
{
	char *path = xstrfmt("%s/builds/%s/meta", o->cache_dir, key);
	struct strbuf sb = STRBUF_INIT;
	char *ret = NULL;
	const char *line, *next, *v;

	if (kbuild_is_cached(o, key) && strbuf_read_file(&sb, path, 0) >= 0) {
		for (line = sb.buf; *line && !ret; line = next) {
			size_t len = strcspn(line, "\n");

			next = line + len + (line[len] == '\n');
			if (skip_prefix(line, name, &v) && *v == '=')
				ret = xstrndup(v + 1, (size_t)(line + len - v - 1));
		}
	}
	strbuf_release(&sb);
	free(path);
	return ret;
}

/*
 * Whether the kept tree key can seed a build of this source and compiler:
 * 2 when it is this source's, 1 when this is a patched source and the
 * tree its base's (objtree-move.h points it at the patched copy), else 0.
 * A base's build is never seeded from a patched tree: the patched files'
 * objects would be newer than the base's own files, and stay.
 */
static int tree_fits(const struct kbuild_options *o, const char *key)
{
	char *source = meta_value(o, key, "source");
	char *cc = meta_value(o, key, "compiler");
	int ret = 0;

	if (source && cc && !strcmp(cc, o->compiler_version ? o->compiler_version : "")) {
		if (!strcmp(source, o->source->id))
			ret = 2;
		else if (o->source->base_id && !strcmp(source, o->source->base_id))
			ret = 1;
	}
	free(source);
	free(cc);
	return ret;
}

long kbuild_tree_distance(const char *a_text, const char *b_text)
{
	struct kconfig *a = kconfig_new(), *b = kconfig_new();
	struct kconfig_changes ch = KCONFIG_CHANGES_INIT;
	long ret = -1;

	if (!kconfig_parse(a, "a", a_text, strlen(a_text), 0) &&
	    !kconfig_parse(b, "b", b_text, strlen(b_text), 0)) {
		kconfig_diff_list(&ch, a, b);
		ret = (long)ch.nr;
	}
	kconfig_changes_release(&ch);
	kconfig_free(a);
	kconfig_free(b);
	return ret;
}

/*
 * The kept tree to seed a build of config_text from: the one of this
 * source and compiler whose .config differs from it in the fewest symbols
 * (prefer on ties).  kbuild's fixdep rebuilds what those symbols touch, in
 * either direction, so a nearer tree rebuilds less: a group of options
 * seeded from a tree with most of them compiles only the rest.  Returns a
 * malloc'd key, or NULL when no tree fits.
 */
static char *nearest_tree(const struct kbuild_options *o, const char *config_text,
			  const char *prefer)
{
	char *dir = xstrfmt("%s/trees", o->cache_dir), *best = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	long best_distance = -1;
	int best_fit = 0;

	while (d && (e = readdir(d))) {
		struct strbuf config = STRBUF_INIT;
		char *path;
		long distance;
		int fit;

		if (e->d_name[0] == '.' || !kbuild_has_tree(o, e->d_name))
			continue;
		fit = tree_fits(o, e->d_name);
		if (!fit)
			continue;
		path = xstrfmt("%s/%s/.config", dir, e->d_name);
		distance = strbuf_read_file(&config, path, 0) < 0 ? -1
			 : kbuild_tree_distance(config.buf, config_text);
		free(path);
		strbuf_release(&config);
		if (distance < 0)
			continue;
		/* On a tie: prefer, then this source's own tree over its base's. */
		if (!best || distance < best_distance ||
		    (distance == best_distance && prefer && !strcmp(e->d_name, prefer)) ||
		    (distance == best_distance && fit > best_fit &&
		     !(prefer && !strcmp(best, prefer)))) {
			free(best);
			best = xstrdup(e->d_name);
			best_distance = distance;
			best_fit = fit;
		}
	}
	if (d)
		closedir(d);
	free(dir);
	return best;
}

struct kept_tree {
	char *path;
	char *family;	/* "source\ncompiler" of its build's meta */
	time_t t;	/* built or last used */
};

/* By family, and in a family the most recently built or used first. */
static int kept_tree_cmp(const void *a_, const void *b_)
{
	const struct kept_tree *a = a_, *b = b_;
	int c = strcmp(a->family, b->family);

	if (c)
		return c;
	return a->t > b->t ? -1 : a->t < b->t;
}

/*
 * Keeps at most KBUILD_KEEP_TREES object trees of each family (a source
 * and a compiler: the trees that can seed one another), the most recently
 * built or used (a tree's directory time is set when it seeds a build
 * or its kernel is found again in the cache).
 * Trees of another kernel version, a patched source or another arch never
 * seed this family's builds, so they do not push its trees out: an
 * experiment over two sources and arm64 keeps each one's nearest trees.
 * A tree whose build is gone from the cache goes too: its family is not
 * known, so it can seed nothing.
 */
static void evict_trees(const struct kbuild_options *o)
{
	char *dir = xstrfmt("%s/trees", o->cache_dir);
	DIR *d;
	struct dirent *e;
	struct kept_tree *v = NULL;
	size_t nr = 0, alloc = 0, i, in_family = 0;

	/* Only a trees/ of ours: a link there could lead anywhere. */
	if (own_dir_check(dir, "the cache's trees/")) {
		free(dir);
		return;
	}
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		char *path, *source, *cc, *marker;
		struct stat st, mst;
		int ours, cached;

		/*
		 * Only what kconfperf kept there: a directory named by a key,
		 * with the marker, or (kept before there was one) with the
		 * key's build in builds/.  Anything else stays.
		 */
		if (!is_key(e->d_name))
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		marker = xstrfmt("%s/" TREE_MARKER, path);
		cached = kbuild_is_cached(o, e->d_name);
		ours = !lstat(path, &st) && S_ISDIR(st.st_mode) &&
		       (cached || !lstat(marker, &mst));
		free(marker);
		if (!ours) {
			free(path);
			continue;
		}
		if (!cached) {
			remove_tree(path);
			free(path);
			continue;
		}
		source = meta_value(o, e->d_name, "source");
		cc = meta_value(o, e->d_name, "compiler");
		ALLOC_GROW(v, nr + 1, alloc);
		v[nr].path = path;
		v[nr].family = xstrfmt("%s\n%s", source ? source : "", cc ? cc : "");
		v[nr++].t = st.st_mtime;
		free(source);
		free(cc);
	}
	if (d)
		closedir(d);
	if (nr)
		qsort(v, nr, sizeof(*v), kept_tree_cmp);
	for (i = 0; i < nr; i++) {
		if (i && strcmp(v[i].family, v[i - 1].family))
			in_family = 0;
		if (++in_family > KBUILD_KEEP_TREES)
			remove_tree(v[i].path);
	}
	for (i = 0; i < nr; i++) {
		free(v[i].path);
		free(v[i].family);
	}
	free(v);
	free(dir);
}

/*
 * The seed tree just copied is the base's of this patched source: point it
 * at the patched tree (objtree-move.h), and make the files the patch
 * touched newer than every object in it, whenever the patched tree was
 * made, so that kbuild rebuilds what depends on them and only that.
 */
static int seed_from_base(const struct kbuild_options *o, const struct build_paths *bp)
{
	char *from = objtree_srctree(bp->objtree);
	long moved;
	size_t i;

	if (!from)
		return error("the seed tree '%s' does not say which source it was built from",
			     bp->objtree);
	moved = objtree_retarget(bp->objtree, from, o->source->tree);
	free(from);
	if (moved < 0)
		return -1;
	for (i = 0; i < o->source->patched.nr; i++) {
		char *path = xstrfmt("%s/%s", o->source->tree, o->source->patched.v[i]);

		if (utime(path, NULL) && errno != ENOENT) {
			error_errno("cannot touch '%s'", path);
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

int kbuild_seed_objtree(const struct kbuild_options *o, const struct build_paths *bp,
			const char *config_text, const char *seed_key, struct lockfile *lock,
			struct kbuild_result *out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (remove_tree(bp->objtree))
		return -1;
	out->seeded_from = nearest_tree(o, config_text, seed_key);
	if (out->seeded_from) {
		char *seed = kbuild_cache_path(o, "trees", out->seeded_from);
		const char *argv[] = { "cp", "-a", "--reflink=auto", seed, bp->objtree, NULL };

		ret = kbuild_run_quiet(argv, lock, "cannot copy the seed tree");
		utime(seed, NULL);	/* recently used: kept longest */
		free(seed);
		if (ret || (tree_fits(o, out->seeded_from) == 1 && seed_from_base(o, bp)))
			return -1;
	} else if (mkdir_p(bp->objtree, 0755)) {
		return -1;
	}
	strbuf_addstr(&sb, config_text);
	ret = strbuf_write_file(&sb, bp->config);
	strbuf_release(&sb);
	return ret;
}

int kbuild_keep_tree(const struct kbuild_options *o, const struct build_paths *bp)
{
	char *marker = xstrfmt("%s/" TREE_MARKER, bp->objtree);
	int fd;

	if (kbuild_mkdir_cache(o, "trees")) {
		free(marker);
		return -1;
	}
	/* Eviction removes only trees with the marker (evict_trees()). */
	fd = open(marker, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		error_errno("cannot mark the object tree '%s'", bp->objtree);
		free(marker);
		return -1;
	}
	close(fd);
	free(marker);
	if (rename(bp->objtree, bp->tree) && errno != ENOTEMPTY && errno != EEXIST)
		return error_errno("cannot keep the object tree '%s'", bp->tree);
	utime(bp->tree, NULL);
	evict_trees(o);
	remove_tree(bp->objtree);	/* when another kconfperf kept the same tree first */
	return 0;
}
