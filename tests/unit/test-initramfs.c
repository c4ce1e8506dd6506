/* test-initramfs.c: unit tests for the newc cpio writer and its gzip. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "run/initramfs.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

static unsigned long hexfield(const char *hdr, int i)
{
	char buf[9];

	memcpy(buf, hdr + 6 + 8 * i, 8);
	buf[8] = '\0';
	return strtoul(buf, NULL, 16);
}

/*
 * Walks a newc archive the way the kernel does, checking magic and 4-byte
 * alignment; appends "name mode size rmajor,rminor ino\n" per entry to out.
 * Returns 0 when it ends in TRAILER!!! exactly at the end of the buffer.
 */
static int walk(const struct strbuf *a, struct strbuf *out)
{
	size_t off = 0;

	while (off + 110 <= a->len) {
		const char *h = a->buf + off;
		unsigned long namesize = hexfield(h, 11), size = hexfield(h, 6);
		const char *name = h + 110;

		if (off % 4 || memcmp(h, "070701", 6))
			return -1;
		off += 110 + namesize;
		off = (off + 3) & ~(size_t)3;
		if (off > a->len || name[namesize - 1])
			return -1;
		if (!strcmp(name, "TRAILER!!!"))
			return off == a->len ? 0 : -1;
		strbuf_addf(out, "%s %lo %lu %lu,%lu %lu\n", name, hexfield(h, 1), size,
			    hexfield(h, 9), hexfield(h, 10), hexfield(h, 0));
		off += size;
		off = (off + 3) & ~(size_t)3;
	}
	return -1;
}

static void test_tiny_archive_is_byte_exact(void)
{
	struct initramfs *ir = initramfs_new();
	struct strbuf a = STRBUF_INIT;
	static const char expect[] =
		"070701" "00000001" "000081A4" "00000000" "00000000" "00000001"
		"00000000" "00000003" "00000000" "00000000" "00000000" "00000000"
		"00000002" "00000000" "a\0" "xyz\0"
		"070701" "00000000" "00000000" "00000000" "00000000" "00000001"
		"00000000" "00000000" "00000000" "00000000" "00000000" "00000000"
		"0000000B" "00000000" "TRAILER!!!\0" "\0\0\0";

	check_int(initramfs_add_file(ir, "/a", 0644, "xyz", 3), ==, 0);
	initramfs_cpio(ir, &a);
	check_int(a.len, ==, sizeof(expect) - 1);
	check_int(a.len % 4, ==, 0);
	check(a.len == sizeof(expect) - 1 && !memcmp(a.buf, expect, a.len));
	strbuf_release(&a);
	initramfs_free(ir);
}

static void test_device_symlink_and_dir_headers(void)
{
	struct initramfs *ir = initramfs_new();
	struct strbuf a = STRBUF_INIT, list = STRBUF_INIT;

	check_int(initramfs_add_chardev(ir, "dev/console", 0600, 5, 1), ==, 0);
	check_int(initramfs_add_symlink(ir, "bin/sh", "/init"), ==, 0);
	check_int(initramfs_add_dir(ir, "tmp", 01777), ==, 0);
	initramfs_cpio(ir, &a);
	check_int(walk(&a, &list), ==, 0);
	/* Parents come first with 0755; inodes count up in order. */
	check_str(list.buf,
		  "dev 40755 0 0,0 1\n"
		  "dev/console 20600 0 5,1 2\n"
		  "bin 40755 0 0,0 3\n"
		  "bin/sh 120777 5 0,0 4\n"
		  "tmp 41777 0 0,0 5\n");
	/* The symlink's data is its target, without a NUL. */
	check(memmem(a.buf, a.len, "bin/sh\0\0\0\0/init\0\0\0", 18) != NULL);
	/* Directories have two links, everything else one; mtime, uid, gid 0. */
	check(!memcmp(a.buf + 6 + 8 * 2, "0000000000000000" "00000002" "00000000", 32));
	strbuf_release(&a);
	strbuf_release(&list);
	initramfs_free(ir);
}

