/* source-set.h: the kernel sources of one experiment: every --source and --patch, labelled. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SOURCES_H
#define SOURCES_H

#include <stddef.h>

#include "plan/kernel-source.h"
#include "util/strvec.h"

/*
 * An experiment measures one source, or several: kernel versions
 * (--source given more than once) and patched sources (--patch FILE: the
 * first --source with FILE applied, kernel-source.h).  Each is planned with its
 * own Kconfig, built and measured against its own baseline; every variant
 * belongs to one and is named "LABEL:NAME" ("6.12:CONFIG_X=y").  A lone
 * source without patches has the label "" and its variants keep their
 * plain names, as before there were several.
 *
 * Labels are what the user gives ("--source old=/src/linux.tar.xz") or
 * made from the kernel version: "6.1" (VERSION.PATCHLEVEL) when no other
 * source has it, else "6.1.192", else the user must name them.  A patched
 * source is "BASE+NAME", NAME the patch file's name without its .patch or
 * .diff ("6.1+lockdep-kasan"), unless given ("--patch fixed=FILE").  A
 * label is letters, digits and ". _ + -", starts with a letter or digit,
 * and is unique.
 */

struct experiment_source {
	struct kernel_source ks;
	char *label;
	/* For a patched source: the index of the source it patches (0); else -1. */
	long base;
};

struct source_set {
	struct experiment_source *v;
	size_t nr, alloc;
};
#define SOURCE_SET_INIT { NULL, 0, 0 }

/* Whether label can name a source (see above). */
int source_label_valid(const char *label);

/*
 * Splits "LABEL=PATH" into its label (malloc'd) and path; a text that is
 * an existing path, or whose part before '=' is not a valid label, is a
 * path alone (*label NULL).
 */
void source_arg_split(const char *arg, char **label, const char **path);

/*
 * Opens every source of sources[] ("[LABEL=]SRC", kernel-source.h) and then every
 * patch of patches[] ("[LABEL=]FILE") on the first, and labels them.
 * Returns 0, or -1 with a message: a source that cannot be opened, a patch
 * that does not apply (its file and hunk), two sources with one identity
 * or one label, a label that is not valid.
 */
int source_set_open(struct source_set *out, const struct strvec *sources,
		    const struct strvec *patches, const char *cache_dir);
void source_set_release(struct source_set *s);

/* The source labelled label, or NULL. */
const struct experiment_source *source_set_find(const struct source_set *s, const char *label);

/*
 * "LABEL:NAME" for a variant of a labelled source, NAME alone for the
 * lone source's (label ""); malloc'd.
 */
char *source_variant_name(const char *label, const char *name);

#endif
