/* harness.c: the table of harness profiles and how a plan takes them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "kconfig/kconfig.h"
#include "plan/harness.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const struct harness_profile profiles[] = {
	{
		.name = "x86_64", .arch = "x86_64", .base = 1,
		.summary = "boot under qemu-system-x86_64: 8250 serial console, initramfs, "
			   "devtmpfs, proc, sysfs, tmpfs, virtio PCI and block, ACPI power off",
		.fragment =
			"CONFIG_64BIT=y\n"
			"CONFIG_PRINTK=y\n"
			"CONFIG_TTY=y\n"
			"CONFIG_SERIAL_8250=y\n"
			"CONFIG_SERIAL_8250_CONSOLE=y\n"
			"CONFIG_BLK_DEV_INITRD=y\n"
			"CONFIG_RD_GZIP=y\n"
			"CONFIG_BINFMT_ELF=y\n"
			"CONFIG_BINFMT_SCRIPT=y\n"
			"CONFIG_PROC_FS=y\n"
			"CONFIG_SYSFS=y\n"
			"CONFIG_DEVTMPFS=y\n"
			"CONFIG_DEVTMPFS_MOUNT=y\n"
			"CONFIG_SHMEM=y\n"
			"CONFIG_TMPFS=y\n"
			"CONFIG_FUTEX=y\n"
			"CONFIG_EPOLL=y\n"
			"CONFIG_SMP=y\n"
			"CONFIG_UNIX=y\n"
			"CONFIG_NET=y\n"
			"CONFIG_PCI=y\n"
			"CONFIG_ACPI=y\n"
			"CONFIG_BLOCK=y\n"
			"CONFIG_VIRTIO_MENU=y\n"
			"CONFIG_VIRTIO_PCI=y\n"
			"CONFIG_VIRTIO_BLK=y\n",
	},
	{
		/*
		 * The fast boot (docs/harness.md, issue 27): a bzImage's
		 * decompressor runs before the kernel, and under TCG with
		 * icount tinyconfig's XZ took 911.5 M of a boot run's 1,044 M
		 * instructions; LZ4 leaves 31.9 M before the kernel, with the
		 * kernel's objects unchanged.  The other compressions are
		 * turned off so that the choice cannot keep the base's.
		 */
		.name = HARNESS_FAST_BOOT, .arch = "x86_64", .fast_boot = 1,
		.summary = "boot fast: an LZ4 bzImage instead of the baseline's compression "
			   "(taken by default where it applies; --fast-boot, --no-fast-boot)",
		.fragment =
			"CONFIG_KERNEL_LZ4=y\n"
			"# CONFIG_KERNEL_GZIP is not set\n"
			"# CONFIG_KERNEL_BZIP2 is not set\n"
			"# CONFIG_KERNEL_LZMA is not set\n"
			"# CONFIG_KERNEL_XZ is not set\n"
			"# CONFIG_KERNEL_LZO is not set\n"
			"# CONFIG_KERNEL_ZSTD is not set\n",
	},
	{
		/*
		 * Found by booting libguestfs-test-tool's appliance (Debian's
		 * userspace: bash, systemd-udevd, guestfsd, parted, mke2fs)
		 * on tinyconfig plus the base profile, adding what its
		 * console said was missing.
		 */
		.name = "libguestfs", .arch = "x86_64",
		.summary = "boot libguestfs's appliance: virtio-scsi disks (sd), virtio-serial "
			   "channel, virtio-rng, ext2/ext4, MS-DOS partitions, and the system "
			   "calls udev and guestfsd use",
		.fragment =
			"CONFIG_MULTIUSER=y\n"
			"CONFIG_FHANDLE=y\n"
			"CONFIG_POSIX_TIMERS=y\n"
			"CONFIG_SIGNALFD=y\n"
			"CONFIG_TIMERFD=y\n"
			"CONFIG_EVENTFD=y\n"
			"CONFIG_INOTIFY_USER=y\n"
			"CONFIG_FILE_LOCKING=y\n"
			"CONFIG_UNIX98_PTYS=y\n"
			"CONFIG_PROC_SYSCTL=y\n"
			"CONFIG_SCSI=y\n"
			"CONFIG_BLK_DEV_SD=y\n"
			"CONFIG_SCSI_LOWLEVEL=y\n"
			"CONFIG_SCSI_VIRTIO=y\n"
			"CONFIG_VIRTIO_CONSOLE=y\n"
			"CONFIG_HW_RANDOM=y\n"
			"CONFIG_HW_RANDOM_VIRTIO=y\n"
			"CONFIG_EXT4_FS=y\n"
			"CONFIG_EXT4_USE_FOR_EXT2=y\n"
			"CONFIG_MSDOS_PARTITION=y\n",
	},
	{
		/*
		 * qemu's virt machine: one PL011 for the console, the results
		 * on a virtio console (hvc0), the disk on virtio-mmio (no PCI:
		 * a smaller kernel), PSCI to power off.
		 */
		.name = "arm64", .arch = "arm64", .base = 1,
		.summary = "boot under qemu-system-aarch64 -M virt: PL011 serial console, "
			   "virtio console for results, initramfs, devtmpfs, proc, sysfs, "
			   "tmpfs, virtio-mmio block, PSCI power off",
		.fragment =
			"CONFIG_64BIT=y\n"
			"CONFIG_PRINTK=y\n"
			"CONFIG_TTY=y\n"
			"CONFIG_SERIAL_AMBA_PL011=y\n"
			"CONFIG_SERIAL_AMBA_PL011_CONSOLE=y\n"
			"CONFIG_BLK_DEV_INITRD=y\n"
			"CONFIG_RD_GZIP=y\n"
			"CONFIG_BINFMT_ELF=y\n"
			"CONFIG_BINFMT_SCRIPT=y\n"
			"CONFIG_PROC_FS=y\n"
			"CONFIG_SYSFS=y\n"
			"CONFIG_DEVTMPFS=y\n"
			"CONFIG_DEVTMPFS_MOUNT=y\n"
			"CONFIG_SHMEM=y\n"
			"CONFIG_TMPFS=y\n"
			"CONFIG_FUTEX=y\n"
			"CONFIG_EPOLL=y\n"
			"CONFIG_SMP=y\n"
			"CONFIG_UNIX=y\n"
			"CONFIG_NET=y\n"
			"CONFIG_ARM_PSCI_FW=y\n"
			"CONFIG_BLOCK=y\n"
			"CONFIG_VIRTIO_MENU=y\n"
			"CONFIG_VIRTIO_MMIO=y\n"
			"CONFIG_VIRTIO_BLK=y\n"
			"CONFIG_VIRTIO_CONSOLE=y\n",
	},
	{
		/*
		 * A 64 MiB RAM block device for block input that no host disk
		 * slows or varies: dd:dev=/dev/ram0 reads through the block
		 * layer and, with direct=0, the page cache, all in guest
		 * instructions, so under icount it repeats exactly.
		 */
		.name = "ramdisk", .arch = NULL,
		.summary = "/dev/ram0, a 64 MiB RAM block device (brd) for dd:dev=/dev/ram0",
		.fragment =
			"CONFIG_BLOCK=y\n"
			"CONFIG_BLK_DEV=y\n"
			"CONFIG_BLK_DEV_RAM=y\n"
			"CONFIG_BLK_DEV_RAM_COUNT=1\n"
			"CONFIG_BLK_DEV_RAM_SIZE=65536\n",
	},
	{
		/*
		 * A cmd: workload: the host's root over virtio-9p (9P_FS needs
		 * INET), a third 8250 port for the program's output (the
		 * default 4 ports), and what the host's programs need of the
		 * kernel to run at all, which tinyconfig turns off: uids
		 * (MULTIUSER: setuid, getgroups; bonnie++ -u), flock and
		 * fcntl locks (FILE_LOCKING: lvm, cryptsetup, make), POSIX
		 * timers (timer_create, clock_nanosleep: coreutils' timeout,
		 * sleep), signalfd, timerfd and eventfd (libraries built on
		 * event loops), AIO and fadvise/madvise (ADVISE_SYSCALLS),
		 * inotify, SysV IPC, name_to_handle_at (FHANDLE) and ptys
		 * (UNIX98_PTYS, for /dev/pts).
		 */
		.name = "9p", .arch = NULL,
		.summary = "the host's programs in the guest (cmd:): virtio-9p, and the system "
			   "calls they need (users, file locks, POSIX timers, signalfd, ...)",
		.fragment =
			"CONFIG_NET=y\n"
			"CONFIG_INET=y\n"
			"CONFIG_NET_9P=y\n"
			"CONFIG_NET_9P_VIRTIO=y\n"
			"CONFIG_9P_FS=y\n"
			"CONFIG_MULTIUSER=y\n"
			"CONFIG_FILE_LOCKING=y\n"
			"CONFIG_POSIX_TIMERS=y\n"
			"CONFIG_SIGNALFD=y\n"
			"CONFIG_TIMERFD=y\n"
			"CONFIG_EVENTFD=y\n"
			"CONFIG_AIO=y\n"
			"CONFIG_ADVISE_SYSCALLS=y\n"
			"CONFIG_FHANDLE=y\n"
			"CONFIG_INOTIFY_USER=y\n"
			"CONFIG_SYSVIPC=y\n"
			"CONFIG_UNIX98_PTYS=y\n",
	},
	{
		.name = "disk", .arch = NULL,
		.summary = "scratch disks with a file system (--scratch SIZE:ext4): ext4",
		.fragment =
			"CONFIG_BLOCK=y\n"
			"CONFIG_EXT4_FS=y\n",
	},
	{
		/*
		 * lvm and dm-crypt layers of a scratch disk: device mapper
		 * (LVM's linear target is in its core), dm-crypt and the
		 * test key's cipher, aes-xts-plain64 (XTS runs over ECB);
		 * cryptsetup asks the kernel's crypto API over AF_ALG whether
		 * the cipher exists.
		 */
		.name = "crypt", .arch = NULL,
		.summary = "scratch disks with lvm or dm-crypt (--scratch SIZE:lvm,crypt): "
			   "device mapper, dm-crypt, AES-XTS",
		.fragment =
			"CONFIG_MD=y\n"
			"CONFIG_BLK_DEV_DM=y\n"
			"CONFIG_DM_CRYPT=y\n"
			"CONFIG_CRYPTO=y\n"
			"CONFIG_CRYPTO_AES=y\n"
			"CONFIG_CRYPTO_XTS=y\n"
			"CONFIG_CRYPTO_ECB=y\n"
			"CONFIG_CRYPTO_USER_API_SKCIPHER=y\n",
	},
};

