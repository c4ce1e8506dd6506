/* store-schema.c: the experiment database's schema, version by version, and the migrations. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>

#include "store/store-schema.h"
#include "store/store.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The database being migrated, and its name for messages. */
struct conn {
	sqlite3 *db;
	const char *path;
};

/*
 * The statuses each table accepts from version 2 on: the names of
 * status.h's enums (a run that could not start is never stored).  A new
 * status needs a new version that rebuilds its table.
 */
#define V2_VARIANT_STATUSES "'ok', 'partial', 'no-op', 'same-as'"
#define V2_BUILD_STATUSES "'ok', 'failed'"
#define V2_RUN_STATUSES \
	"'ok', 'timeout', 'panic', 'guest-error', 'malformed', 'no-done', 'exit-failed'"

static int check_v1_statuses(const struct conn *st);

/*
 * migrations[v] takes the schema from version v to v + 1, in one
 * transaction, after its check (if any) has found the data fit for it.
 * Add a new version as a new entry; never edit one that has shipped.
 */
static const struct migration {
	const char *sql;
	int (*check)(const struct conn *st);
} migrations[] = {
	/* 1: the tables. */
	{ "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE variant ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  kind TEXT NOT NULL,"
	"  options TEXT NOT NULL DEFAULT '',"
	"  requested TEXT NOT NULL DEFAULT '',"
	"  effective_diff TEXT NOT NULL DEFAULT '',"
	"  config TEXT NOT NULL DEFAULT '',"
	"  config_hash TEXT NOT NULL DEFAULT '',"
	"  status TEXT NOT NULL,"
	"  same_as TEXT,"
	"  reason TEXT,"
	"  added INTEGER NOT NULL DEFAULT 0,"
	"  removed INTEGER NOT NULL DEFAULT 0,"
	"  changed INTEGER NOT NULL DEFAULT 0,"
	"  position INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE build ("
	"  key TEXT PRIMARY KEY,"
	"  config_hash TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  seconds REAL,"
	"  bzimage_size INTEGER,"
	"  vmlinux_size INTEGER,"
	"  image TEXT,"
	"  log_path TEXT,"
	"  log_tail TEXT,"
	"  seeded_from TEXT,"
	"  finished TEXT NOT NULL);"
	"CREATE INDEX build_by_hash ON build(config_hash);"
	"CREATE TABLE run ("
	"  id INTEGER PRIMARY KEY,"
	"  variant_id INTEGER NOT NULL REFERENCES variant(id) ON DELETE CASCADE,"
	"  workload TEXT NOT NULL,"
	"  round INTEGER NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  warmup INTEGER NOT NULL,"
	"  accel TEXT,"
	"  status TEXT NOT NULL,"
	"  error TEXT,"
	"  console_tail TEXT,"
	"  wall_s REAL,"
	"  boot_s REAL,"
	"  started TEXT NOT NULL,"
	"  UNIQUE (variant_id, workload, round, warmup));"
	"CREATE TABLE sample ("
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  iteration INTEGER NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  value REAL NOT NULL,"
	"  higher_is_better INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (run_id, iteration, metric));", NULL },
	/*
	 * 2: statuses are enums, so the tables that hold them CHECK their
	 * names.  SQLite cannot add a CHECK to a table: each is rebuilt (new
	 * table, copy, drop, rename) with foreign keys off, which store_open()
	 * turns on only after migrating.  Version 1's importer stored a
	 * nonzero exit as "failed", since then "exit-failed".
	 */
	{ "CREATE TABLE variant_v2 ("
	  "  id INTEGER PRIMARY KEY,"
	  "  name TEXT NOT NULL UNIQUE,"
	  "  kind TEXT NOT NULL,"
	  "  options TEXT NOT NULL DEFAULT '',"
	  "  requested TEXT NOT NULL DEFAULT '',"
	  "  effective_diff TEXT NOT NULL DEFAULT '',"
	  "  config TEXT NOT NULL DEFAULT '',"
	  "  config_hash TEXT NOT NULL DEFAULT '',"
	  "  status TEXT NOT NULL CHECK (status IN (" V2_VARIANT_STATUSES ")),"
	  "  same_as TEXT,"
	  "  reason TEXT,"
	  "  added INTEGER NOT NULL DEFAULT 0,"
	  "  removed INTEGER NOT NULL DEFAULT 0,"
	  "  changed INTEGER NOT NULL DEFAULT 0,"
	  "  position INTEGER NOT NULL DEFAULT 0);"
	  "INSERT INTO variant_v2 (id, name, kind, options, requested, effective_diff, config,"
	  "  config_hash, status, same_as, reason, added, removed, changed, position)"
	  "  SELECT id, name, kind, options, requested, effective_diff, config, config_hash,"
	  "  status, same_as, reason, added, removed, changed, position FROM variant;"
	  "DROP TABLE variant;"
	  "ALTER TABLE variant_v2 RENAME TO variant;"
	  "CREATE TABLE build_v2 ("
	  "  key TEXT PRIMARY KEY,"
	  "  config_hash TEXT NOT NULL,"
	  "  status TEXT NOT NULL CHECK (status IN (" V2_BUILD_STATUSES ")),"
	  "  seconds REAL,"
	  "  bzimage_size INTEGER,"
	  "  vmlinux_size INTEGER,"
	  "  image TEXT,"
	  "  log_path TEXT,"
	  "  log_tail TEXT,"
	  "  seeded_from TEXT,"
	  "  finished TEXT NOT NULL);"
	  "INSERT INTO build_v2 (key, config_hash, status, seconds, bzimage_size, vmlinux_size,"
	  "  image, log_path, log_tail, seeded_from, finished)"
	  "  SELECT key, config_hash, status, seconds, bzimage_size, vmlinux_size, image,"
	  "  log_path, log_tail, seeded_from, finished FROM build;"
	  "DROP TABLE build;"
	  "ALTER TABLE build_v2 RENAME TO build;"
	  "CREATE INDEX build_by_hash ON build(config_hash);"
	  "CREATE TABLE run_v2 ("
	  "  id INTEGER PRIMARY KEY,"
	  "  variant_id INTEGER NOT NULL REFERENCES variant(id) ON DELETE CASCADE,"
	  "  workload TEXT NOT NULL,"
	  "  round INTEGER NOT NULL,"
	  "  seq INTEGER NOT NULL,"
	  "  warmup INTEGER NOT NULL,"
	  "  accel TEXT,"
	  "  status TEXT NOT NULL CHECK (status IN (" V2_RUN_STATUSES ")),"
	  "  error TEXT,"
	  "  console_tail TEXT,"
	  "  wall_s REAL,"
	  "  boot_s REAL,"
	  "  started TEXT NOT NULL,"
	  "  UNIQUE (variant_id, workload, round, warmup));"
	  "INSERT INTO run_v2 (id, variant_id, workload, round, seq, warmup, accel, status,"
	  "  error, console_tail, wall_s, boot_s, started)"
	  "  SELECT id, variant_id, workload, round, seq, warmup, accel,"
	  "  CASE status WHEN 'failed' THEN 'exit-failed' ELSE status END,"
	  "  error, console_tail, wall_s, boot_s, started FROM run;"
	  "DROP TABLE run;"
	  "ALTER TABLE run_v2 RENAME TO run;",
	  check_v1_statuses },
	/*
	 * 3: each run's guest clock: "icount" or "host", the icount shift,
	 * the layout seed its guest drew its layout from (under icount) and
	 * the guest's clocksource.  Older runs have NULLs: host time.
	 */
	{ "ALTER TABLE run ADD COLUMN clock TEXT;"
	  "ALTER TABLE run ADD COLUMN icount_shift INTEGER;"
	  "ALTER TABLE run ADD COLUMN layout_seed INTEGER;"
	  "ALTER TABLE run ADD COLUMN clocksource TEXT;", NULL },
	/*
	 * 4: several kernel sources in one experiment.  Each source is a row
	 * (its label, identity, tree, version, and for a patched source the
	 * patch and the label of the source it patches); each variant names
	 * its source's label, '' for the lone source of an experiment that
	 * has one, whose row is made from the meta facts it had.
	 */
	{ "ALTER TABLE variant ADD COLUMN source TEXT NOT NULL DEFAULT '';"
	  "CREATE TABLE source ("
	  "  label TEXT PRIMARY KEY,"
	  "  position INTEGER NOT NULL,"
	  "  origin TEXT NOT NULL DEFAULT '',"
	  "  id TEXT NOT NULL,"
	  "  tree TEXT NOT NULL DEFAULT '',"
	  "  version TEXT NOT NULL DEFAULT '',"
	  "  patch TEXT,"
	  "  base TEXT);"
	  "INSERT INTO source (label, position, origin, id, tree, version)"
	  "  SELECT '', 0, COALESCE((SELECT value FROM meta WHERE key = 'source'), ''), value,"
	  "  COALESCE((SELECT value FROM meta WHERE key = 'source_tree'), ''),"
	  "  COALESCE((SELECT value FROM meta WHERE key = 'kernel_version'), '')"
	  "  FROM meta WHERE key = 'source_id';", NULL },
	/*
	 * 5: the instruction meter's counts per run (store-meter.c): its
	 * totals, and per phase the per-function counts, each a zlib blob of
	 * (function id, count) pairs over one table of function names.
	 */
	{ "CREATE TABLE meter ("
	  "  run_id INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,"
	  "  total INTEGER NOT NULL,"
	  "  before_kernel INTEGER NOT NULL,"
	  "  kernel INTEGER NOT NULL,"
	  "  kernel_other INTEGER NOT NULL,"
	  "  user_space INTEGER NOT NULL,"
	  "  idle INTEGER NOT NULL,"
	  "  boot INTEGER,"
	  "  work INTEGER,"
	  "  iterations INTEGER NOT NULL DEFAULT 0,"
	  "  ops REAL NOT NULL DEFAULT 0,"
	  "  has_map INTEGER NOT NULL,"
	  "  note TEXT);"
	  "CREATE TABLE meter_function (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
	  "CREATE TABLE meter_profile ("
	  "  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	  "  phase TEXT NOT NULL CHECK (phase IN ('boot', 'work', 'all')),"
	  "  functions INTEGER NOT NULL,"
	  "  data BLOB NOT NULL,"
	  "  PRIMARY KEY (run_id, phase));", NULL },
	/*
	 * 6: what else an option changes.  The kernel's own reports per run
	 * (store-findings.c: lockdep, KASAN, WARN ... found on its console).
	 */
	{ "CREATE TABLE finding ("
	  "  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	  "  position INTEGER NOT NULL,"
	  "  kind TEXT NOT NULL,"
	  "  line TEXT NOT NULL,"
	  "  count INTEGER NOT NULL,"
	  "  text TEXT NOT NULL DEFAULT '',"
	  "  PRIMARY KEY (run_id, position));"
	  /* vmlinux's text, data and bss per build (kbuild/elf-sizes.h) */
	  "ALTER TABLE build ADD COLUMN text_size INTEGER;"
	  "ALTER TABLE build ADD COLUMN data_size INTEGER;"
	  "ALTER TABLE build ADD COLUMN bss_size INTEGER;"
	  /* what the help texts of the plan's options claim they cost (store-claims.c) */
	  "CREATE TABLE claim ("
	  "  source TEXT NOT NULL DEFAULT '',"
	  "  symbol TEXT NOT NULL,"
	  "  position INTEGER NOT NULL,"
	  "  location TEXT NOT NULL DEFAULT '',"
	  "  sentence TEXT NOT NULL,"
	  "  PRIMARY KEY (source, symbol, position));", NULL },
	/*
	 * 7: vmlinux's text, data and bss by symbol, as bloat-o-meter adds
	 * them up (kbuild/elf-sizes.h): the sections are padded, the symbols
	 * show a leaf option's bytes.
	 */
	{ "ALTER TABLE build ADD COLUMN symbol_text_size INTEGER;"
	  "ALTER TABLE build ADD COLUMN symbol_data_size INTEGER;"
	  "ALTER TABLE build ADD COLUMN symbol_bss_size INTEGER;", NULL },
	/*
	 * 8: how many guests ran side by side with a run, itself included
	 * (run --guests): its wall time shared the host with them.  NULL in
	 * older runs, which ran one at a time.
	 */
	{ "ALTER TABLE run ADD COLUMN guests INTEGER;", NULL },
};

