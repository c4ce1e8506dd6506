/* test-kbuild.c: unit tests for the build cache: key, layout, and kbuild_build() on a fake kernel tree. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include "kbuild/kbuild.h"
#include "kbuild/objtree-move.h"
#include "plan/kernel-source.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

static void test_key_depends_on_every_input(void)
{
	struct kernel_source ks = { .id = (char *)"tar:abc" };
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	char k1[SHA256_HEX_SIZE], k2[SHA256_HEX_SIZE];

	o.source = &ks;
	o.compiler_version = xstrdup("gcc (Debian 12.2.0-14) 12.2.0");
	kbuild_key(&o, "CONFIG_A=y\n", k1);
	kbuild_key(&o, "CONFIG_A=y\n", k2);
	check_str(k1, k2);
	check_int(strlen(k1), ==, 64);

	kbuild_key(&o, "CONFIG_A=m\n", k2);
	check(strcmp(k1, k2));

	ks.id = (char *)"tar:abd";
	kbuild_key(&o, "CONFIG_A=y\n", k2);
	check(strcmp(k1, k2));
	ks.id = (char *)"tar:abc";

	free(o.compiler_version);
	o.compiler_version = xstrdup("gcc (Debian 13.1.0) 13.1.0");
	kbuild_key(&o, "CONFIG_A=y\n", k2);
	check(strcmp(k1, k2));
	free(o.compiler_version);
	o.compiler_version = xstrdup("gcc (Debian 12.2.0-14) 12.2.0");

	strvec_push(&o.make_vars, "KCFLAGS=-O1");
	kbuild_key(&o, "CONFIG_A=y\n", k2);
	check(strcmp(k1, k2));
	strvec_clear(&o.make_vars);

	/* A wrapper does not change what is built. */
	o.cc_wrapper = "ccache";
	kbuild_key(&o, "CONFIG_A=y\n", k2);
	check_str(k1, k2);
	o.cc_wrapper = NULL;

	/* The host's arch named or not: the same key as before arches were known. */
	o.arch = "x86_64";
	kbuild_key(&o, "CONFIG_A=y\n", k2);
	check_str(k1, k2);
	/* another arch: ARCH= and CROSS_COMPILE= are in the key, and the prefix matters */
	o.arch = "arm64";
	kbuild_key(&o, "CONFIG_A=y\n", k2);
	check(strcmp(k1, k2));
	o.cross_compile = "aarch64-none-linux-gnu-";
	kbuild_key(&o, "CONFIG_A=y\n", k1);
	check(strcmp(k1, k2));
	kbuild_options_release(&o);
}

static void test_cache_lookup(void)
{
	struct kernel_source ks = { .id = (char *)"dir:1" };
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	char key[SHA256_HEX_SIZE];
	char *p;
	struct strbuf sb = STRBUF_INIT;

	o.source = &ks;
	o.cache_dir = test_tmpdir();
	kbuild_key(&o, "CONFIG_A=y\n", key);
	check(!kbuild_is_cached(&o, key));
	/* An unfinished entry (no meta) is not a finished build. */
	p = xstrfmt("%s/builds/%s", o.cache_dir, key);
	check_int(mkdir_p(p, 0755), ==, 0);
	check(!kbuild_is_cached(&o, key));
	free(p);
	p = xstrfmt("%s/builds/%s/meta", o.cache_dir, key);
	strbuf_addstr(&sb, "seconds=1\n");
	check_int(strbuf_write_file(&sb, p), ==, 0);
	check(kbuild_is_cached(&o, key));
	check(!kbuild_has_tree(&o, key));
	free(p);
	strbuf_release(&sb);
	kbuild_options_release(&o);
}

