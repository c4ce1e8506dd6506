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
	int fast_boot;		/* the arch's fast boot: taken as harness_fast_boot() says */
};

#define HARNESS_DEFAULT_ARCH "x86_64"

/*
 * The fast boot (issue 27): under TCG, an x86 bzImage's decompressor is
 * most of a short run (tinyconfig's XZ: 911.5 M of a boot run's 1,044 M
 * instructions; LZ4: 31.9 M, the kernel's objects unchanged).  The profile
 * HARNESS_FAST_BOOT (CONFIG_KERNEL_LZ4=y) is taken where it applies.
 */
#define HARNESS_FAST_BOOT "fast-boot"

/* --fast-boot, --no-fast-boot, or neither (plan_options.fast_boot). */
enum harness_fast_boot {
	HARNESS_FAST_BOOT_AUTO = -1,
	HARNESS_FAST_BOOT_OFF = 0,
	HARNESS_FAST_BOOT_ON = 1,
};

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

/*
 * Whether a plan takes arch's fast-boot profile: want is enum
 * harness_fast_boot; user the baseline .config the user gave (NULL for a
 * make target such as tinyconfig, whose compression is the kernel's
 * default), base_add --base-add's settings, profiles the harness profiles
 * asked for.  --no-fast-boot and --fast-boot (or --harness fast-boot)
 * decide; else it is taken unless the workloads include libguestfs (its
 * appliance boots the kernel as the user would ship it, and its wall is
 * what a TCG user waits for) or the user's config or --base-add names a
 * compression (CONFIG_KERNEL_XZ=y ...: a distribution config).  Returns 1
 * or 0, with why set to the reason, a phrase for the plan and reports.
 */
int harness_fast_boot(struct strbuf *why, const char *arch, int want,
		      const struct kconfig *user, const struct kconfig *base_add,
		      const struct strvec *profiles);

/* The compression kc sets ("XZ", "LZ4", "gzip" ...), or NULL: none (kc may be NULL). */
const char *harness_compression(const struct kconfig *kc);

/*
 * Appends what a plan's kernels boot as, for meta "boot" and every report:
 * "bzImage, LZ4 (kconfperf's fast boot; the baseline's own: XZ)",
 * "bzImage, XZ (--no-fast-boot)", "Image, uncompressed".  fast and why are
 * harness_fast_boot()'s; own is harness_compression() of the baseline
 * before the harness, have of the baseline after olddefconfig.
 */
void harness_boot_text(struct strbuf *out, const char *arch, int fast, const char *why,
		       const char *own, const char *have);

/* Appends "name (summary)" lines of arch's profiles to sb, for help. */
void harness_list(struct strbuf *sb, const char *arch);

#endif
