/* test-slim.c: unit tests for --slim, every module off but the ones named. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "kconfig/kconfig.h"
#include "plan/slim.h"
#include "test-lib.h"
#include "util/strvec.h"

static void test_modules_off_but_the_kept_ones(void)
{
	static const char text[] =
		"CONFIG_MODULES=y\n"
		"CONFIG_EXT4_FS=m\n"
		"CONFIG_DRM_NOUVEAU=m\n"
		"CONFIG_TEST_LOCKUP=m\n"
		"CONFIG_SCSI_VIRTIO=m\n"
		"CONFIG_PRINTK=y\n"
		"# CONFIG_FOO is not set\n"
		"CONFIG_LOG_BUF_SHIFT=17\n";
	struct kconfig *kc = kconfig_new();
	struct strvec keep = STRVEC_INIT, removed = STRVEC_INIT;

	check_int(kconfig_parse(kc, "t", text, strlen(text), 0), ==, 0);
	strvec_push(&keep, "TEST_LOCKUP");	/* a candidate option */
	strvec_push(&keep, "SCSI_VIRTIO");	/* a harness symbol */
	check_int(slim_modules(kc, &keep, &removed), ==, 2);
	check_int(removed.nr, ==, 2);
	check_str(removed.v[0], "EXT4_FS");
	check_str(removed.v[1], "DRM_NOUVEAU");
	check_str(kconfig_get(kc, "EXT4_FS"), "n");
	check_str(kconfig_get(kc, "DRM_NOUVEAU"), "n");
	check_str(kconfig_get(kc, "TEST_LOCKUP"), "m");
	check_str(kconfig_get(kc, "SCSI_VIRTIO"), "m");
	check_str(kconfig_get(kc, "MODULES"), "y");
	check_str(kconfig_get(kc, "PRINTK"), "y");
	check_str(kconfig_get(kc, "LOG_BUF_SHIFT"), "17");
	/* Again: nothing left to turn off. */
	check_int(slim_modules(kc, &keep, &removed), ==, 0);
	check_int(removed.nr, ==, 2);
	kconfig_free(kc);
	strvec_clear(&keep);
	strvec_clear(&removed);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_modules_off_but_the_kept_ones);
	return test_done();
}