/* The seed tree is the one whose .config differs in the fewest symbols. */
static void test_tree_distance(void)
{
	const char *base = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=\"x\"\n";

	check_int(kbuild_tree_distance(base, base), ==, 0);
	/* one changed, in either direction */
	check_int(kbuild_tree_distance(base, "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=\"x\"\n"), ==, 1);
	check_int(kbuild_tree_distance("CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=\"x\"\n", base), ==, 1);
	/* added and removed symbols count too */
	check_int(kbuild_tree_distance(base, "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_D=y\n"), ==, 2);
	check_int(kbuild_tree_distance(base, "CONFIG_A=m\nCONFIG_B=y\nCONFIG_C=\"y\"\n"), ==, 3);
	/* a file that does not parse is no seed */
	check_int(kbuild_tree_distance(base, "CONFIG_A=\"open\n"), ==, -1);
}

/*
 * A "kernel tree" whose make bzImage copies .config to the image (and
 * counts its builds in the object tree), or fails like a compiler when the
 * config sets CONFIG_BROKEN, or changes the config as syncconfig would
 * when it sets CONFIG_SYNC.
 */
static const char fake_makefile[] =
	"Image:\n"
	"\t@echo 'ARCH=$(ARCH) CROSS_COMPILE=$(CROSS_COMPILE)' >$(O)/make-vars\n"
	"\t@mkdir -p $(O)/arch/arm64/boot\n"
	"\t@cp $(O)/.config $(O)/arch/arm64/boot/Image\n"
	"bzImage:\n"
	"\t@test -f $(O)/.config\n"
	"\t@if grep -q '^CONFIG_BROKEN=y' $(O)/.config; then "
	"echo 'broken.c:1:1: error: broken on purpose' >&2; exit 2; fi\n"
	"\t@if grep -q '^CONFIG_SYNC=y' $(O)/.config; then echo CONFIG_SYNCED=y >>$(O)/.config; fi\n"
	"\t@echo built >>$(O)/built-count\n"
	"\t@mkdir -p $(O)/arch/x86/boot\n"
	"\t@cat $(O)/.config $(O)/.config >$(O)/vmlinux\n"
	"\t@cp $(O)/.config $(O)/arch/x86/boot/bzImage\n"
	/* What kbuild records of the source tree, for objtree-move. */
	"\t@echo 'include $(CURDIR)/Makefile' >$(O)/Makefile\n"
	"\t@echo 'cmd_x.o := gcc -I$(CURDIR)/include -c x.c' >$(O)/.x.o.cmd\n";

static void fake_kernel(struct kernel_source *ks, struct kbuild_options *o, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *mk;

	ks->tree = xstrfmt("%s/%s-src", test_tmpdir(), name);
	ks->id = xstrfmt("dir:%s", name);
	check_int(mkdir_p(ks->tree, 0755), ==, 0);
	mk = xstrfmt("%s/Makefile", ks->tree);
	strbuf_addstr(&sb, fake_makefile);
	check_int(strbuf_write_file(&sb, mk), ==, 0);
	free(mk);
	strbuf_release(&sb);
	o->source = ks;
	o->cache_dir = xstrfmt("%s/%s-cache", test_tmpdir(), name);
	o->log_dir = xstrfmt("%s/%s-logs", test_tmpdir(), name);
	o->jobs = 1;
	o->compiler_version = xstrdup("gcc (test) 1");
}

static void fake_kernel_release(struct kernel_source *ks, struct kbuild_options *o)
{
	free(ks->tree);
	free(ks->id);
	free((char *)o->cache_dir);
	free((char *)o->log_dir);
	kbuild_options_release(o);
}

/* Entries of dir, "." and ".." not counted; -1 when it cannot be read. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static int file_lines(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;
	size_t i;

	if (strbuf_read_file(&sb, path, 0) < 0)
		n = -1;
	for (i = 0; i < sb.len; i++)
		n += sb.buf[i] == '\n';
	strbuf_release(&sb);
	return n;
}

/* Whether DIR/KEY/LEAF exists. */
static int exists(const char *dir, const char *key, const char *leaf)
{
	char *p = xstrfmt("%s/%s/%s", dir, key, leaf);
	struct stat st;
	int ret = !stat(p, &st);

	free(p);
	return ret;
}

