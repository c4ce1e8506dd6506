/* plan.h: the variants of an experiment, resolved by the kernel's own Kconfig. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PLAN_H
#define PLAN_H

#include <stdio.h>

#include "plan/options-file.h"
#include "store/status.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/strvec.h"

struct kconfig;
struct kconfig_index;
struct kernel_source;
struct store;

/*
 * A plan turns a baseline and candidate options into variants, and asks
 * `make olddefconfig` what each one really is.  Nothing is guessed: the
 * effective config is what the kernel's Kconfig wrote; the Kconfig index
 * only explains why a requested setting did not take.
 *
 * Variants, in this order:
 *   baseline             the baseline with the harness's needs merged in
 *   baseline-again       (aa) the baseline kernel again, measured as a variant of
 *                        its own: an A/A control, so that every report shows
 *                        what its noise alone makes of "no change"
 *   CONFIG_X=y ...       (design oat) baseline + one option
 *   all                  (design all) baseline + every option
 *   all-CONFIG_X=y ...   (design loo) all minus one option
 *   +CONFIG_X=y ...      (design cumulative) the step before + one option:
 *                        the first step is the baseline + the first
 *                        option, the last one is all; options (and named
 *                        groups, options-file.h) in the order given
 *
 * so that when two variants resolve alike, the simpler one is measured and
 * the other is same-as it.
 *
 * Each gets a status (enum variant_status, status.h):
 *   ok        every requested setting took
 *   partial   some did not; reason says which and why
 *   no-op     the effective config equals the baseline's; reason says why
 *             (unknown symbol, hidden and selected by ..., unmet dependency
 *             with the expression and its false atoms, already set)
 *   same-as   the effective config equals an earlier variant's, named in
 *             same_as: it is built and measured once
 */

/* The A/A control's variant name and kind. */
#define PLAN_AA_NAME VARIANT_AA_NAME

enum plan_design {
	PLAN_OAT = 1 << 0,
	PLAN_ALL = 1 << 1,
	PLAN_LOO = 1 << 2,
	PLAN_CUMULATIVE = 1 << 3,
};
/* Parses "oat,all,loo,cumulative" (any subset, comma separated); 0 or -1 with an error. */
int plan_parse_designs(unsigned *out, const char *spec);

struct plan_options {
	const struct kernel_source *source;
	/*
	 * The source's label in an experiment of several (source-set.h): its
	 * variants are then named "LABEL:baseline", "LABEL:CONFIG_X=y" ...,
	 * their hashes take the source's identity in (a kernel of one source
	 * is never the same as another's), and without options the plan is
	 * the baseline alone (the sources' baselines are compared).  NULL or
	 * "" for an experiment's lone source.
	 */
	const char *label;
	const char *base;		/* a make target (tinyconfig) or a .config path */
	struct strvec base_add;		/* fragment paths and CONFIG_X=y settings */
	const char *options;		/* a file of options, or a list "A,B=m" */
	const char *diff_old;		/* --options-from-diff OLD NEW */
	const char *diff_new;
	unsigned designs;
	int with_deps;
	int aa;				/* add the baseline-again variant */
	int slim;			/* --slim: every module off (plan/slim.h) */
	const char *arch;		/* NULL: HARNESS_DEFAULT_ARCH; plan_choose_arch() */
	const char *cross_compile;	/* --cross-compile, or NULL: the arch's default (arch.h) */
	struct strvec harness;		/* harness profiles beyond the arch's base (plan/harness.h) */
	int fast_boot;			/* enum harness_fast_boot: --fast-boot, --no-fast-boot */
	int jobs;			/* parallel olddefconfig runs; <= 0: CPUs */
	const char *work_dir;		/* scratch object dirs for olddefconfig */
};
#define PLAN_OPTIONS_INIT { .base_add = STRVEC_INIT, .harness = STRVEC_INIT, .designs = PLAN_OAT, \
			    .fast_boot = -1 }
#define PLAN_OPTIONS_AA_INIT { .base_add = STRVEC_INIT, .harness = STRVEC_INIT, .designs = PLAN_OAT, \
			       .fast_boot = -1, .aa = 1 }
void plan_options_release(struct plan_options *o);

struct plan_variant {
	char *name;
	const char *kind;		/* baseline, oat, all, loo, cumulative */
	struct strvec options;		/* labels of the options it holds */
	struct kconfig *requested;	/* the settings asked for on top of the baseline */
	struct kconfig *effective;	/* what olddefconfig made of them */
	char hash[SHA256_HEX_SIZE];	/* kconfig_hash(effective); with a label, of the source's id too */
	enum variant_status status;
	char *same_as;
	struct strbuf reason;		/* why partial, no-op or same-as; unmet settings explained */
	int unmet;			/* requested settings that did not take */
	struct strbuf diff;		/* diffconfig of baseline -> effective */
	int added, removed, changed;
};

