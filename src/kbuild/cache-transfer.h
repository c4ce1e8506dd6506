/* cache-transfer.h: carry a build cache entry to another host's cache, verified on arrival. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CACHE_TRANSFER_H
#define CACHE_TRANSFER_H

#include "util/sha256.h"

/*
 * A finished build (kbuild.h: CACHE/builds/<key>/, its image, config,
 * build.log, meta and System.map where kept) travels as a gzip'd tar of
 * <key>/ and those files plus <key>/MANIFEST, the SHA-256 of each:
 *
 *	kconfperf cache entry 1
 *	sha256=<hex> bzImage
 *	...
 *
 * so a worker that built a kernel hands it on and no other host builds it
 * again.  Import trusts nothing in the file: the archive may hold only
 * <key>/ and those names, as regular files; every file must match its
 * checksum; and the key is computed again from the entry's config and its
 * meta's source identity, compiler and make variables (kbuild_key_of()),
 * which must give the key it is filed under.  A verified entry is renamed
 * into the cache at once, as a build's is, so a half-imported entry is
 * never taken for a finished one; a cache shared over NFS keeps working
 * (an entry already there is kept).
 */

/*
 * Writes the entry of key (or of the one key that starts with it, 12 hex
 * digits as the build table shows) in cache_dir to file, made beside it
 * and renamed.  Fills full_key.  0, or -1 with a message.
 */
int cache_export(const char *cache_dir, const char *key, const char *file,
		 char full_key[SHA256_HEX_SIZE]);

/*
 * Imports file into cache_dir after the checks above; fills key and sets
 * *already when the cache had that entry (then nothing changed).  0, or -1
 * with a message naming the file and what did not hold.
 */
int cache_import(const char *cache_dir, const char *file, char key[SHA256_HEX_SIZE],
		 int *already);

#endif
