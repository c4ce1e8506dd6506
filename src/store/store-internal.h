/* store-internal.h: what the store's own files share beyond store.h. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORE_INTERNAL_H
#define STORE_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

#include "store/status.h"

struct store;

/*
 * The open database of st, and in *schema its schema version (an older
 * one than STORE_SCHEMA_VERSION when a read-only open reads an archive as
 * it is): for the store's modules, never for callers above the store.
 */
sqlite3 *store_sqlite(struct store *st, int *schema);

/* "PATH: WHAT: sqlite's message" as error() prints it; returns -1. */
int store_db_error(struct store *st, const char *what);
/* Runs sql on st's database: 0, or -1 after store_db_error(st, what). */
int store_exec(struct store *st, const char *sql, const char *what);
/* Runs sql on st's database: 0, or -1 with SQLite's message ("PATH: message"). */
int store_exec_sql(struct store *st, const char *sql);
/* Whether st's schema is version or later (a table added then is there). */
int store_schema_at_least(struct store *st, int version);
/* Column i of s's current row as a new string ("" for NULL); the caller frees it. */
char *store_column_dup(sqlite3_stmt *s, int i);

/*
 * What store.c's parts (store-variants.c, store-runs.c) share with it:
 * st's schema version (store_sqlite()'s *schema), a statement prepared
 * (0, or -1 after store_db_error()), text bound (NULL as NULL), a column
 * as SQLite holds it (NULL for NULL) or as a new string (NULL for NULL;
 * the caller frees it).
 */
int store_schema(const struct store *st);
int store_prepare(struct store *st, sqlite3_stmt **out, const char *sql);
void store_bind_text(sqlite3_stmt *s, int i, const char *text);
const char *store_column_str(sqlite3_stmt *s, int i);
char *store_column_text(sqlite3_stmt *s, int i);
/* Runs a prepared statement that returns no rows, then finalizes it: 0, or -1 with a message. */
int store_step_done(struct store *st, sqlite3_stmt *s, const char *what);
/* The time now, UTC, as the database keeps it ("2026-12-02T10:11:12Z"), in buf. */
void store_utc_now(char *buf, size_t size);
/*
 * A run's status as stored (a version 1 file's "failed" is
 * "exit-failed"): 0, or -1 for a name no status has (no message).
 */
int store_run_status_of(const struct store *st, enum run_status *out, const char *name);
/*
 * A status the schema's CHECK should have kept out (a database edited by
 * hand, or by a newer kconfperf that did not raise the schema version),
 * in table's row: an error naming them; returns -1.
 */
int store_unknown_status(struct store *st, const char *table, const char *row,
			 const char *status);

#endif
