/* test-harness.c: unit tests for the harness profiles. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig.h"
#include "plan/harness.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

static void test_base_profile_of_x86_64(void)
{
	struct kconfig *kc = NULL;
	struct strbuf names = STRBUF_INIT;

	check(harness_base("x86_64") != NULL);
	check(harness_base("x86_64")->base);
	check_int(harness_config(&kc, &names, "x86_64", NULL), ==, 0);
	check_str(names.buf, "x86_64");
	check_str(kconfig_get(kc, "SERIAL_8250_CONSOLE"), "y");
	check_str(kconfig_get(kc, "DEVTMPFS_MOUNT"), "y");
	check_str(kconfig_get(kc, "VIRTIO_BLK"), "y");
	kconfig_free(kc);
	strbuf_release(&names);
}

static void test_base_profile_of_arm64(void)
{
	struct kconfig *kc = NULL;
	struct strbuf names = STRBUF_INIT, list = STRBUF_INIT;

	check(harness_base("arm64") != NULL);
	check(harness_base("arm64") != harness_base("x86_64"));
	check_int(harness_config(&kc, &names, "arm64", NULL), ==, 0);
	check_str(names.buf, "arm64");
	check_str(kconfig_get(kc, "SERIAL_AMBA_PL011_CONSOLE"), "y");
	check_str(kconfig_get(kc, "VIRTIO_CONSOLE"), "y");
	check_str(kconfig_get(kc, "VIRTIO_MMIO"), "y");
	check_str(kconfig_get(kc, "ARM_PSCI_FW"), "y");
	/* none of x86's */
	check(kconfig_get(kc, "SERIAL_8250") == NULL);
	check(kconfig_get(kc, "ACPI") == NULL);
	/* x86's base is not arm64's profile */
	check(harness_find("x86_64", "arm64") == NULL);
	harness_list(&list, "arm64");
	check(starts_with(list.buf, "arm64, always ("));
	check(!strstr(list.buf, "x86_64"));
	kconfig_free(kc);
	strbuf_release(&names);
	strbuf_release(&list);
}

/* The ramdisk profile serves every arch. */
static void test_ramdisk_profile(void)
{
	const char *arches[] = { "x86_64", "arm64" };
	size_t i;

	for (i = 0; i < 2; i++) {
		struct kconfig *kc = NULL;
		struct strbuf names = STRBUF_INIT;
		struct strvec want = STRVEC_INIT;
		char *expect = xstrfmt("%s,ramdisk", arches[i]);

		strvec_push(&want, "ramdisk");
		check_int(harness_config(&kc, &names, arches[i], &want), ==, 0);
		check_str(names.buf, expect);
		check_str(kconfig_get(kc, "BLK_DEV_RAM"), "y");
		check_str(kconfig_get(kc, "BLK_DEV_RAM_SIZE"), "65536");
		kconfig_free(kc);
		strbuf_release(&names);
		strvec_clear(&want);
		free(expect);
	}
}

static void test_unknown_arch_and_profile_are_errors(void)
{
	struct kconfig *kc = NULL;
	struct strvec want = STRVEC_INIT;

	test_capture_start();
	check_int(harness_config(&kc, NULL, "sparc", NULL), ==, -1);
	check(kc == NULL);
	check(strstr(test_messages.buf, "cannot boot arch 'sparc'"));
	strvec_push(&want, "no-such-profile");
	check_int(harness_config(&kc, NULL, "x86_64", &want), ==, -1);
	check(kc == NULL);
	check(strstr(test_messages.buf, "no harness profile 'no-such-profile' for x86_64"));
	/* and it lists what there is */
	check(strstr(test_messages.buf, "x86_64, always ("));
	test_capture_stop();
	strvec_clear(&want);
}

