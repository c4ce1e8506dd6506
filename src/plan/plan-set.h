/* plan-set.h: the plans of an experiment's sources, made, keyed and stored together. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PLAN_SOURCES_H
#define PLAN_SOURCES_H

#include <stdio.h>

#include "plan/plan.h"
#include "plan/source-set.h"

struct store;

/*
 * One plan per source (source-set.h), each made by plan_make() with that
 * source's own Kconfig and the same inputs (o: base, options, designs),
 * its variants labelled by the source.  They are stored as one plan: every
 * variant in the variant table (source by source, in plan order), the
 * sources in the source table, and one key, so that a changed source,
 * patch or label starts a new experiment and the same inputs resume.
 * An experiment of one source has the key, names and hashes it had
 * before there could be several.
 */
struct plan_set {
	struct plan *plans;	/* one per source, in the order of the source set */
	size_t nr;
};
#define PLAN_SET_INIT { NULL, 0 }

/*
 * Makes the plan of every source.  o->source, o->label and o->work_dir
 * are set per source (work_dir gets a subdirectory per source when there
 * are several).  Returns 0, or -1 with a message naming the source.
 */
int plan_set_make(struct plan_set *out, const struct plan_options *o,
		  const struct source_set *ss);
void plan_set_release(struct plan_set *ps);

/* The key plan_set_make() and plan_set_save() would store, computed without resolving anything. */
int plan_set_key(const struct plan_options *o, const struct source_set *ss,
		 char key[SHA256_HEX_SIZE]);

/*
 * Stores every plan's variants (replacing any earlier plan), the sources,
 * the key, and the inputs (plan_save_inputs(), with the first source's
 * facts as the experiment's).  0, or -1 with a message.
 */
int plan_set_save(const struct plan_set *ps, const struct source_set *ss,
		  const struct plan_options *o, struct store *st, const char *cache,
		  const char *designs);

/*
 * Opens the stored sources of an experiment again, for the stages after
 * the plan (build): each plain source from where the user named it, each
 * patched one from its base and patch.  A source whose identity is no
 * longer the stored one (the tree or the patch changed since the plan) is
 * an error that says to plan again.  Returns 0, or -1 with a message.
 */
int source_set_reopen(struct source_set *out, struct store *st, const char *cache_dir);

#endif
