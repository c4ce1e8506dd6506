/* workload-spec.h: check a --workload NAME[:k=v,...] against the workload table and render it for the kernel command line. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef WORKLOAD_SPEC_H
#define WORKLOAD_SPEC_H

#include <stddef.h>

#include "run/extract.h"
#include "run/workload-table.h"

struct strbuf;
struct strvec;

struct workload_spec_value {
	const struct workload_param *param;
	char *value;		/* the given value, or a copy of the default */
	int given;		/* set in the spec, not defaulted */
};

/*
 * A scratch disk of a run (--scratch SIZE[:LAYER,...]): a sparse image of
 * `bytes` made for each run and removed after it, attached as a virtio
 * disk (the virtio disks in order: /dev/vda, then vdb ...), or, with the
 * first layer "ram", a RAM block device of the guest's (brd: /dev/ram0,
 * ram1 ... in order; no image, no host I/O: its reads and writes are
 * guest instructions, which icount counts exactly and host load cannot
 * move).  layers is what the guest makes of it, bottom up, "" for a raw
 * disk: "ram" (first), "lvm" (a volume group kcp_vdX with
 * one logical volume over all of it), "crypt" (dm-crypt, plain mode,
 * aes-xts-plain64 with a fixed 512-bit test key), "ext4" (mkfs.ext4
 * without lazy init, mounted on /mnt/vdX; last).  The top block device is
 * linked as /dev/kcp/vdX, X by the disk's position among all scratch
 * disks.  Layers need the cmd workload (the host's tools do it) and
 * harness profiles (workload_spec_profiles()).
 */
struct workload_scratch {
	char *spec;		/* as given, "1G:lvm,crypt" */
	unsigned long long bytes;
	char *layers;		/* "lvm,crypt", or "" */
};
#define WORKLOAD_SCRATCH_MAX 8
/* Whether the scratch disk is in the guest's memory (its first layer is "ram"). */
int workload_scratch_in_ram(const struct workload_scratch *d);
#define WORKLOAD_SCRATCH_MIN_BYTES (1ULL << 20)
#define WORKLOAD_SCRATCH_MAX_BYTES (1ULL << 40)

/*
 * A checked workload with every one of its parameters, in table order,
 * and what comes with it: scratch disks and, for cmd, the numbers to take
 * from the program's output.  Owns everything; workload_spec_release()
 * frees it.
 */
struct workload_spec {
	int id;			/* index into workload_table, -1 when unset */
	struct workload_spec_value *values;
	size_t nr;
	struct workload_scratch *scratch;
	size_t nr_scratch;
	struct extract *extracts;
	size_t nr_extracts;
};
#define WORKLOAD_SPEC_INIT { .id = -1 }

/*
 * Parses "NAME" or "NAME:key=value,key=value" (or, for a workload with
 * WL_COMMAND, "cmd:COMMAND": all after the colon is the command) into out (which must be
 * WORKLOAD_SPEC_INIT or released).  Returns 0, or -1 after an error()
 * that names the bad part and what exists: an unknown workload lists the
 * workloads (and suggests the closest), an unknown parameter lists the
 * workload's parameters, a bad value says what is allowed.  On failure out
 * is left as WORKLOAD_SPEC_INIT.
 */
int workload_spec_parse(struct workload_spec *out, const char *spec);

/*
 * A parameter series: "NAME:k=v1,v2,v3,..." (a word without '=' after a
 * comma is one more value of the key before it) gives one spec per value,
 * in order, appended to out; *param (malloc'd) gets the key whose values
 * make the series, or NULL when the spec has one value per key (out gets
 * the spec as it is).  Only one key can have several values.  A cmd spec
 * is never a series.  Returns 0, or -1 after an error().
 */
int workload_spec_expand(struct strvec *out, char **param, const char *spec);

/*
 * The label of a series whose first member is first: its canonical spec
 * with param (always shown) taking the given values,
 * "hackbench:groups=1,4,7,12,loops=20".
 */
void workload_spec_format_series(const struct workload_spec *first, const char *param,
				 const struct strvec *values, struct strbuf *out);

/*
 * One --workload value as the command line gives it, with the --scratch
 * and --extract arguments that follow it (in their order): a spec, or a
 * parameter series (workload_spec_expand()), parsed into one spec per
 * member, each with those disks and extractions, appended to *specs
 * (*nr of them, grown).  A series' label (workload_spec_format_series())
 * is appended to series_label; nothing for one spec.  Returns 0, or -1
 * after an error() (the specs appended so far stay, for the caller to
 * release).
 */
int workload_spec_parse_arg(struct workload_spec **specs, size_t *nr, struct strbuf *series_label,
			    const char *text, const struct strvec *scratch,
			    const struct strvec *extracts);

/*
 * Adds a scratch disk (--scratch SIZE[:LAYER,...]) or an --extract to
 * spec.  Returns 0, or -1 after an error() saying what is wrong with arg
 * (or that the workload cannot have it: layers and --extract need cmd).
 */
int workload_spec_add_scratch(struct workload_spec *spec, const char *arg);
int workload_spec_add_extract(struct workload_spec *spec, const char *arg);

/*
 * The one rule for which kernel profiles (plan/harness.h) a workload
 * needs: appends to out, each once, the profile its row of workloads.def
 * names ("9p" for the host's programs, "libguestfs" for the appliance),
 * then those of its scratch disks: "ramdisk" for a disk in the guest's
 * memory, "disk" for ext4, "crypt" for lvm and dm-crypt.  Plan (sweep
 * and screen take them), run (a plan without them is refused) and the
 * libguestfs runner (the kernel must hold them) all ask this.  A new
 * workload's profile is its row's profile column in workloads.def.
 */
void workload_spec_profiles(const struct workload_spec *spec, struct strvec *out);

/* The value (given or default) of parameter name, or NULL if there is none. */
const char *workload_spec_get(const struct workload_spec *spec, const char *name);

/*
 * Appends the kernel command line parameters kcp-guest reads:
 * "kcp.workload=NAME kcp.K=V ..." with every parameter, defaults included,
 * so a recorded command line does not depend on the guest's defaults.
 */
void workload_spec_cmdline(const struct workload_spec *spec, struct strbuf *out);

/*
 * Appends the canonical spec: NAME, then ":k=v,..." for the given values
 * that differ from the default; "cmd:COMMAND" for cmd.  Scratch disks and
 * extractions follow as the options that give them, " --scratch SPEC"
 * and " --extract SPEC", so two runs share a spec only when they ran the
 * same thing the same way.
 */
void workload_spec_format(const struct workload_spec *spec, struct strbuf *out);

void workload_spec_release(struct workload_spec *spec);

#endif
