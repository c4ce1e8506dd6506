/* experiment.c: an experiment directory: its database, logs and scratch space. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <sys/stat.h>

#include "experiment.h"
#include "store.h"
#include "usage.h"
#include "wrapper.h"

char *experiment_path(const char *dir, const char *sub)
{
	return xstrfmt("%s/%s", dir, sub);
}

int experiment_open(struct store **out, const char *dir, int create)
{
	char *db = experiment_path(dir, "kconfperf.db");
	struct stat st;
	int ret;

	*out = NULL;
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
