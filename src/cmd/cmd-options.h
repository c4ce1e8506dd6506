/* cmd-options.h: option tables and checks that several commands share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CMD_OPTIONS_H
#define CMD_OPTIONS_H

#include <stddef.h>

#include "kbuild/kbuild.h"
#include "run/measure.h"
#include "stats/adaptive.h"
#include "util/parse-options.h"
#include "plan/plan.h"
#include "plan/kernel-source.h"
#include "plan/source-set.h"
#include "util/shard.h"
#include "util/strvec.h"

/*
 * plan and sweep take the same inputs; run and sweep the same measuring
 * options.  Each group is a struct, a list of OPT_*() entries to put in a
 * command's table, and a function that checks and completes the group after
 * parse_options().  The finish functions exit 2 on usage errors.
 */

struct plan_args {
	struct plan_options o;
	struct strvec sources;		/* --source [NAME=]SRC, repeatable */
	struct strvec patches;		/* --patch [NAME=]FILE, repeatable */
	const char *cache;
	const char *designs;
};
#define PLAN_ARGS_INIT { .o = PLAN_OPTIONS_INIT, .sources = STRVEC_INIT, \
			 .patches = STRVEC_INIT, .designs = "oat" }
/* plan and sweep take the A/A control by default. */
#define PLAN_ARGS_AA_INIT { .o = PLAN_OPTIONS_AA_INIT, .sources = STRVEC_INIT, \
			    .patches = STRVEC_INIT, .designs = "oat" }

/*
 * Three groups, so that a command's table (and with it its --help) holds
 * exactly the options it takes: plan and sweep take all three; screen,
 * which bisects the options of one source and chooses its own variants,
 * takes OPT_PLAN_SOURCE and OPT_PLAN_INPUTS only.
 */
/* plan and sweep: the sources to compare (--source again, --patch). */
#define OPT_PLAN_SOURCES(a) \
	OPT_STRING_LIST(0, "source", &(a)->sources, "[NAME=]SRC", \
			"kernel tree (known by its files' sizes and mtimes, not contents) " \
			"or .tar.xz/.tar.gz of one (again: another version)"), \
	OPT_STRING_LIST(0, "patch", &(a)->patches, "[NAME=]FILE", \
			"the first source with this patch (-p1), a source of its own")

/* screen: its one source. */
#define OPT_PLAN_SOURCE(a) \
	OPT_STRING_LIST(0, "source", &(a)->sources, "SRC", \
			"kernel tree (known by its files' sizes and mtimes, not contents) " \
			"or .tar.xz/.tar.gz of one")

/* Every planning command: the baseline, the candidates, how to resolve them. */
#define OPT_PLAN_INPUTS(a) \
	OPT_STRING(0, "base", &(a)->o.base, "BASE", "make config target or .config file"), \
	OPT_STRING_LIST(0, "base-add", &(a)->o.base_add, "FRAG|CONFIG_X=y", \
			"merge a fragment or setting into the baseline"), \
	OPT_STRING(0, "options", &(a)->o.options, "FILE|LIST", \
		   "candidate options: a fragment file or A,B=m,..."), \
	OPT_STRING(0, "options-from-diff", &(a)->o.diff_old, "OLD NEW", \
		   "every symbol NEW.config sets differently from OLD.config"), \
	OPT_BOOL(0, "with-deps", &(a)->o.with_deps, \
		 "also enable visible symbols that meet unmet dependencies"), \
	OPT_STRING_LIST(0, "harness", &(a)->o.harness, "PROFILE,...", \
			"also merge these harness profiles into every variant"), \
	OPT_BOOL(0, "fast-boot", &(a)->o.fast_boot, \
		 "x86: build LZ4 bzImages, which boot fast under TCG (default unless the " \
		 "baseline .config names a compression or a workload is libguestfs)"), \
	OPT_BOOL(0, "slim", &(a)->o.slim, \
		 "turn the baseline's modules off (the guest loads none; see docs/variants.md)"), \
	OPT_STRING(0, "arch", &(a)->o.arch, "ARCH", \
		   "x86_64 or arm64 (default: the baseline .config's, else x86_64)"), \
	OPT_STRING(0, "cross-compile", &(a)->o.cross_compile, "PREFIX", \
		   "cross compiler prefix for --arch (arm64: aarch64-linux-gnu-)"), \
	OPT_STRING(0, "cache", &(a)->cache, "DIR", \
		   "cache of sources and builds, yours alone (default ~/.cache/kconfperf)")

