/* store-meter.h: the instruction meter's counts per run in the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STORE_METER_H
#define STORE_METER_H

#include <stdint.h>

struct profile;
struct store;

/*
 * What the meter (plugin/, run/meter.h) counted in one run,
 * stored beside the run (schema 5).  The workload's own instruction
 * metric is a sample of the run like any other ("instructions", run/meter.h);
 * this is the rest: where all of the run's instructions went, and per
 * phase the instructions of each kernel function.
 *
 *	total		every guest instruction of the run, up to kcp-guest's
 *			power-off request when it made one (after it the vCPU
 *			runs on until qemu stops it, as host timing has it)
 *	before_kernel	before the kernel's first instruction (firmware, the
 *			bzImage's decompressor)
 *	kernel		in the functions of System.map's text (idle included)
 *	kernel_other	in the kernel half outside the map (all of the kernel
 *			when there was no map)
 *	user		user space
 *	idle		the idle loop's own functions (part of kernel)
 *	boot		busy (idle excluded) instructions from the kernel's first
 *			to init's first, or -1 when init was not seen
 *	work		busy instructions of the workload's iterations (begin to
 *			end, summed), or -1 when there were none
 *	iterations	how many there were; ops the operations they held (the
 *			sum of the samples' per=: a system call each, say)
 *	has_map		per-function counts were taken (System.map found)
 *	note		why not, or what else the meter said, or NULL
 */
struct store_meter {
	uint64_t total, before_kernel, kernel, kernel_other, user, idle;
	int64_t boot, work;
	int iterations;
	double ops;
	int has_map;
	char *note;
};
#define STORE_METER_INIT { .boot = -1, .work = -1 }
void store_meter_release(struct store_meter *m);

/* The phases whose per-function counts are kept. */
enum store_meter_phase {
	STORE_METER_BOOT,	/* the kernel's start to init's first instruction */
	STORE_METER_WORK,	/* the iterations, summed */
	STORE_METER_ALL,	/* the whole run */
	STORE_METER_NR_PHASES
};
/* "boot", "work", "all"; the parse returns -1 (no message) for another name. */
const char *store_meter_phase_name(enum store_meter_phase phase);
int store_meter_phase_parse(enum store_meter_phase *out, const char *name);

/*
 * Stores m and the phases' per-function counts (raw System.map names,
 * merged: profile_merge(); an empty or NULL phase is not stored) for run
 * run_id, in one savepoint (inside the caller's transaction, when there is
 * one, so a run and its counts are stored together).  Function names are
 * numbered once per experiment (meter_function).  0, or -1 with a message.
 */
int store_add_meter(struct store *st, int64_t run_id, const struct store_meter *m,
		    const struct profile *const phases[STORE_METER_NR_PHASES]);

/* The meter's counts of a run: 1 and *out, 0 when the run has none, -1 on error. */
int store_get_meter(struct store *st, int64_t run_id, struct store_meter *out);

/*
 * The per-function counts of one phase of a run, names as System.map has
 * them, appended to out (merged): 1, 0 when none were stored, -1 on error.
 */
int store_get_run_profile(struct store *st, int64_t run_id, enum store_meter_phase phase,
			  struct profile *out);

/*
 * A variant's profile on a workload, for reports: the mean, over its
 * measured runs that ended ok and have counts of that phase, of each
 * run's per-function counts, names normalised (profile_normalize(): the
 * same function matched across builds) and, with per_op, each run's work
 * phase divided by its ops, so the busy entries (all but the idle loop's)
 * add up to the "instructions" metric's mean (per operation: a system
 * call, a fork).  workload is the run's workload spec as stored.  *nr_runs
 * gets how many runs it averaged (0: out stays empty).  0, or -1 on error.
 */
int store_get_variant_profile(struct store *st, int64_t variant_id, const char *workload,
			      enum store_meter_phase phase, int per_op, struct profile *out,
			      int *nr_runs);

#endif
