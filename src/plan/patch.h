/* patch.h: a unified diff for a kernel tree: its files and hunks, checked and applied with patch(1). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PATCH_H
#define PATCH_H

#include <stddef.h>

#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/strvec.h"

/*
 * A patch as `git diff`, `git format-patch` or `diff -u` write it, applied
 * with -p1 (the first path component, a/ and b/, is dropped).  kernel_patch_read()
 * reads it and knows, for each hunk, its file and the line of its "@@"
 * header in the patch, so that a hunk patch(1) refuses is reported as
 * "fix.patch:12: hunk #2 of kernel/fork.c does not apply".
 *
 * It is applied with GNU patch (Debian's base system has it; git apply would
 * need git, and speaks of hunks by their text rather than their number):
 *   patch -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -r - -d TREE
 * --fuzz=0 as git apply does: a hunk whose context does not match exactly
 * (a line offset is fine) does not apply, so that a patch made for another
 * version is never applied somewhere it was not meant to be.
 */

struct kernel_patch_hunk {
	size_t file;		/* index into files */
	int number;		/* 1, 2 ... within its file, as patch(1) counts them */
	int line;		/* line of its "@@" header in the patch */
};

struct kernel_patch {
	char *path;		/* as given */
	struct strbuf text;	/* the bytes */
	char hash[SHA256_HEX_SIZE];	/* sha256 of the bytes */
	/* The files it touches, -p1 stripped ("kernel/fork.c"), in patch order;
	 * a rename's or copy's old and new names both. */
	struct strvec files;
	struct kernel_patch_hunk *hunks;
	size_t nr_hunks;
};
#define KERNEL_PATCH_INIT { .text = STRBUF_INIT, .files = STRVEC_INIT }

/*
 * Reads and parses the patch at path.  Returns 0, or -1 with a message
 * naming path:line: not a unified diff (no file in it), a hunk header that
 * does not parse, a hunk shorter than its header says, a binary patch, or
 * a path that is absolute or climbs out of the tree ("..").
 */
int kernel_patch_read(struct kernel_patch *out, const char *path);
void kernel_patch_release(struct kernel_patch *p);

/*
 * Applies p to the tree at dir (dry_run: only checks that it applies,
 * changing nothing).  what names the tree in messages ("6.1.192").
 * Returns 0, or -1 with a message naming the patch, the line of the first
 * hunk that does not apply, its number and file ("fix.patch:12: hunk #2 of
 * kernel/fork.c does not apply to 6.1.192 (patch: Hunk #2 FAILED at 57)"),
 * or a file to patch that the tree lacks, or a patch already applied.
 */
int kernel_patch_apply(const struct kernel_patch *p, const char *dir, const char *what,
		       int dry_run);

#endif
