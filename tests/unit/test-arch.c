/* test-arch.c: unit tests for the arch table: make variables, compilers, guests, .config and ELF checks. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig.h"
#include "plan/arch.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

static void test_find_and_list(void)
{
	struct strbuf sb = STRBUF_INIT;

	check(arch_find("x86_64") != NULL);
	check_str(arch_find("x86_64")->srcarch, "x86");
	check_str(arch_find("x86_64")->image, "bzImage");
	check_str(arch_find("arm64")->srcarch, "arm64");
	check_str(arch_find("arm64")->image, "Image");
	check(arch_find("aarch64") == NULL);
	check(arch_find("sparc") == NULL);
	arch_list(&sb);
	check_str(sb.buf, "x86_64, arm64");
	strbuf_release(&sb);
}

/* The host's arch builds as it always did; another gets ARCH= and CROSS_COMPILE=. */
static void test_make_vars_and_compiler(void)
{
	const struct arch *host = arch_host(), *other;
	struct strvec v = STRVEC_INIT;
	char *cc;

	if (!host) {
		test_skip("kconfperf runs on an arch of its own table only here");
		return;
	}
	other = arch_find(strcmp(host->name, "arm64") ? "arm64" : "x86_64");
	check(arch_cross_compile(host, NULL) == NULL);
	arch_make_vars(&v, host, arch_cross_compile(host, NULL));
	check_int(v.nr, ==, 0);
	cc = arch_compiler(NULL, NULL);
	check_str(cc, "gcc");
	free(cc);

	check_str(arch_cross_compile(other, NULL), other->cross_compile);
	arch_make_vars(&v, other, arch_cross_compile(other, NULL));
	check_int(v.nr, ==, 2);
	check(starts_with(v.v[0], "ARCH="));
	check(starts_with(v.v[1], "CROSS_COMPILE="));
	strvec_clear(&v);

	/* --cross-compile wins, for any arch */
	check_str(arch_cross_compile(arch_find("arm64"), "aarch64-none-linux-gnu-"),
		  "aarch64-none-linux-gnu-");
	arch_make_vars(&v, arch_find("arm64"), "aarch64-none-linux-gnu-");
	check_str(v.v[0], "ARCH=arm64");
	check_str(v.v[1], "CROSS_COMPILE=aarch64-none-linux-gnu-");
	strvec_clear(&v);
	cc = arch_compiler("aarch64-linux-gnu-", NULL);
	check_str(cc, "aarch64-linux-gnu-gcc");
	free(cc);
	cc = arch_compiler("aarch64-linux-gnu-", "clang");
	check_str(cc, "clang");
	free(cc);

	cc = arch_guest_name(host);
	check_str(cc, "kcp-guest");
	free(cc);
	cc = arch_guest_name(other);
	check(starts_with(cc, "kcp-guest-"));
	check_str(cc + 10, other->name);
	free(cc);
}

static void test_missing_cross_compiler_is_an_error(void)
{
	test_capture_start();
	check_int(arch_check_compiler(arch_find("arm64"), "no-such-prefix-"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "'no-such-prefix-gcc'"));
	check(strstr(test_messages.buf, "cannot be run"));
	/* a native build has nothing to check */
	check_int(arch_check_compiler(arch_find("arm64"), NULL), ==, 0);
}

/* Without the default cross compiler, the message says which package has it. */
static void test_missing_default_cross_compiler_names_the_package(void)
{
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");

	setenv("PATH", test_tmpdir(), 1);
	test_capture_start();
	check_int(arch_check_compiler(arch_find("arm64"), "aarch64-linux-gnu-"), ==, -1);
	test_capture_stop();
	setenv("PATH", path, 1);
	free(path);
	check(strstr(test_messages.buf, "arm64 kernels are built with 'aarch64-linux-gnu-gcc', "
			 "which cannot be run: install gcc-aarch64-linux-gnu"));
}

static void test_arch_of_config(void)
{
	struct kconfig *kc = kconfig_new();

	check(arch_of_config(kc) == NULL);
	check_int(kconfig_set(kc, "ARM64", "y"), ==, 0);
	check_str(arch_of_config(kc)->name, "arm64");
	kconfig_free(kc);
	kc = kconfig_new();
	check_int(kconfig_set(kc, "X86_64", "y"), ==, 0);
	check_str(arch_of_config(kc)->name, "x86_64");
	kconfig_free(kc);
	/* a 32-bit x86 config is none of ours */
	kc = kconfig_new();
	check_int(kconfig_set(kc, "X86_32", "y"), ==, 0);
	check(arch_of_config(kc) == NULL);
	kconfig_free(kc);
}

static void write_bytes(const char *path, const unsigned char *b, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, b, n);
	check_int(strbuf_write_file(&sb, path), ==, 0);
	strbuf_release(&sb);
}

static void test_elf_machine(void)
{
	/* ELF header up to e_machine: x86-64 is 62 (0x3e), AArch64 183 (0xb7). */
	unsigned char elf[20] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
	char *path = xstrfmt("%s/prog", test_tmpdir());

	elf[16] = 2;	/* ET_EXEC */
	elf[18] = 0xb7;
	write_bytes(path, elf, sizeof(elf));
	check_int(arch_check_elf(arch_find("arm64"), path, "the guest"), ==, 0);
	test_capture_start();
	check_int(arch_check_elf(arch_find("x86_64"), path, "the guest"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "is a program for arm64, not x86_64"));

	elf[18] = 0x3e;
	write_bytes(path, elf, sizeof(elf));
	check_int(arch_check_elf(arch_find("x86_64"), path, "the guest"), ==, 0);
	test_capture_start();
	check_int(arch_check_elf(arch_find("arm64"), path, "--workload-exec"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "--workload-exec '"));
	check(strstr(test_messages.buf, "is a program for x86_64, not arm64"));

	elf[18] = 0x28;	/* 32-bit ARM: not one of the table's */
	write_bytes(path, elf, sizeof(elf));
	test_capture_start();
	check_int(arch_check_elf(arch_find("arm64"), path, "the guest"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "not a program for arm64 (ELF machine 40)"));

	/* not ELF (a script): left to the caller */
	write_bytes(path, (const unsigned char *)"#!/bin/sh\nexit 0\n", 17);
	check_int(arch_check_elf(arch_find("arm64"), path, "the guest"), ==, 0);
	free(path);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_find_and_list);
	TEST(test_make_vars_and_compiler);
	TEST(test_missing_cross_compiler_is_an_error);
	TEST(test_missing_default_cross_compiler_names_the_package);
	TEST(test_arch_of_config);
	TEST(test_elf_machine);
	return test_done();
}
