/* options-file.h: the candidate options of a plan: a list, a file with named groups, or a config diff. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef OPTIONS_FILE_H
#define OPTIONS_FILE_H

#include <stddef.h>

#include "util/strvec.h"

struct kconfig;
struct plan_options;

/*
 * A candidate is what one variant of the oat design adds to the baseline:
 * one option, or a named group of them measured together.
 *
 * An options file is a fragment in --options syntax (KCONFIG_LOOSE,
 * kconfig.h: "X", "CONFIG_X", "X=m", "# CONFIG_X is not set", comments),
 * one candidate per setting, in which a group, in Kconfig's block style,
 *
 *	group lockdebug		# one variant for all of these together
 *	CONFIG_PROVE_LOCKING=y
 *	CONFIG_DEBUG_ATOMIC_SLEEP=y
 *	endgroup
 *
 * makes one candidate of its settings.  A group name is letters, digits,
 * '_', '.' and '-' (at most PLAN_GROUP_NAME_MAX, starting with a letter or
 * digit), and is none of the names kconfperf gives variants: "baseline",
 * "all", "all-...", "CONFIG_..." or "baseline-again".  Candidates come in
 * file order (a group where its first setting is).  Mistakes are errors
 * naming the file and line: a group without a name or endgroup, a group
 * inside a group, an endgroup without a group, an empty group, a name
 * used twice, a symbol in a group and in another candidate too.  A symbol
 * given twice outside groups keeps its last value (kconfig.h), as before
 * groups existed.  A list (--options A,B=m) and --options-from-diff have
 * no groups.
 */

#define PLAN_GROUP_NAME_MAX 64

struct plan_option {
	char *name;		/* without CONFIG_; a group's name */
	char *value;		/* as written (y, m, n, 64, "str"); NULL for a group */
	char *label;		/* "CONFIG_X=y", or the group's name */
	int is_group;
	struct kconfig *settings;	/* what it sets: the option, or the group's members */
	struct strvec deps;	/* --with-deps: more symbols set =y */
};

/*
 * Reads the candidates o asks for (o->options, a file or a list, or
 * o->diff_old and o->diff_new) into a new array *out of *nr.  Returns 0,
 * or -1 with a message (file:line for bad input; no candidates is an
 * error too).
 */
int plan_read_options(struct plan_option **out, size_t *nr, const struct plan_options *o);

/*
 * Parses the text of an options file, path naming it in messages, as
 * plan_read_options() reads a file.
 */
int plan_parse_options(struct plan_option **out, size_t *nr, const char *path,
		       const char *buf, size_t len);

void plan_option_list_free(struct plan_option *opts, size_t nr);

/* The candidate's settings, one "CONFIG_X=y" per line, appended to out. */
struct strbuf;
void plan_option_settings_text(struct strbuf *out, const struct plan_option *opt);

/* Whether every setting of the candidate holds in kc (an absent symbol counts as n). */
int plan_option_holds(const struct plan_option *opt, const struct kconfig *kc);

#endif
