/* store-claims.c: the cost claims of the plan's options' help texts in the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "store/store-claims.h"
#include "store/store-internal.h"
#include "store/store.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The first schema with the claim table. */
#define CLAIMS_SCHEMA 6

int store_put_claims(struct store *st, const struct store_claim *c, size_t nr)
{
	sqlite3_stmt *s = NULL;
	int schema;
	size_t i;

	if (!store_schema_at_least(st, CLAIMS_SCHEMA))
		return error("%s: the database has no table for claims", store_path(st));
	if (store_exec(st, "SAVEPOINT put_claims", "cannot store the help texts' claims") || store_exec(st, "DELETE FROM claim", "cannot store the help texts' claims"))
		goto fail;
	if (sqlite3_prepare_v2(store_sqlite(st, &schema),
			       "INSERT INTO claim (source, symbol, position, location, sentence)"
			       " VALUES (?1, ?2, (SELECT count(*) FROM claim WHERE source = ?1"
			       " AND symbol = ?2), ?3, ?4)", -1, &s, NULL) != SQLITE_OK) {
		store_db_error(st, "cannot prepare statement");
		goto fail;
	}
	for (i = 0; i < nr; i++) {
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, c[i].source ? c[i].source : "", -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, c[i].symbol, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, c[i].location ? c[i].location : "", -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 4, c[i].sentence, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE) {
			store_db_error(st, "cannot store the help texts' claims");
			goto fail;
		}
	}
	sqlite3_finalize(s);
	return store_exec(st, "RELEASE put_claims", "cannot store the help texts' claims");
fail:
	sqlite3_finalize(s);
	store_exec(st, "ROLLBACK TO put_claims", "cannot store the help texts' claims");
	store_exec(st, "RELEASE put_claims", "cannot store the help texts' claims");
	return -1;
}

int store_get_claims(struct store *st, struct store_claim **out, size_t *nr)
{
	struct store_claim *v = NULL;
	size_t n = 0, alloc = 0;
	sqlite3_stmt *s = NULL;
	int schema, rc;

	*out = NULL;
	*nr = 0;
	if (!store_schema_at_least(st, CLAIMS_SCHEMA))
		return 0;
	if (sqlite3_prepare_v2(store_sqlite(st, &schema),
			       "SELECT source, symbol, location, sentence FROM claim"
			       " ORDER BY source, symbol, position", -1, &s, NULL) != SQLITE_OK)
		return store_db_error(st, "cannot prepare statement");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(v, n + 1, alloc);
		v[n].source = store_column_dup(s, 0);
		v[n].symbol = store_column_dup(s, 1);
		v[n].location = store_column_dup(s, 2);
		v[n].sentence = store_column_dup(s, 3);
		n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_claims_free(v, n);
		return store_db_error(st, "cannot read claims");
	}
	*out = v;
	*nr = n;
	return 0;
}

void store_claims_free(struct store_claim *c, size_t nr)
{
	size_t i;

	for (i = 0; c && i < nr; i++) {
		free(c[i].source);
		free(c[i].symbol);
		free(c[i].location);
		free(c[i].sentence);
	}
	free(c);
}
