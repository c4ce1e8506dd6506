/* test-sha256.c: SHA-256 against the FIPS 180-4 test vectors. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha256.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

static void hex_of(const char *data, size_t len, char hex[SHA256_HEX_SIZE])
{
	struct sha256 c;

	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final_hex(&c, hex);
}

static void test_vectors(void)
{
	char hex[SHA256_HEX_SIZE];

	hex_of("", 0, hex);
	check_str(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, hex);
	check_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	check_str(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_million_a_in_odd_pieces(void)
{
	char hex[SHA256_HEX_SIZE];
	char chunk[997];
	struct sha256 c;
	size_t left = 1000000;

	memset(chunk, 'a', sizeof(chunk));
	sha256_init(&c);
	while (left) {
		size_t n = left < sizeof(chunk) ? left : sizeof(chunk);

		sha256_update(&c, chunk, n);
		left -= n;
	}
	sha256_final_hex(&c, hex);
	check_str(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_file(void)
{
	char *path = xstrfmt("%s/abc", test_tmpdir());
	struct strbuf sb = STRBUF_INIT;
	char hex[SHA256_HEX_SIZE];

	strbuf_addstr(&sb, "abc");
	check_int(strbuf_write_file(&sb, path), ==, 0);
	check_int(sha256_file(path, hex), ==, 0);
	check_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	strbuf_release(&sb);
	free(path);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_vectors);
	TEST(test_million_a_in_odd_pieces);
	TEST(test_file);
	return test_done();
}