struct plan {
	struct kconfig *baseline;
	struct plan_option *options;
	size_t nr_options;
	struct plan_variant *variants;
	size_t nr_variants, alloc_variants;
	struct kconfig_index *index;
	char key[SHA256_HEX_SIZE];	/* identity of the inputs */
	struct strbuf harness;		/* the harness profiles taken, "x86_64,9p" */
	struct strbuf boot;		/* what the kernels boot as (harness_boot_text()) */
	struct strvec slimmed;		/* --slim: the symbols it turned off */
	struct strvec slim_stayed;	/* --slim: modules olddefconfig kept at m */
	double seconds;			/* time taken to resolve */
};
#define PLAN_INIT { .harness = STRBUF_INIT, .boot = STRBUF_INIT, .slimmed = STRVEC_INIT, \
		    .slim_stayed = STRVEC_INIT }
void plan_release(struct plan *p);

/* o->arch, or HARNESS_DEFAULT_ARCH. */
const char *plan_arch(const struct plan_options *o);

/*
 * Settles o->arch before anything is keyed or resolved: an arch kconfperf
 * has (arch.h), and when the baseline is a .config of one of them, that
 * one: taken from it when --arch was not given, an error when --arch names
 * another (an x86 .config resolved for arm64 would silently lose every
 * x86 symbol).  0, or -1 with an error.
 */
int plan_choose_arch(struct plan_options *o);

/*
 * Builds the plan: resolves the baseline, reads the options, makes the
 * variants of the chosen designs and resolves them all, o->jobs at a time.
 * Returns 0, or -1 with a message (bad input names file:line; a baseline
 * that cannot carry the harness names the missing symbols and why).
 */
int plan_make(struct plan *out, const struct plan_options *o);

/*
 * The step of plan_make() that adds the variants of the designs (the list
 * above; with aa, baseline-again after the baseline) to a plan that has its
 * options, each with its requested settings and option labels; nothing is
 * resolved.  label is the source's (variants named LABEL:NAME), or NULL.
 */
void plan_make_variants(struct plan *p, unsigned designs, int aa, const char *label);

/*
 * The identity of a plan's inputs (source, baseline, --base-add, options,
 * designs, --with-deps), as plan_make() would store it, without resolving
 * anything: sweep uses it to tell a resumed experiment from a changed one.
 * Returns 0, or -1 with a message when the options cannot be read.
 */
int plan_input_key(const struct plan_options *o, char key[SHA256_HEX_SIZE]);

/*
 * Adds a variant to a made plan (screen asks for groups of options as it
 * goes): named name, of kind kind, the baseline plus the options
 * p->options[opts[0..nr)] (with what --with-deps added for them), resolved
 * with olddefconfig and classified against the variants before it as
 * plan_make() does.  o is what plan_make() was given.  Returns the new
 * variant's index (pointers into p->variants may move), or -1 with a
 * message.
 */
long plan_add_variant(struct plan *p, const struct plan_options *o, const char *name,
		      const char *kind, const size_t *opts, size_t nr);

struct store_variant;
/* A plan variant as a store row at position (its strings copied). */
void plan_store_variant(const struct plan_variant *pv, int position, struct store_variant *out);

/*
 * The members of the plan's named groups (options-file.h), one
 * "GROUP CONFIG_X=value" line each, in plan order: what the store keeps as
 * the fact "groups", for the plan table and the reports.
 */
void plan_groups_text(struct strbuf *out, const struct plan *p);

/*
 * Stores what a plan keeps beside its variants (plan-set.h stores
 * those): meta "groups", what --slim removed (slim_removed, slim_stayed)
 * and plan_save_boot()'s, in an open transaction.
 */
int plan_save_extras(const struct plan *p, struct store *st);
/*
 * Stores the harness profiles the plan took (meta "harness", the fast boot
 * among them) and what its kernels boot as (meta "boot", which every
 * report shows).
 */
int plan_save_boot(const struct plan *p, struct store *st);

/*
 * Stores what the plan was made from, for the stages after it and for
 * reports: source (as named, its identity, tree and kernel version), base,
 * designs and the cache directory.
 */
int plan_save_inputs(struct store *st, const struct kernel_source *ks,
		     const struct plan_options *o, const char *cache, const char *designs);

/*
 * Prints the plan table from the store: variant, status, requested,
 * effective, reason; then, for a --slim plan, how many modules slimming
 * turned off.
 */
int plan_print_table(struct store *st, FILE *fp);

/* Prints what --slim turned off, one CONFIG_X a line, and what stayed m. */
int plan_print_slimmed(struct store *st, FILE *fp);

#endif
