/* test-patch.c: unit tests for patches: parsing unified diffs, and applying them with patch(1). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/patch.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"
#include "test-lib.h"

static char *write_tmp(const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", test_tmpdir(), name);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, text);
	if (strbuf_write_file(&sb, path))
		check(!"wrote the test file");
	strbuf_release(&sb);
	return path;
}

/* A git diff: two files, three hunks, a rename; "--- " inside a hunk is a removed line. */
static const char git_patch[] =
	"From 1234 Mon Sep 17 00:00:00 2001\n"
	"Subject: [PATCH] locking: no KASAN for lockdep\n"
	"\n"
	"---\n"
	" kernel/locking/Makefile | 1 +\n"
	"\n"
	"diff --git a/kernel/locking/Makefile b/kernel/locking/Makefile\n"
	"index 0db4093d17b8..b2e8f8f1b5c4 100644\n"
	"--- a/kernel/locking/Makefile\n"
	"+++ b/kernel/locking/Makefile\n"
	"@@ -3,6 +3,7 @@\n"
	" # and is generally not a function of system call inputs.\n"
	" KCOV_INSTRUMENT\t\t:= n\n"
	" \n"
	"+KASAN_SANITIZE_lockdep.o := n\n"
	" obj-y += mutex.o semaphore.o rwsem.o percpu-rwsem.o\n"
	"\n"			/* a context line whose space was stripped */
	" # Avoid recursion lockdep -> sanitizer -> ... -> lockdep.\n"
	"@@ -20 +21 @@ endif\n"
	"--- removed, though it looks like a header\n"
	"+++ added\n"
	"diff --git a/old/name.c b/new/name.c\n"
	"similarity index 100%\n"
	"rename from old/name.c\n"
	"rename to new/name.c\n"
	"diff --git a/kernel/fork.c b/kernel/fork.c\n"
	"--- a/kernel/fork.c\n"
	"+++ b/kernel/fork.c\n"
	"@@ -1,2 +1,2 @@\n"
	"-a\n"
	"+b\n"
	" c\n"
	"\\ No newline at end of file\n"
	"-- \n"
	"2.39.5\n";

static void test_read_git_diff(void)
{
	struct kernel_patch p = KERNEL_PATCH_INIT;
	char *path = write_tmp("git.patch", git_patch);

	if (!check_int(kernel_patch_read(&p, path), ==, 0))
		goto out;
	check_int(p.files.nr, ==, 4);
	check_str(p.files.v[0], "kernel/locking/Makefile");
	check_str(p.files.v[1], "old/name.c");
	check_str(p.files.v[2], "new/name.c");
	check_str(p.files.v[3], "kernel/fork.c");
	check_int(p.nr_hunks, ==, 3);
	check_int(p.hunks[0].line, ==, 11);
	check_int(p.hunks[0].number, ==, 1);
	check_int(p.hunks[1].line, ==, 19);
	check_int(p.hunks[1].number, ==, 2);
	check_int(p.hunks[1].file, ==, 0);
	check_int(p.hunks[2].line, ==, 29);
	check_int(p.hunks[2].number, ==, 1);
	check_int(p.hunks[2].file, ==, 3);
	check_int(strlen(p.hash), ==, 64);
out:
	kernel_patch_release(&p);
	free(path);
}

/* diff -u: dates after a tab, a new file from /dev/null. */
static void test_read_diff_u(void)
{
	struct kernel_patch p = KERNEL_PATCH_INIT;
	char *path = write_tmp("u.patch",
		"--- linux.orig/kernel/x.c\t2024-01-01 00:00:00.000000000 +0000\n"
		"+++ linux/kernel/x.c\t2024-01-02 00:00:00.000000000 +0000\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n"
		"--- /dev/null\t1970-01-01 00:00:00.000000000 +0000\n"
		"+++ linux/kernel/new.c\t2024-01-02 00:00:00.000000000 +0000\n"
		"@@ -0,0 +1,2 @@\n"
		"+x\n"
		"+y\n");

	if (check_int(kernel_patch_read(&p, path), ==, 0)) {
		check_int(p.files.nr, ==, 2);
		check_str(p.files.v[0], "kernel/x.c");
		check_str(p.files.v[1], "kernel/new.c");
		check_int(p.nr_hunks, ==, 2);
		check_int(p.hunks[1].line, ==, 8);
	}
	kernel_patch_release(&p);
	free(path);
}

static void read_fails(const char *name, const char *text, const char *want)
{
	struct kernel_patch p = KERNEL_PATCH_INIT;
	char *path = write_tmp(name, text);

	test_capture_start();
	check_int(kernel_patch_read(&p, path), ==, -1);
	test_capture_stop();
	if (!check(strstr(test_messages.buf, want)))
		fprintf(stderr, "#   wanted '%s' in: %s", want, test_messages.buf);
	kernel_patch_release(&p);
	free(path);
}

