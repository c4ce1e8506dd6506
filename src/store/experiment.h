/* experiment.h: an experiment directory: its database, logs and scratch space. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef EXPERIMENT_H
#define EXPERIMENT_H

struct lockfile;
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
/*
 * Opens DIR's database for reading only (store_open_readonly()), for
 * commands that only read: a read-only or archived experiment works.
 */
int experiment_open_readonly(struct store **out, const char *dir);

/*
 * 0 when dir is a directory, or does not exist yet (a command that makes
 * one will); otherwise -1 with "'DIR' is not a directory".  Commands check
 * --dir with it before any long work.
 */
int experiment_check_dir(const char *dir);

/*
 * DIR/kconfperf.lock: one kconfperf at a time works in an experiment.
 * plan, build, run, sweep and screen take it before they read or change
 * anything in DIR and hold it to the end (lockfile.h: the kernel drops it
 * when the holder dies), so two of them cannot resolve in the same
 * DIR/work/ nor store one plan over another.  doing is what the holder
 * does, one word ("planning", "sweeping"), recorded for the message a
 * second kconfperf prints:
 *
 *	another kconfperf is planning in 'DIR' (pid N)
 *
 * Makes DIR when it does not exist.  Returns 0 when taken (or already
 * held by this very process: measure_runs() inside a sweep), 1 when
 * another kconfperf holds it (that message printed; the caller exits
 * EXPERIMENT_BUSY), -1 on an error.  lockfile_release() releases it.
 */
#define EXPERIMENT_BUSY 3
int experiment_lock(struct lockfile *lk, const char *dir, const char *doing);

/* Whether DIR/kconfperf.db exists. */
int experiment_exists(const char *dir);

/*
 * A new experiment that failed before it held anything (a plan that did
 * not resolve): its database, work/ and logs/ go, so that DIR does not
 * look like an experiment with no plan.  The lock file stays (it may be
 * held).
 */
void experiment_discard(const char *dir);

/* DIR/sub, malloc'd. */
char *experiment_path(const char *dir, const char *sub);

/*
 * --new: forgets the experiment in dir (database, runs, logs, reports);
 * the build cache stays.  Returns 0 or -1 with a message.
 */
int experiment_remove(const char *dir);

/*
 * Whether dir already holds the experiment whose inputs have this key
 * (stored as meta plan_key): 1 to resume it, 0 when dir holds none, and
 * an error (-1) when it holds another, unless start_new, which removes it
 * (experiment_remove()) and returns 0.
 */
int experiment_check_plan(const char *dir, const char *key, int start_new);

#endif
