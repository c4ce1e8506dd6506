/* test-strbuf.c: unit tests for strbuf. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
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
	check(strstr(test_messages.buf, "error: cannot read '") != NULL &&
	      strstr(test_messages.buf, "missing.txt': No such file or directory\n") != NULL);
	strbuf_release(&sb);
	strbuf_release(&back);
	free(path);
	free(missing);
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
	return test_done();
}
