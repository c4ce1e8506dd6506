/* store.c: the experiment database (SQLite): plan, builds, runs and samples. */
/*
 * Every statement of the database is here, behind the one private
 * struct store, so nothing else sees SQLite; the schema and its
 * migrations are store-schema.c, statuses status.c.
 */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store-internal.h"
#include "store/store-schema.h"
#include "store/store.h"
#include "util/sigchain.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The files of a database at PATH: PATH itself and SQLite's beside it. */
static const char *const db_suffixes[] = { "", "-wal", "-shm", "-journal" };
#define NR_DB_FILES ARRAY_SIZE(db_suffixes)

struct store {
	sqlite3 *db;
	char *path;
	/*
	 * The file's schema version: STORE_SCHEMA_VERSION, or an older one
	 * that a read-only open reads as it is (see store_open_readonly()).
	 */
	int schema;
	/* From store_create_scratch() until committed (path is the scratch file). */
	struct scratch *scratch;
};

/* A scratch database: the path it becomes, and its files to remove until then. */
struct scratch {
	char *target;
	char *files[NR_DB_FILES];
};

sqlite3 *store_sqlite(struct store *st, int *schema)
{
	*schema = st->schema;
	return st->db;
}

static int db_error(struct store *st, const char *what)
{
	return error("%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

int store_db_error(struct store *st, const char *what)
{
	return db_error(st, what);
}

int store_exec(struct store *st, const char *sql, const char *what)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(st, what);
	return 0;
}

int store_schema_at_least(struct store *st, int version)
{
	return st->schema >= version;
}

char *store_column_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return xstrdup(t ? (const char *)t : "");
}

static int exec_sql(struct store *st, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: %s", st->path, msg ? msg : "sqlite error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int prepare(struct store *st, sqlite3_stmt **out, const char *sql)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK)
		return db_error(st, "cannot prepare statement");
	return 0;
}

static const char *column_str(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

int store_open(struct store **out, const char *path, int create)
{
	struct store *st = xcalloc(1, sizeof(*st));
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	st->path = xstrdup(path);
	if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
		if (!st->db)
			error("cannot open database '%s'", path);
		else
			error("cannot open database '%s': %s", path, sqlite3_errmsg(st->db));
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 10000);
	if (exec_sql(st, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
		     "PRAGMA foreign_keys = OFF;"))
		goto fail;
	if (store_schema_migrate(st->db, st->path) || exec_sql(st, "PRAGMA foreign_keys = ON;"))
		goto fail;
	st->schema = STORE_SCHEMA_VERSION;
	*out = st;
	return 0;
fail:
	store_close(st);
	*out = NULL;
	return -1;
}

static void scratch_free(struct scratch *sc);

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	scratch_free(st->scratch);
	free(st->path);
	free(st);
}

const char *store_path(const struct store *st)
{
	return st->path;
}

/*
 * A read-only open.  SQLite reads a WAL database through its -shm index,
 * which a reader creates when it is missing; where nothing can be
 * created (a read-only mount, an archive) the open fails with
 * SQLITE_CANTOPEN.  No writer is at work then (a writer keeps the -shm),
 * so without a -wal holding changes the database file is the whole
 * database and is read as immutable (no locks, no -shm); with one, it
 * cannot be read correctly without the -shm.
 */

/* user_version without a message: the SQLite result code. */
static int peek_version(struct store *st, int *out)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL);

	if (rc != SQLITE_OK)
		return sqlite3_extended_errcode(st->db);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int(s, 0);
		rc = SQLITE_OK;
	} else {
		rc = sqlite3_extended_errcode(st->db);
	}
	sqlite3_finalize(s);
	return rc;
}

/* "file:PATH?mode=ro&immutable=1", PATH percent-encoded as SQLite's URIs want. */
static char *immutable_uri(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p;

	strbuf_addstr(&sb, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
			strbuf_addch(&sb, (char)*p);
		else
			strbuf_addf(&sb, "%%%02X", *p);
	}
	strbuf_addstr(&sb, "?mode=ro&immutable=1");
	return strbuf_detach(&sb, NULL);
}

static int wal_has_changes(const char *path)
{
	char *wal = xstrfmt("%s-wal", path);
	struct stat sb;
	int ret = !stat(wal, &sb) && sb.st_size > 0;

	free(wal);
	return ret;
}

