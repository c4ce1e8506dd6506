/* experiment.h: an experiment directory: its database, logs and scratch space. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef EXPERIMENT_H
#define EXPERIMENT_H

struct store;

/* The default experiment directory, relative to the current one. */
#define EXPERIMENT_DEFAULT_DIR "kconfperf-results"

/*
 * DIR/kconfperf.db   the database (see store.h)
 * DIR/logs/          build and run logs
 * DIR/work/          scratch object directories for olddefconfig
 *
 * Opens DIR's database; with create, makes DIR and the database when they
 * do not exist.  Without it, a missing experiment is an error that says
 * which command creates one.  Returns 0 or -1 with a message.
 */
int experiment_open(struct store **out, const char *dir, int create);

/* DIR/sub, malloc'd. */
char *experiment_path(const char *dir, const char *sub);

#endif