/* The kernel's compressions (init/Kconfig's "Kernel compression mode" choice). */
static const char *const compressions[][2] = {
	{ "KERNEL_GZIP", "gzip" }, { "KERNEL_BZIP2", "bzip2" }, { "KERNEL_LZMA", "LZMA" },
	{ "KERNEL_XZ", "XZ" }, { "KERNEL_LZO", "LZO" }, { "KERNEL_LZ4", "LZ4" },
	{ "KERNEL_ZSTD", "zstd" }, { "KERNEL_UNCOMPRESSED", "uncompressed" },
};

static int serves(const struct harness_profile *p, const char *arch)
{
	return !p->arch || !strcmp(p->arch, arch);
}

const struct harness_profile *harness_find(const char *name, const char *arch)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name) && serves(&profiles[i], arch))
			return &profiles[i];
	return NULL;
}

const struct harness_profile *harness_base(const char *arch)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (profiles[i].base && serves(&profiles[i], arch))
			return &profiles[i];
	return NULL;
}

void harness_list(struct strbuf *sb, const char *arch)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (serves(&profiles[i], arch))
			strbuf_addf(sb, "%s%s (%s)\n", profiles[i].name,
				    profiles[i].base ? ", always" : "", profiles[i].summary);
}

/* Whether a symbol's value (NULL: absent) is the wanted one, n and absent alike. */
static int same_value(const char *have, const char *want)
{
	if (!have || !strcmp(have, "n"))
		return !strcmp(want, "n");
	return !strcmp(have, want);
}