int store_sql_error(sqlite3 *db, const char *path, const char *what)
{
	return error("%s: %s: %s", path, what, sqlite3_errmsg(db));
}

int store_sql_exec(sqlite3 *db, const char *path, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: %s", path, msg ? msg : "sqlite error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int store_sql_prepare(sqlite3 *db, const char *path, sqlite3_stmt **out, const char *sql)
{
	if (sqlite3_prepare_v2(db, sql, -1, out, NULL) != SQLITE_OK)
		return store_sql_error(db, path, "cannot prepare statement");
	return 0;
}

static int db_error(const struct conn *st, const char *what)
{
	return store_sql_error(st->db, st->path, what);
}

static int exec_sql(const struct conn *st, const char *sql)
{
	return store_sql_exec(st->db, st->path, sql);
}

static int prepare(const struct conn *st, sqlite3_stmt **out, const char *sql)
{
	return store_sql_prepare(st->db, st->path, out, sql);
}

static const char *column_str(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

static int user_version(const struct conn *st, int *out)
{
	sqlite3_stmt *s;
	int ret = 0;

	if (prepare(st, &s, "PRAGMA user_version"))
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	else
		ret = db_error(st, "cannot read schema version");
	sqlite3_finalize(s);
	return ret;
}

/*
 * The first row of a version 1 table whose status version 2 would refuse,
 * as a clear error naming it; the database is left as it was.
 */
static int check_v1_table(const struct conn *st, const char *table, const char *row_sql,
			  const char *allowed)
{
	sqlite3_stmt *s;
	char *sql = xstrfmt("SELECT %s, status FROM %s WHERE status NOT IN (%s) LIMIT 1",
			    row_sql, table, allowed);
	int rc, ret = 0;

	rc = prepare(st, &s, sql);
	free(sql);
	if (rc)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		ret = error("%s: %s %s has status '%s', which this kconfperf does not know "
			    "(it knows %s); the database was not changed", st->path, table,
			    column_str(s, 0), column_str(s, 1), allowed);
	else if (rc != SQLITE_DONE)
		ret = db_error(st, "cannot read statuses");
	sqlite3_finalize(s);
	return ret;
}

static int check_v1_statuses(const struct conn *st)
{
	return check_v1_table(st, "variant", "quote(name)", V2_VARIANT_STATUSES) ||
	       check_v1_table(st, "build", "quote(key)", V2_BUILD_STATUSES) ||
	       check_v1_table(st, "run", "id", V2_RUN_STATUSES ", 'failed'") ? -1 : 0;
}

/* Whether the foreign keys hold (a migration that rebuilt tables checks). */
static int foreign_keys_hold(const struct conn *st)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, &s, "PRAGMA foreign_key_check"))
		return -1;
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return error("%s: rows refer to ones that do not exist; the database was "
			     "not changed", st->path);
	return rc == SQLITE_DONE ? 0 : db_error(st, "cannot check foreign keys");
}

