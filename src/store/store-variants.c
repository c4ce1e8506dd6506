/* store-variants.c: the plan's variants and sources, and the builds of them, in the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "store/meta-keys.h"
#include "store/status.h"
#include "store/store-internal.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

void store_variant_release(struct store_variant *v)
{
	free(v->name);
	free(v->source);
	free(v->kind);
	free(v->options);
	free(v->requested);
	free(v->effective_diff);
	free(v->config);
	free(v->config_hash);
	free(v->same_as);
	free(v->reason);
	memset(v, 0, sizeof(*v));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void store_variant_copy(struct store_variant *dst, const struct store_variant *src)
{
	*dst = *src;
	dst->name = dup_or_null(src->name);
	dst->source = dup_or_null(src->source);
	dst->kind = dup_or_null(src->kind);
	dst->options = dup_or_null(src->options);
	dst->requested = dup_or_null(src->requested);
	dst->effective_diff = dup_or_null(src->effective_diff);
	dst->config = dup_or_null(src->config);
	dst->config_hash = dup_or_null(src->config_hash);
	dst->same_as = dup_or_null(src->same_as);
	dst->reason = dup_or_null(src->reason);
}

int store_put_variant(struct store *st, struct store_variant *v)
{
	sqlite3_stmt *s;
	int ret;

	if (store_prepare(st, &s, "INSERT INTO variant (name, kind, options, requested,"
		    " effective_diff, config, config_hash, status, same_as, reason,"
		    " added, removed, changed, position, source)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
		    " ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, source = excluded.source,"
		    " options = excluded.options, requested = excluded.requested,"
		    " effective_diff = excluded.effective_diff, config = excluded.config,"
		    " config_hash = excluded.config_hash, status = excluded.status,"
		    " same_as = excluded.same_as, reason = excluded.reason,"
		    " added = excluded.added, removed = excluded.removed,"
		    " changed = excluded.changed, position = excluded.position"))
		return -1;
	store_bind_text(s, 1, v->name);
	store_bind_text(s, 2, v->kind);
	store_bind_text(s, 3, v->options ? v->options : "");
	store_bind_text(s, 4, v->requested ? v->requested : "");
	store_bind_text(s, 5, v->effective_diff ? v->effective_diff : "");
	store_bind_text(s, 6, v->config ? v->config : "");
	store_bind_text(s, 7, v->config_hash ? v->config_hash : "");
	store_bind_text(s, 8, variant_status_name(v->status));
	store_bind_text(s, 9, v->same_as);
	store_bind_text(s, 10, v->reason);
	sqlite3_bind_int(s, 11, v->added);
	sqlite3_bind_int(s, 12, v->removed);
	sqlite3_bind_int(s, 13, v->changed);
	sqlite3_bind_int(s, 14, v->position);
	store_bind_text(s, 15, v->source ? v->source : "");
	ret = store_step_done(st, s, "cannot store variant");
	if (ret)
		return ret;
	if (store_prepare(st, &s, "SELECT id FROM variant WHERE name = ?1"))
		return -1;
	store_bind_text(s, 1, v->name);
	if (sqlite3_step(s) == SQLITE_ROW)
		v->id = sqlite3_column_int64(s, 0);
	else
		ret = store_db_error(st, "cannot read back variant");
	sqlite3_finalize(s);
	return ret;
}

int store_get_variants(struct store *st, struct store_variant **out, size_t *nr)
{
	sqlite3_stmt *s;
	struct store_variant *v = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	/* Before version 4 (an archive read as it is) every variant is the lone source's. */
	if (store_prepare(st, &s, store_schema(st) && store_schema(st) < 4 ?
		    "SELECT id, name, kind, options, requested, effective_diff,"
		    " config, config_hash, status, same_as, reason, added, removed,"
		    " changed, position, '' FROM variant ORDER BY position, id" :
		    "SELECT id, name, kind, options, requested, effective_diff,"
		    " config, config_hash, status, same_as, reason, added, removed,"
		    " changed, position, source FROM variant ORDER BY position, id"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_variant *e;

		ALLOC_GROW(v, n + 1, alloc);
		e = &v[n++];
		e->id = sqlite3_column_int64(s, 0);
		e->name = store_column_text(s, 1);
		e->kind = store_column_text(s, 2);
		e->options = store_column_text(s, 3);
		e->requested = store_column_text(s, 4);
		e->effective_diff = store_column_text(s, 5);
		e->config = store_column_text(s, 6);
		e->config_hash = store_column_text(s, 7);
		e->same_as = store_column_text(s, 9);
		e->reason = store_column_text(s, 10);
		e->added = sqlite3_column_int(s, 11);
		e->removed = sqlite3_column_int(s, 12);
		e->changed = sqlite3_column_int(s, 13);
		e->position = sqlite3_column_int(s, 14);
		e->source = store_column_text(s, 15);
		if (!e->source)
			e->source = xstrdup("");
		if (variant_status_parse(&e->status, store_column_str(s, 8))) {
			char *row = xstrfmt("'%s'", e->name);

			store_unknown_status(st, "variant", row, store_column_str(s, 8));
			free(row);
			break;
		}
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		store_db_error(st, "cannot read variants");
	if (rc != SQLITE_DONE) {
		store_variants_free(v, n);
		return -1;
	}
	*out = v;
	*nr = n;
	return 0;
}

void store_variants_free(struct store_variant *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		store_variant_release(&v[i]);
	free(v);
}

void store_source_release(struct store_source *s)
{
	free(s->label);
	free(s->origin);
	free(s->id);
	free(s->tree);
	free(s->version);
	free(s->patch);
	free(s->base);
	memset(s, 0, sizeof(*s));
}

void store_sources_free(struct store_source *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		store_source_release(&v[i]);
	free(v);
}

int store_put_sources(struct store *st, const struct store_source *v, size_t nr)
{
	size_t i;

	if (store_exec_sql(st, "DELETE FROM source"))
		return -1;
	for (i = 0; i < nr; i++) {
		sqlite3_stmt *s;

		if (store_prepare(st, &s, "INSERT INTO source (label, position, origin, id, tree,"
			    " version, patch, base) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"))
			return -1;
		store_bind_text(s, 1, v[i].label ? v[i].label : "");
		sqlite3_bind_int(s, 2, (int)i);
		store_bind_text(s, 3, v[i].origin ? v[i].origin : "");
		store_bind_text(s, 4, v[i].id ? v[i].id : "");
		store_bind_text(s, 5, v[i].tree ? v[i].tree : "");
		store_bind_text(s, 6, v[i].version ? v[i].version : "");
		store_bind_text(s, 7, v[i].patch);
		store_bind_text(s, 8, v[i].base);
		if (store_step_done(st, s, "cannot store a source"))
			return -1;
	}
	return 0;
}

/* A database before version 4, read as it is: its one source, from the meta facts. */
static int sources_from_meta(struct store *st, struct store_source **out, size_t *nr)
{
	char *id = store_get_meta(st, META_SOURCE_ID);

	if (!id)
		return 0;
	*out = xcalloc(1, sizeof(**out));
	(*out)->label = xstrdup("");
	(*out)->id = id;
	(*out)->origin = store_get_meta(st, META_SOURCE);
	(*out)->tree = store_get_meta(st, META_SOURCE_TREE);
	(*out)->version = store_get_meta(st, META_KERNEL_VERSION);
	*nr = 1;
	return 0;
}

int store_get_sources(struct store *st, struct store_source **out, size_t *nr)
{
	sqlite3_stmt *s;
	struct store_source *v = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	if (store_schema(st) && store_schema(st) < 4)
		return sources_from_meta(st, out, nr);
	if (store_prepare(st, &s, "SELECT label, position, origin, id, tree, version, patch, base"
		    " FROM source ORDER BY position"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_source *e;

		ALLOC_GROW(v, n + 1, alloc);
		e = &v[n++];
		e->label = store_column_text(s, 0);
		e->position = sqlite3_column_int(s, 1);
		e->origin = store_column_text(s, 2);
		e->id = store_column_text(s, 3);
		e->tree = store_column_text(s, 4);
		e->version = store_column_text(s, 5);
		e->patch = store_column_text(s, 6);
		e->base = store_column_text(s, 7);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_db_error(st, "cannot read sources");
		store_sources_free(v, n);
		return -1;
	}
	if (!n)
		return sources_from_meta(st, out, nr);
	*out = v;
	*nr = n;
	return 0;
}

int store_clear_variants(struct store *st)
{
	return store_exec_sql(st, "DELETE FROM variant");
}

void store_build_release(struct store_build *b)
{
	free(b->key);
	free(b->config_hash);
	free(b->image);
	free(b->log_path);
	free(b->log_tail);
	free(b->seeded_from);
	memset(b, 0, sizeof(*b));
	b->sections = b->symbols = (struct store_sizes)STORE_SIZES_UNKNOWN;
}

/* The first schemas with vmlinux's section sizes and its symbols' sizes in build. */
#define SECTIONS_SCHEMA 6

#define SYMBOLS_SCHEMA 7

static void bind_size(sqlite3_stmt *s, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

static int64_t column_size(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, i);
}

/* A build's sizes, beside the row store_put_build() wrote. */
static int put_sections(struct store *st, const struct store_build *b)
{
	const struct store_sizes *z[2] = { &b->sections, &b->symbols };
	sqlite3_stmt *s;
	int i, n = store_schema(st) >= SYMBOLS_SCHEMA ? 2 : 1;

	if (store_schema(st) < SECTIONS_SCHEMA)
		return 0;
	if (store_prepare(st, &s, n == 2 ?
		    "UPDATE build SET text_size = ?2, data_size = ?3, bss_size = ?4, "
		    "symbol_text_size = ?5, symbol_data_size = ?6, symbol_bss_size = ?7 WHERE key = ?1" :
		    "UPDATE build SET text_size = ?2, data_size = ?3, bss_size = ?4 WHERE key = ?1"))
		return -1;
	store_bind_text(s, 1, b->key);
	for (i = 0; i < n; i++) {
		bind_size(s, 2 + 3 * i, z[i]->text);
		bind_size(s, 3 + 3 * i, z[i]->data);
		bind_size(s, 4 + 3 * i, z[i]->bss);
	}
	return store_step_done(st, s, "cannot store build");
}

static int get_sections(struct store *st, struct store_build *b)
{
	struct store_sizes *z[2] = { &b->sections, &b->symbols };
	sqlite3_stmt *s;
	int i, rc, n = store_schema(st) >= SYMBOLS_SCHEMA ? 2 : 1;

	b->sections = b->symbols = (struct store_sizes)STORE_SIZES_UNKNOWN;
	if (store_schema(st) < SECTIONS_SCHEMA)
		return 0;
	if (store_prepare(st, &s, n == 2 ?
		    "SELECT text_size, data_size, bss_size, symbol_text_size, symbol_data_size,"
		    " symbol_bss_size FROM build WHERE key = ?1" :
		    "SELECT text_size, data_size, bss_size FROM build WHERE key = ?1"))
		return -1;
	store_bind_text(s, 1, b->key);
	rc = sqlite3_step(s);
	for (i = 0; rc == SQLITE_ROW && i < n; i++) {
		z[i]->text = column_size(s, 3 * i);
		z[i]->data = column_size(s, 3 * i + 1);
		z[i]->bss = column_size(s, 3 * i + 2);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_error(st, "cannot read build");
}

int store_put_build(struct store *st, const struct store_build *b)
{
	sqlite3_stmt *s;
	char now[32];

	store_utc_now(now, sizeof(now));
	if (store_prepare(st, &s, "INSERT OR REPLACE INTO build (key, config_hash, status,"
		    " seconds, bzimage_size, vmlinux_size, image, log_path, log_tail,"
		    " seeded_from, finished)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"))
		return -1;
	store_bind_text(s, 1, b->key);
	store_bind_text(s, 2, b->config_hash);
	store_bind_text(s, 3, build_status_name(b->status));
	sqlite3_bind_double(s, 4, b->seconds);
	sqlite3_bind_int64(s, 5, b->bzimage_size);
	sqlite3_bind_int64(s, 6, b->vmlinux_size);
	store_bind_text(s, 7, b->image);
	store_bind_text(s, 8, b->log_path);
	store_bind_text(s, 9, b->log_tail);
	store_bind_text(s, 10, b->seeded_from);
	store_bind_text(s, 11, now);
	if (store_step_done(st, s, "cannot store build"))
		return -1;
	return put_sections(st, b);
}

int store_get_build_by_hash(struct store *st, const char *config_hash,
			    struct store_build *out)
{
	sqlite3_stmt *s;
	int rc, ret = 0;

	if (store_prepare(st, &s, "SELECT key, config_hash, status, seconds, bzimage_size,"
		    " vmlinux_size, image, log_path, log_tail, seeded_from"
		    " FROM build WHERE config_hash = ?1 ORDER BY finished DESC LIMIT 1"))
		return -1;
	store_bind_text(s, 1, config_hash);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->key = store_column_text(s, 0);
		out->config_hash = store_column_text(s, 1);
		out->seconds = sqlite3_column_double(s, 3);
		out->bzimage_size = sqlite3_column_int64(s, 4);
		out->vmlinux_size = sqlite3_column_int64(s, 5);
		out->image = store_column_text(s, 6);
		out->log_path = store_column_text(s, 7);
		out->log_tail = store_column_text(s, 8);
		out->seeded_from = store_column_text(s, 9);
		ret = 1;
		if (get_sections(st, out))
			ret = -1;
		if (build_status_parse(&out->status, store_column_str(s, 2))) {
			char *row = xstrfmt("'%s'", out->key);

			ret = store_unknown_status(st, "build", row, store_column_str(s, 2));
			free(row);
			store_build_release(out);
		}
	} else if (rc != SQLITE_DONE) {
		ret = store_db_error(st, "cannot read build");
	}
	sqlite3_finalize(s);
	return ret;
}
