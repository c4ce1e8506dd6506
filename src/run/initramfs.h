/* initramfs.h: a deterministic newc cpio writer, gzip'd, for the guest's initramfs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INITRAMFS_H
#define INITRAMFS_H

#include <stddef.h>

struct arch;
struct strbuf;

/*
 * An archive being built, held in memory (at most INITRAMFS_MAX_SIZE bytes
 * of cpio).  Entries are written in the order they are added, so the same
 * calls always give the same bytes: every mtime, uid and gid is 0, inode
 * numbers count up from 1 in order, and the gzip header has mtime 0 and
 * OS byte 3 (Unix).
 *
 * Paths are archive paths: "init", "/dev/console" and "dev/console" are the
 * same; a leading "/" is dropped.  Empty paths and "." or ".." components
 * are refused, and so is adding a path twice.  A parent directory that has
 * not been added yet is added first, with mode 0755, so the kernel's
 * unpacker (which creates nothing implicitly) always finds it.
 *
 * `mode` is the permission bits (07777); the file type comes from the
 * function.  Every add returns 0, or -1 with an error printed (the archive
 * is then unchanged).
 */
struct initramfs;

#define INITRAMFS_MAX_SIZE ((size_t)1 << 30)

/* The caller frees the result with initramfs_free(). */
struct initramfs *initramfs_new(void);
void initramfs_free(struct initramfs *ir);

int initramfs_add_dir(struct initramfs *ir, const char *path, unsigned int mode);
/* The data is copied. */
int initramfs_add_file(struct initramfs *ir, const char *path, unsigned int mode,
		       const void *data, size_t len);
/* Reads the regular file host_path (following symlinks) into the archive. */
int initramfs_add_file_from(struct initramfs *ir, const char *path, unsigned int mode,
			    const char *host_path);
int initramfs_add_symlink(struct initramfs *ir, const char *path, const char *target);
int initramfs_add_chardev(struct initramfs *ir, const char *path, unsigned int mode,
			  unsigned int major, unsigned int minor);

/*
 * What every kcp-guest initramfs holds: the mount points dev, proc, sys and
 * tmp, and dev/console (char 5,1) -- the kernel opens /dev/console for
 * init's stdio before anything can mount devtmpfs, and without it init runs
 * with no stdin, stdout or stderr.
 */
int initramfs_add_base(struct initramfs *ir);

/*
 * The guest program that is /init, of arch (plan/arch.h; NULL: the host's,
 * unchecked): guest when not NULL, else $KCP_GUEST for the host's arch or
 * $KCP_GUEST_<ARCH> for another (KCP_GUEST_ARM64), else kcp-guest or
 * kcp-guest-<arch> beside this executable (where make puts them).  Appends
 * its path to out; 0, or -1 with an error when it cannot be read or, with
 * arch, is a program of another arch.  run and `kconfperf initramfs` both
 * take it so, so that no archive lacks /init (the kernel would panic
 * "unable to mount root fs").
 */
int initramfs_find_guest(struct strbuf *out, const char *guest, const struct arch *arch);

/*
 * Appends the uncompressed archive, with its TRAILER!!! entry, to out.
 * The archive itself is unchanged and can still grow.
 */
void initramfs_cpio(const struct initramfs *ir, struct strbuf *out);

/*
 * Appends the gzip (RFC 1952) compression of len bytes at data to out,
 * deterministically.  Returns 0 or -1 with an error printed.
 */
int initramfs_gzip(struct strbuf *out, const void *data, size_t len);

/*
 * Writes the gzip'd archive (trailer included) to path atomically: a
 * temporary file in the same directory is renamed over path, so a reader
 * never sees half an archive; a link at path is replaced, not followed
 * (write_file()).  Returns 0 or -1 with an error printed.
 */
int initramfs_write(const struct initramfs *ir, const char *path);

#endif
