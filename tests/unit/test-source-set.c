/* test-source-set.c: unit tests for an experiment's sources: labels, and patched sources on fake trees. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan/source-set.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"
#include "test-lib.h"

static void put(const char *dir, const char *rel, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, rel), *slash;
	struct strbuf sb = STRBUF_INIT;

	slash = strrchr(path, '/');
	*slash = '\0';
	mkdir_p(path, 0755);
	*slash = '/';
	strbuf_addstr(&sb, text);
	check_int(strbuf_write_file(&sb, path), ==, 0);
	strbuf_release(&sb);
	free(path);
}

/* A directory that passes for a kernel tree of version v.p.s. */
static char *fake_tree(const char *name, int v, int p, int s)
{
	char *dir = xstrfmt("%s/%s", test_tmpdir(), name);
	char *makefile = xstrfmt("VERSION = %d\nPATCHLEVEL = %d\nSUBLEVEL = %d\nEXTRAVERSION =\n",
				 v, p, s);

	put(dir, "Makefile", makefile);
	put(dir, "Kconfig", "mainmenu \"Linux\"\n");
	put(dir, "scripts/kconfig/Makefile", "\n");
	put(dir, "arch/x86/Kconfig", "config X86\n\tdef_bool y\n");
	put(dir, "kernel/locking/Makefile", "obj-y += mutex.o\n");
	free(makefile);
	return dir;
}

static char *read_text(const char *dir, const char *rel)
{
	char *path = xstrfmt("%s/%s", dir, rel);
	struct strbuf sb = STRBUF_INIT;

	strbuf_read_file(&sb, path, 0);
	free(path);
	return strbuf_detach(&sb, NULL);
}

static void test_labels(void)
{
	check(source_label_valid("6.1"));
	check(source_label_valid("6.1+lockdep-kasan"));
	check(source_label_valid("old_2"));
	check(!source_label_valid(""));
	check(!source_label_valid("-x"));
	check(!source_label_valid("a:b"));
	check(!source_label_valid("a=b"));
	check(!source_label_valid("a/b"));
}

static void test_arg_split(void)
{
	char *label, *name;
	const char *path;

	source_arg_split("old=/usr/src/x.tar.xz", &label, &path);
	check_str(label, "old");
	check_str(path, "/usr/src/x.tar.xz");
	free(label);
	source_arg_split("/usr/src/x.tar.xz", &label, &path);
	check(label == NULL);
	check_str(path, "/usr/src/x.tar.xz");
	/* Not a label before '=': all of it is the path. */
	source_arg_split("/a=b/x.tar.xz", &label, &path);
	check(label == NULL);
	check_str(path, "/a=b/x.tar.xz");
	name = source_variant_name("6.12", "baseline");
	check_str(name, "6.12:baseline");
	free(name);
	name = source_variant_name("", "baseline");
	check_str(name, "baseline");
	free(name);
}

static void test_version_labels(void)
{
	struct source_set s = SOURCE_SET_INIT;
	struct strvec srcs = STRVEC_INIT, patches = STRVEC_INIT;
	char *cache = xstrfmt("%s/cache", test_tmpdir());
	char *a = fake_tree("v61", 6, 1, 192), *b = fake_tree("v612", 6, 12, 117);
	char *c = fake_tree("v61b", 6, 1, 58), *named;

	/* A lone source keeps plain names. */
	strvec_push(&srcs, a);
	check_int(source_set_open(&s, &srcs, &patches, cache), ==, 0);
	if (check_int(s.nr, ==, 1))
		check_str(s.v[0].label, "");
	source_set_release(&s);

	strvec_push(&srcs, b);
	check_int(source_set_open(&s, &srcs, &patches, cache), ==, 0);
	if (check_int(s.nr, ==, 2)) {
		check_str(s.v[0].label, "6.1");
		check_str(s.v[1].label, "6.12");
		check_str(s.v[1].ks.version, "6.12.117");
	}
	source_set_release(&s);

	/* Two 6.1 sources: their full versions tell them apart. */
	strvec_push(&srcs, c);
	check_int(source_set_open(&s, &srcs, &patches, cache), ==, 0);
	if (check_int(s.nr, ==, 3)) {
		check_str(s.v[0].label, "6.1.192");
		check_str(s.v[1].label, "6.12");
		check_str(s.v[2].label, "6.1.58");
	}
	source_set_release(&s);

	/* The same tree twice is refused; the same version twice needs names. */
	strvec_clear(&srcs);
	strvec_push(&srcs, a);
	strvec_push(&srcs, a);
	test_capture_start();
	check_int(source_set_open(&s, &srcs, &patches, cache), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "two sources are both kernel 6.1.192: name them"));
	strvec_clear(&srcs);
	named = xstrfmt("one=%s", a);
	strvec_push(&srcs, named);
	free(named);
	named = xstrfmt("two=%s", a);
	strvec_push(&srcs, named);
	free(named);
	test_capture_start();
	check_int(source_set_open(&s, &srcs, &patches, cache), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "are the same source"));

	strvec_clear(&srcs);
	strvec_clear(&patches);
	free(a);
	free(b);
	free(c);
	free(cache);
}

