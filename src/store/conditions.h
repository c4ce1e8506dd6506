/* conditions.h: the conditions an experiment's runs were made under, typed, with one save, load and compare. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CONDITIONS_H
#define CONDITIONS_H

#include <stddef.h>

#include "store/vm-clock.h"

struct store;
struct strbuf;

/*
 * What an experiment's runs were made under: the stages that decide a
 * condition set it (plan: arch, kernel, baseline, harness; build: the
 * compiler; run: the rest) and store it with conditions_save(); report
 * and the checks before a resumed run read them with conditions_load().
 * A field is NULL, -1 or its enum's AUTO when unknown (an experiment
 * older than the field, an import of another tool's runs), and
 * conditions_save() leaves unknown fields as they are stored.
 *
 * A new condition is a field here and a row in conditions.c's fields[]
 * table (its key, its label for the reports, whether runs under another
 * value compare): save, load, compare and the reports' lists follow.
 */
struct conditions {
	char *kconfperf;	/* kconfperf's version that measured */
	char *arch;		/* "x86_64", "arm64" */
	char *kernel_version;	/* "6.1.158" */
	char *base;		/* the baseline config: "tinyconfig" */
	char *harness;		/* the kernels' harness profiles, "x86_64,virtio-blk" */
	char *compiler;		/* first line of the kernels' compiler's --version */
	char *boot;		/* what the kernels boot as: "bzImage, LZ4 (kconfperf's fast boot...)" */
	char *qemu;		/* the qemu program */
	char *qemu_version;	/* first line of its --version */
	enum vm_accel accel;
	enum vm_clock clock;
	int icount_shift;	/* -1 unless the clock is icount */
	char *cpu;		/* qemu's -cpu */
	int smp, mem_mb;
	char *meter;		/* the instruction meter: "on", or "off (why)" */
	char *guest;		/* sha256 of the initramfs (kcp-guest and workload files) */
	char *runner;		/* --runner, instead of qemu */
	char *host, *host_kernel, *cpu_model;
	/*
	 * For the reports' environment (stats/analyze-env.h): the runs' kernel
	 * command line (what differs per run named "<per run>"), qemu's
	 * machine and the guest's firmware (a runner's are its own).
	 */
	char *kernel_cmdline, *machine, *firmware;
	int host_cpus;
};

#define CONDITIONS_INIT { .icount_shift = -1, .smp = -1, .mem_mb = -1, .host_cpus = -1 }

/* Reads every stored condition into out (CONDITIONS_INIT first): 0, or -1 with a message. */
int conditions_load(struct conditions *out, struct store *st);
/* Stores every known field of c, over what was stored: 0, or -1 with a message. */
int conditions_save(const struct conditions *c, struct store *st);
/* Frees the strings; c is CONDITIONS_INIT after. */
void conditions_release(struct conditions *c);

/* Whether the meter ran ("on"). */
int conditions_metered(const struct conditions *c);

/*
 * The key of the first field, in fields[] order, under which runs of a
 * and of b do not compare (a field unknown on either side counts as the
 * same), or NULL when none: what two experiments' shards must share.
 */
const char *conditions_first_difference(const struct conditions *a, const struct conditions *b);
/* Whether field key differs as conditions_first_difference() judges it; 0 for an unknown key. */
int conditions_differ(const struct conditions *a, const struct conditions *b, const char *key);

/*
 * The fields the reports list, in order: calls fn with each known one's
 * label ("kernel", "qemu version") and its value as stored.
 */
void conditions_each_listed(const struct conditions *c,
			    void (*fn)(void *data, const char *label, const char *value),
			    void *data);
/* Field key's value as stored, into sb (nothing when unknown); -1 for an unknown key. */
int conditions_format(struct strbuf *sb, const struct conditions *c, const char *key);

#endif