/*
 * Takes the schema to STORE_SCHEMA_VERSION, one version per transaction.
 * Foreign keys must be off (see migration 2).
 */
static int migrate(const struct conn *st)
{
	int version = 0, v;

	if (user_version(st, &version))
		return -1;
	if (version > STORE_SCHEMA_VERSION)
		return error("%s: schema version %d is newer than this kconfperf knows (%d)",
			     st->path, version, STORE_SCHEMA_VERSION);
	for (v = version; v < STORE_SCHEMA_VERSION; v++) {
		const struct migration *m = &migrations[v];
		char pragma[64];
		int now;

		if (exec_sql(st, "BEGIN IMMEDIATE"))
			return -1;
		/* Another kconfperf may have migrated while this one waited. */
		if (user_version(st, &now))
			goto fail;
		if (now > v) {
			if (exec_sql(st, "COMMIT"))
				return -1;
			v = now - 1;
			continue;
		}
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		if ((m->check && m->check(st)) || exec_sql(st, m->sql) ||
		    foreign_keys_hold(st) || exec_sql(st, pragma))
			goto fail;
		if (exec_sql(st, "COMMIT"))
			return -1;
	}
	return 0;
fail:
	exec_sql(st, "ROLLBACK");
	return -1;
}

int store_schema_migrate(sqlite3 *db, const char *path)
{
	const struct conn c = { db, path };

	return migrate(&c);
}
