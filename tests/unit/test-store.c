/* test-store.c: unit tests for the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/store.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"
#include "util/write-file.h"

static char *db_path(const char *name)
{
	return xstrfmt("%s/%s", test_tmpdir(), name);
}

static void test_create_and_reopen(void)
{
	char *path = db_path("a.db");
	struct store *st;
	char *v;

	check_int(store_open(&st, path, 1), ==, 0);
	check_int(store_set_meta(st, "kernel_version", "6.1.0"), ==, 0);
	check_int(store_set_meta(st, "kernel_version", "6.1.1"), ==, 0);
	store_close(st);
	check_int(store_open(&st, path, 0), ==, 0);
	v = store_get_meta(st, "kernel_version");
	check_str(v, "6.1.1");
	free(v);
	check(store_get_meta(st, "nope") == NULL);
	store_close(st);
	free(path);
}

static void quiet_sink(const char *kind, const char *msg, void *data)
{
	struct strbuf_like { char buf[512]; } *out = data;

	snprintf(out->buf, sizeof(out->buf), "%s: %s", kind, msg);
}

/* A screen's report is kept beside the facts, not listed among them. */
static void test_screen_report_beside_the_facts(void)
{
	char *path = db_path("screen.db");
	struct strvec facts = STRVEC_INIT;
	struct store *st;
	char *v;

	check_int(store_open(&st, path, 1), ==, 0);
	check(store_get_screen_report(st) == NULL);
	check_int(store_set_meta(st, "host", "h"), ==, 0);
	check_int(store_set_screen_report(st, "screened 2 of 2 options\nbifurcation tree\n"), ==, 0);
	v = store_get_screen_report(st);
	check_str(v, "screened 2 of 2 options\nbifurcation tree\n");
	free(v);
	check_int(store_get_meta_all(st, &facts), ==, 0);
	check_int(facts.nr, ==, 2);
	check_str(facts.v[0], "host");
	strvec_clear(&facts);
	store_close(st);
	free(path);
}

static void test_missing_without_create(void)
{
	char *path = db_path("missing.db");
	struct store *st = (struct store *)1;
	struct { char buf[512]; } msg = { "" };

	set_message_sink(quiet_sink, &msg);
	check_int(store_open(&st, path, 0), ==, -1);
	set_message_sink(NULL, NULL);
	check(st == NULL);
	check(strstr(msg.buf, "missing.db") != NULL);
	free(path);
}

static void test_newer_schema_refused(void)
{
	char *path = db_path("new.db");
	char *cmd;
	struct store *st;
	struct { char buf[512]; } msg = { "" };

	check_int(store_open(&st, path, 1), ==, 0);
	store_close(st);
	cmd = xstrfmt("sqlite3 '%s' 'PRAGMA user_version = 99' 2>/dev/null", path);
	if (system(cmd) == 0) {
		set_message_sink(quiet_sink, &msg);
		check_int(store_open(&st, path, 0), ==, -1);
		set_message_sink(NULL, NULL);
		check(strstr(msg.buf, "newer") != NULL);
	}
	free(cmd);
	free(path);
}

static void test_variants_roundtrip(void)
{
	char *path = db_path("v.db");
	struct store *st;
	struct store_variant a = STORE_VARIANT_INIT, b = STORE_VARIANT_INIT;
	struct store_variant *all;
	size_t nr;

	check_int(store_open(&st, path, 1), ==, 0);
	a.name = xstrdup("baseline");
	a.kind = xstrdup("baseline");
	a.status = VARIANT_OK;
	a.config = xstrdup("CONFIG_A=y\n<script>\"'\n");
	a.position = 0;
	b.name = xstrdup("CONFIG_LOCKDEP=y");
	b.kind = xstrdup("oat");
	b.status = VARIANT_NO_OP;
	b.reason = xstrdup("hidden symbol, selected by PROVE_LOCKING");
	b.position = 1;
	b.added = 3;
	check_int(store_put_variant(st, &b), ==, 0);
	check_int(store_put_variant(st, &a), ==, 0);
	check(a.id > 0 && b.id > 0 && a.id != b.id);
	check_int(store_get_variants(st, &all, &nr), ==, 0);
	check_int(nr, ==, 2);
	if (nr == 2) {
		check_str(all[0].name, "baseline");
		check_str(all[0].config, "CONFIG_A=y\n<script>\"'\n");
		check_str(all[1].reason, "hidden symbol, selected by PROVE_LOCKING");
		check_int(all[1].added, ==, 3);
		check_int(all[0].status, ==, VARIANT_OK);
		check_int(all[1].status, ==, VARIANT_NO_OP);
		check(all[1].same_as == NULL);
	}
	store_variants_free(all, nr);
	/* Re-putting by name updates in place and keeps the id. */
	b.status = VARIANT_OK;
	{
		int64_t id = b.id;

		check_int(store_put_variant(st, &b), ==, 0);
		check_int(b.id, ==, id);
	}
	store_variant_release(&a);
	store_variant_release(&b);
	store_close(st);
	free(path);
}