/* plan and sweep: which variants to make of the candidates. */
#define OPT_PLAN_DESIGN(a) \
	OPT_STRING(0, "design", &(a)->designs, "D,...", \
		   "oat, all, loo, cumulative (default oat)"), \
	OPT_BOOL(0, "baseline-again", &(a)->o.aa, \
		 "measure the baseline kernel twice, the second as an A/A control (default; " \
		 "--no-baseline-again drops it)")

/* plan and sweep. */
#define OPT_PLAN_ARGS(a) OPT_PLAN_SOURCES(a), OPT_PLAN_INPUTS(a), OPT_PLAN_DESIGN(a)

/*
 * Takes NEW of --options-from-diff OLD NEW from the arguments left after
 * parse_options() (*argc, *argv are advanced past it), checks that the
 * inputs make a plan (options may be left out when there are several
 * sources: their baselines are compared), parses --design and settles the
 * arch (plan_choose_arch(): an --arch that contradicts the baseline .config
 * is a usage error).  command names the caller in messages.
 */
void plan_args_finish(struct plan_args *a, int *argc, const char ***argv, const char *command);
void plan_args_release(struct plan_args *a);

/* A --scratch or --extract, for the --workload given before it. */
struct run_attachment {
	size_t workload;	/* index into run_args.workloads */
	int extract;		/* --extract, else --scratch */
	char *arg;
};

struct run_args {
	struct measure_options o;
	struct strvec workloads;
	struct run_attachment *attached;
	size_t nr_attached;
	/* the checked workloads, a series expanded into its members */
	struct workload_spec *specs;
	size_t nr_specs;
	const char *runs;		/* --runs N or "auto" */
	int auto_runs;			/* --runs auto: see stats/adaptive.h */
	struct adaptive_options adaptive;
	struct strvec series;	/* the label of each series (measure_options.series) */
};
#define RUN_ARGS_INIT { .o = MEASURE_OPTIONS_INIT, .workloads = STRVEC_INIT, .runs = "10", \
			.adaptive = ADAPTIVE_OPTIONS_INIT, .series = STRVEC_INIT }
/* sweep: rounds chosen by the precision reached. */
#define RUN_ARGS_AUTO_INIT { .o = MEASURE_OPTIONS_INIT, .workloads = STRVEC_INIT, .runs = "auto", \
			     .adaptive = ADAPTIVE_OPTIONS_INIT, .series = STRVEC_INIT }

/* The most rounds --runs and --warmup take. */
#define RUNS_MAX 100000

/*
 * run and sweep: fixed rounds or rounds chosen by the precision reached,
 * and the bound of the latter.  (screen has a --runs N and --max-runs N of
 * its own: runs added to a group until it is decided.)
 */
#define OPT_RUNS_AUTO(a) \
	OPT_STRING(0, "runs", &(a)->runs, "N|auto", \
		   "measured rounds per workload; auto: each workload until its every interval " \
		   "is within the noise band of its ratio (sweep's default; run's is 10)"), \
	OPT_INTEGER(0, "max-runs", &(a)->adaptive.max_runs, "N", \
		    "with --runs auto, stop at N rounds (default 30)")

/*
 * Runs what is missing: measure_runs(), or adaptive_runs() under --runs
 * auto (whose target is the noise band, noise percent).  What they return.
 */
int run_args_measure(struct run_args *a, struct store *st, double noise);

/*
 * -j of plan, build, sweep and screen: jobs from 1 to JOBS_MAX; 0, a
 * negative number and more are a usage error naming the range.  The bound
 * is not tied to this host's CPUs: a compiler farm (distcc, icecc) runs
 * hundreds of jobs from a small host.  1024 is above any farm's slots and
 * far below what breaks: make -j 100000 hangs in GNU make, and plan made a
 * work directory per job.
 */
