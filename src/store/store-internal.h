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

#endif
