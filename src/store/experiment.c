/* experiment.c: an experiment directory: its database, logs and scratch space. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/experiment.h"
#include "store/meta-keys.h"
#include "store/store.h"
#include "util/lockfile.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

char *experiment_path(const char *dir, const char *sub)
{
	return xstrfmt("%s/%s", dir, sub);
}

int experiment_check_dir(const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	strbuf_addstr(&path, dir);
	/* For "F/sub" (or "F/") with F a file, F is the one to name. */
	while (stat(path.buf, &st) && errno == ENOTDIR) {
		char *slash = strrchr(path.buf, '/');

		if (!slash || slash == path.buf)
			break;
		strbuf_setlen(&path, slash - path.buf);
	}
	if (!stat(path.buf, &st) && !S_ISDIR(st.st_mode))
		ret = error("'%s' is not a directory", path.buf);
	strbuf_release(&path);
	return ret;
}

/* A database path that is not a file: sqlite would say "disk I/O error". */
static int check_db(const char *db)
{
	struct stat st;

	if (!stat(db, &st) && !S_ISREG(st.st_mode))
		return error("'%s' is a %s, not an experiment's database", db,
			     S_ISDIR(st.st_mode) ? "directory" : "special file");
	return 0;
}

/* sqlite would say "unable to open database file" or "attempt to write a readonly database". */
static int check_writable(const char *dir)
{
	if (access(dir, W_OK) && (errno == EROFS || errno == EACCES))
		return error("'%s' is read-only (%s): kconfperf writes its experiment there; "
			     "'kconfperf report' can still read it", dir, strerror(errno));
	return 0;
}

int experiment_open(struct store **out, const char *dir, int create)
{
	char *db = experiment_path(dir, "kconfperf.db");
	struct stat st;
	int ret;

	*out = NULL;
	if (experiment_check_dir(dir) || check_db(db)) {
		free(db);
		return -1;
	}
	if (!create && stat(db, &st)) {
		free(db);
		return error("no experiment in '%s' (start one with 'kconfperf plan' or "
			     "'kconfperf sweep', or name it with --dir)", dir);
	}
	if ((create && mkdir_p(dir, 0755)) || (!stat(dir, &st) && check_writable(dir))) {
		free(db);
		return -1;
	}
	ret = store_open(out, db, create);
	free(db);
	return ret;
}

int experiment_open_readonly(struct store **out, const char *dir)
{
	char *db = experiment_path(dir, "kconfperf.db");
	struct stat st;
	int ret;

	*out = NULL;
	if (experiment_check_dir(dir) || check_db(db)) {
		free(db);
		return -1;
	}
	if (stat(db, &st)) {
		free(db);
		return error("no experiment in '%s' (start one with 'kconfperf plan' or "
			     "'kconfperf sweep', or name it with --dir)", dir);
	}
	ret = store_open_readonly(out, db);
	free(db);
	return ret;
}

int experiment_remove(const char *dir)
{
	static const char *const parts[] = {
		"kconfperf.db", "kconfperf.db-wal", "kconfperf.db-shm", "runs", "logs",
		"work", "report.html", "report.json", "initramfs.gz", "screen.json", NULL,
	};
	int i, ret = 0;

	for (i = 0; parts[i]; i++) {
		char *p = experiment_path(dir, parts[i]);

		if (remove_tree(p))
			ret = -1;
		free(p);
	}
	return ret;
}

int experiment_check_plan(const char *dir, const char *key, int start_new)
{
	struct store *st = NULL;
	char *db = experiment_path(dir, "kconfperf.db");
	char *old = NULL;
	struct stat sb;
	int ret = 0;

	if (experiment_check_dir(dir)) {
		ret = -1;
		goto out;
	}
	if (stat(db, &sb))
		goto out;
	if (start_new) {
		note("--new: starting over in '%s'", dir);
		ret = experiment_remove(dir);
		goto out;
	}
	if (store_open(&st, db, 0)) {
		ret = -1;
		goto out;
	}
	old = store_get_meta(st, META_PLAN_KEY);
	if (old && !strcmp(old, key)) {
		ret = 1;
	} else if (old || store_count_runs(st) > 0) {
		ret = error("'%s' holds an experiment with other inputs (source, baseline, "
			    "options, designs or screen settings); give --new to start over "
			    "there, or another --dir", dir);
	}
out:
	store_close(st);
	free(db);
	free(old);
	return ret;
}

int experiment_lock(struct lockfile *lk, const char *dir, const char *doing)
{
	char *path = experiment_path(dir, "kconfperf.lock");
	struct lockfile_owner o;
	int rc;

	if (experiment_check_dir(dir) || mkdir_p(dir, 0755)) {
		free(path);
		return -1;
	}
	if (check_writable(dir)) {
		free(path);
		return -1;
	}
	lk->doing = doing;
	rc = lockfile_try(lk, path);
	free(path);
	if (rc <= 0)
		return rc;
	if (lockfile_read_owner(lk, &o) || !lockfile_owner_alive(&o)) {
		/* Held, but by no kconfperf that says so: its work, or one just starting. */
		error("another kconfperf is working in '%s' (its lock '%s' is held)", dir, lk->path);
		return 1;
	}
	if (o.pid == (long)getpid()) {
		/* This process holds it through another descriptor: a sweep's run stage. */
		lockfile_release(lk);
		return 0;
	}
	error("another kconfperf is %s in '%s' (pid %ld)", *o.doing ? o.doing : "working", dir,
	      o.pid);
	return 1;
}

int experiment_exists(const char *dir)
{
	char *db = experiment_path(dir, "kconfperf.db");
	struct stat st;
	int ret = !stat(db, &st);

	free(db);
	return ret;
}

void experiment_discard(const char *dir)
{
	static const char *const parts[] = {
		"kconfperf.db", "kconfperf.db-wal", "kconfperf.db-shm", "work", "logs", NULL,
	};
	int i;

	for (i = 0; parts[i]; i++) {
		char *p = experiment_path(dir, parts[i]);

		remove_tree(p);
		free(p);
	}
}
