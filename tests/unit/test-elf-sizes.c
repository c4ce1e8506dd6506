/* test-elf-sizes.c: unit tests for text, data and bss of an ELF file. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild/elf-sizes.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* This test program's own sizes, against size(1)'s when binutils is installed. */
static void test_sizes_match_size_1(void)
{
	struct elf_sizes s;
	long long text, data, bss;
	char line[512];
	FILE *fp;

	check_int(elf_sizes_read(&s, "/proc/self/exe"), ==, 0);
	check(s.text > 4096);
	check(s.data > 0);
	check(s.bss > 0);
	fp = popen("size -B /proc/$PPID/exe 2>/dev/null | tail -n 1", "r");
	if (!fp || !fgets(line, sizeof(line), fp) ||
	    sscanf(line, "%lld %lld %lld", &text, &data, &bss) != 3) {
		if (fp)
			pclose(fp);
		test_skip("no size(1) (binutils)");
		return;
	}
	pclose(fp);
	check_int(s.text, ==, text);
	check_int(s.data, ==, data);
	check_int(s.bss, ==, bss);
}

static void test_not_elf_is_said_quietly(void)
{
	char *path = xstrfmt("%s/vmlinux", test_tmpdir());
	struct elf_sizes s;
	FILE *fp = fopen(path, "w");

	fputs("fake vmlinux\nCONFIG_X=y\n", fp);
	fclose(fp);
	test_capture_start();
	check_int(elf_sizes_read(&s, path), ==, 1);
	check_int(s.text, ==, -1);
	check_int(elf_sizes_read(&s, "/nonexistent/vmlinux"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "cannot open '/nonexistent/vmlinux'") != NULL);
	free(path);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_sizes_match_size_1);
	TEST(test_not_elf_is_said_quietly);
	return test_done();
}