static void test_padding_for_every_name_and_size(void)
{
	struct initramfs *ir = initramfs_new();
	struct strbuf a = STRBUF_INIT, list = STRBUF_INIT, expect = STRBUF_INIT;
	char name[16], data[16];
	int n, s, ino = 1;

	memset(data, 'd', sizeof(data));
	for (n = 1; n <= 8; n++) {
		for (s = 0; s <= 8; s++) {
			memset(name, 'a' + s, (size_t)n);
			name[n] = '\0';
			check_int(initramfs_add_file(ir, name, 0644, data, (size_t)s), ==, 0);
			strbuf_addf(&expect, "%s 100644 %d 0,0 %d\n", name, s, ino++);
		}
	}
	initramfs_cpio(ir, &a);
	check_int(a.len % 4, ==, 0);
	check_int(walk(&a, &list), ==, 0);
	check_str(list.buf, expect.buf);
	strbuf_release(&a);
	strbuf_release(&list);
	strbuf_release(&expect);
	initramfs_free(ir);
}

static void test_bad_paths_and_duplicates_are_refused(void)
{
	struct initramfs *ir = initramfs_new();
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;

	test_capture_start();
	check_int(initramfs_add_file(ir, "init", 0755, "x", 1), ==, 0);
	initramfs_cpio(ir, &before);
	check_int(initramfs_add_file(ir, "/init", 0755, "y", 1), ==, -1);
	check_int(initramfs_add_dir(ir, "", 0755), ==, -1);
	check_int(initramfs_add_dir(ir, "/", 0755), ==, -1);
	check_int(initramfs_add_dir(ir, "a/../b", 0755), ==, -1);
	check_int(initramfs_add_dir(ir, "a//b", 0755), ==, -1);
	check_int(initramfs_add_dir(ir, "a/", 0755), ==, -1);
	check_int(initramfs_add_dir(ir, "./a", 0755), ==, -1);
	check_int(initramfs_add_file(ir, "f", 0100644, "", 0), ==, -1);
	check_int(initramfs_add_symlink(ir, "l", ""), ==, -1);
	check_int(initramfs_add_file_from(ir, "g", 0644, "/nonexistent/kcp"), ==, -1);
	check_int(initramfs_add_file_from(ir, "g", 0644, "/"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "error: initramfs: 'init' added twice\n") != NULL);
	check(strstr(test_messages.buf, "error: initramfs: bad path 'a/../b'\n") != NULL);
	check(strstr(test_messages.buf, "error: cannot open '/nonexistent/kcp': ") != NULL);
	check(strstr(test_messages.buf, "error: '/' is not a regular file\n") != NULL);
	/* Failed adds leave the archive as it was. */
	initramfs_cpio(ir, &after);
	check(before.len == after.len && !memcmp(before.buf, after.buf, before.len));
	strbuf_release(&before);
	strbuf_release(&after);
	initramfs_free(ir);
}

static void test_add_file_from_host(void)
{
	char *path = xstrfmt("%s/host-file", test_tmpdir());
	struct strbuf content = STRBUF_INIT, a = STRBUF_INIT, list = STRBUF_INIT;
	struct initramfs *ir = initramfs_new();
	int i;

	for (i = 0; i < 1000; i++)
		strbuf_addf(&content, "line %d\n", i);
	strbuf_addch(&content, '\0');
	check_int(strbuf_write_file(&content, path), ==, 0);
	check_int(initramfs_add_file_from(ir, "usr/lib/x", 0600, path), ==, 0);
	initramfs_cpio(ir, &a);
	check_int(walk(&a, &list), ==, 0);
	check(strstr(list.buf, "usr/lib/x 100600 ") != NULL);
	check(memmem(a.buf, a.len, content.buf, content.len) != NULL);
	free(path);
	strbuf_release(&content);
	strbuf_release(&a);
	strbuf_release(&list);
	initramfs_free(ir);
}

static struct initramfs *sample_archive(void)
{
	struct initramfs *ir = initramfs_new();
	char big[70000];
	size_t i;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 + i / 13);
	check_int(initramfs_add_base(ir), ==, 0);
	check_int(initramfs_add_file(ir, "init", 0755, big, sizeof(big)), ==, 0);
	check_int(initramfs_add_symlink(ir, "sbin/init", "/init"), ==, 0);
	return ir;
}

