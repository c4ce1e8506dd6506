/* test-cache-transfer.c: unit tests for carrying a build cache entry between caches, verified. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild/cache-transfer.h"
#include "kbuild/kbuild.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/wrapper.h"

#define CONFIG "CONFIG_64BIT=y\nCONFIG_PRINTK=y\n"
#define SOURCE "dir:0123"
#define COMPILER "gcc (Debian 12.2.0-14) 12.2.0"

static void put(const char *dir, const char *name, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = xstrfmt("%s/%s", dir, name);

	strbuf_addstr(&sb, text);
	check_int(strbuf_write_file(&sb, p), ==, 0);
	strbuf_release(&sb);
	free(p);
}

/*
 * An entry as a build leaves it, with make_vars in its key, in
 * CACHE/builds/<key> -- or, when filed_as is set, filed under that name.
 */
static void make_entry(const char *cache, const char *config, const char *filed_as,
		       char key[SHA256_HEX_SIZE])
{
	struct strvec mv = STRVEC_INIT;
	struct kbuild_key_inputs in = { .source_id = SOURCE, .config = CONFIG,
					.compiler_version = COMPILER, .cc = "gcc",
					.make_vars = &mv };
	struct strbuf meta = STRBUF_INIT;
	char *dir;

	strvec_push(&mv, "KCFLAGS=-O2");
	kbuild_key_of(&in, key);
	if (filed_as)
		memcpy(key, filed_as, SHA256_HEX_SIZE);
	dir = xstrfmt("%s/builds/%s", cache, key);
	check_int(mkdir_p(dir, 0755), ==, 0);
	put(dir, "bzImage", "a kernel image");
	put(dir, "config", config);
	put(dir, "build.log", "make\n");
	put(dir, "System.map", "ffffffff81000000 T _text\n");
	put(dir, "extable", "kcp-extable 1\nffffffff81000010\n");
	strbuf_addf(&meta, "key=%s\nname=baseline\nsource=" SOURCE "\ncompiler=" COMPILER
		    "\njobs=2\ncc=gcc\nmake_var=KCFLAGS=-O2\n", key);
	put(dir, "meta", meta.buf);
	strbuf_release(&meta);
	strvec_clear(&mv);
	free(dir);
}

static void test_round_trip(void)
{
	char *a = xstrfmt("%s/a", test_tmpdir()), *b = xstrfmt("%s/b", test_tmpdir());
	char *file = xstrfmt("%s/entry.tar.gz", test_tmpdir());
	char key[SHA256_HEX_SIZE], got[SHA256_HEX_SIZE], back[SHA256_HEX_SIZE];
	char prefix[13];
	struct strbuf sb = STRBUF_INIT;
	char *path;
	int already = -1;

	make_entry(a, CONFIG, NULL, key);
	memcpy(prefix, key, 12);
	prefix[12] = '\0';
	check_int(cache_export(a, prefix, file, got), ==, 0);
	check_str(got, key);
	check_int(cache_import(b, file, back, &already), ==, 0);
	check_str(back, key);
	check_int(already, ==, 0);
	path = xstrfmt("%s/builds/%s/System.map", b, key);
	check_int(strbuf_read_file(&sb, path, 0), >, 0);
	check_str(sb.buf, "ffffffff81000000 T _text\n");
	free(path);
	strbuf_reset(&sb);
	path = xstrfmt("%s/builds/%s/extable", b, key);
	check_int(strbuf_read_file(&sb, path, 0), >, 0);
	check_str(sb.buf, "kcp-extable 1\nffffffff81000010\n");
	free(path);
	path = xstrfmt("%s/builds/%s/MANIFEST", b, key);
	check(access(path, F_OK));
	free(path);
	/* again: kept, nothing changed */
	check_int(cache_import(b, file, back, &already), ==, 0);
	check_int(already, ==, 1);
	strbuf_release(&sb);
	free(a);
	free(b);
	free(file);
}

static void test_refused(void)
{
	char *a = xstrfmt("%s/c", test_tmpdir()), *b = xstrfmt("%s/d", test_tmpdir());
	char *file = xstrfmt("%s/wrong.tar.gz", test_tmpdir());
	const char *wrong = "00000000000000000000000000000000000000000000000000000000000000aa";
	char key[SHA256_HEX_SIZE], got[SHA256_HEX_SIZE];
	char *meta;
	int already;

	/* an entry filed under a key its config does not give */
	make_entry(a, CONFIG, wrong, key);
	check_int(cache_export(a, wrong, file, got), ==, 0);
	test_capture_start();
	check_int(cache_import(b, file, got, &already), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "give the key") != NULL);
	meta = xstrfmt("%s/builds/%s/meta", b, wrong);
	check(access(meta, F_OK));
	free(meta);
	/* not there, not a key, ambiguous */
	test_capture_start();
	check_int(cache_export(a, "ffff", file, got), ==, -1);
	check_int(cache_export(a, "xyz", file, got), ==, -1);
	check_int(cache_import(b, "/nonexistent/file", got, &already), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "no finished build 'ffff'") != NULL);
	check(strstr(test_messages.buf, "'xyz' is not a build key") != NULL);
	free(a);
	free(b);
	free(file);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_round_trip);
	TEST(test_refused);
	return test_done();
}