static void test_runs_never_duplicate(void)
{
	char *path = db_path("r.db");
	struct store *st;
	struct store_variant v = STORE_VARIANT_INIT;
	struct store_run r = STORE_RUN_INIT;
	struct store_sample s[2] = {
		{ 0, "time", "s", 0.25, 0 },
		{ 1, "time", "s", 0.26, 0 },
	};
	struct { char buf[512]; } msg = { "" };

	check_int(store_open(&st, path, 1), ==, 0);
	v.name = xstrdup("baseline");
	v.kind = xstrdup("baseline");
	v.status = VARIANT_OK;
	check_int(store_put_variant(st, &v), ==, 0);
	r.variant_id = v.id;
	r.workload = xstrdup("hackbench");
	r.round = 0;
	r.accel = xstrdup("tcg");
	r.status = RUN_OK;
	r.wall_s = 2.0;
	r.boot_s = NAN;
	check_int(store_has_run(st, v.id, "hackbench", 0, 0), ==, 0);
	check_int(store_add_run(st, &r, s, 2), ==, 0);
	check_int(store_has_run(st, v.id, "hackbench", 0, 0), ==, 1);
	check_int(store_has_run(st, v.id, "hackbench", 0, 1), ==, 0);
	set_message_sink(quiet_sink, &msg);
	check_int(store_add_run(st, &r, s, 2), ==, -1);
	set_message_sink(NULL, NULL);
	check_int(store_count_runs(st), ==, 1);
	/* The failed insert rolled back: the store is still usable. */
	r.round = 1;
	check_int(store_add_run(st, &r, s, 1), ==, 0);
	check_int(store_count_runs(st), ==, 2);
	store_run_release(&r);
	store_variant_release(&v);
	store_close(st);
	free(path);
}

static void test_builds(void)
{
	char *path = db_path("b.db");
	struct store *st;
	struct store_build b = STORE_BUILD_INIT, got = STORE_BUILD_INIT;

	check_int(store_open(&st, path, 1), ==, 0);
	b.key = xstrdup("k1");
	b.config_hash = xstrdup("h1");
	b.status = BUILD_OK;
	b.seconds = 201.5;
	b.bzimage_size = 1234567;
	check_int(store_put_build(st, &b), ==, 0);
	check_int(store_get_build_by_hash(st, "h1", &got), ==, 1);
	check_str(got.key, "k1");
	check_int(got.bzimage_size, ==, 1234567);
	check_double(got.seconds, 201.5, 0);
	check(got.seeded_from == NULL);
	store_build_release(&got);
	check_int(store_get_build_by_hash(st, "h2", &got), ==, 0);
	store_build_release(&b);
	store_close(st);
	free(path);
}

/* A copy owns its strings: it outlives the row it was made from. */
static void test_variant_copy(void)
{
	struct store_variant v = STORE_VARIANT_INIT, c;

	v.id = 7;
	v.name = xstrdup("first 3");
	v.kind = xstrdup("group");
	v.config = xstrdup("CONFIG_A=y\n");
	v.config_hash = xstrdup("abc");
	v.status = VARIANT_OK;
	v.position = 4;
	store_variant_copy(&c, &v);
	store_variant_release(&v);
	check_int(c.id, ==, 7);
	check_int(c.position, ==, 4);
	check_str(c.name, "first 3");
	check_str(c.kind, "group");
	check_str(c.config, "CONFIG_A=y\n");
	check(c.same_as == NULL);
	check(c.reason == NULL);
	store_variant_release(&c);
}

