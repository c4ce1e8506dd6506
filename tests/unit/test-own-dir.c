/* test-own-dir.c: unit tests for the directories kconfperf owns: links, modes, owners. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-lib.h"
#include "util/own-dir.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

static char *tmp_path(const char *name)
{
	return xstrfmt("%s/%s", test_tmpdir(), name);
}

/* A cache made where nothing was: 0755, every level; again, still fine. */
static void test_make_and_check(void)
{
	char *cache = tmp_path("home/.cache/kconfperf");
	struct stat st;

	check_int(own_dir_make(cache, "the cache"), ==, 0);
	check_int(stat(cache, &st), ==, 0);
	check_int(st.st_mode & 07777, ==, 0755);
	check_int(own_dir_make(cache, "the cache"), ==, 0);
	check_int(own_dir_check(cache, "the cache"), ==, 0);
	free(cache);
	cache = tmp_path("nothing-here");
	check_int(own_dir_check(cache, "the cache"), ==, 1);
	free(cache);
}

static void expect_refused(const char *path, const char *what)
{
	test_capture_start();
	check_int(own_dir_make(path, "the cache"), ==, -1);
	test_capture_stop();
	if (!check(strstr(test_messages.buf, what) != NULL))
		fprintf(stderr, "#   %s", test_messages.buf);
}

static void test_refused(void)
{
	char *gw = tmp_path("gw"), *lnk = tmp_path("lnk"), *file = tmp_path("file");
	char *open = tmp_path("open"), *below = tmp_path("open/cache");
	struct stat st;

	check_int(mkdir(gw, 0755), ==, 0);
	check_int(chmod(gw, 0775), ==, 0);
	expect_refused(gw, "is writable by its group or others (mode 0775); run 'chmod go-w");
	check_int(symlink(gw, lnk), ==, 0);
	expect_refused(lnk, "is a symbolic link; name the directory it leads to");
	check_int(close(creat(file, 0644)), ==, 0);
	expect_refused(file, "is not a directory");
	/* nothing is made below a directory others may write */
	check_int(mkdir(open, 0777), ==, 0);
	check_int(chmod(open, 0777), ==, 0);
	expect_refused(below, "is writable by its group or others (mode 0777), who could replace it");
	check_int(lstat(below, &st), ==, -1);
	expect_refused("relative/cache", "is not an absolute path");
	free(gw);
	free(lnk);
	free(file);
	free(open);
	free(below);
}

/* Inside an experiment directory: no component of sub may be a link, nor "..". */
static void test_subdir(void)
{
	char *base = tmp_path("exp"), *outside = tmp_path("outside");
	char *runs = tmp_path("exp/runs"), *made = tmp_path("exp/runs/v/boot");
	char *rm = xstrfmt("rm -rf '%s'", runs), *w = tmp_path("outside/w"), *x = tmp_path("x");
	struct stat st;

	check_int(own_subdir_make(base, "runs/v/boot"), ==, 0);
	check_int(stat(made, &st), ==, 0);
	check(S_ISDIR(st.st_mode));
	check_int(own_subdir_make(base, "runs/v/boot"), ==, 0);
	check_int(mkdir(outside, 0755), ==, 0);
	check_int(system(rm), ==, 0);
	check_int(symlink(outside, runs), ==, 0);
	test_capture_start();
	check_int(own_subdir_make(base, "runs/w"), ==, -1);
	check_int(own_subdir_make(base, "logs/../../x"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "exp/runs' is a symbolic link; kconfperf makes its own "
		     "directories in") != NULL);
	check(strstr(test_messages.buf, "leads out of") != NULL);
	check_int(lstat(w, &st), ==, -1);
	check_int(lstat(x, &st), ==, -1);
	free(base);
	free(outside);
	free(runs);
	free(made);
	free(rm);
	free(w);
	free(x);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_make_and_check);
	TEST(test_refused);
	TEST(test_subdir);
	strbuf_release(&test_messages);
	return test_done();
}
