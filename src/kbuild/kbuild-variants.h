/* kbuild-variants.h: the build stage: build every planned variant's kernel, recording each. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KBUILD_VARIANTS_H
#define KBUILD_VARIANTS_H

#include <stddef.h>
#include <stdio.h>

#include "kbuild/kbuild.h"

struct store;
struct store_variant;

/*
 * The variants that get a kernel of their own are the measured ones
 * (variant_is_measured(), status.h): a no-op variant is the baseline's
 * kernel and a same-as variant the kernel of the variant it equals.
 */

struct kbuild_summary {
	int built, cached, failed;
};

/*
 * kbuild_build() of a planned variant's config, its result recorded in the
 * store's build table (ok or failed).  Returns as kbuild_build() does;
 * *out must be released either way.
 */
int kbuild_variant(const struct kbuild_options *o, struct store *st,
		   const struct store_variant *v, const char *seed_key,
		   struct kbuild_result *out);

/*
 * Builds every variant of a stored plan that gets a kernel, the baseline
 * first, then all (a near seed for loo variants and for costly options
 * whose companions are cheap), then the others in plan order, showing
 * progress (progress.h: a note per build).  Records each result in the
 * store's build table and, when table is not NULL, prints a row per
 * variant (build, time, bzImage size and delta to the baseline, from
 * scratch or incremental, and the compiler: the wrapper, make -j and, for
 * ccache, its hits; a cached build shows how it was first built).  Counts
 * go to *sum.  Returns 0, or -1 for errors that stop the whole stage (see
 * kbuild_build()); failed builds are results.
 */
int kbuild_variants(const struct kbuild_options *o, struct store *st,
		    const struct store_variant *v, size_t nr, FILE *table,
		    struct kbuild_summary *sum);

struct source_set;
/*
 * kbuild_variants() for each source of an experiment (plan/source-set.h) in
 * turn, with that source's variants and o->source set to it: each plain
 * source followed by the sources that patch it, so that their builds find
 * its object trees to start from while those are the most recently kept
 * (KBUILD_KEEP_TREES).  A table gets a header line per source when there
 * are several.  Counts add up in *sum.  Returns as kbuild_variants() does.
 */
int kbuild_sources(struct kbuild_options *o, const struct source_set *ss, struct store *st,
		   const struct store_variant *v, size_t nr, FILE *table,
		   struct kbuild_summary *sum);

#endif
