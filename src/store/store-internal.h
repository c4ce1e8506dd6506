/* store-internal.h: what the store's own files share beyond store.h. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORE_INTERNAL_H
#define STORE_INTERNAL_H

#include <sqlite3.h>

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
/* Whether st's schema is version or later (a table added then is there). */
int store_schema_at_least(struct store *st, int version);
/* Column i of s's current row as a new string ("" for NULL); the caller frees it. */
char *store_column_dup(sqlite3_stmt *s, int i);

#endif
