/* kbuild-parts.h: what kbuild.c and its parts (kbuild-trees.c, kbuild-map.c) share; private to them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KBUILD_PARTS_H
#define KBUILD_PARTS_H

/*
 * Not an interface: building is kbuild.h's.  scripts/check-idioms refuses
 * this header anywhere but in src/kbuild/kbuild*.c.
 */
struct kbuild_options;
struct kbuild_result;
struct lockfile;

/* Where one build's files are: one variable per path. */
struct build_paths {
	char *final;		/* CACHE/builds/<key>: the finished cache entry */
	char *objtree;		/* CACHE/tmp/objtree: the object tree make works in */
	char *config;		/* <objtree>/.config */
	char *bzimage;		/* <objtree>/arch/<srcarch>/boot/<image>: bzImage, Image */
	char *vmlinux;		/* <objtree>/vmlinux */
	char *map;		/* <objtree>/System.map */
	char *entry;		/* CACHE/tmp/entry.<pid>: the cache entry being assembled */
	char *tree;		/* CACHE/trees/<key>: where the object tree is kept */
};

/* kbuild.c */

/* CACHE/what/key, malloc'd. */
char *kbuild_cache_path(const struct kbuild_options *o, const char *what, const char *key);
/* CACHE/sub, made without following a link planted there (own-dir.h); 0, or -1 with a message. */
int kbuild_mkdir_cache(const struct kbuild_options *o, const char *sub);
/*
 * Runs argv quietly (holding the build lock when lk is not NULL); on
 * failure prints "what: how it ended: stderr".
 */
int kbuild_run_quiet(const char **argv, struct lockfile *lk, const char *what);
/* cp --reflink=auto from to; 0, or -1 with a message. */
int kbuild_copy_file(const char *from, const char *to);

/* kbuild-trees.c */

/*
 * A fresh object tree whose .config is config_text: a copy of the nearest
 * kept tree (out->seeded_from) when there is one.  Holding the lock.
 * 0, or -1 with a message.
 */
int kbuild_seed_objtree(const struct kbuild_options *o, const struct build_paths *bp,
			const char *config_text, const char *seed_key, struct lockfile *lock,
			struct kbuild_result *out);
/* Keeps the object tree to seed later builds; the least recently used go. */
int kbuild_keep_tree(const struct kbuild_options *o, const struct build_paths *bp);

#endif