static int open_read(struct store *st, const char *name, int flags)
{
	if (sqlite3_open_v2(name, &st->db, flags, NULL) == SQLITE_OK)
		return 0;
	if (!st->db)
		return error("cannot open database '%s'", st->path);
	error("cannot open database '%s': %s", st->path, sqlite3_errmsg(st->db));
	sqlite3_close(st->db);
	st->db = NULL;
	return -1;
}

/* Whether this process may change the database at path (and its directory, for the -wal). */
static int may_write(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path) + 1) : xstrdup(".");
	int ret = !access(path, W_OK) && !access(dir, W_OK);

	free(dir);
	return ret;
}

int store_open_readonly(struct store **out, const char *path)
{
	struct store *st = xcalloc(1, sizeof(*st));
	int version = 0, upgraded = 0, rc;
	char *uri = NULL;

	st->path = xstrdup(path);
again:
	if (open_read(st, path, SQLITE_OPEN_READONLY))
		goto fail;
	sqlite3_busy_timeout(st->db, 10000);
	rc = peek_version(st, &version);
	if ((rc & 0xff) == SQLITE_CANTOPEN) {
		if (wal_has_changes(path)) {
			error("cannot read '%s' here: '%s-wal' holds changes that only a "
			      "writable directory lets a reader see; copy the experiment "
			      "somewhere writable", path, path);
			goto fail;
		}
		sqlite3_close(st->db);
		st->db = NULL;
		uri = immutable_uri(path);
		if (open_read(st, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI))
			goto fail;
		rc = peek_version(st, &version);
	}
	if (rc != SQLITE_OK) {
		db_error(st, "cannot read schema version");
		goto fail;
	}
	if (version > STORE_SCHEMA_VERSION) {
		error("%s: schema version %d is newer than this kconfperf knows (%d)",
		      path, version, STORE_SCHEMA_VERSION);
		goto fail;
	}
	if (version >= 1 && version < STORE_SCHEMA_VERSION && !may_write(path)) {
		/*
		 * An archive nobody may write cannot be upgraded, but versions 1
		 * to 3 have version 4's tables but for columns that are read as
		 * their defaults: they are read as they are (run_status_of()
		 * knows version 1's statuses; store_get_runs() reads version 3's
		 * clock columns as NULL before version 3; store_get_variants()
		 * and store_get_sources() give one lone source before version 4;
		 * store-meter.c has no meter counts before version 5).
		 */
	} else if (version < STORE_SCHEMA_VERSION) {
		struct store *rw;

		/* An upgrade is a write: made once, by a read-write open. */
		if (upgraded) {
			error("%s: schema version %d after an upgrade to %d", path, version,
			      STORE_SCHEMA_VERSION);
			goto fail;
		}
		sqlite3_close(st->db);
		st->db = NULL;
		if (store_open(&rw, path, 0)) {
			error("%s: schema version %d must be upgraded to %d before it is "
			      "read, which needs write access once", path, version,
			      STORE_SCHEMA_VERSION);
			goto fail;
		}
		store_close(rw);
		upgraded = 1;
		free(uri);
		uri = NULL;
		goto again;
	}
	st->schema = version;
	free(uri);
	*out = st;
	return 0;
fail:
	free(uri);
	store_close(st);
	*out = NULL;
	return -1;
}

/*
 * Creating a database all at once.  The scratch file is PATH.new-PID, so
 * that two processes never share one and a leftover names its process.
 */
#define SCRATCH_INFIX ".new-"

/* A sigchain cleanup, possibly in a signal handler: only unlink(). */
static void scratch_unlink(int signo UNUSED, void *data)
{
	struct scratch *sc = data;
	size_t i;

	for (i = 0; i < NR_DB_FILES; i++)
		unlink(sc->files[i]);
}

/* Removes the files of an uncommitted scratch database (closed by now). */
static void scratch_free(struct scratch *sc)
{
	size_t i;

	if (!sc)
		return;
	scratch_unlink(0, sc);
	sigchain_pop_cleanup(scratch_unlink, sc);
	for (i = 0; i < NR_DB_FILES; i++)
		free(sc->files[i]);
	free(sc->target);
	free(sc);
}

/*
 * The pid in NAME when it is BASE.new-PID followed by one of
 * db_suffixes, else 0.
 */
