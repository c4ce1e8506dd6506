/* test-write-file.c: unit tests for write_output() (links, devices, FIFOs, descriptors) and write_file() (never a link). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"
#include "util/write-file.h"

static char *tmp_path(const char *name)
{
	return xstrfmt("%s/%s", test_tmpdir(), name);
}

static void put(const char *path, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, text);
	check_int(strbuf_write_output(&sb, path), ==, 0);
	strbuf_release(&sb);
}

/* The file's contents, or "<missing>"; the caller frees. */
static char *contents(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return xstrdup("<missing>");
	strbuf_read_fd(&sb, fd, 0);
	close(fd);
	return strbuf_detach(&sb, NULL);
}

static int is_link(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISLNK(st.st_mode);
}

static void test_regular_file_is_replaced(void)
{
	char *p = tmp_path("plain.txt"), *c;
	struct stat st;

	put(p, "old\n");
	check_int(chmod(p, 0600), ==, 0);
	put(p, "new\n");
	c = contents(p);
	check_str(c, "new\n");
	check_int(stat(p, &st), ==, 0);
	check_int(st.st_mode & 07777, ==, 0600);
	free(c);
	free(p);
}

static void test_link_to_regular_file_writes_the_target(void)
{
	char *target = tmp_path("target.txt"), *lnk = tmp_path("lnk"), *c;

	put(target, "old\n");
	check_int(symlink(target, lnk), ==, 0);
	put(lnk, "the report\n");
	check(is_link(lnk));
	c = contents(target);
	check_str(c, "the report\n");
	free(c);
	free(target);
	free(lnk);
}

static void test_relative_chain_of_links(void)
{
	char *dir = tmp_path("sub"), *target = tmp_path("sub/t.txt");
	char *l1 = tmp_path("rel1"), *l2 = tmp_path("sub/rel2"), *c;

	check_int(mkdir(dir, 0755), ==, 0);
	put(target, "x");
	check_int(symlink("t.txt", l2), ==, 0);    /* relative to sub/ */
	check_int(symlink("sub/rel2", l1), ==, 0); /* relative to the top */
	put(l1, "through two links");
	check(is_link(l1));
	check(is_link(l2));
	c = contents(target);
	check_str(c, "through two links");
	free(c);
	free(dir);
	free(target);
	free(l1);
	free(l2);
}

static void test_dangling_link_creates_its_target(void)
{
	char *target = tmp_path("not-yet.txt"), *lnk = tmp_path("dangling"), *c;

	check_int(symlink(target, lnk), ==, 0);
	put(lnk, "made\n");
	check(is_link(lnk));
	c = contents(target);
	check_str(c, "made\n");
	free(c);
	free(target);
	free(lnk);
}

static void test_link_into_missing_directory_is_an_error(void)
{
	char *lnk = tmp_path("nowhere"), *c;
	struct strbuf sb = STRBUF_INIT;

	check_int(symlink("/nonexistent-kcp-dir/x/report.txt", lnk), ==, 0);
	strbuf_addstr(&sb, "lost?");
	test_capture_start();
	check_int(strbuf_write_output(&sb, lnk), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "nowhere"));
	check(strstr(test_messages.buf, "/nonexistent-kcp-dir/x/report.txt"));
	check(is_link(lnk));
	c = contents(lnk);
	check_str(c, "<missing>");
	free(c);
	free(lnk);
	strbuf_release(&sb);
}

static void test_loop_of_links_is_an_error(void)
{
	char *a = tmp_path("loop-a"), *b = tmp_path("loop-b");
	struct strbuf sb = STRBUF_INIT;

	check_int(symlink(b, a), ==, 0);
	check_int(symlink(a, b), ==, 0);
	test_capture_start();
	check_int(strbuf_write_output(&sb, a), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "symbolic links"));
	check(is_link(a) && is_link(b));
	free(a);
	free(b);
}

