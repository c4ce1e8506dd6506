/* shard-dir.c: a shard's own experiment directory, made from the planned experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/experiment.h"
#include "store/meta-keys.h"
#include "store/shard-dir.h"
#include "store/store.h"
#include "util/usage.h"
#include "util/wrapper.h"

char *shard_dir_path(const char *dir, const char *kind, const struct shard *sh)
{
	return xstrfmt("%s/shards/%s-%d-of-%d", dir, kind, sh->index + 1, sh->count);
}

/* Whether a retried shard's database was made from the plan dir holds now. */
static int check_same_plan(struct store *exp, const char *dir, const char *shard_dir)
{
	struct store *st = NULL;
	char *want = store_get_meta(exp, META_PLAN_KEY), *have = NULL;
	int ret = -1;

	if (experiment_open(&st, shard_dir, 0))
		goto out;
	have = store_get_meta(st, META_PLAN_KEY);
	if (!have)
		error("'%s' holds no plan: it is not a shard of '%s' (remove it to run the "
		      "shard)", shard_dir, dir);
	else if (!want || strcmp(want, have))
		error("'%s' was made from another plan than '%s' holds now: remove it to "
		      "run the shard again", shard_dir, dir);
	else
		ret = 0;
out:
	store_close(st);
	free(want);
	free(have);
	return ret;
}

/* The copy of dir's database, with what makes it a shard, at path. */
static int make_copy(struct store *exp, const char *dir, const char *path, const char *kind,
		     const struct shard *sh)
{
	struct store *st = NULL;
	char what[64], id[32];
	char *abs = absolute_path(dir);
	int ret = -1;

	shard_format(sh, id, sizeof(id));
	snprintf(what, sizeof(what), "%s %s", kind, id);
	if (store_copy_to(exp, path) || store_open(&st, path, 0) ||
	    store_set_meta(st, META_SHARD, what) || store_set_meta(st, META_SHARD_OF, abs))
		goto out;
	ret = 0;
out:
	store_close(st);
	free(abs);
	return ret;
}

int shard_dir_make(const char *dir, const char *shard_dir, const char *kind,
		   const struct shard *sh)
{
	struct store *exp = NULL;
	char *db = experiment_path(shard_dir, "kconfperf.db"), *tmp = NULL, *plan = NULL;
	int ret = -1;

	if (experiment_open_readonly(&exp, dir))
		goto out;
	plan = store_get_meta(exp, META_PLAN_KEY);
	if (!plan) {
		error("'%s' has no plan yet (run 'kconfperf plan')", dir);
		goto out;
	}
	if (!access(db, F_OK)) {
		ret = check_same_plan(exp, dir, shard_dir);
		goto out;
	}
	if (mkdir_p(shard_dir, 0755))
		goto out;
	tmp = xstrfmt("%s.new-%ld", db, (long)getpid());
	unlink(tmp);
	if (make_copy(exp, dir, tmp, kind, sh))
		goto out;
	/* link, not rename: a shard another worker just made is kept (and checked). */
	if (link(tmp, db)) {
		if (errno == EEXIST)
			ret = check_same_plan(exp, dir, shard_dir);
		else
			error_errno("cannot make '%s'", db);
		goto out;
	}
	ret = 0;
out:
	if (tmp) {
		char *side = xstrfmt("%s-wal", tmp);

		unlink(tmp);
		unlink(side);
		free(side);
		side = xstrfmt("%s-shm", tmp);
		unlink(side);
		free(side);
	}
	store_close(exp);
	free(db);
	free(tmp);
	free(plan);
	return ret;
}