static pid_t scratch_pid(const char *name, const char *base)
{
	const char *p;
	char *end;
	long pid;
	size_t i;

	if (!skip_prefix(name, base, &p) || !skip_prefix(p, SCRATCH_INFIX, &p) ||
	    *p < '1' || *p > '9')
		return 0;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || pid <= 0 || pid != (pid_t)pid)
		return 0;
	for (i = 0; i < NR_DB_FILES; i++)
		if (!strcmp(end, db_suffixes[i]))
			return (pid_t)pid;
	return 0;
}

/*
 * Removes the scratch files beside path of processes that no longer run
 * (a SIGKILLed import leaves its own): they would only confuse.
 */
static void remove_stale_scratch(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path + 1)) : xstrdup("./");
	const char *base = slash ? slash + 1 : path;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		pid_t pid = scratch_pid(e->d_name, base);
		char *file;

		if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
			continue;
		file = xstrfmt("%s%s", dir, e->d_name);
		if (!unlink(file) && !ends_with(e->d_name, "-wal") &&
		    !ends_with(e->d_name, "-shm") && !ends_with(e->d_name, "-journal"))
			note("removed '%s', left by an interrupted kconfperf (pid %ld)",
			     file, (long)pid);
		free(file);
	}
	if (d)
		closedir(d);
	free(dir);
}

int store_create_scratch(struct store **out, const char *path)
{
	struct scratch *sc = xcalloc(1, sizeof(*sc));
	char *name = xstrfmt("%s" SCRATCH_INFIX "%ld", path, (long)getpid());
	size_t i;

	*out = NULL;
	remove_stale_scratch(path);
	sc->target = xstrdup(path);
	for (i = 0; i < NR_DB_FILES; i++)
		sc->files[i] = xstrfmt("%s%s", name, db_suffixes[i]);
	/*
	 * Before the file exists, so that no signal finds it unregistered.
	 * Removing first: a file of this name is ours only if this pid was
	 * reused, from a run that was killed.
	 */
	sigchain_push_cleanup(scratch_unlink, sc);
	scratch_unlink(0, sc);
	if (store_open(out, name, 1)) {
		scratch_free(sc);
		free(name);
		return -1;
	}
	(*out)->scratch = sc;
	free(name);
	return 0;
}

int store_create_commit(struct store *st)
{
	const char *target;
	int ret = 0;

	if (!st->scratch) {
		ret = error("BUG: %s: store_create_commit() of a store not from "
			    "store_create_scratch()", st->path);
		goto out;
	}
	/* Closing checkpoints the WAL: the database is then one file. */
	if (sqlite3_close(st->db) != SQLITE_OK) {
		ret = error("%s: cannot close the new database: %s", st->path,
			    sqlite3_errmsg(st->db));
		goto out;
	}
	st->db = NULL;
	target = st->scratch->target;
	if (!renameat2(AT_FDCWD, st->path, AT_FDCWD, target, RENAME_NOREPLACE))
		goto out;
	if (errno == EINVAL || errno == ENOSYS) {
		/* No RENAME_NOREPLACE here (NFS...): link() refuses to replace too. */
		if (!link(st->path, target))
			goto out;
	}
	if (errno == EEXIST)
		ret = error("'%s' appeared while its new database was written; nothing "
			    "replaced it", target);
	else
		ret = error_errno("cannot move '%s' to '%s'", st->path, target);
out:
	store_close(st);
	return ret;
}

int store_begin(struct store *st)
{
	return exec_sql(st, "BEGIN IMMEDIATE");
}

int store_commit(struct store *st)
{
	return exec_sql(st, "COMMIT");
}

int store_rollback(struct store *st)
{
	return exec_sql(st, "ROLLBACK");
}

static void bind_text(sqlite3_stmt *s, int i, const char *text)
{
	if (text)
		sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

static char *column_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

/*
 * A run's status as stored.  Version 1's importer said "failed" for what
 * is "exit-failed" since (migration 2), and a version 1 file read as it
 * is still says so.
 */
static int run_status_of(const struct store *st, enum run_status *out, const char *name)
{
	if (!run_status_parse(out, name))
		return 0;
	if (st->schema < 2 && name && !strcmp(name, "failed")) {
		*out = RUN_EXIT_FAILED;
		return 0;
	}
	return -1;
}

/*
 * A status the schema's CHECK should have kept out (a database edited by
 * hand, or by a newer kconfperf that did not raise the schema version).
 */
static int unknown_status(struct store *st, const char *table, const char *row,
			  const char *status)
{
	return error("%s: %s %s has status '%s', which this kconfperf does not know",
		     st->path, table, row, status ? status : "(null)");
}

/* Runs a prepared statement that returns no rows, then finalizes it. */
static int step_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);
	int ret = 0;

	if (rc != SQLITE_DONE)
		ret = db_error(st, what);
	sqlite3_finalize(s);
	return ret;
}

