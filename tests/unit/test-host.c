/* test-host.c: unit tests for the host facts stored with an experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/utsname.h>

#include "run/host.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

static void test_facts(void)
{
	struct host_facts f = HOST_FACTS_INIT;
	struct utsname un;

	host_facts_read(&f);
	check(!uname(&un));
	check_str(f.name, un.nodename);
	check(!strncmp(f.kernel, "Linux ", 6));
	check(strstr(f.kernel, un.release) != NULL);
	check(f.cpu_model != NULL);
	check_int(f.cpus, >=, 1);
	host_facts_release(&f);
	check(f.name == NULL);
}

static void test_missing_qemu_says_how_to_install(void)
{
	struct strbuf out = STRBUF_INIT;

	test_capture_start();
	check_int(host_qemu_version(&out, "/nonexistent/qemu-system-x86_64"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "cannot run '/nonexistent/qemu-system-x86_64'") != NULL);
	check(strstr(test_messages.buf, "install qemu-system-x86") != NULL);
	strbuf_release(&out);
}

static void test_version_is_the_first_line(void)
{
	struct strbuf out = STRBUF_INIT;

	/* GNU ls answers --version with several lines, like qemu */
	check_int(host_qemu_version(&out, "ls"), ==, 0);
	check(!strncmp(out.buf, "ls (GNU coreutils) ", 19));
	check(!strchr(out.buf, '\n'));
	strbuf_release(&out);
}

/* A firmware image with its version string among others; arm64 has none. */
static void test_firmware(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = xstrfmt("%s/fw", test_tmpdir()), *path;
	static const char image[] = "\x7f\x01SeaBIOS (version %s)\0x1.2\0abc\0"
				    "1.16.2-debian-1.16.2-1\0\xff";
	FILE *fp;

	host_firmware(&sb, "arm64", NULL);
	check_str(sb.buf, "none: qemu loads the kernel itself");
	strbuf_reset(&sb);
	check_int(mkdir(dir, 0755), ==, 0);
	path = xstrfmt("%s/bios-256k.bin", dir);
	fp = fopen(path, "w");
	fwrite(image, 1, sizeof(image) - 1, fp);
	fclose(fp);
	host_firmware(&sb, "x86_64", dir);
	check(!strncmp(sb.buf, "SeaBIOS 1.16.2-debian-1.16.2-1 (", 32));
	strbuf_reset(&sb);
	host_firmware(&sb, "x86_64", "/nonexistent");
	check_str(sb.buf, "SeaBIOS");
	strbuf_release(&sb);
	free(path);
	free(dir);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_facts);
	TEST(test_missing_qemu_says_how_to_install);
	TEST(test_version_is_the_first_line);
	TEST(test_firmware);
	return test_done();
}