static int exists(const char *path)
{
	return !access(path, F_OK);
}

/* Whether any of the scratch files of path (PATH.new-PID and SQLite's) exist. */
static int scratch_exists(const char *path, long pid)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	size_t i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(sfx); i++) {
		char *f = xstrfmt("%s.new-%ld%s", path, pid, sfx[i]);

		ret |= exists(f);
		free(f);
	}
	return ret;
}

static void test_create_scratch_commit(void)
{
	char *path = db_path("created.db");
	struct store *st;
	char *v;

	check_int(store_create_scratch(&st, path), ==, 0);
	check(scratch_exists(path, (long)getpid()));
	check(!exists(path));
	check_int(store_set_meta(st, "k", "v"), ==, 0);
	check_int(store_create_commit(st), ==, 0);
	check(exists(path));
	check(!scratch_exists(path, (long)getpid()));
	check_int(store_open_readonly(&st, path), ==, 0);
	v = store_get_meta(st, "k");
	check_str(v, "v");
	free(v);
	store_close(st);
	free(path);
}

static void test_create_scratch_abandoned(void)
{
	char *path = db_path("abandoned.db");
	struct store *st;

	check_int(store_create_scratch(&st, path), ==, 0);
	check_int(store_set_meta(st, "k", "v"), ==, 0);
	store_close(st);
	check(!exists(path));
	check(!scratch_exists(path, (long)getpid()));
	free(path);
}

/* A database that appears meanwhile is not replaced. */
static void test_create_scratch_no_replace(void)
{
	char *path = db_path("raced.db");
	struct { char buf[512]; } msg = { "" };
	struct store *st, *other;
	char *v;

	check_int(store_create_scratch(&st, path), ==, 0);
	check_int(store_open(&other, path, 1), ==, 0);
	check_int(store_set_meta(other, "who", "other"), ==, 0);
	store_close(other);
	set_message_sink(quiet_sink, &msg);
	check_int(store_create_commit(st), ==, -1);
	set_message_sink(NULL, NULL);
	check(strstr(msg.buf, "appeared") != NULL);
	check(!scratch_exists(path, (long)getpid()));
	check_int(store_open(&other, path, 0), ==, 0);
	v = store_get_meta(other, "who");
	check_str(v, "other");
	free(v);
	store_close(other);
	free(path);
}

/*
 * A scratch database whose process is gone is removed by the next
 * create; one whose process runs (our parent) is left alone.
 */
static void test_create_scratch_stale(void)
{
	char *path = db_path("stale.db");
	struct store *st;
	long dead;
	pid_t pid = fork();
	int status;
	char *f;

	if (pid < 0)
		return;
	if (!pid)
		_exit(0);
	waitpid(pid, &status, 0);
	dead = (long)pid;
	f = xstrfmt("%s.new-%ld", path, dead);
	check_int(write_file(f, "x", 1), ==, 0);
	free(f);
	f = xstrfmt("%s.new-%ld-wal", path, dead);
	check_int(write_file(f, "x", 1), ==, 0);
	free(f);
	f = xstrfmt("%s.new-%ld", path, (long)getppid());
	check_int(write_file(f, "x", 1), ==, 0);
	check(scratch_exists(path, dead));
	quiet = 1;
	check_int(store_create_scratch(&st, path), ==, 0);
	quiet = 0;
	check(!scratch_exists(path, dead));
	check(exists(f));
	store_close(st);
	unlink(f);
	free(f);
	free(path);
}

static void test_readonly(void)
{
	char *path = db_path("ro.db");
	struct { char buf[512]; } msg = { "" };
	struct store *st;
	char *v;

	check_int(store_open(&st, path, 1), ==, 0);
	check_int(store_set_meta(st, "k", "v"), ==, 0);
	store_close(st);
	check_int(store_open_readonly(&st, path), ==, 0);
	v = store_get_meta(st, "k");
	check_str(v, "v");
	free(v);
	set_message_sink(quiet_sink, &msg);
	check_int(store_set_meta(st, "k", "w"), ==, -1);
	set_message_sink(NULL, NULL);
	check(strstr(msg.buf, "readonly") != NULL);
	store_close(st);
	free(path);
}