static int have_patch(void)
{
	return !access("/usr/bin/patch", X_OK) || !access("/bin/patch", X_OK);
}

static void test_patched_source(void)
{
	struct source_set s = SOURCE_SET_INIT, again = SOURCE_SET_INIT;
	struct strvec srcs = STRVEC_INIT, patches = STRVEC_INIT;
	char *cache = xstrfmt("%s/cache", test_tmpdir());
	char *a = fake_tree("base", 6, 1, 192), *patch, *text;
	struct stat st_base, st_copy;

	if (!have_patch()) {
		test_skip("no patch(1) (Debian's package patch)");
		goto out;
	}
	put(test_tmpdir(), "lockdep-kasan.patch",
	    "--- a/kernel/locking/Makefile\n+++ b/kernel/locking/Makefile\n"
	    "@@ -1 +1,2 @@\n obj-y += mutex.o\n+KASAN_SANITIZE_lockdep.o := n\n");
	patch = xstrfmt("%s/lockdep-kasan.patch", test_tmpdir());
	strvec_push(&srcs, a);
	strvec_push(&patches, patch);
	if (!check_int(source_set_open(&s, &srcs, &patches, cache), ==, 0) ||
	    !check_int(s.nr, ==, 2))
		goto out;
	check_str(s.v[0].label, "6.1");
	check_str(s.v[1].label, "6.1+lockdep-kasan");
	check_int(s.v[1].base, ==, 0);
	check(starts_with(s.v[1].ks.id, "patch:"));
	check_str(s.v[1].ks.base_id, s.v[0].ks.id);
	check_int(s.v[1].ks.patched.nr, ==, 1);
	check_str(s.v[1].ks.patched.v[0], "kernel/locking/Makefile");
	/* The copy is patched, the base is not ... */
	text = read_text(s.v[1].ks.tree, "kernel/locking/Makefile");
	check(strstr(text, "KASAN_SANITIZE_lockdep.o := n"));
	free(text);
	text = read_text(a, "kernel/locking/Makefile");
	check(!strstr(text, "KASAN"));
	free(text);
	/* ... and shares the files the patch leaves alone. */
	{
		char *p1 = xstrfmt("%s/Kconfig", a), *p2 = xstrfmt("%s/Kconfig", s.v[1].ks.tree);

		check(!stat(p1, &st_base) && !stat(p2, &st_copy));
		check(st_base.st_ino == st_copy.st_ino);
		free(p1);
		free(p2);
	}
	/* The same patch again finds the same tree. */
	check_int(source_set_open(&again, &srcs, &patches, cache), ==, 0);
	if (check_int(again.nr, ==, 2)) {
		check_str(again.v[1].ks.id, s.v[1].ks.id);
		check_str(again.v[1].ks.tree, s.v[1].ks.tree);
	}
	source_set_release(&again);
	source_set_release(&s);

	/* A patch that does not apply stops everything, naming its hunk. */
	put(test_tmpdir(), "stale.patch",
	    "--- a/kernel/locking/Makefile\n+++ b/kernel/locking/Makefile\n"
	    "@@ -1 +1,2 @@\n obj-y += spinlock.o\n+x\n");
	strvec_clear(&patches);
	free(patch);
	patch = xstrfmt("%s/stale.patch", test_tmpdir());
	strvec_push(&patches, patch);
	test_capture_start();
	check_int(source_set_open(&s, &srcs, &patches, cache), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "stale.patch:3: hunk #1 of kernel/locking/Makefile does "
		     "not apply to 6.1.192"));
	free(patch);
out:
	strvec_clear(&srcs);
	strvec_clear(&patches);
	free(a);
	free(cache);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_labels);
	TEST(test_arg_split);
	TEST(test_version_labels);
	TEST(test_patched_source);
	return test_done();
}