int store_copy_to(struct store *st, const char *path)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, "VACUUM INTO ?1"))
		return -1;
	bind_text(s, 1, path);
	return step_done(st, s, "cannot copy the database");
}

int store_set_meta(struct store *st, const char *key, const char *value)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, "INSERT INTO meta (key, value) VALUES (?1, ?2) "
		    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"))
		return -1;
	bind_text(s, 1, key);
	bind_text(s, 2, value ? value : "");
	return step_done(st, s, "cannot store experiment facts");
}

char *store_get_meta(struct store *st, const char *key)
{
	sqlite3_stmt *s;
	char *value = NULL;

	if (prepare(st, &s, "SELECT value FROM meta WHERE key = ?1"))
		return NULL;
	bind_text(s, 1, key);
	if (sqlite3_step(s) == SQLITE_ROW)
		value = column_text(s, 0);
	sqlite3_finalize(s);
	return value;
}

int store_metric_kind(struct store *st, const char *workload, const char *metric,
		      char **unit, int *higher_is_better)
{
	sqlite3_stmt *s;
	int ret = 0;

	*unit = NULL;
	*higher_is_better = 0;
	if (prepare(st, &s, "SELECT x.unit, x.higher_is_better FROM sample x JOIN run r "
		    "ON r.id = x.run_id WHERE r.workload = ?1 AND x.metric = ?2 "
		    "ORDER BY x.run_id, x.iteration LIMIT 1"))
		return -1;
	bind_text(s, 1, workload);
	bind_text(s, 2, metric);
	if (sqlite3_step(s) == SQLITE_ROW) {
		*unit = column_text(s, 0);
		*higher_is_better = sqlite3_column_int(s, 1);
		ret = 1;
	}
	sqlite3_finalize(s);
	return ret;
}

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