static int in_cache(const struct kbuild_options *o, const char *what, const char *key,
		    const char *leaf)
{
	char *dir = xstrfmt("%s/%s", o->cache_dir, what);
	int ret = exists(dir, key, leaf);

	free(dir);
	return ret;
}

static void test_build_seed_and_cache(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct kbuild_result a, b, again;
	char *tmp;

	fake_kernel(&ks, &o, "seed");
	/* from scratch */
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_A=y\n", "baseline", NULL, &a), ==, 0);
	test_capture_stop();
	check(a.ok && !a.cached);
	check(a.seeded_from == NULL);
	check_int(a.bzimage_size, ==, 11);
	check_int(a.vmlinux_size, ==, 22);
	check(in_cache(&o, "builds", a.key, "bzImage"));
	check(in_cache(&o, "builds", a.key, "meta"));
	check(in_cache(&o, "builds", a.key, "build.log"));
	check(in_cache(&o, "trees", a.key, ".config"));
	check(kbuild_is_cached(&o, a.key) && kbuild_has_tree(&o, a.key));
	check(strstr(test_messages.buf, "building baseline (") != NULL);
	/* nothing left in the scratch space but the lock's absence of work */
	tmp = xstrfmt("%s/tmp", o.cache_dir);
	check_int(count_entries(tmp), ==, 0);
	/* again: found in the cache, nothing built */
	check_int(kbuild_build(&o, "CONFIG_A=y\n", "baseline", NULL, &again), ==, 0);
	check(again.ok && again.cached);
	check_str(again.key, a.key);
	check_int(again.bzimage_size, ==, 11);
	check_str(again.image, a.image);
	/* a near config is seeded from the kept tree: one more build in the same tree */
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_A=y\nCONFIG_B=y\n", "CONFIG_B=y", NULL, &b), ==, 0);
	test_capture_stop();
	check(b.ok && !b.cached);
	check(b.seeded_from && !strcmp(b.seeded_from, a.key));
	check(strstr(test_messages.buf, ", seeded from ") != NULL);
	{
		char *count = xstrfmt("%s/trees/%s/built-count", o.cache_dir, b.key);

		check_int(file_lines(count), ==, 2);
		free(count);
	}
	check_int(count_entries(tmp), ==, 0);
	free(tmp);
	kbuild_result_release(&a);
	kbuild_result_release(&b);
	kbuild_result_release(&again);
	fake_kernel_release(&ks, &o);
}

/* An arm64 kernel: make Image with ARCH= and CROSS_COMPILE=, kept as Image. */
static void test_build_of_another_arch(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct kbuild_result r;
	struct strbuf sb = STRBUF_INIT;
	char *vars;

	fake_kernel(&ks, &o, "arm64");
	o.arch = "arm64";
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_ARM64=y\n", "baseline", NULL, &r), ==, 0);
	test_capture_stop();
	check(r.ok);
	check(ends_with(r.image, "/Image"));
	check(in_cache(&o, "builds", r.key, "Image"));
	check(!in_cache(&o, "builds", r.key, "bzImage"));
	check_int(r.bzimage_size, ==, 15);
	vars = xstrfmt("%s/trees/%s/make-vars", o.cache_dir, r.key);
	check_int(strbuf_read_file(&sb, vars, 0), >, 0);
	check_str(sb.buf, "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-\n");
	free(vars);
	strbuf_release(&sb);
	kbuild_result_release(&r);
	fake_kernel_release(&ks, &o);
}

