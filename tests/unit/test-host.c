/* test-host.c: unit tests for the host facts stored with an experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>
#include <sys/utsname.h>

#include "run/host.h"
#include "test-lib.h"
#include "util/strbuf.h"

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

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_facts);
	TEST(test_missing_qemu_says_how_to_install);
	TEST(test_version_is_the_first_line);
	return test_done();
}
