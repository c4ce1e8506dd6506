/* objtree-move.h: point a copied kernel object tree at another source tree. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef OBJTREE_MOVE_H
#define OBJTREE_MOVE_H

/*
 * An object tree (make O=) records the absolute path of the source tree
 * it was built from: its Makefile includes SRCTREE/Makefile, every command
 * line in a .cmd file says -ISRCTREE/include ..., every dependency list
 * names SRCTREE/... files, and include/config/auto.conf.cmd checks
 * $(srctree).  Built from a copy of that source tree elsewhere (a patched
 * source, kernel-source.h), such a tree rebuilds everything, since every command
 * line differs.  With those records rewritten to the copy's path, kbuild
 * rebuilds only what differs between the two trees: files newer than
 * their objects (the patched ones, once touched) and commands that
 * changed (a patched Makefile's flags).
 *
 * Only kbuild's records are rewritten: files named *.cmd or *.d anywhere
 * in the tree (objtool's build keeps its own), and the top Makefile.
 * Generated sources that mention the path in a comment (asm-offsets.s)
 * are left as they are; make never reads them for its decisions.
 */

/*
 * The source tree the object tree at objtree was built from (the path its
 * Makefile includes the top Makefile from), malloc'd; NULL when it has no
 * such Makefile.
 */
char *objtree_srctree(const char *objtree);

/*
 * Replaces the source tree path from by to in kbuild's records in objtree
 * (see above), keeping each file's times.  Only whole names are
 * replaced ("/src/a" in "/src/a/x.c", not in "/src/ab"), and an
 * occurrence that begins objtree's own path (a cache inside the source
 * tree) stays.
 * Returns the number of files rewritten, or -1 with a message.
 */
long objtree_retarget(const char *objtree, const char *from, const char *to);

#endif
