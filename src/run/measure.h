/* measure.h: the run stage: boot every built variant with each workload, on schedule, and store every run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef MEASURE_H
#define MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "run/vm.h"
#include "util/shard.h"

struct store;
struct strbuf;
struct workload_spec;

/*
 * What measure_runs() does with an experiment directory DIR whose variants
 * are planned and built:
 *
 *  1. Writes DIR/initramfs.gz: kcp-guest as /init (and the --workload-exec
 *     program as /workload), deterministically, so one archive serves
 *     every run and the same inputs give the same bytes.
 *  2. Takes the variants that are measured: ok and partial ones whose build
 *     succeeded.  no-op and same-as variants are not run (their results are
 *     those of the variant they equal); a variant whose build failed or is
 *     missing is skipped with a note.
 *  3. Resolves the accelerator once (auto: a bounded KVM probe) and checks
 *     that runs already stored were made under the same conditions (accel,
 *     CPUs, memory, CPU model, runner): mixing them would compare apples
 *     with pears, so that is an error naming the stored value.
 *  4. Stores the conditions in meta: seed, accel, qemu and its version (or
 *     runner), cpu, smp, mem_mb, timeout, runs, warmup, meter (on, or off
 *     and why), workloads (every
 *     workload run so far, one per line), host, host_kernel, cpu_model,
 *     host_cpus, initramfs_sha256, kconfperf (its version).
 *  5. Runs the schedule (schedule.h) minus the runs already stored, up to
 *     `guests` side by side (o->guests; measure-runs.c), each in
 *     DIR/runs/<variant>/<workload>/<r0, r1, ... or w1, w2 ...>/, and stores
 *     each at once, with its samples, in one transaction: a run interrupted
 *     by anything, SIGKILL included, is simply run again next time, and a
 *     finished one is never lost or run twice.  Under icount every run
 *     loads the instruction meter: its "instructions" samples are stored
 *     with the others, its totals and per-function counts (with the
 *     variant's System.map from the build cache) beside them
 *     (store/store-meter.h).  A failed run (timeout,
 *     panic, guest error ...) is stored with its status, reason and console
 *     tail, and the experiment goes on; it is not retried.
 *
 * The seed is --seed, else the one stored by an earlier run of DIR, else a
 * new random one; a --seed that differs from the stored one is an error once
 * runs exist, because it would reorder the rounds still to run.
 *
 * Progress goes to stderr: on a terminal one line rewritten in place
 * (workload, round, variant, runs done, elapsed, ETA from the runs finished
 * so far); otherwise one line per run.  Failed runs are warnings.  --quiet
 * (usage.h's `quiet`) silences everything but errors and warnings.
 */

struct measure_options {
	const char *dir;
	/* Checked workloads (cmd-run parses them) and how many. */
	const struct workload_spec *workloads;
	size_t nr_workloads;
	/*
	 * The labels of the parameter series among them
	 * (workload_spec_format_series()), stored in meta "series", one per
	 * line, so reports put each series in one table.
	 */
	const char *const *series;
	size_t nr_series;
	int runs;		/* measured rounds per workload */
	int warmup;		/* warm-up rounds per workload, stored with warmup = 1 */
	const char *seed;	/* decimal, or NULL */
	/* The machine: see vm.h for each (0 / NULL: its default). */
	enum vm_accel accel;
	const char *qemu;
	const char *cpu;
	int smp;
	int mem_mb;
	enum vm_clock clock;	/* VM_CLOCK_AUTO: icount under TCG (vm.h) */
	int icount_shift;	/* -1: VM_DEFAULT_ICOUNT_SHIFT */
	double timeout;
	const char *runner;
	/* A static program for the exec workload, copied to /workload, or NULL. */
	const char *workload_exec;
	/* kcp-guest; NULL: $KCP_GUEST, else kcp-guest beside this executable. */
	const char *guest;
	/*
	 * --no-meter: runs under icount do not load the instruction meter
	 * (run/meter.h), which they otherwise do (the plugin: NULL is
	 * $KCP_METER, else kcp-meter.so beside this executable).  Whether it
	 * was on is the meta fact "meter", a condition of the experiment.
	 */
	int no_meter;
	const char *meter;
	/* Run only this shard's rounds (schedule.h); { 0, 0 }: all of them. */
	struct shard shard;
	/*
	 * Guests run side by side (--guests); 0 chooses: under icount, where
	 * neither a run's guest time nor its instructions depend on what else
	 * the host runs, one per CPU the host has (and memory for); under the
	 * host clock, KVM or a runner, one.  Each run stores how many ran
	 * beside it, and reports of wall time say so.
	 */
	int guests;
};
#define MEASURE_OPTIONS_INIT { .runs = 10, .warmup = 1, .icount_shift = -1 }

/*
 * Runs what is missing of the experiment in o->dir (st is its open store).
 * Returns 0 when every run made was ok and no variant was skipped, 1 when
 * some run failed or a variant was skipped (all of it is stored and said),
 * and -1 on an error that stopped the experiment (message printed).
 */
int measure_runs(struct store *st, const struct measure_options *o);

/*
 * Appends the shell command of variant's first measured run of the first
 * workload to out, quoted so it can be pasted or handed to hyperfine
 * (vm_format_command()); it writes its files to
 * DIR/runs/<variant>/<workload>/command/, which is created, and the
 * initramfs is written as for a run.  A no-op or same-as variant gives the
 * command of the variant it equals.  Returns 0 or -1 with a message.
 */
int measure_print_command(struct store *st, const struct measure_options *o,
			  const char *variant, struct strbuf *out);

/*
 * A session runs what a caller asks for, one run at a time, instead of a
 * schedule: screen decides after each round which variants need more runs.
 * measure_session_open() does steps 1, 3 and 4 above (the accelerator is
 * probed with probe's kernel, which must be built), takes the
 * experiment's lock and keeps it until measure_session_close().
 */
struct measure_session;
struct store_variant;
int measure_session_open(struct measure_session **out, struct store *st,
			 const struct measure_options *o, const struct store_variant *probe);
/* The experiment's seed (--seed, stored, or new), for the caller's orders. */
uint64_t measure_session_seed(const struct measure_session *ms);
/*
 * Runs several at once: reqs[0..n) (variant, round, warmup each), up to the
 * session's guests side by side (o->guests, or chosen as measure_runs()
 * chooses), each stored as it ends.  A warm-up of a kernel ends before
 * its other runs in reqs start.  Returns the number of runs that were
 * ok, or -1 on an error that stops the experiment (the runs that ended
 * are stored).
 */
struct measure_request {
	const struct store_variant *v;
	int round;
	int warmup;
};
long measure_session_run_many(struct measure_session *ms, const struct measure_request *reqs,
			      size_t n);
void measure_session_close(struct measure_session *ms);

#endif
