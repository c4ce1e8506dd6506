/* initramfs.c: a deterministic newc cpio writer, gzip'd, for the guest's initramfs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "plan/arch.h"
#include "run/initramfs.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

struct initramfs {
	struct strbuf cpio;	/* the entries so far, without the trailer */
	struct strvec paths;	/* every path added, to refuse duplicates */
	unsigned int next_ino;
};

struct initramfs *initramfs_new(void)
{
	struct initramfs *ir = xcalloc(1, sizeof(*ir));

	strbuf_init(&ir->cpio, 0);
	strvec_init(&ir->paths);
	ir->next_ino = 1;
	return ir;
}

void initramfs_free(struct initramfs *ir)
{
	if (!ir)
		return;
	strbuf_release(&ir->cpio);
	strvec_clear(&ir->paths);
	free(ir);
}

/* Zero bytes up to the next multiple of 4, counted from the archive start. */
static void pad4(struct strbuf *sb)
{
	strbuf_addchars(sb, 0, (4 - sb->len % 4) % 4);
}

/*
 * One newc header ("070701" and thirteen 8-digit hex fields), the name with
 * its NUL, padding, the data and padding again.  The kernel's unpacker
 * relies on that 4-byte alignment of both header and data.
 */
static void put_entry(struct strbuf *sb, unsigned int ino, unsigned int mode,
		      unsigned int nlink, const char *name, const void *data,
		      size_t len, unsigned int rmajor, unsigned int rminor)
{
	strbuf_addf(sb, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		    ino, mode, 0u, 0u, nlink, 0u, (unsigned int)len,
		    0u, 0u, rmajor, rminor, (unsigned int)strlen(name) + 1, 0u);
	strbuf_add(sb, name, strlen(name) + 1);
	pad4(sb);
	strbuf_add(sb, data, len);
	pad4(sb);
}

/* Drops leading slashes and checks the rest; returns NULL after an error. */
static const char *clean_path(const char *path)
{
	const char *p;

	while (*path == '/')
		path++;
	if (!*path) {
		error("initramfs: empty path");
		return NULL;
	}
	for (p = path; *p; ) {
		size_t n = strcspn(p, "/");

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			error("initramfs: bad path '%s'", path);
			return NULL;
		}
		p += n;
		if (*p == '/')
			p++;
		if (!*p && p[-1] == '/') {
			error("initramfs: bad path '%s'", path);
			return NULL;
		}
	}
	return path;
}

static int add_entry(struct initramfs *ir, const char *path, unsigned int type,
		     unsigned int mode, const void *data, size_t len,
		     unsigned int rmajor, unsigned int rminor)
{
	const char *name = clean_path(path);
	const char *slash;
	size_t need;

	if (!name)
		return -1;
	if (mode & ~07777u)
		return error("initramfs: '%s': mode %o has more than permission bits", name, mode);
	if (strvec_find(&ir->paths, name) >= 0)
		return error("initramfs: '%s' added twice", name);
	need = 110 + strlen(name) + 4 + len + 4;
	if (len > UINT32_MAX || ir->cpio.len + need > INITRAMFS_MAX_SIZE)
		return error("initramfs: '%s' does not fit: the archive would exceed %zu bytes",
			     name, INITRAMFS_MAX_SIZE);

	/* Parents first, outermost first, so the unpacker can create the entry. */
	for (slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
		char *parent = xstrndup(name, (size_t)(slash - name));

		if (strvec_find(&ir->paths, parent) < 0) {
			put_entry(&ir->cpio, ir->next_ino++, S_IFDIR | 0755, 2,
				  parent, NULL, 0, 0, 0);
			strvec_push(&ir->paths, parent);
		}
		free(parent);
	}
	put_entry(&ir->cpio, ir->next_ino++, type | mode, type == S_IFDIR ? 2 : 1,
		  name, data, len, rmajor, rminor);
	strvec_push(&ir->paths, name);
	return 0;
}

int initramfs_add_dir(struct initramfs *ir, const char *path, unsigned int mode)
{
	return add_entry(ir, path, S_IFDIR, mode, NULL, 0, 0, 0);
}

int initramfs_add_file(struct initramfs *ir, const char *path, unsigned int mode,
		       const void *data, size_t len)
{
	return add_entry(ir, path, S_IFREG, mode, data, len, 0, 0);
}

int initramfs_add_file_from(struct initramfs *ir, const char *path, unsigned int mode,
			    const char *host_path)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret = -1;
	int fd;

	fd = open(host_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot open '%s'", host_path);
		goto out;
	}
	if (fstat(fd, &st)) {
		error_errno("cannot stat '%s'", host_path);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		error("'%s' is not a regular file", host_path);
		goto out;
	}
	if ((uint64_t)st.st_size > INITRAMFS_MAX_SIZE) {
		error("'%s' is too big for an initramfs (%lld bytes)",
		      host_path, (long long)st.st_size);
		goto out;
	}
	if (strbuf_read_fd(&sb, fd, (size_t)st.st_size) < 0) {
		error_errno("cannot read '%s'", host_path);
		goto out;
	}
	ret = initramfs_add_file(ir, path, mode, sb.buf, sb.len);
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&sb);
	return ret;
}

