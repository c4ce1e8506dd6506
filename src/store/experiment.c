/* experiment.c: an experiment directory: its database, logs and scratch space. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/experiment.h"
#include "store/store.h"
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

int experiment_open(struct store **out, const char *dir, int create)
{
	char *db = experiment_path(dir, "kconfperf.db");
	struct stat st;
	int ret;

	*out = NULL;
	if (experiment_check_dir(dir)) {
		free(db);
		return -1;
	}
	if (!create && stat(db, &st)) {
		free(db);
		return error("no experiment in '%s' (start one with 'kconfperf plan' or "
			     "'kconfperf sweep', or name it with --dir)", dir);
	}
	if (create && mkdir_p(dir, 0755)) {
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
	if (experiment_check_dir(dir)) {
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
	old = store_get_meta(st, "plan_key");
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
