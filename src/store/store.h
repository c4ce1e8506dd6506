/* store.h: the experiment database (SQLite): plan, builds, runs and samples. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>

#include "store/vm-clock.h"
#include "store/status.h"

/*
 * One SQLite file per experiment directory (DIR/kconfperf.db), in WAL mode so
 * a reader (report) never blocks the writer (run).  The schema is versioned
 * with PRAGMA user_version; store_open() creates it or upgrades older ones
 * and refuses newer ones; store_open_readonly() reads one without writing.  Every store_*() write is its own transaction
 * unless the caller wraps several in store_begin()/store_commit(): a killed
 * process loses at most the transaction in flight, never a finished run.
 *
 * Strings returned in the structs below belong to the struct; release them
 * with the matching *_release() function.  Statuses are enums (status.h):
 * the database keeps their names, and this is the only place that
 * converts between the two.
 */
struct store;

#define STORE_SCHEMA_VERSION 8

/* Opens (creating when create is set) the database at path. */
int store_open(struct store **out, const char *path, int create);

/*
 * Opens the database at path for reading only: the file is never opened
 * for writing (every store_*() write then fails), so a read-only or
 * archived experiment can be reported.  SQLite may create an empty -wal
 * and the -shm index beside it, as every reader of a WAL database does;
 * where it cannot (a read-only directory) and no -wal holds changes, the
 * file is read as immutable, without locks; with such a -wal it is an
 * error that says so.
 * A database of an older schema is upgraded first, which is a write
 * (store_open()); one that this process may not write (an archive) is
 * read as it is when its tables are the current ones (version 1: only
 * its statuses were not yet checked); a newer one is refused.
 */
int store_open_readonly(struct store **out, const char *path);

/*
 * Creating a database all at once (an import): store_create_scratch()
 * creates an empty database of the current schema in a scratch file
 * beside path (PATH.new-PID), to be filled with the store_*() writes;
 * store_create_commit() then closes it and moves it to path, unless path
 * exists by then (an error: nothing is replaced).  Until the commit, the
 * scratch database (and its -wal and -shm) is removed by store_close(),
 * by exit() and by SIGINT, SIGTERM, SIGHUP and SIGQUIT (sigchain.h).  A
 * scratch database left behind by a process that was killed outright
 * (SIGKILL, a crash) is removed by the next store_create_scratch() for
 * the same path, once that process is gone, with a note.
 *
 * store_create_commit() closes and frees st whether or not it succeeds;
 * it returns 0, or -1 with a message.
 */
int store_create_scratch(struct store **out, const char *path);
int store_create_commit(struct store *st);

/*
 * Writes a consistent copy of the whole database to path (SQLite's VACUUM
 * INTO: a reader's snapshot, so a writer beside it is not stopped), which
 * must not exist.  A shard directory starts as such a copy.  0, or -1
 * with a message.
 */
int store_copy_to(struct store *st, const char *path);

/* Closes and frees; NULL is fine. */
void store_close(struct store *st);
const char *store_path(const struct store *st);

int store_begin(struct store *st);
int store_commit(struct store *st);
int store_rollback(struct store *st);

/* Experiment-wide key/value facts: source identity, kernel version, host... */
int store_set_meta(struct store *st, const char *key, const char *value);
/* Returns a malloc'd copy of the value, or NULL when unset. */
char *store_get_meta(struct store *st, const char *key);

/*
 * The unit and direction of metric in the runs of workload (a spec, as
 * stored) that the experiment holds: its first stored sample's, which fix
 * them (issue 25: a metric switching units between samples was averaged).
 * 1 with *unit (malloc'd) and *higher_is_better set, 0 when no sample of
 * it is stored, -1 on an error.
 */
int store_metric_kind(struct store *st, const char *workload, const char *metric,
		      char **unit, int *higher_is_better);

/*
 * The kernel sources of the experiment (plan/source-set.h), in order: the
 * first is the one patches apply to and other versions are compared with.
 * An experiment of one source has one, labelled "".
 */
struct store_source {
	char *label;		/* "6.1", "6.12", "6.1+fix"; "" for a lone source */
	int position;
	char *origin;		/* the tree or archive as the user named it */
	char *id;		/* its content identity (kernel-source.h) */
	char *tree;
	char *version;		/* "6.1.192" */
	char *patch;		/* a patched source's patch file, else NULL */
	char *base;		/* a patched source's base's label, else NULL */
};
#define STORE_SOURCE_INIT { 0 }
void store_source_release(struct store_source *s);
/* Replaces the stored sources with v[0..nr) (position is their index). */
int store_put_sources(struct store *st, const struct store_source *v, size_t nr);
/*
 * The sources in order; *out is malloc'd, free with store_sources_free().
 * An experiment that stored none (a screen, or a database from before
 * version 4 read as it is) gives its one source, labelled "", from the
 * meta facts (none when it has no plan).
 */
int store_get_sources(struct store *st, struct store_source **out, size_t *nr);
void store_sources_free(struct store_source *v, size_t nr);

/* Variants, as planned. */
struct store_variant {
	int64_t id;
	char *name;		/* "baseline", "all", "CONFIG_X=y", "all-CONFIG_X=y";
				 * "LABEL:NAME" in an experiment of several sources */
	char *source;		/* the label of its source: "" for a lone source */
	char *kind;		/* baseline, oat, all, loo, screen */
	char *options;		/* the candidate options it holds, one per line */
	char *requested;	/* the requested settings as a fragment */
	char *effective_diff;	/* diffconfig of baseline -> effective config */
	char *config;		/* the full effective .config */
	char *config_hash;	/* kconfig_hash() of the effective config */
	enum variant_status status;
	char *same_as;		/* for same-as: the variant measured instead */
	char *reason;		/* why partial or no-op, human readable */
	int added, removed, changed;
	int position;		/* order in the plan */
};
#define STORE_VARIANT_INIT { 0 }
void store_variant_release(struct store_variant *v);
/* A deep copy: dst owns its strings (release it with store_variant_release()). */
void store_variant_copy(struct store_variant *dst, const struct store_variant *src);

