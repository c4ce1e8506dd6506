/* test-kbuild.c: unit tests for the build cache key and cache layout. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild/kbuild.h"
#include "plan/source.h"
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

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_key_depends_on_every_input);
	TEST(test_cache_lookup);
	TEST(test_tree_distance);
	return test_done();
}
