/* meta-keys.h: every key of the experiment database's meta table, named once. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef META_KEYS_H
#define META_KEYS_H

/*
 * The meta table holds an experiment's facts as key = text.  A key is
 * written and read under these names only (store_set_meta(),
 * store_get_meta(), analyze_fact()): scripts/check-idioms refuses a
 * string literal there.  The conditions of the runs (conditions.h) are
 * typed: above the store, read them with conditions_load().
 */

/* The plan's (plan/plan.h, plan-set.c). */
#define META_PLAN_KEY "plan_key"		/* the plan's identity: what was asked */
#define META_SOURCE "source"			/* the kernel source as given */
#define META_SOURCE_ID "source_id"		/* its content's identity */
#define META_SOURCE_TREE "source_tree"		/* where it is unpacked */
#define META_DESIGNS "designs"			/* "oat,all,loo" */
#define META_CACHE "cache"			/* the build cache, for build */
#define META_CROSS_COMPILE "cross_compile"	/* the kernels' CROSS_COMPILE ("": native) */
#define META_GROUPS "groups"			/* the option groups, one a line */
#define META_SLIM_REMOVED "slim_removed"	/* --slim: the modules turned off, one a line */
#define META_SLIM_STAYED "slim_stayed"		/* --slim: those Kconfig kept */

/* The run's (run/measure.c). */
#define META_WORKLOADS "workloads"		/* the workloads measured, one a line */
#define META_SERIES "series"			/* the parameter series, one label a line */
#define META_SEED "seed"			/* the schedule's seed */
#define META_TIMEOUT "timeout"			/* a run's timeout, seconds */
#define META_RUNS "runs"			/* rounds */
#define META_WARMUP "warmup"			/* warm-up rounds */

/* A shard's (store/shard-dir.c, cmd-run.c) and an import's. */
#define META_SHARD "shard"			/* "2/3" */
#define META_SHARD_OF "shard_of"		/* the experiment it is a shard of */
#define META_SHARD_COMPLETE "shard_complete"	/* "yes" once its runs finished */
#define META_IMPORTED "imported"		/* the tool an import came from: "hyperfine" */

/* A screen's report as shown (store_set_screen_report()). */
#define META_SCREEN_REPORT "screen_report"

/* The conditions (conditions.c's fields[], their only reader and writer). */
#define META_KCONFPERF "kconfperf"
#define META_KERNEL_VERSION "kernel_version"
#define META_ARCH "arch"
#define META_BASE "base"
#define META_HARNESS "harness"
#define META_HOST "host"
#define META_ACCEL "accel"
#define META_CLOCK "clock"
#define META_QEMU "qemu"
#define META_QEMU_VERSION "qemu_version"
#define META_COMPILER "compiler"
#define META_BOOT "boot"
#define META_CPU "cpu"
#define META_SMP "smp"
#define META_MEM_MB "mem_mb"
#define META_METER "meter"
#define META_INITRAMFS_SHA256 "initramfs_sha256"
#define META_RUNNER "runner"
#define META_HOST_KERNEL "host_kernel"
#define META_CPU_MODEL "cpu_model"
#define META_HOST_CPUS "host_cpus"
#define META_KERNEL_CMDLINE "kernel_cmdline"
#define META_MACHINE "machine"
#define META_FIRMWARE "firmware"

#endif