/* Inserts or replaces by name; sets v->id. */
int store_put_variant(struct store *st, struct store_variant *v);
/* Every variant in plan order; *out is malloc'd, free with store_variants_free(). */
int store_get_variants(struct store *st, struct store_variant **out, size_t *nr);
void store_variants_free(struct store_variant *v, size_t nr);
/* Removes every variant (and their runs): a new plan replaces the old. */
int store_clear_variants(struct store *st);

/* Builds, keyed by the build cache key. */
/* Sizes of vmlinux by class, each -1 when unknown. */
struct store_sizes {
	int64_t text, data, bss;
};
#define STORE_SIZES_UNKNOWN { -1, -1, -1 }

struct store_build {
	char *key;
	char *config_hash;
	enum build_status status;
	double seconds;
	int64_t bzimage_size, vmlinux_size;
	char *image;		/* path of the bzImage in the cache */
	char *log_path;
	char *log_tail;
	char *seeded_from;	/* key of the tree this build started from, or NULL */
	/*
	 * vmlinux's text, data and bss: by section as size(1) adds them up
	 * (schema 6) and by symbol as bloat-o-meter does (schema 7); see
	 * kbuild/elf-sizes.h
	 */
	struct store_sizes sections, symbols;
};
#define STORE_BUILD_INIT { .sections = STORE_SIZES_UNKNOWN, .symbols = STORE_SIZES_UNKNOWN }
void store_build_release(struct store_build *b);
int store_put_build(struct store *st, const struct store_build *b);
/* Returns 1 and fills out when found, 0 when not, -1 on error. */
int store_get_build_by_hash(struct store *st, const char *config_hash,
			    struct store_build *out);

/* Runs: one boot of one variant for one workload. */
struct store_run {
	int64_t id;
	int64_t variant_id;
	char *workload;		/* the workload spec, "hackbench:groups=4" */
	int round;		/* 0.. for measured runs, -1.. for warm-ups */
	int seq;		/* position within the round's random order */
	int warmup;
	char *accel;
	enum run_status status;
	char *error;
	char *console_tail;
	double wall_s;
	double boot_s;		/* guest boot-to-init, NAN when unknown */
	char *started;		/* ISO 8601 UTC */
	/* The guest's clock (schema 3; older runs: host time), stored by its name. */
	enum vm_clock clock;
	int icount_shift;	/* -1 unless icount */
	int64_t layout_seed;	/* -1 unless icount: the seed of the guest's layout */
	char *clocksource;	/* the guest kernel's, or NULL */
	/*
	 * Guests that ran side by side with it, itself included (schema 8):
	 * its wall time shared the host with them.  0: not known (an older
	 * run: one at a time).
	 */
	int guests;
};
#define STORE_RUN_INIT { .clock = VM_CLOCK_HOST, .icount_shift = -1, .layout_seed = -1 }
void store_run_release(struct store_run *r);

struct store_sample {
	int iteration;
	const char *metric;
	const char *unit;
	double value;
	int higher_is_better;
};

/*
 * Records a finished run and its samples in one transaction; sets r->id.
 * A run with the same (variant, workload, round, warmup) already stored is
 * an error: rerunning resumes, it never duplicates.
 */
int store_add_run(struct store *st, struct store_run *r,
		  const struct store_sample *samples, size_t nr_samples);
/* Whether that run is already stored: 1 yes, 0 no, -1 error. */
int store_has_run(struct store *st, int64_t variant_id, const char *workload,
		  int round, int warmup);
/* Number of stored runs (all variants, workloads, statuses). */
int64_t store_count_runs(struct store *st);

/*
 * The read side, for analysis and reports.  Nothing below writes.
 */

struct strvec;
/*
 * Every experiment fact, as alternating key and value strings appended to
 * out (key order).  Returns 0 or -1 with a message.
 */
int store_get_meta_all(struct store *st, struct strvec *out);

/*
 * The report a screen ends with, as the screen renders it (its structured
 * form is the experiment's screen.json): kept beside the facts, not among
 * them, so the reports show it as a section of its own and list the facts
 * without it.  set: 0 or -1 with a message; get: a malloc'd copy, or NULL.
 */
int store_set_screen_report(struct store *st, const char *text);
char *store_get_screen_report(struct store *st);

/*
 * Every stored run (all variants, workloads, statuses, warm-ups included),
 * ordered by variant position, workload, warm-ups first, round and seq.
 * boot_s is NAN when the run did not report it.  *out is malloc'd; free
 * with store_runs_free().
 */
int store_get_runs(struct store *st, struct store_run **out, size_t *nr);
void store_runs_free(struct store_run *r, size_t nr);

/* A stored sample as read back: unlike struct store_sample it owns its strings. */
struct store_sample_row {
	int64_t run_id;
	int iteration;
	char *metric;
	char *unit;
	double value;
	int higher_is_better;
};
/*
 * Every stored sample, ordered by run id, metric and iteration.  *out is
 * malloc'd; free with store_sample_rows_free().
 */
int store_get_samples(struct store *st, struct store_sample_row **out, size_t *nr);
void store_sample_rows_free(struct store_sample_row *s, size_t nr);
/*
 * The samples of one run among s[0..nr) as store_get_samples() orders
 * them (by run id): sets *first to the index of its first and returns how
 * many it has.
 */
size_t store_samples_of_run(const struct store_sample_row *s, size_t nr, int64_t run_id,
			    size_t *first);

#endif
