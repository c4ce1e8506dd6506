/* test-farm.c: unit tests for compiler wrappers: masquerade, -j, ccache's counters, a build through ccache. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild/farm.h"
#include "kbuild/kbuild.h"
#include "plan/kernel-source.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "test-lib.h"
#include "util/wrapper.h"

/* What CCACHE_STATSLOG holds after a miss, a hit, a link and a --version (ccache 4.7). */
static const char stats_log[] =
	"# /src/a.c\n"
	"cache_miss\n"
	"direct_cache_miss\n"
	"local_storage_miss\n"
	"preprocessed_cache_miss\n"
	"# /src/a.c\n"
	"direct_cache_hit\n"
	"local_storage_hit\n"
	"# /src/b.c\n"
	"preprocessed_cache_hit\n"
	"# \n"
	"called_for_link\n"
	"# \n"
	"no_input_file\n";

static void test_stats_log(void)
{
	struct farm_stats s;
	struct strbuf sb = STRBUF_INIT;

	farm_parse_stats_log(&s, stats_log);
	check_int(s.hits, ==, 2);
	check_int(s.misses, ==, 1);
	check_int(s.uncacheable, ==, 2);
	farm_format_stats(&sb, &s);
	check_str(sb.buf, "2/3 hits (67%)");
	/* "direct_cache_miss" is no hit, "cache_miss" alone is the miss */
	farm_parse_stats_log(&s, "# x.c\ndirect_cache_miss\npreprocessed_cache_miss\ncache_miss\n");
	check_int(s.hits, ==, 0);
	check_int(s.misses, ==, 1);
	farm_parse_stats_log(&s, "");
	check_int(s.hits + s.misses + s.uncacheable, ==, 0);
	strbuf_reset(&sb);
	farm_format_stats(&sb, &s);
	check_str(sb.buf, "no compiles");
	/* no final newline */
	farm_parse_stats_log(&s, "# x.c\ndirect_cache_hit");
	check_int(s.hits, ==, 1);
	strbuf_release(&sb);
}

/* What icecc-scheduler 1.4's text interface answers to listcs. */
static void test_listcs(void)
{
	check_int(farm_parse_listcs(" localice (127.0.0.1:0) [x86_64] speed=0.00 jobs=0/2 load=30\n"
				    " remoteice (127.0.0.1:20246) [x86_64] speed=12.5 jobs=1/8 "
				    "load=300\n"), ==, 10);
	check_int(farm_parse_listcs(""), ==, 0);
	check_int(farm_parse_listcs("200 done\n"), ==, 0);
	check_int(farm_parse_listcs(" a (1.2.3.4:10245) [x86_64] jobs=0/-3\n"), ==, 0);
}

static void test_jobs_rule(void)
{
	struct farm f = { .kind = FARM_DISTCC, .slots = 12 };

	check_int(farm_jobs(NULL, 0, 2), ==, 2);
	check_int(farm_jobs(NULL, 5, 2), ==, 5);
	/* the farm's slots, at least the CPUs; -j wins */
	check_int(farm_jobs(&f, 0, 2), ==, 12);
	check_int(farm_jobs(&f, 0, 16), ==, 16);
	check_int(farm_jobs(&f, 3, 2), ==, 3);
	f.slots = 0;
	check_int(farm_jobs(&f, 0, 4), ==, 4);
}

/* A stand-in wrapper: a script named like one, in a directory of the test's. */
static char *fake_wrapper(const char *name, const char *script)
{
	char *dir = xstrfmt("%s/fake-%s", test_tmpdir(), name);
	char *path = xstrfmt("%s/%s", dir, name);
	struct strbuf sb = STRBUF_INIT;

	check_int(mkdir_p(dir, 0755), ==, 0);
	strbuf_addstr(&sb, script);
	check_int(strbuf_write_file(&sb, path), ==, 0);
	check_int(chmod(path, 0755), ==, 0);
	strbuf_release(&sb);
	free(dir);
	return path;
}