/* The schema of version 1, as kconfperf created it until version 2. */
static const char v1_schema[] =
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
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
	"  PRIMARY KEY (run_id, iteration, metric));"
	"PRAGMA user_version = 1;";

/* SQL straight into the file, bypassing the store; 0 or the SQLite error code. */
static int raw_sql(const char *path, const char *sql)
{
	sqlite3 *db;
	int rc = sqlite3_open(path, &db);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* The one integer a query gives, or -1. */
static long long raw_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	long long ret = -1;

	if (sqlite3_open(path, &db) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			ret = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return ret;
}

/* A version 1 database holding every status version 1 could hold. */
static char *v1_database(const char *name, const char *more_sql)
{
	char *path = db_path(name);

	unlink(path);
	check_int(raw_sql(path, v1_schema), ==, SQLITE_OK);
	check_int(raw_sql(path,
		"INSERT INTO meta VALUES ('seed', '3');"
		"INSERT INTO variant (id, name, kind, config_hash, status, position)"
		"  VALUES (1, 'baseline', 'baseline', 'h1', 'ok', 0);"
		"INSERT INTO variant (id, name, kind, config_hash, status, reason, added, position)"
		"  VALUES (2, 'CONFIG_A=y', 'oat', 'h2', 'partial', 'CONFIG_B=y: unmet', 4, 1);"
		"INSERT INTO variant (id, name, kind, config_hash, status, reason, position)"
		"  VALUES (3, 'CONFIG_B=y', 'oat', 'h1', 'no-op', 'already set', 2);"
		"INSERT INTO variant (id, name, kind, config_hash, status, same_as, position)"
		"  VALUES (4, 'all', 'all', 'h2', 'same-as', 'CONFIG_A=y', 3);"
		"INSERT INTO build (key, config_hash, status, seconds, bzimage_size, finished)"
		"  VALUES ('k1', 'h1', 'ok', 201.5, 1234567, '2024-01-01T00:00:00Z');"
		"INSERT INTO build (key, config_hash, status, log_tail, finished)"
		"  VALUES ('k2', 'h2', 'failed', 'error: x', '2024-01-01T00:00:01Z');"
		"INSERT INTO run VALUES (1, 1, 'boot', 0, 0, 0, 'tcg', 'ok', NULL, NULL,"
		"  2.5, 0.8, '2024-01-01T00:00:02Z');"
		"INSERT INTO run VALUES (2, 2, 'boot', 0, 1, 0, 'tcg', 'timeout', 'no result in 60 s',"
		"  'console', 60, NULL, '2024-01-01T00:00:03Z');"
		"INSERT INTO run VALUES (3, 2, 'boot', 1, 0, 0, NULL, 'failed', 'exit code 1', NULL,"
		"  1.5, NULL, '2024-01-01T00:00:04Z');"
		"INSERT INTO sample VALUES (1, 0, 'time', 's', 0.5, 0);"), ==, SQLITE_OK);
	if (more_sql)
		check_int(raw_sql(path, more_sql), ==, SQLITE_OK);
	return path;
}

static void test_v1_database_is_migrated(void)
{
	char *path = v1_database("v1.db", NULL);
	struct store *st;
	struct store_variant *v;
	struct store_run *r;
	struct store_sample_row *x;
	struct store_build b = STORE_BUILD_INIT;
	size_t nr, nr_runs, nr_samples;
	char *seed;

	if (!check_int(store_open(&st, path, 0), ==, 0))
		goto out;
	check_int(raw_int(path, "PRAGMA user_version"), ==, STORE_SCHEMA_VERSION);
	seed = store_get_meta(st, "seed");
	check_str(seed, "3");
	free(seed);
	check_int(store_get_variants(st, &v, &nr), ==, 0);
	check_int(nr, ==, 4);
	if (nr == 4) {
		check_str(v[0].name, "baseline");
		check_int(v[0].status, ==, VARIANT_OK);
		check_int(v[1].status, ==, VARIANT_PARTIAL);
		check_str(v[1].reason, "CONFIG_B=y: unmet");
		check_int(v[1].added, ==, 4);
		check_int(v[2].status, ==, VARIANT_NO_OP);
		check_int(v[3].status, ==, VARIANT_SAME_AS);
		check_str(v[3].same_as, "CONFIG_A=y");
		check_int(v[3].id, ==, 4);
	}
	store_variants_free(v, nr);
	check_int(store_get_build_by_hash(st, "h1", &b), ==, 1);
	check_int(b.status, ==, BUILD_OK);
	check_int(b.bzimage_size, ==, 1234567);
	store_build_release(&b);
	check_int(store_get_build_by_hash(st, "h2", &b), ==, 1);
	check_int(b.status, ==, BUILD_FAILED);
	check_str(b.log_tail, "error: x");
	store_build_release(&b);
	check_int(store_get_runs(st, &r, &nr_runs), ==, 0);
	check_int(nr_runs, ==, 3);
	if (nr_runs == 3) {
		check_int(r[0].status, ==, RUN_OK);
		check_double(r[0].boot_s, 0.8, 0);
		check_int(r[1].status, ==, RUN_TIMEOUT);
		check_str(r[1].console_tail, "console");
		/* version 1's importer said "failed" for a nonzero exit */
		check_int(r[2].status, ==, RUN_EXIT_FAILED);
		check_str(r[2].error, "exit code 1");
		check(isnan(r[2].boot_s));
	}
	store_runs_free(r, nr_runs);
	check_int(store_get_samples(st, &x, &nr_samples), ==, 0);
	check_int(nr_samples, ==, 1);
	if (nr_samples == 1) {
		check_int(x[0].run_id, ==, 1);
		check_double(x[0].value, 0.5, 0);
	}
	store_sample_rows_free(x, nr_samples);
	/* A new run goes in as before ... */
	{
		struct store_run nr1 = STORE_RUN_INIT;

		nr1.variant_id = 1;
		nr1.workload = (char *)"boot";
		nr1.round = 1;
		nr1.status = RUN_PANIC;
		nr1.boot_s = NAN;
		check_int(store_add_run(st, &nr1, NULL, 0), ==, 0);
	}
	/* ... and the rebuilt tables keep their foreign keys: runs go with their variant. */
	check_int(store_clear_variants(st), ==, 0);
	check_int(store_count_runs(st), ==, 0);
	store_close(st);
	check_int(raw_int(path, "SELECT count(*) FROM sample"), ==, 0);
	/* the schema itself refuses a status that is not a name of status.h */
	check(raw_sql(path, "INSERT INTO variant (name, kind, status) VALUES ('x', 'oat', 'bogus')")
	      == SQLITE_CONSTRAINT);
	check(raw_sql(path, "INSERT INTO build (key, config_hash, status, finished)"
		      " VALUES ('k', 'h', 'cached', 'now')") == SQLITE_CONSTRAINT);
out:
	free(path);
}

static void test_v1_unknown_status_is_an_error(void)
{
	char *path = v1_database("v1-bad.db",
				 "INSERT INTO variant (name, kind, status) VALUES ('CONFIG_X=y', 'oat', 'weird')");
	struct store *st = NULL;

	test_capture_start();
	check_int(store_open(&st, path, 0), ==, -1);
	test_capture_stop();
	check(st == NULL);
	check(strstr(test_messages.buf, "variant 'CONFIG_X=y' has status 'weird', which this "
		     "kconfperf does not know") != NULL);
	check(strstr(test_messages.buf, "the database was not changed") != NULL);
	/* not changed indeed: still version 1, with its rows */
	check_int(raw_int(path, "PRAGMA user_version"), ==, 1);
	check_int(raw_int(path, "SELECT count(*) FROM variant"), ==, 5);
	check_int(raw_int(path, "SELECT count(*) FROM run"), ==, 3);
	free(path);

	path = v1_database("v1-bad-run.db", "UPDATE run SET status = 'error' WHERE id = 2");
	test_capture_start();
	check_int(store_open(&st, path, 0), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "run 2 has status 'error'") != NULL);
	free(path);
}