static void test_dev_null_stays_a_device(void)
{
	struct stat st;

	put("/dev/null", "discarded");
	check_int(stat("/dev/null", &st), ==, 0);
	check(S_ISCHR(st.st_mode));
}

static void test_link_to_dev_null(void)
{
	char *lnk = tmp_path("null-link");
	struct stat st;

	check_int(symlink("/dev/null", lnk), ==, 0);
	put(lnk, "discarded");
	check(is_link(lnk));
	check_int(stat("/dev/null", &st), ==, 0);
	check(S_ISCHR(st.st_mode));
	free(lnk);
}

static void test_fifo_is_written_in_place(void)
{
	char *fifo = tmp_path("fifo"), *out = tmp_path("fifo.out"), *c;
	struct stat st;
	pid_t pid;
	int status;

	check_int(mkfifo(fifo, 0644), ==, 0);
	pid = fork();
	if (!pid) {
		/* The reader: copy the FIFO into a file. */
		struct strbuf sb = STRBUF_INIT;
		int fd = open(fifo, O_RDONLY), o;

		strbuf_read_fd(&sb, fd, 0);
		o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		_exit(xwrite_all(o, sb.buf, sb.len) < 0);
	}
	put(fifo, "through the fifo\n");
	check_int(waitpid(pid, &status, 0), ==, pid);
	check(WIFEXITED(status) && !WEXITSTATUS(status));
	check_int(lstat(fifo, &st), ==, 0);
	check(S_ISFIFO(st.st_mode));
	c = contents(out);
	check_str(c, "through the fifo\n");
	free(c);
	free(fifo);
	free(out);
}

/* /proc/self/fd/N, /dev/fd/N and a link to one of them: our descriptor N. */
static void test_own_descriptor_is_written_not_replaced(void)
{
	const char *forms[] = { "/proc/self/fd/", "/dev/fd/", "link" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		char *file = tmp_path("fd-target.txt"), *lnk = tmp_path("fd-link");
		char *path, *c;
		struct stat before, after;
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		check(fd > 2);
		if (!strcmp(forms[i], "link")) {
			char *proc = xstrfmt("/proc/self/fd/%d", fd);

			unlink(lnk);
			check_int(symlink(proc, lnk), ==, 0);
			path = xstrdup(lnk);
			free(proc);
		} else {
			path = xstrfmt("%s%d", forms[i], fd);
		}
		check_int(fstat(fd, &before), ==, 0);
		put(path, "via the descriptor\n");
		check_int(stat(file, &after), ==, 0);
		/* Written into the open file, not a new one renamed over it. */
		check_int(before.st_ino, ==, after.st_ino);
		c = contents(file);
		check_str(c, "via the descriptor\n");
		close(fd);
		free(c);
		free(path);
		free(file);
		free(lnk);
	}
}

