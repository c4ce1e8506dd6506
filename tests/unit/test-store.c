/* test-store.c: unit tests for the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/store.h"
#include "test-lib.h"
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

int main(int argc, char **argv)
{
	test_init(argc, argv);
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
	return test_done();
}