/* A database the kconfperf before version 2 made (tests/fixtures/store/README.md). */
static void test_v1_fixture_from_an_older_kconfperf(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = db_path("v1-import.db");
	struct store *st;
	struct store_variant *v;
	struct store_run *r;
	size_t nr, nr_runs, i, failed = 0;
	char *imported;

	if (!check(strbuf_read_file(&sb, "tests/fixtures/store/v1-import.db", 0) > 0) ||
	    !check_int(strbuf_write_file(&sb, path), ==, 0))
		goto out;
	check_int(raw_int(path, "PRAGMA user_version"), ==, 1);
	if (!check_int(store_open(&st, path, 0), ==, 0))
		goto out;
	imported = store_get_meta(st, "imported");
	check_str(imported, "hyperfine");
	free(imported);
	check_int(store_get_variants(st, &v, &nr), ==, 0);
	check_int(nr, ==, 3);
	for (i = 0; i < nr; i++)
		check_int(v[i].status, ==, VARIANT_OK);
	store_variants_free(v, nr);
	check_int(store_get_runs(st, &r, &nr_runs), ==, 0);
	check_int(nr_runs, ==, 30);
	for (i = 0; i < nr_runs; i++) {
		if (r[i].status == RUN_OK)
			continue;
		failed++;
		check_int(r[i].status, ==, RUN_EXIT_FAILED);
		check_str(r[i].error, "exit code 1");
	}
	check_int(failed, ==, 1);
	store_runs_free(r, nr_runs);
	store_close(st);
out:
	strbuf_release(&sb);
	free(path);
}