static void test_a_failed_build_is_a_result(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct kbuild_result r;
	char *tmp;

	fake_kernel(&ks, &o, "fail");
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_BROKEN=y\n", "broken", NULL, &r), ==, 0);
	test_capture_stop();
	check(!r.ok && !r.cached);
	check(r.log_tail && strstr(r.log_tail, "error: broken on purpose"));
	check(strstr(test_messages.buf, "warning: build of broken failed: make exited with "
		     "status 2 (log: ") != NULL);
	check(!kbuild_is_cached(&o, r.key) && !kbuild_has_tree(&o, r.key));
	tmp = xstrfmt("%s/tmp", o.cache_dir);
	check_int(count_entries(tmp), ==, 0);
	free(tmp);
	kbuild_result_release(&r);
	fake_kernel_release(&ks, &o);
}

/*
 * A build whose make changed the config (a wrapper that renames the
 * compiler would change CONFIG_CC_VERSION_TEXT) is not the planned kernel:
 * an error, and nothing is cached under the key.
 */
static void test_a_changed_config_is_an_error(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct kbuild_result r;

	fake_kernel(&ks, &o, "sync");
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_SYNC=y\n", "synced", NULL, &r), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "error: building synced: make changed the config it was "
		     "given, so the kernel would not be the one planned:\n+SYNCED y") != NULL);
	check(!kbuild_is_cached(&o, r.key) && !kbuild_has_tree(&o, r.key));
	kbuild_result_release(&r);
	fake_kernel_release(&ks, &o);
}

/*
 * Builds "CONFIG_N=from" .. "CONFIG_N=to-1" with o, each a new kernel;
 * keys, when not NULL, gets each one's key (keys[i - from]).
 */
static void build_numbered(struct kbuild_options *o, int from, int to,
			   char (*keys)[SHA256_HEX_SIZE])
{
	int i;

	for (i = from; i < to; i++) {
		struct kbuild_result r;
		char *config = xstrfmt("CONFIG_N=%d\n", i);

		check_int(kbuild_build(o, config, "n", NULL, &r), ==, 0);
		check(r.ok && !r.cached);
		if (keys)
			memcpy(keys[i - from], r.key, sizeof(*keys));
		kbuild_result_release(&r);
		free(config);
	}
}

/* At most KBUILD_KEEP_TREES trees are kept; the finished builds all stay. */
static void test_trees_are_evicted(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	char *trees, *builds;

	fake_kernel(&ks, &o, "evict");
	test_capture_start();
	build_numbered(&o, 0, KBUILD_KEEP_TREES + 3, NULL);
	test_capture_stop();
	trees = xstrfmt("%s/trees", o.cache_dir);
	builds = xstrfmt("%s/builds", o.cache_dir);
	check_int(count_entries(trees), ==, KBUILD_KEEP_TREES);
	check_int(count_entries(builds), ==, KBUILD_KEEP_TREES + 3);
	free(trees);
	free(builds);
	fake_kernel_release(&ks, &o);
}

/*
 * Trees are kept per family (source and compiler): another compiler's
 * builds, which can never seed this one's, do not push its trees out.
 */
static void test_trees_are_evicted_per_family(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	char keys[KBUILD_KEEP_TREES][SHA256_HEX_SIZE];
	char *trees;
	int i, kept = 0;

	fake_kernel(&ks, &o, "family");
	test_capture_start();
	build_numbered(&o, 0, KBUILD_KEEP_TREES, keys);
	free(o.compiler_version);
	o.compiler_version = xstrdup("gcc (test) 2");
	build_numbered(&o, KBUILD_KEEP_TREES, KBUILD_KEEP_TREES + 3, NULL);
	test_capture_stop();
	for (i = 0; i < KBUILD_KEEP_TREES; i++)
		kept += kbuild_has_tree(&o, keys[i]);
	check_int(kept, ==, KBUILD_KEEP_TREES);
	trees = xstrfmt("%s/trees", o.cache_dir);
	check_int(count_entries(trees), ==, KBUILD_KEEP_TREES + 3);
	free(trees);
	fake_kernel_release(&ks, &o);
}