static void test_own_pipe_descriptor(void)
{
	int p[2];
	char buf[64] = "";
	char *path;
	ssize_t n;

	check_int(pipe(p), ==, 0);
	path = xstrfmt("/proc/self/fd/%d", p[1]);
	put(path, "piped");
	close(p[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	check_int(n, ==, 5);
	check_str(buf, "piped");
	close(p[0]);
	free(path);
}

/*
 * "-" and /proc/self/fd/1 in a child whose standard output is a file, so
 * the machine's own /dev/stdout is never touched.
 */
static void test_dash_and_stdout_in_a_child(void)
{
	const char *paths[] = { "-", "/proc/self/fd/1" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		char *file = tmp_path("child-stdout.txt"), *c;
		pid_t pid;
		int status;

		pid = fork();
		if (!pid) {
			struct strbuf sb = STRBUF_INIT;
			int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(2);
			printf("before ");
			strbuf_addstr(&sb, "report\n");
			_exit(strbuf_write_output(&sb, paths[i]) ? 1 : 0);
		}
		check_int(waitpid(pid, &status, 0), ==, pid);
		check(WIFEXITED(status) && !WEXITSTATUS(status));
		c = contents(file);
		check_str(c, "before report\n");
		free(c);
		free(file);
	}
}

/* write_file(): a file kconfperf names itself is never written through a link. */
static void test_own_file_replaces_a_link(void)
{
	char *victim = tmp_path("victim.json"), *lnk = tmp_path("report.json"), *c;
	struct stat st;

	write_output(victim, "the victim's\n", 13);
	check_int(symlink(victim, lnk), ==, 0);
	check_int(write_file(lnk, "{}\n", 3), ==, 0);
	c = contents(victim);
	check_str(c, "the victim's\n");
	free(c);
	check_int(lstat(lnk, &st), ==, 0);
	check(S_ISREG(st.st_mode));
	c = contents(lnk);
	check_str(c, "{}\n");
	free(c);
	free(victim);
	free(lnk);
}

static void test_own_file_dangling_link_creates_nothing_outside(void)
{
	char *outside = tmp_path("nowhere.txt"), *lnk = tmp_path("config"), *c;
	struct stat st;

	check_int(symlink(outside, lnk), ==, 0);
	check_int(write_file(lnk, "CONFIG_A=y\n", 11), ==, 0);
	check_int(lstat(outside, &st), ==, -1);
	c = contents(lnk);
	check_str(c, "CONFIG_A=y\n");
	free(c);
	free(outside);
	free(lnk);
}

/* A link planted where the temporary file goes is not followed either. */
static void test_own_file_planted_temp_link(void)
{
	char *victim = tmp_path("victim2"), *path = tmp_path("meta"), *c;
	char *tmp = xstrfmt("%s.tmp.%ld", path, (long)getpid());

	write_output(victim, "keep\n", 5);
	check_int(symlink(victim, tmp), ==, 0);
	check_int(write_file(path, "key=1\n", 6), ==, 0);
	c = contents(victim);
	check_str(c, "keep\n");
	free(c);
	c = contents(path);
	check_str(c, "key=1\n");
	free(c);
	free(victim);
	free(path);
	free(tmp);
}

static void test_own_file_keeps_mode_and_refuses_directory(void)
{
	char *p = tmp_path("own-mode"), *d = tmp_path("own-dir");
	struct stat st;

	check_int(write_file(p, "a\n", 2), ==, 0);
	check_int(chmod(p, 0600), ==, 0);
	check_int(write_file(p, "b\n", 2), ==, 0);
	check_int(stat(p, &st), ==, 0);
	check_int(st.st_mode & 07777, ==, 0600);
	check_int(mkdir(d, 0755), ==, 0);
	test_capture_start();
	check_int(write_file(d, "x", 1), ==, -1);
	/* and never a device: /dev/null stays one */
	check_int(write_file("/dev/null", "x", 1), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "it is a directory") != NULL);
	check(strstr(test_messages.buf, "'/dev/null': it is a device") != NULL);
	check_int(lstat("/dev/null", &st), ==, 0);
	check(S_ISCHR(st.st_mode));
	free(p);
	free(d);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_regular_file_is_replaced);
	TEST(test_link_to_regular_file_writes_the_target);
	TEST(test_relative_chain_of_links);
	TEST(test_dangling_link_creates_its_target);
	TEST(test_link_into_missing_directory_is_an_error);
	TEST(test_loop_of_links_is_an_error);
	TEST(test_dev_null_stays_a_device);
	TEST(test_link_to_dev_null);
	TEST(test_fifo_is_written_in_place);
	TEST(test_own_descriptor_is_written_not_replaced);
	TEST(test_own_pipe_descriptor);
	TEST(test_dash_and_stdout_in_a_child);
	TEST(test_own_file_replaces_a_link);
	TEST(test_own_file_dangling_link_creates_nothing_outside);
	TEST(test_own_file_planted_temp_link);
	TEST(test_own_file_keeps_mode_and_refuses_directory);
	return test_done();
}