size_t store_samples_of_run(const struct store_sample_row *s, size_t nr, int64_t run_id,
			    size_t *first)
{
	size_t lo = 0, hi = nr, n = 0;

	/* The first sample with run_id >= the one asked for. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].run_id < run_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < nr && s[lo + n].run_id == run_id)
		n++;
	return n;
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

	if (prepare(st, &s, "INSERT INTO variant (name, kind, options, requested,"
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
	bind_text(s, 1, v->name);
	bind_text(s, 2, v->kind);
	bind_text(s, 3, v->options ? v->options : "");
	bind_text(s, 4, v->requested ? v->requested : "");
	bind_text(s, 5, v->effective_diff ? v->effective_diff : "");
	bind_text(s, 6, v->config ? v->config : "");
	bind_text(s, 7, v->config_hash ? v->config_hash : "");
	bind_text(s, 8, variant_status_name(v->status));
	bind_text(s, 9, v->same_as);
	bind_text(s, 10, v->reason);
	sqlite3_bind_int(s, 11, v->added);
	sqlite3_bind_int(s, 12, v->removed);
	sqlite3_bind_int(s, 13, v->changed);
	sqlite3_bind_int(s, 14, v->position);
	bind_text(s, 15, v->source ? v->source : "");
	ret = step_done(st, s, "cannot store variant");
	if (ret)
		return ret;
	if (prepare(st, &s, "SELECT id FROM variant WHERE name = ?1"))
		return -1;
	bind_text(s, 1, v->name);
	if (sqlite3_step(s) == SQLITE_ROW)
		v->id = sqlite3_column_int64(s, 0);
	else
		ret = db_error(st, "cannot read back variant");
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
	if (prepare(st, &s, st->schema && st->schema < 4 ?
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
		e->name = column_text(s, 1);
		e->kind = column_text(s, 2);
		e->options = column_text(s, 3);
		e->requested = column_text(s, 4);
		e->effective_diff = column_text(s, 5);
		e->config = column_text(s, 6);
		e->config_hash = column_text(s, 7);
		e->same_as = column_text(s, 9);
		e->reason = column_text(s, 10);
		e->added = sqlite3_column_int(s, 11);
		e->removed = sqlite3_column_int(s, 12);
		e->changed = sqlite3_column_int(s, 13);
		e->position = sqlite3_column_int(s, 14);
		e->source = column_text(s, 15);
		if (!e->source)
			e->source = xstrdup("");
		if (variant_status_parse(&e->status, column_str(s, 8))) {
			char *row = xstrfmt("'%s'", e->name);

			unknown_status(st, "variant", row, column_str(s, 8));
			free(row);
			break;
		}
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		db_error(st, "cannot read variants");
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

	if (exec_sql(st, "DELETE FROM source"))
		return -1;
	for (i = 0; i < nr; i++) {
		sqlite3_stmt *s;

		if (prepare(st, &s, "INSERT INTO source (label, position, origin, id, tree,"
			    " version, patch, base) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"))
			return -1;
		bind_text(s, 1, v[i].label ? v[i].label : "");
		sqlite3_bind_int(s, 2, (int)i);
		bind_text(s, 3, v[i].origin ? v[i].origin : "");
		bind_text(s, 4, v[i].id ? v[i].id : "");
		bind_text(s, 5, v[i].tree ? v[i].tree : "");
		bind_text(s, 6, v[i].version ? v[i].version : "");
		bind_text(s, 7, v[i].patch);
		bind_text(s, 8, v[i].base);
		if (step_done(st, s, "cannot store a source"))
			return -1;
	}
	return 0;
}

/* A database before version 4, read as it is: its one source, from the meta facts. */
static int sources_from_meta(struct store *st, struct store_source **out, size_t *nr)
{
	char *id = store_get_meta(st, "source_id");

	if (!id)
		return 0;
	*out = xcalloc(1, sizeof(**out));
	(*out)->label = xstrdup("");
	(*out)->id = id;
	(*out)->origin = store_get_meta(st, "source");
	(*out)->tree = store_get_meta(st, "source_tree");
	(*out)->version = store_get_meta(st, "kernel_version");
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
	if (st->schema && st->schema < 4)
		return sources_from_meta(st, out, nr);
	if (prepare(st, &s, "SELECT label, position, origin, id, tree, version, patch, base"
		    " FROM source ORDER BY position"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_source *e;

		ALLOC_GROW(v, n + 1, alloc);
		e = &v[n++];
		e->label = column_text(s, 0);
		e->position = sqlite3_column_int(s, 1);
		e->origin = column_text(s, 2);
		e->id = column_text(s, 3);
		e->tree = column_text(s, 4);
		e->version = column_text(s, 5);
		e->patch = column_text(s, 6);
		e->base = column_text(s, 7);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		db_error(st, "cannot read sources");
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
	return exec_sql(st, "DELETE FROM variant");
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
	int i, n = st->schema >= SYMBOLS_SCHEMA ? 2 : 1;

	if (st->schema < SECTIONS_SCHEMA)
		return 0;
	if (prepare(st, &s, n == 2 ?
		    "UPDATE build SET text_size = ?2, data_size = ?3, bss_size = ?4, "
		    "symbol_text_size = ?5, symbol_data_size = ?6, symbol_bss_size = ?7 WHERE key = ?1" :
		    "UPDATE build SET text_size = ?2, data_size = ?3, bss_size = ?4 WHERE key = ?1"))
		return -1;
	bind_text(s, 1, b->key);
	for (i = 0; i < n; i++) {
		bind_size(s, 2 + 3 * i, z[i]->text);
		bind_size(s, 3 + 3 * i, z[i]->data);
		bind_size(s, 4 + 3 * i, z[i]->bss);
	}
	return step_done(st, s, "cannot store build");
}

static int get_sections(struct store *st, struct store_build *b)
{
	struct store_sizes *z[2] = { &b->sections, &b->symbols };
	sqlite3_stmt *s;
	int i, rc, n = st->schema >= SYMBOLS_SCHEMA ? 2 : 1;

	b->sections = b->symbols = (struct store_sizes)STORE_SIZES_UNKNOWN;
	if (st->schema < SECTIONS_SCHEMA)
		return 0;
	if (prepare(st, &s, n == 2 ?
		    "SELECT text_size, data_size, bss_size, symbol_text_size, symbol_data_size,"
		    " symbol_bss_size FROM build WHERE key = ?1" :
		    "SELECT text_size, data_size, bss_size FROM build WHERE key = ?1"))
		return -1;
	bind_text(s, 1, b->key);
	rc = sqlite3_step(s);
	for (i = 0; rc == SQLITE_ROW && i < n; i++) {
		z[i]->text = column_size(s, 3 * i);
		z[i]->data = column_size(s, 3 * i + 1);
		z[i]->bss = column_size(s, 3 * i + 2);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(st, "cannot read build");
}

static void utc_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int store_put_build(struct store *st, const struct store_build *b)
{
	sqlite3_stmt *s;
	char now[32];

	utc_now(now, sizeof(now));
	if (prepare(st, &s, "INSERT OR REPLACE INTO build (key, config_hash, status,"
		    " seconds, bzimage_size, vmlinux_size, image, log_path, log_tail,"
		    " seeded_from, finished)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"))
		return -1;
	bind_text(s, 1, b->key);
	bind_text(s, 2, b->config_hash);
	bind_text(s, 3, build_status_name(b->status));
	sqlite3_bind_double(s, 4, b->seconds);
	sqlite3_bind_int64(s, 5, b->bzimage_size);
	sqlite3_bind_int64(s, 6, b->vmlinux_size);
	bind_text(s, 7, b->image);
	bind_text(s, 8, b->log_path);
	bind_text(s, 9, b->log_tail);
	bind_text(s, 10, b->seeded_from);
	bind_text(s, 11, now);
	if (step_done(st, s, "cannot store build"))
		return -1;
	return put_sections(st, b);
}

int store_get_build_by_hash(struct store *st, const char *config_hash,
			    struct store_build *out)
{
	sqlite3_stmt *s;
	int rc, ret = 0;

	if (prepare(st, &s, "SELECT key, config_hash, status, seconds, bzimage_size,"
		    " vmlinux_size, image, log_path, log_tail, seeded_from"
		    " FROM build WHERE config_hash = ?1 ORDER BY finished DESC LIMIT 1"))
		return -1;
	bind_text(s, 1, config_hash);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->key = column_text(s, 0);
		out->config_hash = column_text(s, 1);
		out->seconds = sqlite3_column_double(s, 3);
		out->bzimage_size = sqlite3_column_int64(s, 4);
		out->vmlinux_size = sqlite3_column_int64(s, 5);
		out->image = column_text(s, 6);
		out->log_path = column_text(s, 7);
		out->log_tail = column_text(s, 8);
		out->seeded_from = column_text(s, 9);
		ret = 1;
		if (get_sections(st, out))
			ret = -1;
		if (build_status_parse(&out->status, column_str(s, 2))) {
			char *row = xstrfmt("'%s'", out->key);

			ret = unknown_status(st, "build", row, column_str(s, 2));
			free(row);
			store_build_release(out);
		}
	} else if (rc != SQLITE_DONE) {
		ret = db_error(st, "cannot read build");
	}
	sqlite3_finalize(s);
	return ret;
}

void store_run_release(struct store_run *r)
{
	free(r->workload);
	free(r->accel);
	free(r->error);
	free(r->console_tail);
	free(r->started);
	free(r->clocksource);
	memset(r, 0, sizeof(*r));
	r->clock = VM_CLOCK_HOST;
	r->icount_shift = -1;
	r->layout_seed = -1;
}

int store_add_run(struct store *st, struct store_run *r,
		  const struct store_sample *samples, size_t nr_samples)
{
	sqlite3_stmt *s = NULL;
	char now[32];
	size_t i;

	/* A savepoint nests inside a caller's transaction or is one itself. */
	if (exec_sql(st, "SAVEPOINT add_run"))
		return -1;
	utc_now(now, sizeof(now));
	if (prepare(st, &s, "INSERT INTO run (variant_id, workload, round, seq, warmup,"
		    " accel, status, error, console_tail, wall_s, boot_s, started,"
		    " clock, icount_shift, layout_seed, clocksource, guests)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
		    " ?17)"))
		goto fail;
	sqlite3_bind_int64(s, 1, r->variant_id);
	bind_text(s, 2, r->workload);
	sqlite3_bind_int(s, 3, r->round);
	sqlite3_bind_int(s, 4, r->seq);
	sqlite3_bind_int(s, 5, r->warmup);
	bind_text(s, 6, r->accel);
	bind_text(s, 7, run_status_name(r->status));
	bind_text(s, 8, r->error);
	bind_text(s, 9, r->console_tail);
	sqlite3_bind_double(s, 10, r->wall_s);
	if (isnan(r->boot_s))
		sqlite3_bind_null(s, 11);
	else
		sqlite3_bind_double(s, 11, r->boot_s);
	bind_text(s, 12, r->started ? r->started : now);
	bind_text(s, 13, vm_clock_name(r->clock));
	if (r->icount_shift < 0)
		sqlite3_bind_null(s, 14);
	else
		sqlite3_bind_int(s, 14, r->icount_shift);
	if (r->layout_seed < 0)
		sqlite3_bind_null(s, 15);
	else
		sqlite3_bind_int64(s, 15, r->layout_seed);
	bind_text(s, 16, r->clocksource);
	if (r->guests > 0)
		sqlite3_bind_int(s, 17, r->guests);
	else
		sqlite3_bind_null(s, 17);
	if (step_done(st, s, "cannot store run"))
		goto fail;
	r->id = sqlite3_last_insert_rowid(st->db);
	for (i = 0; i < nr_samples; i++) {
		const struct store_sample *x = &samples[i];

		if (prepare(st, &s, "INSERT INTO sample (run_id, iteration, metric, unit,"
			    " value, higher_is_better) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"))
			goto fail;
		sqlite3_bind_int64(s, 1, r->id);
		sqlite3_bind_int(s, 2, x->iteration);
		bind_text(s, 3, x->metric);
		bind_text(s, 4, x->unit);
		sqlite3_bind_double(s, 5, x->value);
		sqlite3_bind_int(s, 6, x->higher_is_better);
		if (step_done(st, s, "cannot store sample"))
			goto fail;
	}
	return exec_sql(st, "RELEASE add_run");
fail:
	exec_sql(st, "ROLLBACK TO add_run");
	exec_sql(st, "RELEASE add_run");
	return -1;
}

int store_has_run(struct store *st, int64_t variant_id, const char *workload,
		  int round, int warmup)
{
	sqlite3_stmt *s;
	int rc, ret;

	if (prepare(st, &s, "SELECT 1 FROM run WHERE variant_id = ?1 AND workload = ?2"
		    " AND round = ?3 AND warmup = ?4"))
		return -1;
	sqlite3_bind_int64(s, 1, variant_id);
	bind_text(s, 2, workload);
	sqlite3_bind_int(s, 3, round);
	sqlite3_bind_int(s, 4, warmup);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		ret = 1;
	else if (rc == SQLITE_DONE)
		ret = 0;
	else
		ret = db_error(st, "cannot look up run");
	sqlite3_finalize(s);
	return ret;
}

int64_t store_count_runs(struct store *st)
{
	sqlite3_stmt *s;
	int64_t n = -1;

	if (prepare(st, &s, "SELECT count(*) FROM run"))
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Where store_set_screen_report() keeps it (a meta row since schema 1: older screens have it). */
#define SCREEN_REPORT_KEY "screen_report"

int store_set_screen_report(struct store *st, const char *text)
{
	return store_set_meta(st, SCREEN_REPORT_KEY, text);
}

char *store_get_screen_report(struct store *st)
{
	return store_get_meta(st, SCREEN_REPORT_KEY);
}

int store_get_meta_all(struct store *st, struct strvec *out)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, &s, "SELECT key, value FROM meta WHERE key <> '" SCREEN_REPORT_KEY "'"
		    " ORDER BY key"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *k = sqlite3_column_text(s, 0);
		const unsigned char *v = sqlite3_column_text(s, 1);

		strvec_push(out, k ? (const char *)k : "");
		strvec_push(out, v ? (const char *)v : "");
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_error(st, "cannot read experiment facts");
	return 0;
}

int store_get_runs(struct store *st, struct store_run **out, size_t *nr)
{
	sqlite3_stmt *s;
	struct store_run *r = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	/* A read-only archive of schema 1 or 2 has no clock columns: host time. */
	/* A read-only archive of schema 7 has no guests column: one at a time. */
	if (prepare(st, &s, st->schema >= 8 ?
		    "SELECT r.id, r.variant_id, r.workload, r.round, r.seq,"
		    " r.warmup, r.accel, r.status, r.error, r.console_tail, r.wall_s,"
		    " r.boot_s, r.started, r.clock, r.icount_shift, r.layout_seed, r.clocksource,"
		    " r.guests"
		    " FROM run r JOIN variant v ON v.id = r.variant_id"
		    " ORDER BY v.position, v.id, r.workload, r.warmup DESC, r.round, r.seq, r.id" :
		    st->schema >= 3 ?
		    "SELECT r.id, r.variant_id, r.workload, r.round, r.seq,"
		    " r.warmup, r.accel, r.status, r.error, r.console_tail, r.wall_s,"
		    " r.boot_s, r.started, r.clock, r.icount_shift, r.layout_seed, r.clocksource,"
		    " NULL"
		    " FROM run r JOIN variant v ON v.id = r.variant_id"
		    " ORDER BY v.position, v.id, r.workload, r.warmup DESC, r.round, r.seq, r.id" :
		    "SELECT r.id, r.variant_id, r.workload, r.round, r.seq,"
		    " r.warmup, r.accel, r.status, r.error, r.console_tail, r.wall_s,"
		    " r.boot_s, r.started, NULL, NULL, NULL, NULL, NULL"
		    " FROM run r JOIN variant v ON v.id = r.variant_id"
		    " ORDER BY v.position, v.id, r.workload, r.warmup DESC, r.round, r.seq, r.id"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_run *e;

		ALLOC_GROW(r, n + 1, alloc);
		e = &r[n++];
		memset(e, 0, sizeof(*e));
		e->id = sqlite3_column_int64(s, 0);
		e->variant_id = sqlite3_column_int64(s, 1);
		e->workload = column_text(s, 2);
		e->round = sqlite3_column_int(s, 3);
		e->seq = sqlite3_column_int(s, 4);
		e->warmup = sqlite3_column_int(s, 5);
		e->accel = column_text(s, 6);
		e->error = column_text(s, 8);
		e->console_tail = column_text(s, 9);
		e->wall_s = sqlite3_column_type(s, 10) == SQLITE_NULL ?
			NAN : sqlite3_column_double(s, 10);
		e->boot_s = sqlite3_column_type(s, 11) == SQLITE_NULL ?
			NAN : sqlite3_column_double(s, 11);
		e->started = column_text(s, 12);
		/* the clock's name parsed here, once: NULL in runs older than it, host time */
		if (vm_clock_from_name(&e->clock, column_str(s, 13)))
			e->clock = VM_CLOCK_HOST;
		e->icount_shift = sqlite3_column_type(s, 14) == SQLITE_NULL ?
			-1 : sqlite3_column_int(s, 14);
		e->layout_seed = sqlite3_column_type(s, 15) == SQLITE_NULL ?
			-1 : sqlite3_column_int64(s, 15);
		e->clocksource = column_text(s, 16);
		e->guests = sqlite3_column_type(s, 17) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 17);
		if (run_status_of(st, &e->status, column_str(s, 7))) {
			char *row = xstrfmt("%lld", (long long)e->id);

			unknown_status(st, "run", row, column_str(s, 7));
			free(row);
			break;
		}
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		db_error(st, "cannot read runs");
	if (rc != SQLITE_DONE) {
		store_runs_free(r, n);
		return -1;
	}
	*out = r;
	*nr = n;
	return 0;
}

void store_runs_free(struct store_run *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		store_run_release(&r[i]);
	free(r);
}

int store_get_samples(struct store *st, struct store_sample_row **out, size_t *nr)
{
	sqlite3_stmt *s;
	struct store_sample_row *x = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	if (prepare(st, &s, "SELECT run_id, iteration, metric, unit, value, higher_is_better"
		    " FROM sample ORDER BY run_id, metric, iteration"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_sample_row *e;

		ALLOC_GROW(x, n + 1, alloc);
		e = &x[n++];
		e->run_id = sqlite3_column_int64(s, 0);
		e->iteration = sqlite3_column_int(s, 1);
		e->metric = column_text(s, 2);
		e->unit = column_text(s, 3);
		e->value = sqlite3_column_double(s, 4);
		e->higher_is_better = sqlite3_column_int(s, 5);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_sample_rows_free(x, n);
		return db_error(st, "cannot read samples");
	}
	*out = x;
	*nr = n;
	return 0;
}

void store_sample_rows_free(struct store_sample_row *s, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(s[i].metric);
		free(s[i].unit);
	}
	free(s);
}