/* A cache hit counts as a use: the oldest tree, found again, outlives the next. */
static void test_a_cache_hit_keeps_its_tree(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	char keys[KBUILD_KEEP_TREES][SHA256_HEX_SIZE];
	struct kbuild_result r;
	int i;

	fake_kernel(&ks, &o, "hit");
	test_capture_start();
	build_numbered(&o, 0, KBUILD_KEEP_TREES, keys);
	for (i = 0; i < KBUILD_KEEP_TREES; i++) {
		char *tree = xstrfmt("%s/trees/%s", o.cache_dir, keys[i]);
		struct timespec t[2] = { { 1000 + i, 0 }, { 1000 + i, 0 } };

		utimensat(AT_FDCWD, tree, t, 0);	/* built long ago, in order */
		free(tree);
	}
	/* the oldest again: found in the cache */
	check_int(kbuild_build(&o, "CONFIG_N=0\n", "n", NULL, &r), ==, 0);
	check(r.cached);
	kbuild_result_release(&r);
	/* one more, seeded from the newest (seeding is a use too) */
	check_int(kbuild_build(&o, "CONFIG_N=99\n", "n", keys[KBUILD_KEEP_TREES - 1], &r), ==, 0);
	check(r.ok && !r.cached);
	kbuild_result_release(&r);
	test_capture_stop();
	check(kbuild_has_tree(&o, keys[0]));
	check(!kbuild_has_tree(&o, keys[1]));
	fake_kernel_release(&ks, &o);
}

/*
 * A kept tree whose build was removed from the cache can seed nothing (its
 * source and compiler are not known): the next build removes it, and
 * neither that build nor its choice of a seed prints an error about it.
 */
static void test_a_tree_without_its_build_goes(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	char keys[2][SHA256_HEX_SIZE];
	char *entry;

	fake_kernel(&ks, &o, "orphan");
	test_capture_start();
	build_numbered(&o, 0, 2, keys);
	entry = xstrfmt("%s/builds/%s", o.cache_dir, keys[0]);
	check_int(remove_tree(entry), ==, 0);
	strbuf_reset(&test_messages);
	build_numbered(&o, 2, 3, NULL);
	test_capture_stop();
	check(!strstr(test_messages.buf, "error"));
	check(!kbuild_has_tree(&o, keys[0]));
	check(kbuild_has_tree(&o, keys[1]));
	free(entry);
	fake_kernel_release(&ks, &o);
}

static char *read_all(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_read_file(&sb, path, 0);
	return strbuf_detach(&sb, NULL);
}

/* A patched source's build starts from its base's tree, pointed at the patched copy. */
static void test_patched_source_seeds_from_base(void)
{
	struct kernel_source base = KERNEL_SOURCE_INIT, patched = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct kbuild_result a, p, p2, b;
	struct strbuf sb = STRBUF_INIT;
	char *file, *text, *fix;
	struct stat st;

	fake_kernel(&base, &o, "base");
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_A=y\n", "baseline", NULL, &a), ==, 0);
	test_capture_stop();
	check(a.ok);

	/* The patched copy: the same Makefile, and fix.c, "patched" long ago. */
	patched.tree = xstrfmt("%s/patched-src", test_tmpdir());
	patched.id = xstrdup("patch:1");
	patched.base_id = xstrdup(base.id);
	strvec_push(&patched.patched, "fix.c");
	mkdir_p(patched.tree, 0755);
	file = xstrfmt("%s/Makefile", patched.tree);
	strbuf_addstr(&sb, fake_makefile);
	strbuf_write_file(&sb, file);
	free(file);
	fix = xstrfmt("%s/fix.c", patched.tree);
	strbuf_write_file(&sb, fix);
	{
		struct timespec old[2] = { { 1000, 0 }, { 1000, 0 } };

		utimensat(AT_FDCWD, fix, old, 0);
	}
	o.source = &patched;
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_A=y\n", "fix:baseline", NULL, &p), ==, 0);
	test_capture_stop();
	check(p.ok && !p.cached);
	check(strcmp(p.key, a.key));
	if (check(p.seeded_from != NULL))
		check_str(p.seeded_from, a.key);
	/* The records name the patched tree now, and make ran once more in it. */
	file = xstrfmt("%s/trees/%s/.x.o.cmd", o.cache_dir, p.key);
	text = read_all(file);
	check(strstr(text, patched.tree) != NULL);
	check(strstr(text, base.tree) == NULL);
	free(text);
	free(file);
	file = xstrfmt("%s/trees/%s/built-count", o.cache_dir, p.key);
	check_int(file_lines(file), ==, 2);
	free(file);
	/* The patched file is newer than the objects it came with. */
	check(!stat(fix, &st) && st.st_mtime > 1000);
	/* Its own tree wins a tie with its base's. */
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_A=y\nCONFIG_C=y\n", "fix:c", NULL, &p2), ==, 0);
	test_capture_stop();
	if (check(p2.seeded_from != NULL))
		check_str(p2.seeded_from, p.key);

	/* The base is never seeded from a patched tree, however near. */
	o.source = &base;
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_A=y\nCONFIG_C=y\n", "c", NULL, &b), ==, 0);
	test_capture_stop();
	check(b.ok);
	if (check(b.seeded_from != NULL))
		check_str(b.seeded_from, a.key);

	kbuild_result_release(&a);
	kbuild_result_release(&p);
	kbuild_result_release(&p2);
	kbuild_result_release(&b);
	strbuf_release(&sb);
	free(fix);
	kernel_source_release(&patched);
	fake_kernel_release(&base, &o);
}

