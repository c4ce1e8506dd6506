/* store.c: the experiment database (SQLite): opening it, its scratch copy, transactions and meta. */
/*
 * Every statement of the database is here and in the store's other files
 * (the variants and builds: store-variants.c; runs and samples:
 * store-runs.c; the meter's, the findings', the claims'), behind the one
 * private struct store, so nothing else sees SQLite; the schema and its
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

#include "store/meta-keys.h"
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

int store_schema(const struct store *st)
{
	return st->schema;
}

int store_db_error(struct store *st, const char *what)
{
	return store_sql_error(st->db, st->path, what);
}

int store_exec(struct store *st, const char *sql, const char *what)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_db_error(st, what);
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

int store_exec_sql(struct store *st, const char *sql)
{
	return store_sql_exec(st->db, st->path, sql);
}

int store_prepare(struct store *st, sqlite3_stmt **out, const char *sql)
{
	return store_sql_prepare(st->db, st->path, out, sql);
}

const char *store_column_str(sqlite3_stmt *s, int i)
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
	if (store_exec_sql(st, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
		     "PRAGMA foreign_keys = OFF;"))
		goto fail;
	if (store_schema_migrate(st->db, st->path) || store_exec_sql(st, "PRAGMA foreign_keys = ON;"))
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
		store_db_error(st, "cannot read schema version");
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
		 * their defaults: they are read as they are (store_run_status_of()
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
	return store_exec_sql(st, "BEGIN IMMEDIATE");
}

int store_commit(struct store *st)
{
	return store_exec_sql(st, "COMMIT");
}

int store_rollback(struct store *st)
{
	return store_exec_sql(st, "ROLLBACK");
}

void store_bind_text(sqlite3_stmt *s, int i, const char *text)
{
	if (text)
		sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

char *store_column_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

/*
 * A run's status as stored.  Version 1's importer said "failed" for what
 * is "exit-failed" since (migration 2), and a version 1 file read as it
 * is still says so.
 */
int store_run_status_of(const struct store *st, enum run_status *out, const char *name)
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
int store_unknown_status(struct store *st, const char *table, const char *row,
			  const char *status)
{
	return error("%s: %s %s has status '%s', which this kconfperf does not know",
		     st->path, table, row, status ? status : "(null)");
}

/* Runs a prepared statement that returns no rows, then finalizes it. */
int store_step_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);
	int ret = 0;

	if (rc != SQLITE_DONE)
		ret = store_db_error(st, what);
	sqlite3_finalize(s);
	return ret;
}

int store_copy_to(struct store *st, const char *path)
{
	sqlite3_stmt *s;

	if (store_prepare(st, &s, "VACUUM INTO ?1"))
		return -1;
	store_bind_text(s, 1, path);
	return store_step_done(st, s, "cannot copy the database");
}

int store_set_meta(struct store *st, const char *key, const char *value)
{
	sqlite3_stmt *s;

	if (store_prepare(st, &s, "INSERT INTO meta (key, value) VALUES (?1, ?2) "
		    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"))
		return -1;
	store_bind_text(s, 1, key);
	store_bind_text(s, 2, value ? value : "");
	return store_step_done(st, s, "cannot store experiment facts");
}

char *store_get_meta(struct store *st, const char *key)
{
	sqlite3_stmt *s;
	char *value = NULL;

	if (store_prepare(st, &s, "SELECT value FROM meta WHERE key = ?1"))
		return NULL;
	store_bind_text(s, 1, key);
	if (sqlite3_step(s) == SQLITE_ROW)
		value = store_column_text(s, 0);
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
	if (store_prepare(st, &s, "SELECT x.unit, x.higher_is_better FROM sample x JOIN run r "
		    "ON r.id = x.run_id WHERE r.workload = ?1 AND x.metric = ?2 "
		    "ORDER BY x.run_id, x.iteration LIMIT 1"))
		return -1;
	store_bind_text(s, 1, workload);
	store_bind_text(s, 2, metric);
	if (sqlite3_step(s) == SQLITE_ROW) {
		*unit = store_column_text(s, 0);
		*higher_is_better = sqlite3_column_int(s, 1);
		ret = 1;
	}
	sqlite3_finalize(s);
	return ret;
}

void store_utc_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Where store_set_screen_report() keeps it (a meta row since schema 1: older screens have it). */

int store_set_screen_report(struct store *st, const char *text)
{
	return store_set_meta(st, META_SCREEN_REPORT, text);
}

char *store_get_screen_report(struct store *st)
{
	return store_get_meta(st, META_SCREEN_REPORT);
}

int store_get_meta_all(struct store *st, struct strvec *out)
{
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, &s, "SELECT key, value FROM meta WHERE key <> '" META_SCREEN_REPORT "'"
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
		return store_db_error(st, "cannot read experiment facts");
	return 0;
}