static void test_open_and_masquerade(void)
{
	char *cache = xstrfmt("%s/farm-cache", test_tmpdir());
	char *fake = fake_wrapper("distcc", "#!/bin/sh\n"
				  "case \"$1\" in --version) echo 'distcc 3.4 fake';; "
				  "-j) echo 6;; esac\n");
	char *link, *target;
	struct strbuf sb = STRBUF_INIT;
	struct strvec env = STRVEC_INIT;
	struct farm *f;

	check_int(farm_open(&f, fake, "gcc", cache), ==, 0);
	if (!f)
		goto out;
	check_int(f->kind, ==, FARM_DISTCC);
	check_str(f->program, fake);
	check_str(f->version, "distcc 3.4 fake");
	check_int(f->slots, ==, 6);
	check_str(f->slots_from, "distcc -j");
	/* CACHE/wrappers/distcc/gcc -> the wrapper */
	link = xstrfmt("%s/wrappers/distcc/gcc", cache);
	check_int(strbuf_readlink(&sb, link), ==, 0);
	check_str(sb.buf, fake);
	/* make's PATH starts there; distcc must not rename gcc */
	farm_env(f, &env, "/x/stats");
	check(env.nr == 2);
	target = xstrfmt("PATH=%s/wrappers/distcc:", cache);
	check(starts_with(env.v[0], target));
	check_str(env.v[1], "DISTCC_NO_REWRITE_CROSS=1");
	free(target);
	farm_free(f);
	/* again: the link is there already */
	check_int(farm_open(&f, fake, "gcc", cache), ==, 0);
	farm_free(f);
	free(link);
out:
	strbuf_release(&sb);
	strvec_clear(&env);
	free(fake);
	free(cache);
}

static void test_open_errors(void)
{
	char *cache = xstrfmt("%s/farm-cache-2", test_tmpdir());
	char *sccache = fake_wrapper("sccache", "#!/bin/sh\necho sccache 0.1\n");
	char *broken = fake_wrapper("icecc", "#!/bin/sh\nexit 1\n");
	struct farm *f = NULL;

	test_capture_start();
	check_int(farm_open(&f, sccache, "gcc", cache), ==, -1);
	check(strstr(test_messages.buf, "is not ccache, distcc or icecc") != NULL);
	check_int(farm_open(&f, "/nonexistent/ccache", "gcc", cache), ==, -1);
	check(strstr(test_messages.buf, "'/nonexistent/ccache' cannot be run") != NULL);
	check_int(farm_open(&f, broken, "gcc", cache), ==, -1);
	check(strstr(test_messages.buf, "cannot be run (is it installed?)") != NULL);
	check_int(farm_open(&f, "ccache", "/usr/bin/gcc", cache), ==, -1);
	check(strstr(test_messages.buf, "needs the compiler by name") != NULL);
	test_capture_stop();
	check(f == NULL);
	free(sccache);
	free(broken);
	free(cache);
}

/* icecc without ICECC_SCHEDULER: no slots known, and it says why. */
static void test_icecc_without_scheduler(void)
{
	char *cache = xstrfmt("%s/farm-cache-3", test_tmpdir());
	char *fake = fake_wrapper("icecc", "#!/bin/sh\necho 'ICECC 1.4.0 fake'\n");
	char *old = getenv("ICECC_SCHEDULER") ? xstrdup(getenv("ICECC_SCHEDULER")) : NULL;
	struct farm *f = NULL;

	unsetenv("ICECC_SCHEDULER");
	check_int(farm_open(&f, fake, "gcc", cache), ==, 0);
	if (f) {
		check_int(f->slots, ==, 0);
		check(strstr(f->slots_from, "ICECC_SCHEDULER") != NULL);
	}
	farm_free(f);
	/* a scheduler that does not answer: no slots, within the query's timeout */
	setenv("ICECC_SCHEDULER", "127.0.0.1:1", 1);
	check_int(farm_open(&f, fake, "gcc", cache), ==, 0);
	if (f) {
		check_int(f->slots, ==, 0);
		check(strstr(f->slots_from, "no answer") != NULL);
	}
	farm_free(f);
	if (old)
		setenv("ICECC_SCHEDULER", old, 1);
	else
		unsetenv("ICECC_SCHEDULER");
	free(old);
	free(fake);
	free(cache);
}

/*
 * A real build through Debian's ccache, of a "kernel" whose make compiles
 * one C file with kbuild's -Wp,-MMD flags: CC stays gcc, the compile goes
 * through ccache (a miss, then a hit in a second build of the same file),
 * and the cache key is the same as without the wrapper.
 */