static void test_read_errors(void)
{
	read_fails("none.patch", "just some text\n", "is not a unified diff");
	read_fails("hdr.patch", "--- a/x.c\n+++ b/x.c\n@@ -1,x +1 @@\n", "hdr.patch:3: a hunk header");
	read_fails("short.patch", "--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@\n a\n",
		   "short.patch: ends inside the hunk at line 3");
	read_fails("early.patch", "--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@\n a\nxx\n",
		   "early.patch:5: the hunk at line 3 ends early");
	read_fails("bin.patch", "diff --git a/x b/x\nGIT binary patch\nliteral 1\n",
		   "bin.patch:2: binary patches are not supported");
	read_fails("up.patch", "--- a/../x.c\n+++ b/../x.c\n@@ -1 +1 @@\n-a\n+b\n",
		   "up.patch:1: 'a/../x.c' is outside the kernel tree");
	read_fails("p0.patch", "--- x.c\n+++ x.c\n@@ -1 +1 @@\n-a\n+b\n",
		   "'x.c' has no leading directory to drop");
	read_fails("orphan.patch", "@@ -1 +1 @@\n-a\n+b\n", "a hunk before any");
	read_fails("missing.patch", "", "missing.patch");
}

static int have_patch(void)
{
	return !access("/usr/bin/patch", X_OK) || !access("/bin/patch", X_OK);
}

/* A tree with kernel/x.c of ten numbered lines. */
static char *make_tree(const char *name)
{
	char *dir = xstrfmt("%s/%s", test_tmpdir(), name), *file;
	struct strbuf sb = STRBUF_INIT;
	int i;

	file = xstrfmt("%s/kernel", dir);
	mkdir_p(file, 0755);
	free(file);
	for (i = 1; i <= 10; i++)
		strbuf_addf(&sb, "line %d\n", i);
	file = xstrfmt("%s/kernel/x.c", dir);
	strbuf_write_file(&sb, file);
	free(file);
	strbuf_release(&sb);
	return dir;
}

static void test_apply(void)
{
	struct kernel_patch p = KERNEL_PATCH_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *tree, *path, *file;

	if (!have_patch()) {
		test_skip("no patch(1) (Debian's package patch)");
		return;
	}
	tree = make_tree("apply");
	path = write_tmp("ok.patch",
		"--- a/kernel/x.c\n+++ b/kernel/x.c\n"
		"@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n");
	check_int(kernel_patch_read(&p, path), ==, 0);
	check_int(kernel_patch_apply(&p, tree, "6.1.192", 1), ==, 0);
	file = xstrfmt("%s/kernel/x.c", tree);
	strbuf_read_file(&sb, file, 0);
	check(!strstr(sb.buf, "three"));	/* a dry run changes nothing */
	check_int(kernel_patch_apply(&p, tree, "6.1.192", 0), ==, 0);
	strbuf_reset(&sb);
	strbuf_read_file(&sb, file, 0);
	check(strstr(sb.buf, "line three\n"));
	/* Applied again: already applied, with the file named. */
	test_capture_start();
	check_int(kernel_patch_apply(&p, tree, "6.1.192", 1), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "ok.patch:3: kernel/x.c in 6.1.192 already looks patched"));
	kernel_patch_release(&p);
	strbuf_release(&sb);
	free(file);
	free(path);
	free(tree);
}

static void test_apply_failures(void)
{
	struct kernel_patch p = KERNEL_PATCH_INIT;
	char *tree, *path;

	if (!have_patch()) {
		test_skip("no patch(1) (Debian's package patch)");
		return;
	}
	tree = make_tree("fail");
	/* The second hunk's context is not in the tree. */
	path = write_tmp("bad.patch",
		"--- a/kernel/x.c\n+++ b/kernel/x.c\n"
		"@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n"
		"@@ -7,3 +7,3 @@\n line 7\n-line EIGHT\n+line 8\n line 9\n");
	check_int(kernel_patch_read(&p, path), ==, 0);
	test_capture_start();
	check_int(kernel_patch_apply(&p, tree, "6.12.117", 1), ==, -1);
	test_capture_stop();
	if (!check(strstr(test_messages.buf, "bad.patch:8: hunk #2 of kernel/x.c does not apply "
				 "to 6.12.117 (patch: Hunk #2 FAILED at 7.)")))
		fprintf(stderr, "#   %s", test_messages.buf);
	kernel_patch_release(&p);
	free(path);

	/* Context that matches only with fuzz: refused (--fuzz=0). */
	path = write_tmp("fuzz.patch",
		"--- a/kernel/x.c\n+++ b/kernel/x.c\n"
		"@@ -2,3 +2,3 @@\n line TWO\n-line 3\n+line three\n line 4\n");
	check_int(kernel_patch_read(&p, path), ==, 0);
	test_capture_start();
	check_int(kernel_patch_apply(&p, tree, "6.12.117", 1), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "fuzz.patch:3: hunk #1 of kernel/x.c does not apply"));
	kernel_patch_release(&p);
	free(path);

	/* A file the tree lacks. */
	path = write_tmp("nofile.patch",
		"--- a/kernel/x.c\n+++ b/kernel/x.c\n"
		"@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n"
		"--- a/kernel/gone.c\n+++ b/kernel/gone.c\n@@ -1 +1 @@\n-a\n+b\n");
	check_int(kernel_patch_read(&p, path), ==, 0);
	test_capture_start();
	check_int(kernel_patch_apply(&p, tree, "6.12.117", 1), ==, -1);
	test_capture_stop();
	if (!check(strstr(test_messages.buf, "nofile.patch:10: kernel/gone.c is not in 6.12.117")))
		fprintf(stderr, "#   %s", test_messages.buf);
	kernel_patch_release(&p);
	free(path);
	free(tree);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_read_git_diff);
	TEST(test_read_diff_u);
	TEST(test_read_errors);
	TEST(test_apply);
	TEST(test_apply_failures);
	return test_done();
}
