/* store-schema.h: the experiment database's schema, version by version (for store.c). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORE_SCHEMA_H
#define STORE_SCHEMA_H

#include <sqlite3.h>

/*
 * The schema is versioned with PRAGMA user_version; store-schema.c holds
 * every version's migration, from the empty file to STORE_SCHEMA_VERSION
 * (store.h), and they are never edited once shipped: a change is a new
 * version.  Version 1 made the tables; version 2 rebuilt variant, build
 * and run with a CHECK on their status (the names of status.h's enums);
 * version 3 added each run's guest clock; version 4 the source table and
 * each variant's source; version 5 the instruction meter's tables (meter,
 * meter_function, meter_profile: store-meter.c); version 6 the kernel's
 * own reports per run (finding: store-findings.c), vmlinux's section
 * sizes per build, and the cost claims of the options' help texts (claim:
 * store-claims.c).
 *
 * store_schema_migrate() takes the open database db (named path in
 * messages) to STORE_SCHEMA_VERSION, one version per transaction, after
 * the checks a version has (version 2 refuses a status it would not
 * accept, naming the row, and leaves the file as it was).  Foreign keys
 * must be off while it runs: a table that is rebuilt is dropped, and with
 * them on its rows' dependents would go with it.  A newer version than
 * this kconfperf knows is an error.  0, or -1 with a message.
 */
int store_schema_migrate(sqlite3 *db, const char *path);

/*
 * The SQL helpers the migrations and store.c share (db named path in
 * messages): an error "PATH: WHAT: sqlite's message" (returns -1); sql
 * run (0, or -1 with "PATH: sqlite's message"); a statement prepared (0,
 * or -1 with an error).
 */
int store_sql_error(sqlite3 *db, const char *path, const char *what);
int store_sql_exec(sqlite3 *db, const char *path, const char *sql);
int store_sql_prepare(sqlite3 *db, const char *path, sqlite3_stmt **out, const char *sql);

#endif