int harness_check(const struct harness_profile *p, const struct kconfig *kc,
		  struct strbuf *missing)
{
	struct kconfig *frag = kconfig_new();
	size_t iter = 0;
	const char *name, *want;
	int ok = 1;

	if (kconfig_parse(frag, p->name, p->fragment, strlen(p->fragment), 0))
		BUG("harness profile '%s' does not parse", p->name);
	while (kconfig_next(frag, &iter, &name, &want)) {
		const char *have = kconfig_get(kc, name);

		if (same_value(have, want))
			continue;
		if (missing->len)
			strbuf_addstr(missing, "; ");
		if (!have || !strcmp(have, "n"))
			strbuf_addf(missing, "CONFIG_%s is not set", name);
		else
			strbuf_addf(missing, "CONFIG_%s=%s, not %s", name, have, want);
		ok = 0;
	}
	kconfig_free(frag);
	return ok;
}

static void take(struct kconfig *kc, struct strbuf *names, const struct harness_profile *p)
{
	struct kconfig *frag = kconfig_new();
	size_t iter = 0;
	const char *name, *value;

	if (kconfig_parse(frag, p->name, p->fragment, strlen(p->fragment), 0))
		BUG("harness profile '%s' does not parse", p->name);
	while (kconfig_next(frag, &iter, &name, &value))
		if (kconfig_set(kc, name, value))
			BUG("harness profile '%s': cannot set %s", p->name, name);
	kconfig_free(frag);
	if (names)
		strbuf_addf(names, "%s%s", names->len ? "," : "", p->name);
}