static const char ccache_makefile[] =
	"CC = gcc\n"
	"bzImage:\n"
	"\t@mkdir -p $(O)/arch/x86/boot\n"
	"\t@printf 'int f(int x) { return x * 3; }\\n' >$(O)/f.c\n"
	"\t@echo \"CC=$(CC)\" >$(O)/cc-was\n"
	"\tcd $(O) && $(CC) -Wp,-MMD,./.f.o.d -O2 -c f.c -o f.o\n"
	"\t@test -s $(O)/.f.o.d\n"
	"\t@cp $(O)/f.o $(O)/arch/x86/boot/bzImage\n"
	"\t@cp $(O)/f.o $(O)/vmlinux\n";

static void test_build_through_ccache(void)
{
	struct kernel_source ks = KERNEL_SOURCE_INIT;
	struct kbuild_options o = KBUILD_OPTIONS_INIT;
	struct kbuild_result a, b;
	struct strbuf sb = STRBUF_INIT;
	char *mk, *ccdir, *p, key[SHA256_HEX_SIZE];

	if (access("/usr/bin/ccache", X_OK)) {
		test_skip("no /usr/bin/ccache (scripts/deps installs it)");
		return;
	}
	ks.tree = xstrfmt("%s/cc-src", test_tmpdir());
	ks.id = xstrdup("dir:cc");
	check_int(mkdir_p(ks.tree, 0755), ==, 0);
	mk = xstrfmt("%s/Makefile", ks.tree);
	strbuf_addstr(&sb, ccache_makefile);
	check_int(strbuf_write_file(&sb, mk), ==, 0);
	ccdir = xstrfmt("%s/ccache", test_tmpdir());
	setenv("CCACHE_DIR", ccdir, 1);
	o.source = &ks;
	o.cache_dir = xstrfmt("%s/cc-cache", test_tmpdir());
	o.jobs = 1;
	o.cc_wrapper = "ccache";
	test_capture_start();
	check_int(kbuild_prepare(&o), ==, 0);
	kbuild_key(&o, "CONFIG_A=y\n", key);
	check_int(kbuild_build(&o, "CONFIG_A=y\n", "one", NULL, &a), ==, 0);
	test_capture_stop();
	check(a.ok && !a.cached);
	check_str(a.key, key);
	check(a.wrapper && !strcmp(a.wrapper, "ccache"));
	check(a.has_cache_stats);
	check_int(a.cache_stats.misses, ==, 1);
	check_int(a.cache_stats.hits, ==, 0);
	/* make saw CC=gcc: the wrapper is found as "gcc" first in PATH */
	p = xstrfmt("%s/trees/%s/cc-was", o.cache_dir, a.key);
	strbuf_reset(&sb);
	check_int(strbuf_read_file(&sb, p, 0), >, 0);
	check_str(sb.buf, "CC=gcc\n");
	free(p);
	/* the same file again, in another "kernel": a hit */
	test_capture_start();
	check_int(kbuild_build(&o, "CONFIG_A=y\nCONFIG_B=y\n", "two", NULL, &b), ==, 0);
	test_capture_stop();
	check(b.ok && b.has_cache_stats);
	check_int(b.cache_stats.hits, ==, 1);
	check_int(b.cache_stats.misses, ==, 0);
	/* the meta keeps how it was built; a cached result says so */
	kbuild_result_release(&b);
	check_int(kbuild_build(&o, "CONFIG_A=y\nCONFIG_B=y\n", "two", NULL, &b), ==, 0);
	check(b.cached && b.has_cache_stats && b.cache_stats.hits == 1);
	check(b.wrapper && !strcmp(b.wrapper, "ccache"));
	check_int(b.jobs, ==, 1);
	kbuild_result_release(&a);
	kbuild_result_release(&b);
	unsetenv("CCACHE_DIR");
	free(ccdir);
	free(mk);
	free(ks.tree);
	free(ks.id);
	free((char *)o.cache_dir);
	kbuild_options_release(&o);
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_stats_log);
	TEST(test_listcs);
	TEST(test_jobs_rule);
	TEST(test_open_and_masquerade);
	TEST(test_open_errors);
	TEST(test_icecc_without_scheduler);
	TEST(test_build_through_ccache);
	return test_done();
}
