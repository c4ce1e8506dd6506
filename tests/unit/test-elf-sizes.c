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

/*
 * The symbols' sizes against nm(1)'s (as the kernel's bloat-o-meter reads
 * them): functions, weak symbols and read-only objects are text,
 * initialised objects data, the rest of the loaded ones bss.
 */
static void test_symbols_match_nm(void)
{
	struct elf_sizes s;
	long long text, data, bss;
	char line[512];
	FILE *fp;

	check_int(elf_sizes_read(&s, "/proc/self/exe"), ==, 0);
	check(s.sym_text > 4096);
	check(s.sym_text < s.text);
	fp = popen("nm --size -t d /proc/$PPID/exe 2>/dev/null | awk '"
		   "$2 ~ /^[tTrRwW]$/ { t += $1 } $2 ~ /^[dDvV]$/ { d += $1 } "
		   "$2 ~ /^[bB]$/ { b += $1 } END { if (NR) print t + 0, d + 0, b + 0 }'", "r");
	if (!fp || !fgets(line, sizeof(line), fp) ||
	    sscanf(line, "%lld %lld %lld", &text, &data, &bss) != 3) {
		if (fp)
			pclose(fp);
		test_skip("no nm(1) (binutils)");
		return;
	}
	pclose(fp);
	check_int(s.sym_text, ==, text);
	check_int(s.sym_data, ==, data);
	check_int(s.sym_bss, ==, bss);
}

/* A stripped file has sections but no symbols: the sym_ sizes are unknown, not 0. */
static void test_stripped_has_no_symbol_sizes(void)
{
	char *path = xstrfmt("%s/stripped", test_tmpdir());
	char *cmd = xstrfmt("strip -o '%s' /proc/$PPID/exe 2>/dev/null", path);
	struct elf_sizes s;

	if (system(cmd)) {
		test_skip("no strip(1) (binutils)");
	} else {
		check_int(elf_sizes_read(&s, path), ==, 0);
		check(s.text > 4096);
		check_int(s.sym_text, ==, -1);
		check_int(s.sym_bss, ==, -1);
	}
	free(cmd);
	free(path);
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
	TEST(test_symbols_match_nm);
	TEST(test_stripped_has_no_symbol_sizes);
	TEST(test_not_elf_is_said_quietly);
	return test_done();
}
