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
#include "util/write-file.h"

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

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * x86_64's exception table: an executable assembled with an __ex_table
 * of kernel-style entries (int insn, fixup, data, each relative to
 * itself) gives the instructions' addresses, as nm(1) has their labels.
 */
static void test_extable_matches_nm(void)
{
	static const char src[] =
		".text\n.globl _start\n_start: nop\n"
		".globl at_rep\nat_rep: rep movsb\n.globl at_ret\nat_ret: ret\n"
		".section __ex_table,\"a\"\n.balign 4\n"
		".long at_ret - .\n.long at_rep - .\n.long 0\n"
		".long at_rep - .\n.long at_ret - .\n.long 0\n"
		".long at_rep - .\n.long at_ret - .\n.long 0\n"
		".section .bad_table,\"a\"\n.long 0\n";
	char *dir = test_tmpdir(), *s = xstrfmt("%s/ex.S", dir), *exe = xstrfmt("%s/ex", dir);
	char *out = xstrfmt("%s/extable", dir), *bad = xstrfmt("%s/ex-bad", dir);
	char *cc = xstrfmt("cc -nostdlib -static -no-pie -o '%s' '%s' 2>&1 && "
			   "objcopy --remove-section __ex_table --rename-section .bad_table=__ex_table "
			   "'%s' '%s' 2>&1", exe, s, exe, bad);
	char *nm = xstrfmt("nm '%s' | awk '$3 == \"at_rep\" || $3 == \"at_ret\" { print $1 }' | "
			   "sort | sed 's/^0*//'", exe);
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	FILE *fp;
	char line[128];

	write_file(s, src, strlen(src));
	if (system(cc)) {
		test_skip("no cc, as or objcopy to make an __ex_table");
		goto out;
	}
	fp = popen(nm, "r");
	strbuf_addstr(&want, "kcp-extable 1\n");
	while (fp && fgets(line, sizeof(line), fp))
		strbuf_addstr(&want, line);
	if (fp)
		pclose(fp);
	check_int(elf_extable_write(exe, out), ==, 0);
	check(strbuf_read_file(&got, out, 0) > 0);
	check_str(got.buf, want.buf);
	check_int(count_lines(got.buf), ==, 3);	/* the header, and two addresses: once each */
	/* a table that is not of whole entries, a file without one, and not x86_64 */
	test_capture_start();
	check_int(elf_extable_write(bad, out), ==, -1);
	check_int(elf_extable_write("/proc/self/exe", out), ==, 1);
	test_capture_stop();
	check(strstr(test_messages.buf, "an __ex_table of 4 bytes, not of 12-byte entries") != NULL);
out:
	strbuf_release(&want);
	strbuf_release(&got);
	free(s);
	free(exe);
	free(out);
	free(bad);
	free(cc);
	free(nm);
}


int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_sizes_match_size_1);
	TEST(test_symbols_match_nm);
	TEST(test_stripped_has_no_symbol_sizes);
	TEST(test_not_elf_is_said_quietly);
	TEST(test_extable_matches_nm);
	return test_done();
}
