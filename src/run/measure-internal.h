/* measure-internal.h: the run stage's state, shared by measure.c, measure-conditions.c and measure-runs.c. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef MEASURE_INTERNAL_H
#define MEASURE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "run/measure.h"
#include "run/schedule.h"
#include "run/vm.h"
#include "util/lockfile.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/strvec.h"

struct arch;
struct store;
struct store_variant;

/* The exec workload's program inside the initramfs (its prog default). */
#define EXEC_PATH "/workload"

/* A variant that is run: the store's row and where its kernel is. */
struct measured {
	const struct store_variant *v;
	struct store_variant *own;	/* a session's copy of the variant, which v points to */
	char *image;		/* the bzImage in the build cache */
	char *map;		/* its System.map, or NULL: no per-function counts */
	char *config;		/* DIR/runs/<variant>/config, for a runner's KCP_CONFIG */
};

/* Everything one invocation works with; released by state_release(). */
struct measure_state {
	struct store *st;
	const struct measure_options *o;
	char *dir;			/* absolute */
	struct store_variant *variants;
	size_t nr_variants;
	struct measured *measured;
	size_t nr_measured, alloc_measured;
	/* A session (measure_session_open()): runs are asked for one by one. */
	int session;
	int skipped;			/* variants that should run but cannot */
	struct strvec specs;		/* canonical workload specs, as stored */
	char *initramfs;
	char initramfs_hash[SHA256_HEX_SIZE];
	char *guest;			/* kcp-guest, the initramfs's /init */
	struct strbuf meter;		/* the meter plugin, or empty: no meter */
	struct strbuf meter_state;	/* meta "meter": "on", "off (--no-meter)" ... */
	char *arch_name;		/* meta arch, or NULL: an older plan, x86_64 */
	const struct arch *arch;	/* the kernels' arch: the guest's and the machine's */
	struct vm_config cfg;		/* shared settings; kernel etc. set per run */
	uint64_t seed;			/* the experiment's: orders and layout seeds */
	struct lockfile lock;		/* DIR/kconfperf.lock (experiment.h) */
	struct progress progress;	/* while runs run */
};

/* DIR/runs/<variant>[/<workload>[/<leaf>]], malloc'd. */
char *measure_runs_path(const struct measure_state *s, const char *variant, const char *workload,
			const char *leaf);
/* Makes path, a measure_runs_path(): no link in DIR/runs/... is followed (own-dir.h). */
int measure_make_runs_dir(const struct measure_state *s, const char *path);

/* measure-conditions.c */
/* --qemu, or the qemu of the experiment's arch. */
const char *measure_qemu(const struct measure_state *s);
/*
 * The plan's kernels must carry what the workloads need (harness
 * profiles), and a cmd: workload runs the host's programs, so its kernels
 * must be of the host's arch.  0, or -1 saying what to do.
 */
int measure_check_workload_needs(struct measure_state *s);
/* The experiment's seed: --seed, the stored one, or a new one.  0 or -1. */
int measure_choose_seed(struct measure_state *s, uint64_t *out);
/*
 * The run's conditions (store/conditions.h), checked against those of the
 * runs stored before, then stored with the run's other settings; chooses
 * the meter (s->meter, s->meter_state).  0 or -1.
 */
int measure_record_conditions(struct measure_state *s, enum vm_accel accel, uint64_t seed,
			      const char *qemu_version_line);

/*
 * The meter's state for meta "meter": "on", or "off" and why.  Finds the
 * plugin when it will be loaded (into s->meter).  Runs with and without
 * it do not mix.  0, or -1 with a message.
 */
int measure_choose_meter(struct measure_state *s, int have_runs, enum vm_clock clock,
			 const char *old, struct strbuf *state);

/* measure-runs.c */
/* The meter of a run of m's kernel, when it is on (s->meter). */
void measure_meter_config(const struct measure_state *s, struct vm_config *cfg,
			  const struct measured *m);
/*
 * Runs runs[0..nr) (of s->measured's variants), up to `guests` at once,
 * each stored as it ends; counts the ok and failed ones into *ok and
 * *failed.  0, or -1 on an error that stopped it (the runs that ended
 * are stored, the ones under way are waited for and stored too).
 */
/*
 * How many guests run side by side (measure.h: o->guests); a note says
 * why when it chose fewer than the CPUs.
 */
int measure_guests(const struct measure_state *s, enum vm_accel accel);
int measure_run_many(struct measure_state *s, const struct schedule_run *runs, size_t nr, int guests,
		     int *ok, int *failed);

#endif
