/* elf-sizes.c: text, data and bss of an ELF file, from its section headers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kbuild/elf-sizes.h"
#include "util/usage.h"

/* More sections than any kernel has: a header that claims more is broken. */
#define MAX_SECTIONS 65536

static int swap;	/* the file's byte order is not this machine's */

static uint16_t u16(uint16_t v)
{
	return swap ? __builtin_bswap16(v) : v;
}

static uint32_t u32(uint32_t v)
{
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t u64(uint64_t v)
{
	return swap ? __builtin_bswap64(v) : v;
}

static int read_at(int fd, void *buf, size_t len, off_t at)
{
	ssize_t n = pread(fd, buf, len, at);

	return n == (ssize_t)len ? 0 : -1;
}

int elf_sizes_read(struct elf_sizes *out, const char *path)
{
	const struct elf_sizes unknown = ELF_SIZES_UNKNOWN;
	Elf64_Ehdr eh;
	uint16_t one = 1;
	int little = *(unsigned char *)&one == 1;
	int fd, ret = -1;
	size_t i, shnum;
	off_t shoff;

	*out = unknown;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    (eh.e_ident[EI_DATA] != ELFDATA2LSB && eh.e_ident[EI_DATA] != ELFDATA2MSB)) {
		ret = 1;	/* not an ELF64 file */
		goto out;
	}
	swap = (eh.e_ident[EI_DATA] == ELFDATA2LSB) != little;
	shoff = (off_t)u64(eh.e_shoff);
	shnum = u16(eh.e_shnum);
	if (u16(eh.e_shentsize) != sizeof(Elf64_Shdr) || shnum > MAX_SECTIONS || shoff <= 0) {
		error("'%s': unexpected ELF section headers", path);
		goto out;
	}
	out->text = out->data = out->bss = 0;
	for (i = 0; i < shnum; i++) {
		Elf64_Shdr sh;
		uint64_t flags, size;

		if (read_at(fd, &sh, sizeof(sh), shoff + (off_t)(i * sizeof(sh)))) {
			*out = unknown;
			error("'%s': cannot read section header %zu", path, i);
			goto out;
		}
		flags = u64(sh.sh_flags);
		size = u64(sh.sh_size);
		if (!(flags & SHF_ALLOC))
			continue;
		if (!(flags & SHF_WRITE))
			out->text += (int64_t)size;
		else if (u32(sh.sh_type) == SHT_NOBITS)
			out->bss += (int64_t)size;
		else
			out->data += (int64_t)size;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}