static void test_objtree_move(void)
{
	char *top = xstrfmt("%s/move", test_tmpdir()), *path, *text, *from;
	struct strbuf sb = STRBUF_INIT;
	struct stat before, after;

	mkdir_p(top, 0755);
	path = xstrfmt("%s/Makefile", top);
	strbuf_addstr(&sb, "# Automatically generated by /src/a/Makefile: don't edit\n"
		      "include /src/a/Makefile\n");
	strbuf_write_file(&sb, path);
	free(path);
	from = objtree_srctree(top);
	check_str(from, "/src/a");
	/* A record, a file that is not one, and the object tree's own path kept. */
	path = xstrfmt("%s/.fork.o.cmd", top);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "cmd := gcc -I/src/a/include -I/src/ab -o %s/x /src/a/kernel/fork.c\n", top);
	strbuf_write_file(&sb, path);
	{
		struct timespec old[2] = { { 1000, 0 }, { 1000, 0 } };

		utimensat(AT_FDCWD, path, old, 0);
	}
	stat(path, &before);
	check_int(objtree_retarget(top, "/src/a", "/c/patched/a"), ==, 2);
	text = read_all(path);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "cmd := gcc -I/c/patched/a/include -I/src/ab -o %s/x "
		    "/c/patched/a/kernel/fork.c\n", top);
	check_str(text, sb.buf);
	free(text);
	stat(path, &after);
	check(before.st_mtime == 1000 && after.st_mtime == 1000);	/* times kept */
	free(path);
	free(from);
	from = objtree_srctree(top);
	check_str(from, "/c/patched/a");
	free(from);
	/* Nothing to do twice. */
	check_int(objtree_retarget(top, "/src/a", "/c/patched/a"), ==, 0);
	strbuf_release(&sb);
	free(top);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_key_depends_on_every_input);
	TEST(test_cache_lookup);
	TEST(test_tree_distance);
	TEST(test_build_seed_and_cache);
	TEST(test_build_of_another_arch);
	TEST(test_a_failed_build_is_a_result);
	TEST(test_a_changed_config_is_an_error);
	TEST(test_trees_are_evicted);
	TEST(test_trees_are_evicted_per_family);
	TEST(test_a_cache_hit_keeps_its_tree);
	TEST(test_a_tree_without_its_build_goes);
	TEST(test_patched_source_seeds_from_base);
	TEST(test_objtree_move);
	return test_done();
}