int initramfs_add_symlink(struct initramfs *ir, const char *path, const char *target)
{
	if (!*target)
		return error("initramfs: symlink '%s' has an empty target", path);
	/* The target is the data, without a NUL. */
	return add_entry(ir, path, S_IFLNK, 0777, target, strlen(target), 0, 0);
}

int initramfs_add_chardev(struct initramfs *ir, const char *path, unsigned int mode,
			  unsigned int major, unsigned int minor)
{
	return add_entry(ir, path, S_IFCHR, mode, NULL, 0, major, minor);
}

int initramfs_find_guest(struct strbuf *out, const char *guest, const struct arch *arch)
{
	const struct arch *host = arch_host();
	char *name = arch_guest_name(arch ? arch : host), *var = xstrdup(name), *p;
	const char *env;
	char *self = NULL, *slash;
	int ret = -1;

	/* kcp-guest-arm64 -> KCP_GUEST_ARM64 */
	for (p = var; *p; p++)
		*p = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
	env = getenv(var);
	if (guest || (env && *env)) {
		strbuf_addstr(out, guest ? guest : env);
		if (access(out->buf, R_OK)) {
			error_errno("cannot read the guest program '%s'", out->buf);
			goto out;
		}
	} else {
		self = realpath("/proc/self/exe", NULL);
		if (!self) {
			error_errno("cannot find this executable (/proc/self/exe)");
			goto out;
		}
		slash = strrchr(self, '/');
		strbuf_add(out, self, (size_t)(slash - self));
		strbuf_addf(out, "/%s", name);
		if (access(out->buf, R_OK)) {
			if (!arch || arch == host)
				error("no guest program '%s' beside kconfperf (build it with make, "
				      "or set %s)", out->buf, var);
			else
				error("no %s guest program '%s' beside kconfperf (make builds it "
				      "when %sgcc and a static libc for it are installed: "
				      "scripts/deps; or set %s)", arch->name, out->buf,
				      arch->cross_compile, var);
			goto out;
		}
	}
	ret = arch ? arch_check_elf(arch, out->buf, "the guest program") : 0;
out:
	free(self);
	free(name);
	free(var);
	return ret;
}

int initramfs_add_base(struct initramfs *ir)
{
	if (initramfs_add_dir(ir, "dev", 0755) ||
	    initramfs_add_chardev(ir, "dev/console", 0600, 5, 1) ||
	    initramfs_add_dir(ir, "proc", 0555) ||
	    initramfs_add_dir(ir, "sys", 0555) ||
	    initramfs_add_dir(ir, "tmp", 01777))
		return -1;
	return 0;
}

void initramfs_cpio(const struct initramfs *ir, struct strbuf *out)
{
	size_t start = out->len;

	strbuf_addbuf(out, &ir->cpio);
	/* The trailer: inode 0, one link, no data. */
	strbuf_addf(out, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		    0u, 0u, 0u, 0u, 1u, 0u, 0u, 0u, 0u, 0u, 0u, 11u, 0u);
	strbuf_add(out, "TRAILER!!!", 11);
	/* Pad relative to the archive start, as the kernel reads it. */
	strbuf_addchars(out, 0, (4 - (out->len - start) % 4) % 4);
}

int initramfs_gzip(struct strbuf *out, const void *data, size_t len)
{
	z_stream z;
	gz_header gz;
	size_t start = out->len;
	int zret;

	if (len > UINT32_MAX)
		return error("initramfs: %zu bytes are too many to compress at once", len);
	memset(&z, 0, sizeof(z));
	/* windowBits 16 + 15: a gzip wrapper rather than zlib's own. */
	zret = deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + 15, 8,
			    Z_DEFAULT_STRATEGY);
	if (zret != Z_OK)
		return error("zlib: deflateInit2 failed (%d)", zret);
	memset(&gz, 0, sizeof(gz));
	gz.time = 0;
	gz.os = 3;
	zret = deflateSetHeader(&z, &gz);
	if (zret != Z_OK) {
		deflateEnd(&z);
		return error("zlib: deflateSetHeader failed (%d)", zret);
	}

	strbuf_grow(out, deflateBound(&z, (uLong)len));
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out->buf + out->len;
	z.avail_out = (uInt)(out->alloc - out->len - 1);
	zret = deflate(&z, Z_FINISH);
	if (zret != Z_STREAM_END) {
		deflateEnd(&z);
		strbuf_setlen(out, start);
		return error("zlib: deflate failed (%d)", zret);
	}
	strbuf_setlen(out, out->len + z.total_out);
	deflateEnd(&z);
	return 0;
}

int initramfs_write(const struct initramfs *ir, const char *path)
{
	struct strbuf cpio = STRBUF_INIT, gz = STRBUF_INIT;
	int ret;

	initramfs_cpio(ir, &cpio);
	ret = initramfs_gzip(&gz, cpio.buf, cpio.len);
	if (!ret)
		ret = strbuf_write_file(&gz, path);
	strbuf_release(&cpio);
	strbuf_release(&gz);
	return ret;
}