#define JOBS_MAX 1024
int parse_jobs_option(const struct option *opt, const char *arg);
/* --noise's bounds, for report, sweep and screen: a usage error unless 0 <= noise < 100. */
void check_noise_option(double noise);
#define OPT_JOBS(v, h) OPT_CALLBACK('j', "jobs", (v), "N", (h), parse_jobs_option)

/*
 * For OPT_RUN_ARGS' (and vm's) --smp, --mem (opt->value is an int *) and
 * --timeout (a double *): a value outside what a machine can be (vm.h's
 * VM_MAX_SMP, VM_MIN_MEM_MB .. VM_MAX_MEM_MB, 0 < SEC <= VM_MAX_TIMEOUT)
 * is an error naming the range, never a default.
 */
int parse_smp_option(const struct option *opt, const char *arg);
int parse_mem_option(const struct option *opt, const char *arg);
int parse_timeout_option(const struct option *opt, const char *arg);
/*
 * --guests (an int *): 1 to GUESTS_MAX.  A host runs a guest per CPU; the
 * bound is a typo's, far above any host's CPUs.
 */
#define GUESTS_MAX 1024
int parse_guests_option(const struct option *opt, const char *arg);

/* For OPT_RUN_ARGS' --accel: opt->value is an enum vm_accel *. */
int parse_accel_option(const struct option *opt, const char *arg);
/*
 * run and build: --shard I/N or auto/N (util/shard.h; opt->value is a
 * struct shard *).  The help says each engine variable's base.
 */
int parse_shard_option(const struct option *opt, const char *arg);
#define OPT_SHARD(v, h) \
	OPT_CALLBACK(0, "shard", (v), "I/N|auto/N", h "; I counts from 1, auto takes it " \
		     "from SLURM_ARRAY_TASK_ID (0-based), JOB_COMPLETION_INDEX (0-based) or " \
		     "PARALLEL_SEQ (1-based)", parse_shard_option)

/* For OPT_RUN_ARGS' --clock: opt->value is the struct measure_options *. */
int parse_clock_option(const struct option *opt, const char *arg);
/* For --scratch and --extract: opt->value is the struct run_args *. */
int parse_scratch_option(const struct option *opt, const char *arg);
int parse_extract_option(const struct option *opt, const char *arg);

/*
 * --scratch and --extract belong to the --workload before them, as
 * ffmpeg's options belong to the file after them; with OPT_RUN_ARGS.
 * OPT_RUN_ARGS has no --runs: run and sweep add OPT_RUNS_AUTO, screen a
 * --runs of its own.
 */
#define OPT_WORKLOAD_EXTRAS(a) \
	OPT_CALLBACK(0, "scratch", (a), "SIZE[:LAYER,...]", \
		     "a scratch disk for the workload before it: ram, lvm, crypt, ext4 (repeatable)", \
		     parse_scratch_option), \
	OPT_CALLBACK(0, "extract", (a), "NAME,UNIT,higher|lower,SOURCE", \
		     "a number of the cmd: workload's output before it (re:, csv:, json:)", \
		     parse_extract_option)

