/* test-strbuf.c: unit tests for strbuf. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

static void test_init_is_empty(void)
{
	struct strbuf sb = STRBUF_INIT;

	check_int(sb.len, ==, 0);
	check_str(sb.buf, "");
	strbuf_release(&sb);
	check_str(sb.buf, "");
}

static void test_add_and_format(void)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	strbuf_addstr(&sb, "CONFIG_");
	strbuf_addf(&sb, "%s=%d", "NR_CPUS", 64);
	strbuf_addch(&sb, '\n');
	check_str(sb.buf, "CONFIG_NR_CPUS=64\n");
	for (i = 0; i < 10000; i++)
		strbuf_addf(&sb, "%05d", i);
	check_int(sb.len, ==, 18 + 50000);
	check(!memcmp(sb.buf + sb.len - 5, "09999", 5));
	check_int(sb.buf[sb.len], ==, 0);
	strbuf_release(&sb);
}

static void test_binary_data(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, "a\0b", 3);
	check_int(sb.len, ==, 3);
	check(!memcmp(sb.buf, "a\0b", 4));
	strbuf_addchars(&sb, 'x', 3);
	check(!memcmp(sb.buf, "a\0bxxx", 7));
	strbuf_release(&sb);
}

static void test_trim_and_detach(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;
	size_t len;

	strbuf_addstr(&sb, " \t hello world \n");
	strbuf_trim(&sb);
	check_str(sb.buf, "hello world");
	s = strbuf_detach(&sb, &len);
	check_str(s, "hello world");
	check_int(len, ==, 11);
	check_int(sb.len, ==, 0);
	check_str(sb.buf, "");
	free(s);
	s = strbuf_detach(&sb, NULL);
	check_str(s, "");
	free(s);
}

static void test_files(void)
{
	struct strbuf sb = STRBUF_INIT, back = STRBUF_INIT;
	char *path = xstrfmt("%s/f.txt", test_tmpdir());
	int i;

	for (i = 0; i < 100000; i++)
		strbuf_addf(&sb, "line %d\n", i);
	check_int(strbuf_write_file(&sb, path), ==, 0);
	check_int(strbuf_read_file(&back, path, 0), ==, (ssize_t)sb.len);
	check_int(back.len, ==, sb.len);
	check(!memcmp(back.buf, sb.buf, sb.len));
	strbuf_release(&sb);
	strbuf_release(&back);
	free(path);
}

static void test_read_file_max(void)
{
	struct strbuf sb = STRBUF_INIT, back = STRBUF_INIT;
	char *path = xstrfmt("%s/capped.txt", test_tmpdir());
	char *missing = xstrfmt("%s/missing.txt", test_tmpdir());

	strbuf_addchars(&sb, 'x', 4096);
	check_int(strbuf_write_file(&sb, path), ==, 0);
	check_int(strbuf_read_file_max(&back, path, 4096), ==, 4096);
	check_int(back.len, ==, 4096);

	strbuf_reset(&back);
	test_capture_start();
	check_int(strbuf_read_file_max(&back, path, 4095), ==, -1);
	check_int(strbuf_read_file_max(&back, test_tmpdir(), 1 << 20), ==, -1);
	check_int(strbuf_read_file_max(&back, missing, 1 << 20), ==, -1);
	test_capture_stop();
	check_int(back.len, ==, 0);
	check(strstr(test_messages.buf, "error: ") == test_messages.buf);
	check(strstr(test_messages.buf, "capped.txt: larger than ") != NULL);
	check(strstr(test_messages.buf, "': is a directory\n") != NULL);
	check(strstr(test_messages.buf, "error: cannot open '") != NULL &&
	      strstr(test_messages.buf, "missing.txt': No such file or directory\n") != NULL);
	strbuf_release(&sb);
	strbuf_release(&back);
	free(path);
	free(missing);
}

/* A pipe holding len bytes of 'x' and then end of file; returns its read end. */
static int pipe_of(size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	int fds[2];

	if (!check(!pipe(fds)))
		return -1;
	strbuf_addchars(&sb, 'x', len);
	check(xwrite_all(fds[1], sb.buf, sb.len) == (ssize_t)len);
	close(fds[1]);
	strbuf_release(&sb);
	return fds[0];
}

static void test_read_fd_max(void)
{
	struct strbuf sb = STRBUF_INIT;
	int fd;

	/* Exactly max is fine and appends... */
	strbuf_addstr(&sb, "keep");
	fd = pipe_of(1000);
	check_int(strbuf_read_fd_max(&sb, fd, 0, 1000), ==, 1000);
	check_int(sb.len, ==, 1004);
	close(fd);
	/* ...one byte more is EFBIG, with sb as it was. */
	strbuf_setlen(&sb, 4);
	fd = pipe_of(1001);
	errno = 0;
	check_int(strbuf_read_fd_max(&sb, fd, 0, 1000), ==, -1);
	check_int(errno, ==, EFBIG);
	check_str(sb.buf, "keep");
	close(fd);
	/* A cap of 0 takes an empty input only. */
	fd = pipe_of(0);
	check_int(strbuf_read_fd_max(&sb, fd, 0, 0), ==, 0);
	close(fd);
	fd = pipe_of(1);
	check_int(strbuf_read_fd_max(&sb, fd, 0, 0), ==, -1);
	close(fd);
	/* An endless input stops at the cap, whatever the hint. */
	fd = open("/dev/zero", O_RDONLY);
	if (check(fd >= 0)) {
		check_int(strbuf_read_fd_max(&sb, fd, 1 << 22, 1 << 20), ==, -1);
		check_int(errno, ==, EFBIG);
		check(sb.alloc < (4 << 20) + 4096);
		close(fd);
	}
	check_str(sb.buf, "keep");
	strbuf_release(&sb);
}

static void test_read_file_max_of_a_device(void)
{
	struct strbuf sb = STRBUF_INIT;

	test_capture_start();
	check_int(strbuf_read_file_max(&sb, "/dev/zero", 1 << 20), ==, -1);
	check_int(strbuf_read_file_max(&sb, "/dev/null", 1 << 20), ==, 0);
	test_capture_stop();
	check_str(test_messages.buf, "error: /dev/zero: larger than 1 MiB\n");
	check_int(sb.len, ==, 0);
	strbuf_release(&sb);
}

static void test_add_size(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_size(&sb, (size_t)16 << 20);
	strbuf_addch(&sb, ',');
	strbuf_add_size(&sb, (size_t)64 << 10);
	strbuf_addch(&sb, ',');
	strbuf_add_size(&sb, (size_t)2 << 30);
	strbuf_addch(&sb, ',');
	strbuf_add_size(&sb, 1536);
	strbuf_addch(&sb, ',');
	strbuf_add_size(&sb, 0);
	check_str(sb.buf, "16 MiB,64 KiB,2 GiB,1536 bytes,0 bytes");
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_init_is_empty);
	TEST(test_add_and_format);
	TEST(test_binary_data);
	TEST(test_trim_and_detach);
	TEST(test_files);
	TEST(test_read_file_max);
	TEST(test_read_fd_max);
	TEST(test_read_file_max_of_a_device);
	TEST(test_add_size);
	return test_done();
}