static void test_naming_the_base_or_a_profile_twice_takes_it_once(void)
{
	struct kconfig *kc = NULL;
	struct strbuf names = STRBUF_INIT;
	struct strvec want = STRVEC_INIT;

	strvec_push(&want, "x86_64,x86_64");
	strvec_push(&want, "x86_64");
	check_int(harness_config(&kc, &names, "x86_64", &want), ==, 0);
	check_str(names.buf, "x86_64");
	kconfig_free(kc);
	strbuf_release(&names);
	strvec_clear(&want);
}

static void test_the_workload_brings_its_profile(void)
{
	const struct harness_profile *p = harness_find("libguestfs", "x86_64");
	struct strvec v = STRVEC_INIT;
	struct strbuf missing = STRBUF_INIT;
	struct kconfig *kc = NULL;

	/* which workload needs it: workload_spec_profiles(), test-workload-spec */
	check(p != NULL);
	strvec_push(&v, "libguestfs");

	/* The profile's own settings pass its check; one missing or =m does not. */
	check_int(harness_config(&kc, NULL, "x86_64", &v), ==, 0);
	check_int(harness_check(p, kc, &missing), ==, 1);
	check_str(missing.buf, "");
	check_int(kconfig_set(kc, "SCSI_VIRTIO", "n"), ==, 0);
	check_int(kconfig_set(kc, "EXT4_FS", "m"), ==, 0);
	check_int(harness_check(p, kc, &missing), ==, 0);
	check(strstr(missing.buf, "CONFIG_SCSI_VIRTIO is not set"));
	check(strstr(missing.buf, "CONFIG_EXT4_FS=m, not y"));
	kconfig_free(kc);
	strbuf_release(&missing);
	strvec_clear(&v);
}

/* A kconfig of "CONFIG_X=y" lines. */
static struct kconfig *config_of(const char *text)
{
	struct kconfig *kc = kconfig_new();

	if (kconfig_parse(kc, "test", text, strlen(text), 0))
		BUG("test config does not parse");
	return kc;
}

/* Where the fast boot applies, where it does not, and the options that decide. */
static void test_fast_boot_applies_unless_the_user_chose(void)
{
	struct strbuf why = STRBUF_INIT;
	struct strvec profiles = STRVEC_INIT;
	struct kconfig *distro = config_of("CONFIG_X86_64=y\nCONFIG_KERNEL_ZSTD=y\n");
	struct kconfig *plain = config_of("CONFIG_X86_64=y\n# CONFIG_KERNEL_XZ is not set\n");
	struct kconfig *add = config_of("CONFIG_KERNEL_GZIP=y\n");

	/* tinyconfig (a make target): taken */
	check_int(harness_fast_boot(&why, "x86_64", HARNESS_FAST_BOOT_AUTO, NULL, NULL, NULL), ==, 1);
	check_str(why.buf, "kconfperf's fast boot");
	/* a .config that names no compression is the kernel's default: taken */
	check_int(harness_fast_boot(&why, "x86_64", -1, plain, NULL, NULL), ==, 1);
	/* a distribution's .config names its own: kept */
	check_int(harness_fast_boot(&why, "x86_64", -1, distro, NULL, NULL), ==, 0);
	check_str(why.buf, "the baseline .config names its compression");
	check_int(harness_fast_boot(&why, "x86_64", -1, NULL, add, NULL), ==, 0);
	check_str(why.buf, "--base-add names the compression");
	/* libguestfs boots the kernel as it would ship */
	strvec_push(&profiles, "9p,libguestfs");
	check_int(harness_fast_boot(&why, "x86_64", -1, NULL, NULL, &profiles), ==, 0);
	check(strstr(why.buf, "libguestfs"));
	/* --fast-boot wins over all of them, --no-fast-boot over tinyconfig */
	check_int(harness_fast_boot(&why, "x86_64", HARNESS_FAST_BOOT_ON, distro, add, &profiles),
		  ==, 1);
	check_str(why.buf, "--fast-boot");
	check_int(harness_fast_boot(&why, "x86_64", HARNESS_FAST_BOOT_OFF, NULL, NULL, NULL), ==, 0);
	check_str(why.buf, "--no-fast-boot");
	/* --harness fast-boot is --fast-boot, unless --no-fast-boot says otherwise */
	strvec_clear(&profiles);
	strvec_push(&profiles, HARNESS_FAST_BOOT);
	check_int(harness_fast_boot(&why, "x86_64", -1, distro, NULL, &profiles), ==, 1);
	check_int(harness_fast_boot(&why, "x86_64", 0, NULL, NULL, &profiles), ==, 0);
	/* arm64 boots an uncompressed Image: nothing to take, even when asked */
	check_int(harness_fast_boot(&why, "arm64", HARNESS_FAST_BOOT_ON, NULL, NULL, NULL), ==, 0);
	check(harness_find(HARNESS_FAST_BOOT, "arm64") == NULL);
	kconfig_free(distro);
	kconfig_free(plain);
	kconfig_free(add);
	strvec_clear(&profiles);
	strbuf_release(&why);
}