int harness_config(struct kconfig **out, struct strbuf *names, const char *arch,
		   const struct strvec *wanted)
{
	const struct harness_profile *base = harness_base(arch);
	struct strvec parts = STRVEC_INIT;
	struct strbuf known = STRBUF_INIT;
	struct kconfig *kc;
	size_t i;
	int ret = -1;

	*out = NULL;
	if (!base)
		return error("kconfperf cannot boot arch '%s' (no harness profile for it)", arch);
	kc = kconfig_new();
	take(kc, names, base);
	/* --harness 9p,disk and --harness 9p --harness disk alike. */
	for (i = 0; wanted && i < wanted->nr; i++)
		strvec_split(&parts, wanted->v[i], ",");
	for (i = 0; i < parts.nr; i++) {
		const struct harness_profile *p = harness_find(parts.v[i], arch);
		size_t j;

		if (!p) {
			harness_list(&known, arch);
			strbuf_rtrim(&known);
			error("no harness profile '%s' for %s; there are:\n%s", parts.v[i], arch,
			      known.buf);
			goto out;
		}
		for (j = 0; j < i && strcmp(parts.v[j], parts.v[i]); j++)
			;
		if (p != base && j == i)
			take(kc, names, p);
	}
	*out = kc;
	kc = NULL;
	ret = 0;
out:
	kconfig_free(kc);
	strvec_clear(&parts);
	strbuf_release(&known);
	return ret;
}

const char *harness_compression(const struct kconfig *kc)
{
	size_t i;

	for (i = 0; kc && i < ARRAY_SIZE(compressions); i++) {
		const char *v = kconfig_get(kc, compressions[i][0]);

		if (v && !strcmp(v, "y"))
			return compressions[i][1];
	}
	return NULL;
}

/* The fast-boot profile of arch, or NULL. */
static const struct harness_profile *fast_profile(const char *arch)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (profiles[i].fast_boot && serves(&profiles[i], arch))
			return &profiles[i];
	return NULL;
}

int harness_fast_boot(struct strbuf *why, const char *arch, int want,
		      const struct kconfig *user, const struct kconfig *base_add,
		      const struct strvec *wanted)
{
	struct strvec parts = STRVEC_INIT;
	int named = 0, appliance = 0;
	size_t i;

	strbuf_reset(why);
	for (i = 0; wanted && i < wanted->nr; i++)
		strvec_split(&parts, wanted->v[i], ",");
	for (i = 0; i < parts.nr; i++) {
		named |= !strcmp(parts.v[i], HARNESS_FAST_BOOT);
		appliance |= !strcmp(parts.v[i], "libguestfs");
	}
	strvec_clear(&parts);
	if (!fast_profile(arch)) {
		strbuf_addf(why, "%s boots an uncompressed image", arch);
		return 0;
	}
	if (want == HARNESS_FAST_BOOT_OFF) {
		strbuf_addstr(why, "--no-fast-boot");
		return 0;
	}
	if (want == HARNESS_FAST_BOOT_ON || named) {
		strbuf_addstr(why, want == HARNESS_FAST_BOOT_ON ? "--fast-boot" :
			      "--harness " HARNESS_FAST_BOOT);
		return 1;
	}
	if (appliance) {
		strbuf_addstr(why, "libguestfs boots the kernel as it would ship");
		return 0;
	}
	if (harness_compression(base_add)) {
		strbuf_addstr(why, "--base-add names the compression");
		return 0;
	}
	if (harness_compression(user)) {
		strbuf_addstr(why, "the baseline .config names its compression");
		return 0;
	}
	strbuf_addstr(why, "kconfperf's fast boot");
	return 1;
}

void harness_boot_text(struct strbuf *out, const char *arch, int fast, const char *why,
		       const char *own, const char *have)
{
	if (!fast_profile(arch)) {
		strbuf_addf(out, "%s, uncompressed", strcmp(arch, "arm64") ? "kernel image" :
			    "Image");
		return;
	}
	strbuf_addf(out, "bzImage, %s", have ? have : "the kernel's default compression");
	if (fast && own && have && strcmp(own, have))
		strbuf_addf(out, " (%s; the baseline's own: %s)", why, own);
	else
		strbuf_addf(out, " (%s)", why);
}