static int inflate_gzip(const struct strbuf *gz, struct strbuf *out)
{
	z_stream z;
	unsigned char buf[4096];
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + 15) != Z_OK)
		return -1;
	z.next_in = (Bytef *)gz->buf;
	z.avail_in = (uInt)gz->len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		ret = inflate(&z, Z_NO_FLUSH);
		strbuf_add(out, buf, sizeof(buf) - z.avail_out);
	} while (ret == Z_OK);
	inflateEnd(&z);
	return ret == Z_STREAM_END && z.avail_in == 0 ? 0 : -1;
}

static void test_gzip_round_trip_and_header(void)
{
	struct initramfs *ir = sample_archive();
	struct strbuf cpio = STRBUF_INIT, gz = STRBUF_INIT, back = STRBUF_INIT;
	char *path = xstrfmt("%s/rt.gz", test_tmpdir());

	initramfs_cpio(ir, &cpio);
	check_int(initramfs_write(ir, path), ==, 0);
	check_int(strbuf_read_file(&gz, path, 0), >, 18);
	/* Magic, deflate, no flags, mtime 0, then (after XFL) OS 3. */
	check(!memcmp(gz.buf, "\x1f\x8b\x08\x00\x00\x00\x00\x00", 8));
	check_int((unsigned char)gz.buf[9], ==, 3);
	check_int(inflate_gzip(&gz, &back), ==, 0);
	check(back.len == cpio.len && !memcmp(back.buf, cpio.buf, cpio.len));
	check(gz.len < cpio.len);
	free(path);
	strbuf_release(&cpio);
	strbuf_release(&gz);
	strbuf_release(&back);
	initramfs_free(ir);
}

static void test_two_builds_are_identical(void)
{
	struct initramfs *a = sample_archive(), *b = sample_archive();
	char *pa = xstrfmt("%s/a.gz", test_tmpdir());
	char *pb = xstrfmt("%s/b.gz", test_tmpdir());
	struct strbuf ba = STRBUF_INIT, bb = STRBUF_INIT;

	check_int(initramfs_write(a, pa), ==, 0);
	check_int(initramfs_write(b, pb), ==, 0);
	check_int(strbuf_read_file(&ba, pa, 0), >, 0);
	check_int(strbuf_read_file(&bb, pb, 0), >, 0);
	check(ba.len == bb.len && !memcmp(ba.buf, bb.buf, ba.len));
	/* Writing again over the same path gives the same bytes, and no temp files. */
	check_int(initramfs_write(a, pa), ==, 0);
	strbuf_reset(&bb);
	check_int(strbuf_read_file(&bb, pa, 0), >, 0);
	check(ba.len == bb.len && !memcmp(ba.buf, bb.buf, ba.len));
	free(pa);
	free(pb);
	strbuf_release(&ba);
	strbuf_release(&bb);
	initramfs_free(a);
	initramfs_free(b);
}

static void test_write_failure_leaves_nothing(void)
{
	struct initramfs *ir = sample_archive();
	char *dir = xstrfmt("%s/wf", test_tmpdir());
	char *path = xstrfmt("%s/missing/x.gz", dir);
	DIR *d;
	struct dirent *de;
	int entries = 0;

	check_int(mkdir_p(dir, 0755), ==, 0);
	test_capture_start();
	check_int(initramfs_write(ir, path), ==, -1);
	test_capture_stop();
	d = opendir(dir);
	check(d != NULL);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			entries++;
	if (d)
		closedir(d);
	check_int(entries, ==, 0);
	free(dir);
	free(path);
	initramfs_free(ir);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_tiny_archive_is_byte_exact);
	TEST(test_device_symlink_and_dir_headers);
	TEST(test_padding_for_every_name_and_size);
	TEST(test_bad_paths_and_duplicates_are_refused);
	TEST(test_add_file_from_host);
	TEST(test_gzip_round_trip_and_header);
	TEST(test_two_builds_are_identical);
	TEST(test_write_failure_leaves_nothing);
	strbuf_release(&test_messages);
	return test_done();
}