/* The profile sets LZ4 and turns every other compression off, so the choice cannot keep XZ. */
static void test_fast_boot_profile_and_boot_text(void)
{
	struct strvec profiles = STRVEC_INIT;
	struct strbuf names = STRBUF_INIT, text = STRBUF_INIT;
	struct kconfig *kc = NULL, *tiny = config_of("CONFIG_KERNEL_XZ=y\n");
	const char *name, *value;
	size_t iter;

	strvec_push(&profiles, HARNESS_FAST_BOOT);
	check_int(harness_config(&kc, &names, "x86_64", &profiles), ==, 0);
	check_str(names.buf, "x86_64,fast-boot");
	check_str(kconfig_get(kc, "KERNEL_LZ4"), "y");
	check_str(kconfig_get(kc, "KERNEL_XZ"), "n");
	check_str(kconfig_get(kc, "KERNEL_GZIP"), "n");
	check_str(kconfig_get(kc, "KERNEL_ZSTD"), "n");
	check_str(harness_compression(kc), "LZ4");
	check_str(harness_compression(tiny), "XZ");
	check(harness_compression(NULL) == NULL);
	/* set over tinyconfig's XZ as the plan sets it, LZ4 wins */
	for (iter = 0; kconfig_next(kc, &iter, &name, &value);)
		check_int(kconfig_set(tiny, name, value), ==, 0);
	check_str(harness_compression(tiny), "LZ4");

	harness_boot_text(&text, "x86_64", 1, "kconfperf's fast boot", "XZ", "LZ4");
	check_str(text.buf, "bzImage, LZ4 (kconfperf's fast boot; the baseline's own: XZ)");
	strbuf_reset(&text);
	harness_boot_text(&text, "x86_64", 0, "--no-fast-boot", "XZ", "XZ");
	check_str(text.buf, "bzImage, XZ (--no-fast-boot)");
	strbuf_reset(&text);
	harness_boot_text(&text, "x86_64", 0, "the baseline .config names its compression", "zstd",
			  "zstd");
	check_str(text.buf, "bzImage, zstd (the baseline .config names its compression)");
	strbuf_reset(&text);
	harness_boot_text(&text, "arm64", 0, "arm64 boots an uncompressed image", NULL, NULL);
	check_str(text.buf, "Image, uncompressed");
	kconfig_free(kc);
	kconfig_free(tiny);
	strvec_clear(&profiles);
	strbuf_release(&names);
	strbuf_release(&text);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_base_profile_of_x86_64);
	TEST(test_base_profile_of_arm64);
	TEST(test_ramdisk_profile);
	TEST(test_unknown_arch_and_profile_are_errors);
	TEST(test_naming_the_base_or_a_profile_twice_takes_it_once);
	TEST(test_the_workload_brings_its_profile);
	TEST(test_fast_boot_applies_unless_the_user_chose);
	TEST(test_fast_boot_profile_and_boot_text);
	return test_done();
}
