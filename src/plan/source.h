/* source.h: a kernel source tree to build from, and its content identity. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SOURCE_H
#define SOURCE_H

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
 *   second), is not seen, and the old tree's builds are reused.  README and
 *   --source's help say so.
 * Build outputs inside a directory tree (.config, *.o, .tmp*, include/config,
 * include/generated) and .git are left out of the identity.
 */
struct kernel_source {
	char *tree;		/* absolute path of the tree's top directory */
	char *id;
	char *version;		/* "6.1.158", from the top Makefile */
	char *origin;		/* what the user named, as given */
};
#define KERNEL_SOURCE_INIT { 0 }

/*
 * Resolves src (a directory or an archive) into out, extracting an archive
 * into cache_dir/sources when it is not there yet.  Returns 0, or -1 with a
 * message naming src: not found, not a kernel tree, extraction failed.
 */
int kernel_source_open(struct kernel_source *out, const char *src, const char *cache_dir);
void kernel_source_release(struct kernel_source *ks);

/* Checks that dir looks like a kernel tree; returns 0 or -1 with a message. */
int kernel_source_check_tree(const char *dir, const char *what);

/* The default cache directory: ${XDG_CACHE_HOME:-$HOME/.cache}/kconfperf (malloc'd). */
char *default_cache_dir(void);

#endif
