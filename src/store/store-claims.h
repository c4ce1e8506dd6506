/* store-claims.h: what the Kconfig help texts of the plan's options claim they cost. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORE_CLAIMS_H
#define STORE_CLAIMS_H

#include <stddef.h>

struct store;

/*
 * A sentence of a symbol's help text that states a cost (kconfig-help.h),
 * recorded by the plan from schema 6 on for every symbol a variant turns
 * on (requested, or set by Kconfig for it), per source (its label, "" for
 * a lone source): the help of two kernel versions may claim differently.
 */
struct store_claim {
	char *source;
	char *symbol;		/* without CONFIG_ */
	char *location;		/* "lib/Kconfig.kasan:68", relative to the tree */
	char *sentence;
};

/*
 * Replaces the experiment's claims by these nr, in one savepoint (inside
 * the plan's transaction).  A database older than schema 6 has no table
 * for them: an error.  0, or -1 with a message.
 */
int store_put_claims(struct store *st, const struct store_claim *c, size_t nr);

/* Every claim, ordered by source, symbol and position; an older database has none. */
int store_get_claims(struct store *st, struct store_claim **out, size_t *nr);
void store_claims_free(struct store_claim *c, size_t nr);

#endif
