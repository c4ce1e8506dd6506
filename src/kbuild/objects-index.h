/* objects-index.h: which object holds each of a kernel's functions, and which CONFIG symbols each object depends on. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef OBJECTS_INDEX_H
#define OBJECTS_INDEX_H

#include <stddef.h>

struct strvec;

/*
 * A built kernel's objects, for telling which option can have changed a
 * function (the screen's attribution, docs/screen.md): for every object
 * linked into vmlinux (the thin archive vmlinux.a and the libraries of
 * KBUILD_VMLINUX_LIBS), its path in the object tree, the functions it
 * defines (nm's t/T/w/W, clone suffixes stripped as profile_base_len()
 * strips them) and the CONFIG symbols it depends on:
 *
 *   deps   what fixdep recorded in the object's .cmd file: every
 *          include/config/SYM the preprocessed source and its headers
 *          mention (so an object that includes spinlock.h depends on
 *          DEBUG_SPINLOCK);
 *   gates  what decides whether the object is built at all: the
 *          obj-$(CONFIG_SYM) (lib-, or a composite's foo-$(CONFIG_SYM))
 *          lines of its directory's Makefile or Kbuild that name it, an
 *          ifdef/ifeq CONFIG_SYM block around such a line, and the same
 *          for each directory up to the top (obj-$(CONFIG_SYM) += dir/).
 *
 * Symbols are kept without their CONFIG_ prefix.  An object can depend on
 * an option's symbols and still not change: the index says which options
 * CAN have changed a function, never that one did.
 *
 * The file, gzip'd text, kept as OBJECTS_INDEX_NAME in the build's cache
 * entry:
 *
 *   kcp-objects 1
 *   o PATH          an object
 *   g SYM ...       its gates (may be absent)
 *   d SYM ...       its deps (may be absent)
 *   f NAME ...      its functions (may be absent)
 */
#define OBJECTS_INDEX_NAME "objects.gz"

/*
 * Writes the index of the object tree objtree (a finished build: vmlinux.a,
 * .cmd files) to out, replaced whole; srctree is the kernel source the
 * tree was built from (its Makefiles; NULL: objtree/source).  Runs nm.
 * Returns 0; 1 when there is nothing to index (no vmlinux.a: a kernel
 * before 6.0, or a fake one), nothing said; -1 with a message.
 */
int objects_index_write(const char *objtree, const char *srctree, const char *out);

struct objects_index;

/* Reads an index written by objects_index_write(): 0, or -1 naming the file and line. */
int objects_index_read(struct objects_index **out, const char *path);
void objects_index_free(struct objects_index *idx);

const char *objects_index_object(const struct objects_index *idx, size_t obj);

/*
 * The objects that define function name (base name: "foo" for foo.isra.0;
 * several for a static name used in several files): their indices in
 * *objs (borrowed, valid until the index is freed); returns how many.
 */
size_t objects_index_find(const struct objects_index *idx, const char *name,
			  const size_t **objs);

/*
 * Whether object obj depends on or is gated by any of the symbols syms
 * (names with or without CONFIG_); the first such symbol, or NULL.  With
 * gate_only, only its gates count.
 */
const char *objects_index_touches(const struct objects_index *idx, size_t obj,
				  const struct strvec *syms, int gate_only);

#endif