#define OPT_RUN_ARGS(a) \
	OPT_STRING_LIST('w', "workload", &(a)->workloads, "NAME[:k=v,...]|cmd:COMMAND", \
			"a guest workload, k=v1,v2,... a series (repeatable; see 'kconfperf workloads')"), \
	OPT_WORKLOAD_EXTRAS(a), \
	OPT_INTEGER(0, "warmup", &(a)->o.warmup, "N", "warm-up rounds per workload (default 1)"), \
	OPT_CALLBACK(0, "accel", &(a)->o.accel, "auto|kvm|tcg", \
		     "accelerator; auto probes KVM with a bounded boot (default auto)", \
		     parse_accel_option), \
	OPT_CALLBACK(0, "clock", &(a)->o, "icount[:SHIFT]|icount-idle|host", \
		     "guest time: counts instructions (default under tcg; icount-idle, where idle " \
		     "time is host time, for cmd: and scratch disks) or is host time", \
		     parse_clock_option), \
	OPT_CALLBACK(0, "smp", &(a)->o.smp, "N", "guest CPUs (default 1: the least noise)", \
		     parse_smp_option), \
	OPT_CALLBACK(0, "mem", &(a)->o.mem_mb, "MB", "guest memory, at least 64 (default 512)", \
		     parse_mem_option), \
	OPT_CALLBACK(0, "guests", &(a)->o.guests, "N", \
		     "guests run side by side (default: one per CPU under icount, where it moves " \
		     "no guest time or instruction; else 1)", parse_guests_option), \
	OPT_CALLBACK(0, "timeout", &(a)->o.timeout, "SEC", \
		     "kill a run after SEC seconds, at most a week, and record a timeout " \
		     "(default 120)", parse_timeout_option), \
	OPT_STRING(0, "seed", &(a)->o.seed, "N", \
		   "seed of the run order (default: the stored one, else random)"), \
	OPT_STRING(0, "cpu", &(a)->o.cpu, "MODEL", "qemu -cpu under tcg (default " VM_DEFAULT_TCG_CPU \
		   ", arm64 " VM_DEFAULT_TCG_CPU_ARM64 ")"), \
	OPT_STRING(0, "qemu", &(a)->o.qemu, "PROGRAM", \
		   "qemu binary (default " VM_DEFAULT_QEMU ", arm64 qemu-system-aarch64)"), \
	OPT_STRING(0, "runner", &(a)->o.runner, "CMD", \
		   "run CMD instead of qemu (a board: scripts/board-runner)"), \
	OPT_BOOL(0, "no-meter", &(a)->o.no_meter, \
		 "do not count guest instructions (the meter is on in every icount run: " \
		 "docs/meter.md)"), \
	OPT_STRING(0, "workload-exec", &(a)->o.workload_exec, "FILE", \
		   "a static program for the exec workload, copied to /workload")

/*
 * Disks in the guest's memory (--scratch SIZE:ram) take it from the
 * guest's mem_mb: in all they must leave the guest VM_MIN_MEM_MB, or it
 * runs out of memory mid-run.  Exits 2 naming the last such --scratch.
 * run_args_finish() checks every workload with it; vm its one.
 */
void check_ram_disks(const struct workload_spec *spec, int mem_mb);

/*
 * Checks the numbers and parses every --workload into a->specs (a series
 * into one spec per value, each with the --scratch and --extract of its
 * --workload); exits 2 on a usage error (a bad workload spec names what
 * exists).  allow_none: no --workload is fine (run --print-command).
 */
void run_args_finish(struct run_args *a, int allow_none);

/*
 * Adds the harness profiles the workloads need (workload_spec_profiles())
 * to the plan's, after run_args_finish(), so sweep and screen plan kernels
 * that can run them.
 */
void run_args_harness(const struct run_args *a, struct plan_args *pa);
void run_args_release(struct run_args *a);

/*
 * What sweep and screen open from their arguments: the experiment
 * directory and its work and log directories, the cache, the kernel source,
 * and the build options (--cc-wrapper fills build.cc_wrapper while parsing).
 */
struct experiment_inputs {
	struct source_set sources;	/* every --source, then every --patch */
	struct kbuild_options build;
	char *dir, *cache, *work, *logs;
};
#define EXPERIMENT_INPUTS_INIT { .sources = SOURCE_SET_INIT, .build = KBUILD_OPTIONS_INIT }

/*
 * Opens the kernel sources (patches applied, source-set.h) and points pa's
 * plan, ra's runs and e->build at dir_opt, the cache, the first source and
 * the plan's arch, with make -j jobs.  Returns 0, or -1 (with a message)
 * when a source cannot be opened or a patch does not apply.
 */
int experiment_inputs_open(struct experiment_inputs *e, struct plan_args *pa,
			   struct run_args *ra, const char *dir_opt, int jobs);
void experiment_inputs_release(struct experiment_inputs *e);

#endif
