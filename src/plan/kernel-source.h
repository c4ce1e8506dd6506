/* kernel-source.h: a kernel source tree to build from, and its content identity. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SOURCE_H
#define SOURCE_H

#include "util/strvec.h"

/*
 * A source is a kernel tree directory, used in place, or a .tar.xz/.tar.gz/
 * .tar.bz2/.tar of one, extracted once into CACHE/sources/<id>/ and reused
 * by every experiment that names the same bytes, wherever the file lives.
 *
 * The identity says what the tree contains, not where it is:
 *   "tar:<sha256 of the archive>" for an archive;
 *   "dir:<sha256 of every file's relative path, size and mtime>" for a
 *   directory (content hashing 70,000 files would take longer than the
 *   olddefconfig runs it guards).  So a directory's identity is not its
 *   content: an edit that keeps a file's size and its mtime, which is in
 *   whole seconds (touch -r, cp -p, two edits of one length within a
 *   second), is not seen, and the old tree's builds are reused.  --source's help
 *   and page (docs/man/include/plan-sources.adoc) say so.
 * Build outputs inside a directory tree (.config, *.o, .tmp*, include/config,
 * include/generated) and .git are left out of the identity.
 */
struct kernel_source {
	char *tree;		/* absolute path of the tree's top directory */
	char *id;
	char *version;		/* "6.1.158", from the top Makefile */
	char *origin;		/* what the user named, as given */
	/* A patched source (kernel_source_patch()); all NULL or empty otherwise. */
	char *base_id;		/* the identity of the source it patches */
	char *patch;		/* the patch file, as given */
	struct strvec patched;	/* the files the patch touches, relative to tree */
};
#define KERNEL_SOURCE_INIT { .patched = STRVEC_INIT }

/*
 * Resolves src (a directory or an archive) into out, extracting an archive
 * into cache_dir/sources when it is not there yet.  Returns 0, or -1 with a
 * message naming src: not found, not a kernel tree, extraction failed.
 */
int kernel_source_open(struct kernel_source *out, const char *src, const char *cache_dir);
void kernel_source_release(struct kernel_source *ks);

/*
 * A patched source: base with the patch at patch_path applied (-p1), a
 * source of its own, so it is planned, built and measured like any other.
 * Its identity is "patch:<sha256 of base's identity and the patch's
 * bytes>", and its tree CACHE/sources/p<first 16 hex of it>/<name of base's
 * tree>, made once and found again by every experiment that asks for the
 * same patch on the same source: a copy of base's tree whose files are
 * hard links (it costs seconds and no space; a plain copy when the cache
 * is on another filesystem), each file the patch touches copied first so
 * that patching it cannot change base's, then patch(1) (patch.h).  The
 * patch is first checked with a dry run on base's tree: one that does not
 * apply is an error naming the patch, the line of the hunk, its number and
 * file, and nothing is copied.
 *
 * Its builds can start from base's object trees (kbuild.h): base_id and
 * patched say which and what changed.  Returns 0, or -1 with a message.
 */
int kernel_source_patch(struct kernel_source *out, const struct kernel_source *base,
			const char *patch_path, const char *cache_dir);

/* Checks that dir looks like a kernel tree; returns 0 or -1 with a message. */
int kernel_source_check_tree(const char *dir, const char *what);

/*
 * The default cache directory, malloc'd: $XDG_CACHE_HOME/kconfperf, else
 * $HOME/.cache/kconfperf, each only when absolute; without a usable HOME
 * the password database's home directory for the effective uid, never a
 * shared place such as /tmp.  NULL with "... set HOME or --cache" when
 * there is none.
 */
char *default_cache_dir(void);

/*
 * Makes the cache and its sources/, builds/, trees/ and tmp/ and checks
 * that only this user can change them (own-dir.h: not links, owned by the
 * effective uid, not group- or world-writable, nor anything above them
 * writable by others): kconfperf runs make in the trees it finds there.
 * 0, or -1 with a message naming the directory and what is wrong.
 */
int cache_dir_prepare(const char *cache);

#endif
