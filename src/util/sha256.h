/* sha256.h: SHA-256 (FIPS 180-4), for content identities and cache keys. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SHA256_H
#define SHA256_H

#include <stddef.h>
#include <stdint.h>

/*
 * Identities (source trees, effective configs, build cache keys) must be
 * stable across runs and machines; a 60-line hash saves a libcrypto
 * dependency for the one primitive we need.
 */
struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	unsigned char block[64];
	size_t fill;
};

#define SHA256_HEX_SIZE 65	/* 64 hex digits and a NUL */

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/* Finishes the hash into out[32]; c must be re-initialised to be reused. */
void sha256_final(struct sha256 *c, unsigned char out[32]);
/* Finishes the hash as 64 lowercase hex digits into hex[SHA256_HEX_SIZE]. */
void sha256_final_hex(struct sha256 *c, char hex[SHA256_HEX_SIZE]);
/* Hashes a whole file; returns 0 or -1 with an error printed. */
int sha256_file(const char *path, char hex[SHA256_HEX_SIZE]);

#endif