/* Sources and each variant's source go in and come out. */
static void test_sources_round_trip(void)
{
	char *path = db_path("sources.db");
	struct store *st;
	struct store_source in[2] = {
		{ .label = (char *)"6.1", .origin = (char *)"/usr/src/a.tar.xz",
		  .id = (char *)"tar:1", .tree = (char *)"/c/a", .version = (char *)"6.1.192" },
		{ .label = (char *)"6.1+fix", .origin = (char *)"/usr/src/a.tar.xz",
		  .id = (char *)"patch:2", .tree = (char *)"/c/p", .version = (char *)"6.1.192",
		  .patch = (char *)"fix.patch", .base = (char *)"6.1" },
	};
	struct store_variant v = STORE_VARIANT_INIT, *out = NULL;
	struct store_source *src = NULL;
	size_t nr = 0;

	unlink(path);
	if (!check_int(store_open(&st, path, 1), ==, 0))
		goto out;
	check_int(store_put_sources(st, in, 2), ==, 0);
	/* A second plan replaces them. */
	check_int(store_put_sources(st, in, 2), ==, 0);
	check_int(store_get_sources(st, &src, &nr), ==, 0);
	check_int(nr, ==, 2);
	if (nr == 2) {
		check_str(src[0].label, "6.1");
		check(src[0].patch == NULL && src[0].base == NULL);
		check_str(src[1].patch, "fix.patch");
		check_str(src[1].base, "6.1");
		check_str(src[1].id, "patch:2");
		check_int(src[1].position, ==, 1);
	}
	store_sources_free(src, nr);
	v.name = (char *)"6.1+fix:baseline";
	v.source = (char *)"6.1+fix";
	v.kind = (char *)"baseline";
	v.status = VARIANT_OK;
	check_int(store_put_variant(st, &v), ==, 0);
	check_int(store_get_variants(st, &out, &nr), ==, 0);
	if (check_int(nr, ==, 1))
		check_str(out[0].source, "6.1+fix");
	store_variants_free(out, nr);
	store_close(st);
out:
	free(path);
}

/* Version 3 gives a version 1 experiment its one source, from the meta facts. */
static void test_v1_database_gets_its_source(void)
{
	char *path = v1_database("v1-source.db",
				 "INSERT INTO meta VALUES ('source', '/usr/src/linux-source-6.1.tar.xz');"
				 "INSERT INTO meta VALUES ('source_id', 'tar:abc');"
				 "INSERT INTO meta VALUES ('kernel_version', '6.1.192');");
	struct store *st;
	struct store_source *src = NULL;
	struct store_variant *v = NULL;
	size_t nr = 0, i;

	if (!check_int(store_open(&st, path, 0), ==, 0))
		goto out;
	check_int(store_get_sources(st, &src, &nr), ==, 0);
	if (check_int(nr, ==, 1)) {
		check_str(src[0].label, "");
		check_str(src[0].id, "tar:abc");
		check_str(src[0].version, "6.1.192");
		check_str(src[0].origin, "/usr/src/linux-source-6.1.tar.xz");
	}
	store_sources_free(src, nr);
	check_int(store_get_variants(st, &v, &nr), ==, 0);
	for (i = 0; i < nr; i++)
		check_str(v[i].source, "");
	store_variants_free(v, nr);
	store_close(st);
out:
	free(path);
}

