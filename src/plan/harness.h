/* harness.h: the kernel-config profiles kconfperf merges into every variant so it can boot, run and report. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef HARNESS_H
#define HARNESS_H

struct kconfig;
struct strbuf;
struct strvec;

/*
 * A profile is a fragment of settings a variant needs for part of what
 * kconfperf does with it: the base profile of an arch (serial console,
 * initramfs, devtmpfs, proc, sysfs, tmpfs, virtio PCI and block, power
 * off) is in every plan; others come with what an experiment runs (a
 * workload that needs the host's file system over virtio-9p, disks, an
 * appliance) or with --harness.  The plan merges every profile it takes
 * into the baseline, so all variants inherit them, and verifies after
 * `make olddefconfig` that each setting took: a baseline that cannot carry
 * a profile is an error naming the symbols and why.
 */
struct harness_profile {
	const char *name;
	const char *arch;	/* the arch it is for ("x86_64", "arm64"), or NULL: any */
	int base;		/* the arch's base profile, taken by every plan */
	const char *summary;	/* one line, for help and errors */
	const char *fragment;	/* "CONFIG_X=y\n" lines */
};

#define HARNESS_DEFAULT_ARCH "x86_64"

/* The profile called name that serves arch, or NULL. */
const struct harness_profile *harness_find(const char *name, const char *arch);

/* The base profile of arch, or NULL for an arch kconfperf cannot boot. */
const struct harness_profile *harness_base(const char *arch);

/*
 * Makes *out (a new kconfig, the caller frees it) hold every setting of
 * arch's base profile and of each profile named in `profiles` (which may
 * be NULL), in that order; a later profile's setting of a symbol wins.
 * names, when not NULL, gets the profiles taken, comma separated
 * ("x86_64,9p").  Returns 0, or -1 with an error for an unknown profile
 * (naming the profiles arch has) or an arch without a base profile.
 */
int harness_config(struct kconfig **out, struct strbuf *names, const char *arch,
		   const struct strvec *profiles);

/* Which profiles a workload needs: workload_spec_profiles() (run/workload-spec.h). */

/*
 * Checks that kc (a variant's effective config) holds every setting of
 * profile p.  Returns 1 when it does; 0 when not, with "CONFIG_X is not
 * set" / "CONFIG_X=m, not y" items, "; " separated, appended to missing.
 */
int harness_check(const struct harness_profile *p, const struct kconfig *kc,
		  struct strbuf *missing);

/* Appends "name (summary)" lines of arch's profiles to sb, for help. */
void harness_list(struct strbuf *sb, const char *arch);

#endif