/* Every status of status.h goes in and comes out; the schema and the enums agree. */
static void test_every_status_round_trips(void)
{
	char *path = db_path("statuses.db");
	struct store *st;
	struct store_variant *all;
	struct store_run *runs;
	size_t nr, i;
	int s;

	unlink(path);
	if (!check_int(store_open(&st, path, 1), ==, 0))
		goto out;
	for (s = 0; s < VARIANT_STATUS_NR; s++) {
		struct store_variant v = STORE_VARIANT_INIT;

		v.name = (char *)variant_status_name((enum variant_status)s);
		v.kind = (char *)"oat";
		v.status = (enum variant_status)s;
		v.position = s;
		check_int(store_put_variant(st, &v), ==, 0);
	}
	check_int(store_get_variants(st, &all, &nr), ==, 0);
	check_int(nr, ==, VARIANT_STATUS_NR);
	for (i = 0; i < nr; i++)
		check_int(all[i].status, ==, i);
	for (s = 0; s < BUILD_STATUS_NR; s++) {
		struct store_build b = STORE_BUILD_INIT, got = STORE_BUILD_INIT;
		char key[16];

		snprintf(key, sizeof(key), "k%d", s);
		b.key = key;
		b.config_hash = key;
		b.status = (enum build_status)s;
		check_int(store_put_build(st, &b), ==, 0);
		check_int(store_get_build_by_hash(st, key, &got), ==, 1);
		check_int(got.status, ==, s);
		store_build_release(&got);
	}
	test_capture_start();
	for (s = 0; s < RUN_STATUS_NR; s++) {
		struct store_run r = STORE_RUN_INIT;

		r.variant_id = all[0].id;
		r.workload = (char *)"boot";
		r.round = s;
		r.status = (enum run_status)s;
		r.boot_s = NAN;
		/* a run that could not start is the harness's fault: never stored */
		check_int(store_add_run(st, &r, NULL, 0), ==, s == RUN_START_FAILED ? -1 : 0);
	}
	test_capture_stop();
	check(strstr(test_messages.buf, "CHECK constraint failed") != NULL);
	store_variants_free(all, nr);
	check_int(store_get_runs(st, &runs, &nr), ==, 0);
	check_int(nr, ==, RUN_STATUS_NR - 1);
	for (i = 0; i < nr; i++)
		check_int(runs[i].status, ==, runs[i].round);
	store_runs_free(runs, nr);
	store_close(st);

	/* A status the CHECK did not see (a hand-edited file) is an error when read. */
	check_int(raw_sql(path, "PRAGMA ignore_check_constraints = ON;"
			  "UPDATE variant SET status = 'bogus' WHERE name = 'no-op'"), ==, SQLITE_OK);
	check_int(store_open(&st, path, 0), ==, 0);
	test_capture_start();
	check_int(store_get_variants(st, &all, &nr), ==, -1);
	test_capture_stop();
	check(all == NULL && nr == 0);
	check(strstr(test_messages.buf, "variant 'no-op' has status 'bogus'") != NULL);
	store_close(st);
out:
	free(path);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_screen_report_beside_the_facts);
	TEST(test_create_and_reopen);
	TEST(test_missing_without_create);
	TEST(test_newer_schema_refused);
	TEST(test_variants_roundtrip);
	TEST(test_runs_never_duplicate);
	TEST(test_builds);
	TEST(test_variant_copy);
	TEST(test_create_scratch_commit);
	TEST(test_create_scratch_abandoned);
	TEST(test_create_scratch_no_replace);
	TEST(test_create_scratch_stale);
	TEST(test_readonly);
	TEST(test_v1_database_is_migrated);
	TEST(test_v1_unknown_status_is_an_error);
	TEST(test_v1_fixture_from_an_older_kconfperf);
	TEST(test_sources_round_trip);
	TEST(test_v1_database_gets_its_source);
	TEST(test_every_status_round_trips);
	return test_done();
}
